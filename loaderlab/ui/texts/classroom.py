"""Words of the classroom: the waiting line for runs (``line.*``), the room in the sidebar and on the Lessons
page (``room.*``) and the teacher's Room page (``room.page.*``, ``room.teacher.*``)."""

from ...texts import plural

TEXTS = {
    "line.next": {
        "en": "**Next in line**: your run starts in about {seconds} s.",
        "ko": "**다음 차례**입니다. 약 {seconds}초 뒤에 실행이 시작됩니다.",
    },
    "line.place": {
        "en": "**Number {place} in line**: your run starts in about {seconds} s.",
        "ko": "**대기 {place}번째**입니다. 약 {seconds}초 뒤에 실행이 시작됩니다.",
    },
    "line.why": {
        "en": "Runs take turns, {slots} at a time on this server, so that they do not slow each other down; "
            "people with the same settings share one run.",
        "ko": "실행이 서로를 느리게 만들지 않도록 이 서버에서는 한 번에 {slots}개씩 차례로 실행합니다. "
            "설정이 같은 사람들은 실행 하나를 함께 봅니다.",
    },
    "room.sidebar": {
        "en": "Workshop room",
        "ko": "워크숍 방",
    },
    "room.code_input": {
        "en": "Room code",
        "ko": "방 코드",
    },
    "room.code_help": {
        "en": "The code your teacher gives you. Your lesson answers then go to the room: no name needed.",
        "ko": "강사가 알려 준 코드입니다. 입력하면 레슨 답이 방으로 전달됩니다. 이름은 필요 없습니다.",
    },
    "room.joined": {
        "en": "You are in room **{code}**: your lesson answers go to the teacher.",
        "ko": "**{code}** 방에 들어와 있습니다. 레슨 답이 강사에게 전달됩니다.",
    },
    "room.nickname": {
        "en": "Nickname (optional)",
        "ko": "닉네임 (선택)",
    },
    "room.leave": {
        "en": "Leave the room",
        "ko": "방 나가기",
    },
    "room.unknown": {
        "en": "There is no open room with the code {code}: check it with your teacher "
            "(a code is 6 letters and digits).",
        "ko": "코드가 {code}인 열린 방이 없습니다. 강사에게 코드를 확인하세요 (코드는 영문자와 숫자 6자입니다).",
    },
    "room.off": {
        "en": "Rooms are off on this server ({detail}); the lessons work as usual.",
        "ko": "이 서버에서는 방 기능이 꺼져 있습니다 ({detail}). 레슨은 평소대로 쓸 수 있습니다.",
    },
    "room.sent": {
        "en": "Your answer went to room {code}. The teacher reveals the run to everyone: it appears here by "
            "itself.",
        "ko": "답이 {code} 방으로 전달되었습니다. 강사가 모두에게 실행을 공개하면 여기에 저절로 나타납니다.",
    },
    "room.sent.change": {
        "en": "You can still change your answer: choose another and press the button again (the "
            "latest counts).",
        "ko": "답은 아직 바꿀 수 있습니다. 다른 답을 고르고 버튼을 다시 누르세요 (마지막 답이 집계됩니다).",
    },
    "nav.9_Room": {
        "en": "Room (teacher)",
        "ko": "방 (강사용)",
    },
    "room.page.title": {
        "en": "Room",
        "ko": "방",
    },
    "room.page.explain": {
        "en": "See what the room predicted before you show the run. Start a room, give attendees its "
            "link, and watch each lesson's answers come in; then reveal the run to everyone.",
        "ko": "실행을 보여 주기 전에 참가자들이 무엇을 예상했는지 확인하세요. 방을 만들고 참가자에게 "
            "링크를 보낸 뒤, 레슨마다 들어오는 답을 보고 실행을 모두에게 공개합니다.",
    },
    "room.teacher.key": {
        "en": "Teacher key",
        "ko": "강사 키",
    },
    "room.teacher.key_help": {
        "en": "Printed in the terminal where the server was started (or set by the "
            "LOADERLAB_TEACHER_KEY environment variable).",
        "ko": "서버를 시작한 터미널에 출력됩니다 (또는 LOADERLAB_TEACHER_KEY 환경 변수로 정합니다).",
    },
    "room.teacher.enter": {
        "en": "Open the teacher view",
        "ko": "강사 화면 열기",
    },
    "room.teacher.wrong": {
        "en": "That is not this server's teacher key.",
        "ko": "이 서버의 강사 키가 아닙니다.",
    },
    "room.teacher.start": {
        "en": "Start a room",
        "ko": "방 만들기",
    },
    "room.teacher.reopen": {
        "en": "Or open a room again by its code (after a server restart its answers are still there)",
        "ko": "또는 코드로 방을 다시 열기 (서버를 다시 시작해도 답은 남아 있습니다)",
    },
    "room.teacher.reopen_button": {
        "en": "Open this room",
        "ko": "이 방 열기",
    },
    "room.teacher.code": {
        "en": "Room **{code}**",
        "ko": "**{code}** 방",
    },
    "room.teacher.link": {
        "en": "Attendees open this link, or type the code in the sidebar of the Lessons page:",
        "ko": "참가자는 이 링크를 열거나, 레슨 페이지의 사이드바에 코드를 입력합니다:",
    },
    "room.teacher.lesson": {
        "en": "Lesson",
        "ko": "레슨",
    },
    "room.teacher.count": {
        "en": plural(
            "count",
            one="{count} answer to lesson {n} so far (refreshed every 2 s).",
            other="{count} answers to lesson {n} so far (refreshed every 2 s)."),
        "ko": "지금까지 레슨 {n}에 답 {count}개 (2초마다 새로 고침).",
    },
    "room.teacher.none": {
        "en": "No answers to this lesson yet.",
        "ko": "이 레슨에는 아직 답이 없습니다.",
    },
    "room.teacher.chart": {
        "en": "What the room predicted",
        "ko": "참가자들의 예상",
    },
    "room.teacher.chart_x": {
        "en": "answers",
        "ko": "답 수",
    },
    "room.teacher.reveal": {
        "en": "Reveal the run to the room",
        "ko": "방에 실행 공개하기",
    },
    "room.teacher.hide": {
        "en": "Hide the run again",
        "ko": "실행 다시 숨기기",
    },
    "room.teacher.revealed": {
        "en": "Revealed: attendees who answered see the run now.",
        "ko": "공개됨: 답한 참가자들이 지금 실행을 봅니다.",
    },
    "room.teacher.hidden": {
        "en": "Not revealed yet: attendees who answered are waiting for you.",
        "ko": "아직 공개하지 않았습니다: 답한 참가자들이 기다리고 있습니다.",
    },
    "room.teacher.open_lesson": {
        "en": "Open lesson {n} on this screen",
        "ko": "이 화면에서 레슨 {n} 열기",
    },
    "room.teacher.nicknames": {
        "en": "Nicknames behind each answer",
        "ko": "답마다 고른 사람의 닉네임",
    },
    "room.teacher.close": {
        "en": "Close the room (deletes its answers)",
        "ko": "방 닫기 (답이 삭제됩니다)",
    },
    "room.teacher.closed": {
        "en": "Room {code} is closed; its answers are deleted.",
        "ko": "{code} 방을 닫았고 답을 삭제했습니다.",
    },
}
