"""Texts shared by every page: the sidebar, controls, choices, errors, the home page."""

from ...texts import plural

TEXTS = {
    "app.title": {
        "en": "LoaderLab — what your DataLoader really does",
        "ko": "LoaderLab — 데이터로더가 실제로 하는 일",
    },
    "app.intro": {
        "en": "Every view below is recorded from a real run of LoaderLab's DataLoader twin — real worker "
            "processes, real queues — with the settings in the sidebar. Change a setting and the run is "
            "repeated.",
        "ko": "아래의 모든 화면은 LoaderLab의 데이터로더 쌍둥이를 사이드바의 설정으로 실제로 실행해 기록한 "
            "것입니다. 진짜 워커 프로세스와 진짜 큐가 돌아갑니다. 설정을 바꾸면 다시 실행됩니다.",
    },
    "sidebar.loader": {
        "en": "DataLoader",
        "ko": "데이터로더",
    },
    "sidebar.workload": {
        "en": "Workload",
        "ko": "작업량",
    },
    "control.preset": {
        "en": "workshop preset",
        "ko": "워크숍 프리셋",
    },
    "control.source": {
        "en": "dataset",
        "ko": "데이터셋",
    },
    "control.upload": {
        "en": "CSV with a 'label' column (and optionally 'length')",
        "ko": "'label' 열(선택: 'length' 열)이 있는 CSV",
    },
    "upload.needed": {
        "en": "Upload a CSV to run on your own labels and lengths.",
        "ko": "내 레이블과 길이로 실행하려면 CSV를 올리세요.",
    },
    "upload.error": {
        "en": "{detail}",
        "ko": "이 CSV는 쓸 수 없습니다. 자세한 내용(영문): {detail}",
    },
    "spinner.run": {
        "en": "Running the loader with these settings…",
        "ko": "이 설정으로 데이터로더를 실행하는 중…",
    },
    "spinner.trace": {
        "en": "Reading the trace…",
        "ko": "트레이스를 읽는 중…",
    },
    "spinner.measure": {
        "en": "Measuring copies on the GPU…",
        "ko": "GPU에서 복사를 측정하는 중…",
    },
    "control.kind": {
        "en": "dataset style",
        "ko": "데이터셋 종류",
    },
    "control.imbalance": {
        "en": "share of label 0",
        "ko": "레이블 0의 비율",
    },
    "control.length": {
        "en": "sample length",
        "ko": "샘플 길이",
    },
    "control.length_spread": {
        "en": "length varies by ±",
        "ko": "길이 변동 폭 ±",
    },
    "control.slow_worker": {
        "en": "slow worker id (-1 = none)",
        "ko": "느린 워커 번호 (-1 = 없음)",
    },
    "control.slow_factor": {
        "en": "slow worker: times slower",
        "ko": "느린 워커: 몇 배 느린가",
    },
    "choice.sampler.default": {
        "en": "default (Sequential / Random)",
        "ko": "기본 (Sequential / Random)",
    },
    "choice.sampler.weighted": {
        "en": "WeightedRandomSampler (inverse class frequency)",
        "ko": "WeightedRandomSampler (클래스 빈도의 역수)",
    },
    "choice.batch_sampler.default": {
        "en": "default (BatchSampler)",
        "ko": "기본 (BatchSampler)",
    },
    "choice.batch_sampler.bucket": {
        "en": "bucket by length",
        "ko": "길이별 버킷",
    },
    "choice.collate.default": {
        "en": "default_collate",
        "ko": "default_collate",
    },
    "choice.collate.pad": {
        "en": "pad_sequence collate",
        "ko": "pad_sequence 콜레이트",
    },
    "choice.source.synthetic": {
        "en": "synthetic",
        "ko": "합성 데이터",
    },
    "choice.source.stdlib_files": {
        "en": "sample_data: stdlib files (imbalanced labels)",
        "ko": "sample_data: 표준 라이브러리 파일 (불균형 레이블)",
    },
    "choice.source.stdlib_docstrings": {
        "en": "sample_data: stdlib docstrings (varied lengths)",
        "ko": "sample_data: 표준 라이브러리 독스트링 (다양한 길이)",
    },
    "choice.source.uploaded": {
        "en": "upload a CSV",
        "ko": "CSV 올리기",
    },
    "choice.kind.map": {
        "en": "map-style Dataset",
        "ko": "맵 스타일 데이터셋 (Dataset)",
    },
    "choice.kind.iterable_unsharded": {
        "en": "IterableDataset, not sharded",
        "ko": "IterableDataset, 샤딩 안 함",
    },
    "choice.kind.iterable_sharded": {
        "en": "IterableDataset, sharded by get_worker_info()",
        "ko": "IterableDataset, get_worker_info()로 샤딩",
    },
    "control.n_samples": {
        "en": "samples in the dataset",
        "ko": "데이터셋의 샘플 수",
    },
    "control.cost_ms": {
        "en": "cost of one sample (ms)",
        "ko": "샘플 하나의 비용 (ms)",
    },
    "control.straggler_index": {
        "en": "straggler: dataset index (-1 = none)",
        "ko": "느린 샘플: 데이터셋 인덱스 (-1 = 없음)",
    },
    "control.straggler_ms": {
        "en": "straggler: extra cost (ms)",
        "ko": "느린 샘플: 추가 비용 (ms)",
    },
    "control.consumer_ms": {
        "en": "your training step per batch (ms)",
        "ko": "배치당 학습 단계 시간 (ms)",
    },
    "control.seed": {
        "en": "seed (generator)",
        "ko": "시드 (generator)",
    },
    "control.epochs": {
        "en": "epochs",
        "ko": "에폭 수",
    },
    "error.invalid": {
        "en": "torch rejects these settings: {message}",
        "ko": "torch가 이 설정을 거부합니다: {message}",
    },
    "error.run_failed": {
        "en": "The loader failed with these settings ({kind}): {message}",
        "ko": "이 설정으로 데이터로더가 실패했습니다 ({kind}): {message}",
    },
    "error.details": {
        "en": "What torch reported (with the worker's traceback)",
        "ko": "torch가 보고한 내용 (워커의 트레이스백 포함)",
    },
    "error.busy": {
        "en": "The server is busy with other people's runs; try again in a moment.",
        "ko": "서버가 다른 사람들의 실행으로 바쁩니다. 잠시 후 다시 시도하세요.",
    },
    "error.busy.detail": {
        "en": plural(
            "slots",
            one="{slots} run already in progress (LOADERLAB_MAX_CONCURRENT_RUNS={slots}).",
            other="{slots} runs already in progress (LOADERLAB_MAX_CONCURRENT_RUNS={slots})."),
        "ko": "이미 실행 {slots}개가 진행 중입니다 (LOADERLAB_MAX_CONCURRENT_RUNS={slots}).",
    },
    "error.cap": {
        "en": "This server's caps refuse these settings: {message}",
        "ko": "이 서버의 상한이 이 설정을 허용하지 않습니다(영문): {message}",
    },
    "link.clamped": {
        "en": "The link asks for `{name}={value}`, more than this page allows ({allowed}); the sidebar uses "
            "`{name}={used}`.",
        "ko": "링크가 요청한 `{name}={value}`는 이 페이지가 허용하는 범위({allowed})를 넘어서, 사이드바는 "
            "`{name}={used}`를 씁니다.",
    },
    "link.ignored": {
        "en": "The link's `{name}={value}` was ignored: `{name}` takes {allowed}.",
        "ko": "링크의 `{name}={value}`는 무시했습니다: `{name}`에 쓸 수 있는 값은 {allowed}입니다.",
    },
    "link.unknown": {
        "en": "The link's `{name}={value}` was ignored: there is no setting `{name}`; a link may set {allowed}.",
        "ko": "링크의 `{name}={value}`는 무시했습니다: `{name}`라는 설정은 없습니다. 링크로 정할 수 있는 설정: "
            "{allowed}.",
    },
    "control.fault": {
        "en": "inject a fault",
        "ko": "장애 주입",
    },
    "control.fault_index": {
        "en": "fault at dataset index",
        "ko": "장애를 일으킬 데이터셋 인덱스",
    },
    "choice.fault.none": {
        "en": "none",
        "ko": "없음",
    },
    "choice.fault.raise": {
        "en": "__getitem__ raises",
        "ko": "__getitem__에서 예외 발생",
    },
    "choice.fault.kill": {
        "en": "worker killed (SIGKILL)",
        "ko": "워커 강제 종료 (SIGKILL)",
    },
    "choice.fault.hang": {
        "en": "__getitem__ hangs",
        "ko": "__getitem__이 멈춤",
    },
    "choice.fault.unpicklable": {
        "en": "batch cannot be pickled",
        "ko": "배치를 pickle할 수 없음",
    },
    "timeline.title": {
        "en": "Who did what, when",
        "ko": "누가 언제 무엇을 했나",
    },
    "timeline.explain": {
        "en": "One lane per process. Blue: a worker fetching one sample; orange: collating a batch; "
            "red: your loop waiting for the next batch; green: your training step.",
        "ko": "프로세스마다 한 줄입니다. 파랑: 워커가 샘플 하나를 가져오는 중, 주황: 배치를 콜레이트하는 중, "
            "빨강: 학습 루프가 다음 배치를 기다리는 중, 초록: 학습 단계.",
    },
    "timeline.x": {
        "en": "seconds since the run started",
        "ko": "실행 시작 후 경과 시간 (초)",
    },
    "events.title": {
        "en": "Every event of the run",
        "ko": "실행의 모든 이벤트",
    },
    "events.explain": {
        "en": "One row per event. What each column and each kind of event means is in LoaderLab's docs: "
            "`docs/trace-files.md#the-event-table-schema` (the section “The event table (schema)”).",
        "ko": "이벤트 하나가 한 행입니다. 각 열과 이벤트 종류의 뜻은 LoaderLab 문서 "
            "`docs/trace-files.md#the-event-table-schema`(“The event table (schema)” 절)에 있습니다.",
    },
    "code.title": {
        "en": "The same loader in plain torch",
        "ko": "같은 데이터로더를 순수 torch 코드로",
    },
    "stage.startup": {
        "en": "worker start-up",
        "ko": "워커 시작",
    },
    "stage.fetch": {
        "en": "fetch",
        "ko": "가져오기",
    },
    "stage.collate": {
        "en": "collate",
        "ko": "콜레이트",
    },
    "stage.pin": {
        "en": "pin memory",
        "ko": "고정 메모리 복사",
    },
    "stage.wait": {
        "en": "waiting for a batch",
        "ko": "배치 대기",
    },
    "stage.consume": {
        "en": "your training step",
        "ko": "학습 단계",
    },
    "stage.idle": {
        "en": "idle",
        "ko": "유휴",
    },
    "timeline.lane.main": {
        "en": "main",
        "ko": "메인 프로세스",
    },
    "timeline.lane.pin": {
        "en": "pin",
        "ko": "pin 스레드",
    },
    "timeline.lane.worker": {
        "en": "worker {k}",
        "ko": "워커 {k}",
    },
    "timeline.hover": {
        "en": "batch %{customdata[0]}, index %{customdata[1]}<br>%{base:.4f} s + %{x:.4f} s<extra></extra>",
        "ko": "배치 %{customdata[0]}, 인덱스 %{customdata[1]}<br>%{base:.4f} s + %{x:.4f} s<extra></extra>",
    },
    "preset.one slow worker": {
        "en": "one slow worker",
        "ko": "느린 워커 하나",
    },
    "preset.prefetch starved": {
        "en": "prefetch starved",
        "ko": "프리페치 부족",
    },
    "preset.95/5 imbalance": {
        "en": "95/5 imbalance",
        "ko": "95/5 클래스 불균형",
    },
    "preset.unsharded IterableDataset": {
        "en": "unsharded IterableDataset",
        "ko": "샤딩하지 않은 IterableDataset",
    },
    "preset.padding waste": {
        "en": "padding waste",
        "ko": "패딩 낭비",
    },
    "nav.app": {
        "en": "Pipeline tour",
        "ko": "파이프라인 둘러보기",
    },
    "nav.1_Event_table": {
        "en": "Event table",
        "ko": "이벤트 표",
    },
    "nav.2_Index_queues": {
        "en": "Index queues",
        "ko": "인덱스 큐",
    },
    "nav.3_Worker_timelines": {
        "en": "Worker timelines",
        "ko": "워커 타임라인",
    },
    "nav.4_Sampling_and_imbalance": {
        "en": "Sampling and class imbalance",
        "ko": "샘플링과 클래스 불균형",
    },
    "nav.5_Padding_and_collate": {
        "en": "Padding and collate",
        "ko": "패딩과 콜레이트",
    },
    "nav.6_Pinned_memory": {
        "en": "Pinned memory",
        "ko": "고정 메모리",
    },
    "nav.7_Your_trace": {
        "en": "Your trace",
        "ko": "내 트레이스",
    },
    "nav.0_Lessons": {
        "en": "Lessons",
        "ko": "레슨",
    },
    "nav.8_Distributed": {
        "en": "Distributed training",
        "ko": "분산 학습",
    },
}
