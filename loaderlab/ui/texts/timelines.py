"""Texts of the "Worker timelines" page: the Gantt of every process, its stalls, and the num_workers sweep."""

from ...texts import plural

TEXTS = {
    "timelines.title": {
        "en": "Worker timelines: who did what, when",
        "ko": "워커 타임라인: 누가 언제 무엇을 했나",
    },
    "timelines.explain": {
        "en": "One lane per process: your loop's main process on top, then the pin thread (with `pin_memory=True`) and "
            "each worker. A worker fetches its batch's samples one by one (blue) and collates them (orange); grey is "
            "idle, pink is idle because the main process already had `prefetch_factor × num_workers` tasks out. On "
            "the main lane, red is your loop waiting in `next()` and green is your training step.",
        "ko": "프로세스마다 한 줄입니다. 맨 위가 학습 루프가 도는 메인 프로세스이고, 그 아래로 pin 스레드(`pin_memory=True`일 "
            "때)와 각 워커가 있습니다. 워커는 배치의 샘플을 하나씩 가져오고(파랑) 콜레이트합니다(주황). 회색은 유휴, "
            "분홍은 메인 프로세스가 이미 `prefetch_factor × num_workers`개의 작업을 내보내서 생긴 유휴입니다. 메인 "
            "프로세스 줄에서 빨강은 학습 루프가 `next()`에서 기다리는 시간, 초록은 학습 단계입니다.",
    },
    "timelines.try": {
        "en": "Try it: in the sidebar give one dataset index an extra cost of 200 ms or more (straggler). The slow "
            "sample is outlined in black, and so is the wait it causes; then switch `in_order` off and compare.",
        "ko": "해 보기: 사이드바에서 데이터셋 인덱스 하나에 200 ms 이상의 추가 비용(느린 샘플)을 주세요. 느린 샘플과 "
            "그 때문에 생긴 대기가 검은 테두리로 표시됩니다. 그다음 `in_order`를 끄고 비교해 보세요.",
    },
    "timelines.metric.throughput": {
        "en": "batches / s",
        "ko": "초당 배치 수",
    },
    "timelines.metric.wait": {
        "en": "main process waited (s)",
        "ko": "메인 프로세스 대기 (초)",
    },
    "timelines.metric.wait_share": {
        "en": "share of the loop spent waiting",
        "ko": "학습 루프 중 대기 비율",
    },
    "timelines.metric.first": {
        "en": "Waiting is counted after each epoch's first batch: before it, the loop waited {first} s more while the "
            "workers started (a slow start is a finding of its own). The loader-bound verdict and "
            "`python -m loaderlab report` show these same numbers.",
        "ko": "대기는 각 에폭의 첫 배치 뒤부터 셉니다: 첫 배치 전에는 워커가 시작하는 동안 학습 루프가 {first}초 더 "
            "기다렸습니다(느린 시작은 따로 발견 사항이 됩니다). 데이터로더 병목 판정과 `python -m loaderlab report`도 "
            "같은 숫자를 보여 줍니다.",
    },
    "timelines.metric.busy": {
        "en": "workers busy (mean)",
        "ko": "워커 가동률 (평균)",
    },
    "timelines.gantt.title": {
        "en": "Every process over time",
        "ko": "시간에 따른 모든 프로세스",
    },
    "timelines.cut": {
        "en": "Showing the first {shown:,} of {total:,} spans: the start of the run.",
        "ko": "구간 {total:,}개 중 처음 {shown:,}개만 보여 줍니다: 실행의 앞부분입니다.",
    },
    "timelines.x": {
        "en": "seconds since the run started",
        "ko": "실행 시작 후 경과 시간 (초)",
    },
    "timelines.stage.startup": {
        "en": "worker start-up",
        "ko": "워커 시작",
    },
    "timelines.stage.fetch": {
        "en": "fetch (one sample)",
        "ko": "가져오기 (샘플 하나)",
    },
    "timelines.stage.collate": {
        "en": "collate",
        "ko": "콜레이트",
    },
    "timelines.stage.pin": {
        "en": "pin memory",
        "ko": "고정 메모리 복사",
    },
    "timelines.stage.wait": {
        "en": "waiting for a batch",
        "ko": "배치 대기",
    },
    "timelines.stage.consume": {
        "en": "your training step",
        "ko": "학습 단계",
    },
    "timelines.stage.idle": {
        "en": "idle",
        "ko": "유휴",
    },
    "timelines.stage.idle_capped": {
        "en": "idle: prefetch cap reached",
        "ko": "유휴: 프리페치 상한 도달",
    },
    "timelines.mark": {
        "en": "stall (see the table)",
        "ko": "정체 (표 참고)",
    },
    "timelines.stalls.title": {
        "en": "Stalls",
        "ko": "정체",
    },
    "timelines.stalls.explain": {
        "en": "Each row names the batch (task number), the worker and the dataset index a stall is blamed on; the "
            "outlined spans above are these.",
        "ko": "각 행은 정체의 원인으로 지목된 배치(작업 번호), 워커, 데이터셋 인덱스를 알려 줍니다. 위에서 테두리가 "
            "쳐진 구간이 바로 이것들입니다.",
    },
    "timelines.stalls.none": {
        "en": "No stalls in this run: no slow samples that cost the run time (5× their worker's median, adding up to "
            "5% of the run), no worker slower than the others, no batch that held others in the reorder buffer, and "
            "no worker that stopped.",
        "ko": "이번 실행에는 정체가 없습니다: 실행 시간을 잡아먹은 느린 샘플(자기 워커 중앙값의 5배 이상, 합쳐서 실행의 "
            "5% 이상)이 없고, 다른 워커보다 느린 워커도 없고, 다른 배치를 재정렬 버퍼에 붙잡아 둔 배치도 없고, 멈춘 "
            "워커도 없습니다.",
    },
    "timelines.stalls.bound": {
        "en": "No single sample, batch or worker stands out, yet the loop spent {share} of its time waiting: the "
            "loader as a whole is slower than the loop. The sweep below shows whether more workers help.",
        "ko": "눈에 띄는 샘플, 배치, 워커는 없지만 학습 루프가 시간의 {share}를 기다리는 데 썼습니다: 데이터로더 전체가 "
            "루프보다 느립니다. 아래 훑어보기에서 워커를 늘리면 나아지는지 볼 수 있습니다.",
    },
    "timelines.others.title": {
        "en": "Also found in this run",
        "ko": "이번 실행에서 함께 찾은 것",
    },
    "timelines.others.explain": {
        "en": "Not about time, but wrong or wasted data all the same; the page for each shows more.",
        "ko": "시간 문제는 아니지만 잘못되었거나 낭비된 데이터입니다. 각 항목의 페이지에서 더 자세히 볼 수 있습니다.",
    },
    "timelines.col.kind": {
        "en": "what",
        "ko": "종류",
    },
    "timelines.col.epoch": {
        "en": "epoch",
        "ko": "에폭",
    },
    "timelines.col.batch": {
        "en": "batch",
        "ko": "배치",
    },
    "timelines.col.worker": {
        "en": "worker",
        "ko": "워커",
    },
    "timelines.col.index": {
        "en": "sample index",
        "ko": "샘플 인덱스",
    },
    "timelines.col.message": {
        "en": "details",
        "ko": "자세히",
    },
    "timelines.kind.straggler": {
        "en": "slow samples",
        "ko": "느린 샘플",
    },
    "timelines.kind.slow_worker": {
        "en": "slow worker",
        "ko": "느린 워커",
    },
    "timelines.kind.head_of_line": {
        "en": "head-of-line blocking",
        "ko": "헤드 오브 라인 블로킹",
    },
    "timelines.kind.stalled_worker": {
        "en": "stuck worker",
        "ko": "멈춘 워커",
    },
    "timelines.kind.worker_vanished": {
        "en": "worker vanished",
        "ko": "사라진 워커",
    },
    "timelines.kind.slow_first_batch": {
        "en": "slow first batch",
        "ko": "느린 첫 배치",
    },
    "timelines.kind.error": {
        "en": "error",
        "ko": "오류",
    },
    "timelines.sweep.title": {
        "en": "Does another worker help? A sweep of num_workers",
        "ko": "워커를 늘리면 빨라질까? num_workers 훑어보기",
    },
    "timelines.sweep.explain": {
        "en": plural(
            "cores",
            one="Runs the sidebar's settings once for each `num_workers` from 0 to {most} (one epoch "
                "each) and plots the measured batches per second. The dashed ideal line is the rate of "
                "one worker times the number of workers, flat beyond the {cores} core this machine gives "
                "LoaderLab: past that, workers share cores.",
            other="Runs the sidebar's settings once for each `num_workers` from 0 to {most} (one epoch "
                "each) and plots the measured batches per second. The dashed ideal line is the rate of "
                "one worker times the number of workers, flat beyond the {cores} cores this machine gives "
                "LoaderLab: past that, workers share cores."),
        "ko": "사이드바의 설정을 `num_workers` 0부터 {most}까지 각각 한 번씩(에폭 하나씩) 실행하고 측정한 초당 배치 수를 "
            "그립니다. 점선 이상치는 워커 하나의 속도 × 워커 수이며, 이 기계가 LoaderLab에 주는 코어 {cores}개를 넘으면 "
            "평평해집니다: 그 뒤로는 워커들이 코어를 나눠 씁니다.",
    },
    "timelines.sweep.button": {
        "en": "Run the sweep",
        "ko": "훑어보기 실행",
    },
    "timelines.sweep.running": {
        "en": "Running the sidebar's settings with each num_workers…",
        "ko": "사이드바의 설정을 num_workers마다 실행하는 중…",
    },
    "timelines.sweep.stale": {
        "en": "The sidebar's settings changed since the sweep: press the button to sweep these.",
        "ko": "훑어본 뒤 사이드바 설정이 바뀌었습니다. 버튼을 눌러 이 설정으로 다시 훑어보세요.",
    },
    "timelines.sweep.measured": {
        "en": "measured",
        "ko": "측정값",
    },
    "timelines.sweep.ideal": {
        "en": "ideal: 1 worker's rate × num_workers, up to the cores",
        "ko": "이상치: 워커 1개의 속도 × num_workers (코어 수까지)",
    },
    "timelines.sweep.cores": {
        "en": plural(
            "cores",
            one="{cores} core",
            other="{cores} cores"),
        "ko": "코어 {cores}개",
    },
    "timelines.sweep.x": {
        "en": "num_workers",
        "ko": "num_workers",
    },
    "timelines.sweep.y": {
        "en": "batches / s",
        "ko": "초당 배치 수",
    },
}
