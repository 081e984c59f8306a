"""Texts of the "Index queues" page: the animation of every queue and the depth plots."""

EN = {
    "queues.title": "Index queues: where every batch waits",
    "queues.explain": (
        "The main process sends each task (the indices of one batch) to one worker's `index_queue`, round "
        "robin; the worker fetches and collates it and puts the batch on the shared `result_queue`. With "
        "`in_order=True` a batch that arrives before its turn parks in the reorder buffer. The main process "
        "keeps at most `prefetch_factor × num_workers` tasks out at once and sends a new one only when it "
        "hands a batch to your loop."),
    "queues.try": (
        "Try it: change `num_workers` or `prefetch_factor` in the sidebar; give one sample a long extra cost "
        "(straggler) and switch `in_order` off and on to see the reorder buffer fill and empty."),
    "queues.no_workers": (
        "With `num_workers=0` there are no queues: the main process fetches and collates every batch itself, "
        "inside `next()`. Set `num_workers` to 1 or more in the sidebar."),
    "queues.animation.title": "Every queue, moment by moment",
    "queues.animation.explain": (
        "Each box is one batch, labelled with its task number and coloured by the worker that makes it; "
        "place 0 is the next to leave. Press Play or drag the slider. The counter above shows the tasks out "
        "(sent but not yet handed to your loop) against the cap; it turns red at the cap."),
    "queues.row.index_queue": "index_queue[{k}]",
    "queues.row.worker": "worker {k} (fetching)",
    "queues.row.result_queue": "result_queue",
    "queues.row.pin": "pin thread",
    "queues.row.data_queue": "data_queue",
    "queues.row.reorder": "reorder buffer",
    "queues.row.loop": "your loop",
    "queues.legend.worker": "batches of worker {k}",
    "queues.legend.main": "batches of the main process",
    "queues.counter": ("outstanding tasks: {outstanding} / {cap} (prefetch_factor × num_workers)"
                       "   ·   handed to your loop: {handed}"),
    "queues.x": "place in the queue (0 = next out)",
    "queues.hover": "task %{text} (epoch %{customdata})",
    "queues.play": "▶ Play",
    "queues.pause": "❚❚ Pause",
    "queues.time": "t = ",
    "queues.time_suffix": " s",
    "queues.depth.title": "How full each queue was",
    "queues.depth.explain": (
        "Depth over time of every queue, from the same events. The dashed line is the cap "
        "`prefetch_factor × num_workers`: the outstanding tasks never pass it, so no queue can either."),
    "queues.depth.outstanding": "outstanding tasks",
    "queues.depth.result_queue": "result_queue",
    "queues.depth.data_queue": "data_queue",
    "queues.depth.reorder": "reorder buffer",
    "queues.depth.cap": "cap: prefetch_factor × num_workers",
    "queues.depth.panel.outstanding": "tasks out (sent, not yet handed to your loop)",
    "queues.depth.panel.index": "index queues",
    "queues.depth.panel.result": "result queue",
    "queues.depth.panel.reorder": "reorder buffer",
    "queues.depth.x": "seconds since the run started",
    "queues.depth.y": "batches",
    "queues.metric.cap": "cap (tasks)",
    "queues.metric.peak_outstanding": "most tasks out",
    "queues.metric.peak_result": "most batches in result_queue",
    "queues.metric.peak_reorder": "most batches parked",
    "queues.findings": "What this run shows",
}

KO = {
    "queues.title": "인덱스 큐: 모든 배치가 기다리는 곳",
    "queues.explain": (
        "메인 프로세스는 각 작업(배치 하나의 인덱스 목록)을 라운드 로빈으로 워커 하나의 `index_queue`에 보냅니다. "
        "워커는 샘플을 가져와 콜레이트한 뒤 배치를 공유 `result_queue`에 넣습니다. `in_order=True`이면 차례보다 "
        "먼저 도착한 배치는 재정렬 버퍼에서 기다립니다. 메인 프로세스는 한 번에 최대 "
        "`prefetch_factor × num_workers`개의 작업만 내보내고, 학습 루프에 배치를 하나 넘길 때에만 새 작업을 "
        "보냅니다."),
    "queues.try": (
        "해 보기: 사이드바에서 `num_workers`나 `prefetch_factor`를 바꿔 보세요. 샘플 하나에 큰 추가 비용(느린 "
        "샘플)을 주고 `in_order`를 껐다 켜면 재정렬 버퍼가 차고 비는 모습이 보입니다."),
    "queues.no_workers": (
        "`num_workers=0`이면 큐가 없습니다. 메인 프로세스가 `next()` 안에서 모든 배치를 직접 가져오고 "
        "콜레이트합니다. 사이드바에서 `num_workers`를 1 이상으로 설정하세요."),
    "queues.animation.title": "모든 큐의 순간순간",
    "queues.animation.explain": (
        "상자 하나가 배치 하나입니다. 작업 번호가 적혀 있고, 배치를 만드는 워커의 색으로 칠해집니다. 자리 0이 "
        "다음에 나갈 배치입니다. 재생을 누르거나 슬라이더를 끌어 보세요. 위의 카운터는 내보낸 작업 수(보냈지만 "
        "아직 학습 루프에 넘기지 않은 작업)를 상한과 비교해 보여 주며, 상한에 닿으면 빨갛게 바뀝니다."),
    "queues.row.index_queue": "index_queue[{k}]",
    "queues.row.worker": "워커 {k} (가져오는 중)",
    "queues.row.result_queue": "result_queue",
    "queues.row.pin": "pin 스레드",
    "queues.row.data_queue": "data_queue",
    "queues.row.reorder": "재정렬 버퍼",
    "queues.row.loop": "학습 루프",
    "queues.legend.worker": "워커 {k}의 배치",
    "queues.legend.main": "메인 프로세스의 배치",
    "queues.counter": ("내보낸 작업: {outstanding} / {cap} (prefetch_factor × num_workers)"
                       "   ·   학습 루프에 넘긴 배치: {handed}"),
    "queues.x": "큐 안의 자리 (0 = 다음 차례)",
    "queues.hover": "작업 %{text} (에폭 %{customdata})",
    "queues.play": "▶ 재생",
    "queues.pause": "❚❚ 일시정지",
    "queues.time": "t = ",
    "queues.time_suffix": " s",
    "queues.depth.title": "각 큐가 얼마나 찼었나",
    "queues.depth.explain": (
        "같은 이벤트로 그린 각 큐의 시간별 깊이입니다. 점선은 상한 `prefetch_factor × num_workers`입니다. 내보낸 "
        "작업 수는 이 선을 넘지 않으므로 어떤 큐도 넘을 수 없습니다."),
    "queues.depth.outstanding": "내보낸 작업",
    "queues.depth.result_queue": "result_queue",
    "queues.depth.data_queue": "data_queue",
    "queues.depth.reorder": "재정렬 버퍼",
    "queues.depth.cap": "상한: prefetch_factor × num_workers",
    "queues.depth.panel.outstanding": "내보낸 작업 (보냈지만 아직 학습 루프에 넘기지 않음)",
    "queues.depth.panel.index": "인덱스 큐",
    "queues.depth.panel.result": "결과 큐",
    "queues.depth.panel.reorder": "재정렬 버퍼",
    "queues.depth.x": "실행 시작 후 경과 시간 (초)",
    "queues.depth.y": "배치 수",
    "queues.metric.cap": "상한 (작업 수)",
    "queues.metric.peak_outstanding": "최대 내보낸 작업 수",
    "queues.metric.peak_result": "result_queue의 최대 배치 수",
    "queues.metric.peak_reorder": "최대 대기 배치 수",
    "queues.findings": "이번 실행에서 보이는 것",
}
