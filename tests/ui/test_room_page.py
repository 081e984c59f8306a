"""A workshop room through AppTest: the teacher key, starting a room, an attendee's answer counted in the
teacher's chart, the run held back until the teacher reveals it, closing, unknown codes, rooms off.

The room file is a tmp_path SQLite file (``LOADERLAB_ROOM_DB``); the store and the teacher key are
server-wide resources, cleared around each test. No timing is asserted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from loaderlab.ui.texts import EN

ROOT = Path(__file__).resolve().parents[2]
ROOM_PAGE, LESSONS_PAGE = str(ROOT / "pages" / "9_Room.py"), str(ROOT / "pages" / "0_Lessons.py")


@pytest.fixture
def room_env(tmp_path, monkeypatch, fresh_cache):
    monkeypatch.setenv("LOADERLAB_ROOM_DB", str(tmp_path / "rooms.sqlite3"))
    monkeypatch.setenv("LOADERLAB_TEACHER_KEY", "sesame")
    st.cache_resource.clear()
    yield tmp_path
    st.cache_resource.clear()


def _teacher() -> AppTest:
    at = AppTest.from_file(ROOM_PAGE, default_timeout=120).run()
    at.text_input(key="room_key").input("sesame")
    at.button(key="room_key_enter").click().run()
    at.button(key="room_start").click().run()
    assert not at.exception
    return at


def _attendee(code: str, lesson: int = 1, nickname: str = "") -> AppTest:
    at = AppTest.from_file(LESSONS_PAGE, default_timeout=120)
    at.query_params["room"], at.query_params["lesson"] = code, str(lesson)
    at.run()
    if nickname:
        at.text_input(key="room_nickname").input(nickname).run()
    return at


def _answer(at: AppTest, lesson: int, choice: str) -> AppTest:
    at.radio(key=f"lesson{lesson}_pick").set_value(choice)
    return at.button(key=f"lesson{lesson}_check").click().run()


def test_a_wrong_key_is_refused_and_the_right_one_opens_the_teacher_view(room_env):
    at = AppTest.from_file(ROOM_PAGE, default_timeout=120).run()
    at.text_input(key="room_key").input("guess")
    at.button(key="room_key_enter").click().run()
    assert [e.value for e in at.error] == [EN["room.teacher.wrong"]]
    assert not [b for b in at.button if b.key == "room_start"]
    at.text_input(key="room_key").input("sesame")
    at.button(key="room_key_enter").click().run()
    assert [b.key for b in at.button if b.key == "room_start"] == ["room_start"]


def test_the_room_counts_answers_and_holds_the_run_until_revealed(room_env):
    teacher = _teacher()
    code = teacher.session_state["room_teacher_code"]
    assert teacher.code[0].value.endswith(f"/Lessons?room={code}&lang=en")
    mina, jun = _attendee(code.lower(), nickname="Mina"), _attendee(code)
    assert mina.success[0].value == EN["room.joined"].format(code=code)
    _answer(mina, 1, "once")
    _answer(jun, 1, "per_worker")
    _answer(jun, 1, "once")  # Jun changed his mind: the latest counts
    for at in (mina, jun):
        assert not at.exception
        assert at.info[0].value == EN["room.sent"].format(code=code)
        assert not at.get("plotly_chart")  # the run is held back
    teacher.run()
    assert "2 answers to lesson 1 so far" in teacher.caption[1].value
    bars = json.loads(teacher.get("plotly_chart")[0].proto.spec)["data"][0]
    assert bars["x"] == [2, 0, 0] and bars["text"] == ["2 (100%)", "0 (0%)", "0 (0%)"]
    teacher.button(key="room_reveal").click().run()
    assert teacher.success[0].value == EN["room.teacher.revealed"]
    mina.run()
    assert not mina.exception and mina.get("plotly_chart")  # revealed: the run and the answer are shown
    assert not [i for i in mina.info if i.value == EN["room.sent"].format(code=code)]
    teacher.button(key="room_close").click().run()
    assert teacher.info[0].value == EN["room.teacher.closed"].format(code=code)
    mina.run()  # the room is gone: the lesson goes on without it
    assert not mina.exception and "room_code" not in mina.session_state


def test_an_unknown_code_says_so_and_the_lesson_works_without_a_room(room_env):
    at = _attendee("ZZZZZZ")
    assert [e.value for e in at.error] == [EN["room.unknown"].format(code="ZZZZZZ")]
    _answer(at, 1, "once")
    assert not at.exception and at.get("plotly_chart")  # no room: the run is shown at once


def test_an_unusable_room_file_turns_rooms_off_in_one_sentence(room_env, monkeypatch):
    (room_env / "folder.sqlite3").mkdir()
    monkeypatch.setenv("LOADERLAB_ROOM_DB", str(room_env / "folder.sqlite3"))
    at = _attendee("ABCDEF")
    assert len(at.warning) == 1 and at.warning[0].value.startswith("Rooms are off on this server (")
    _answer(at, 1, "once")
    assert not at.exception and at.get("plotly_chart")
    teacher = AppTest.from_file(ROOM_PAGE, default_timeout=120).run()
    assert not teacher.exception and teacher.warning[0].value.startswith("Rooms are off on this server (")
