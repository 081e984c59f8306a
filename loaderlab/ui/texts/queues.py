"""Texts of the "Index queues" page: the animation of every queue and the depth plots."""

TEXTS = {
    "queues.title": {
        "en": "Index queues: where every batch waits",
        "ko": "인덱스 큐: 모든 배치가 기다리는 곳",
    },
    "queues.explain": {
        "en": "The main process sends each task (the indices of one batch) to one worker's `index_queue`, round "
            "robin; the worker fetches and collates it and puts the batch on the shared `result_queue`. With "
            "`in_order=True` a batch that arrives before its turn parks in the reorder buffer. The main process "
            "keeps at most `prefetch_factor × num_workers` tasks out at once and sends a new one only when it "
            "hands a batch to your loop.",
        "ko": "메인 프로세스는 각 작업(배치 하나의 인덱스 목록)을 라운드 로빈으로 워커 하나의 `index_queue`에 보냅니다. "
            "워커는 샘플을 가져와 콜레이트한 뒤 배치를 공유 `result_queue`에 넣습니다. `in_order=True`이면 차례보다 "
            "먼저 도착한 배치는 재정렬 버퍼에서 기다립니다. 메인 프로세스는 한 번에 최대 "
            "`prefetch_factor × num_workers`개의 작업만 내보내고, 학습 루프에 배치를 하나 넘길 때에만 새 작업을 "
            "보냅니다.",
    },
    "queues.try": {
        "en": "Try it: change `num_workers` or `prefetch_factor` in the sidebar; give one sample a long extra cost "
            "(straggler) and switch `in_order` off and on to see the reorder buffer fill and empty.",
        "ko": "해 보기: 사이드바에서 `num_workers`나 `prefetch_factor`를 바꿔 보세요. 샘플 하나에 큰 추가 비용(느린 "
            "샘플)을 주고 `in_order`를 껐다 켜면 재정렬 버퍼가 차고 비는 모습이 보입니다.",
    },
    "queues.no_workers": {
        "en": "With `num_workers=0` there are no queues: the main process fetches and collates every batch itself, "
            "inside `next()`. Set `num_workers` to 1 or more in the sidebar.",
        "ko": "`num_workers=0`이면 큐가 없습니다. 메인 프로세스가 `next()` 안에서 모든 배치를 직접 가져오고 "
            "콜레이트합니다. 사이드바에서 `num_workers`를 1 이상으로 설정하세요.",
    },
    "queues.animation.title": {
        "en": "Every queue, moment by moment",
        "ko": "모든 큐의 순간순간",
    },
    "queues.animation.explain": {
        "en": "Each box is one batch, labelled with its task number and coloured by the worker that makes it; "
            "place 0 is the next to leave. Press Play or drag the slider. The counter above shows the tasks out "
            "(sent but not yet handed to your loop) against the cap; it turns red at the cap.",
        "ko": "상자 하나가 배치 하나입니다. 작업 번호가 적혀 있고, 배치를 만드는 워커의 색으로 칠해집니다. 자리 0이 "
            "다음에 나갈 배치입니다. 재생을 누르거나 슬라이더를 끌어 보세요. 위의 카운터는 내보낸 작업 수(보냈지만 "
            "아직 학습 루프에 넘기지 않은 작업)를 상한과 비교해 보여 주며, 상한에 닿으면 빨갛게 바뀝니다.",
    },
    "queues.row.index_queue": {
        "en": "index_queue[{k}]",
        "ko": "index_queue[{k}]",
    },
    "queues.row.worker": {
        "en": "worker {k} (fetching)",
        "ko": "워커 {k} (가져오는 중)",
    },
    "queues.row.result_queue": {
        "en": "result_queue",
        "ko": "result_queue",
    },
    "queues.row.pin": {
        "en": "pin thread",
        "ko": "pin 스레드",
    },
    "queues.row.data_queue": {
        "en": "data_queue",
        "ko": "data_queue",
    },
    "queues.row.reorder": {
        "en": "reorder buffer",
        "ko": "재정렬 버퍼",
    },
    "queues.row.loop": {
        "en": "your loop",
        "ko": "학습 루프",
    },
    "queues.legend.worker": {
        "en": "batches of worker {k}",
        "ko": "워커 {k}의 배치",
    },
    "queues.legend.main": {
        "en": "batches of the main process",
        "ko": "메인 프로세스의 배치",
    },
    "queues.counter": {
        "en": "outstanding tasks: {outstanding} / {cap} (prefetch_factor × num_workers)"
            "   ·   handed to your loop: {handed}",
        "ko": "내보낸 작업: {outstanding} / {cap} (prefetch_factor × num_workers)"
            "   ·   학습 루프에 넘긴 배치: {handed}",
    },
    "queues.x": {
        "en": "place in the queue (0 = next out)",
        "ko": "큐 안의 자리 (0 = 다음 차례)",
    },
    "queues.hover": {
        "en": "task %{text} (epoch %{customdata})",
        "ko": "작업 %{text} (에폭 %{customdata})",
    },
    "queues.play": {
        "en": "▶ Play",
        "ko": "▶ 재생",
    },
    "queues.pause": {
        "en": "❚❚ Pause",
        "ko": "❚❚ 일시정지",
    },
    "queues.time": {
        "en": "t = ",
        "ko": "t = ",
    },
    "queues.time_suffix": {
        "en": " s",
        "ko": " s",
    },
    "queues.depth.title": {
        "en": "How full each queue was",
        "ko": "각 큐가 얼마나 찼었나",
    },
    "queues.depth.explain": {
        "en": "Depth over time of every queue, from the same events. The dashed line is the cap "
            "`prefetch_factor × num_workers`: the outstanding tasks never pass it, so no queue can either.",
        "ko": "같은 이벤트로 그린 각 큐의 시간별 깊이입니다. 점선은 상한 `prefetch_factor × num_workers`입니다. 내보낸 "
            "작업 수는 이 선을 넘지 않으므로 어떤 큐도 넘을 수 없습니다.",
    },
    "queues.depth.outstanding": {
        "en": "outstanding tasks",
        "ko": "내보낸 작업",
    },
    "queues.depth.result_queue": {
        "en": "result_queue",
        "ko": "result_queue",
    },
    "queues.depth.data_queue": {
        "en": "data_queue",
        "ko": "data_queue",
    },
    "queues.depth.reorder": {
        "en": "reorder buffer",
        "ko": "재정렬 버퍼",
    },
    "queues.depth.cap": {
        "en": "cap: prefetch_factor × num_workers",
        "ko": "상한: prefetch_factor × num_workers",
    },
    "queues.depth.panel.outstanding": {
        "en": "tasks out (sent, not yet handed to your loop)",
        "ko": "내보낸 작업 (보냈지만 아직 학습 루프에 넘기지 않음)",
    },
    "queues.depth.panel.index": {
        "en": "index queues",
        "ko": "인덱스 큐",
    },
    "queues.depth.panel.result": {
        "en": "result queue",
        "ko": "결과 큐",
    },
    "queues.depth.panel.reorder": {
        "en": "reorder buffer",
        "ko": "재정렬 버퍼",
    },
    "queues.depth.x": {
        "en": "seconds since the run started",
        "ko": "실행 시작 후 경과 시간 (초)",
    },
    "queues.depth.y": {
        "en": "batches",
        "ko": "배치 수",
    },
    "queues.metric.cap": {
        "en": "cap (tasks)",
        "ko": "상한 (작업 수)",
    },
    "queues.metric.peak_outstanding": {
        "en": "most tasks out",
        "ko": "최대 내보낸 작업 수",
    },
    "queues.metric.peak_result": {
        "en": "most batches in result_queue",
        "ko": "result_queue의 최대 배치 수",
    },
    "queues.metric.peak_reorder": {
        "en": "most batches parked",
        "ko": "최대 대기 배치 수",
    },
    "queues.findings": {
        "en": "What this run shows",
        "ko": "이번 실행에서 보이는 것",
    },
}
