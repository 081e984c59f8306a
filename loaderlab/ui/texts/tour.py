"""Texts of the home page's "Pipeline tour": one batch's path, stage by stage, and links to the other pages."""

TEXTS = {
    "tour.title": {
        "en": "Pipeline tour: the path of one batch",
        "ko": "파이프라인 둘러보기: 배치 하나가 지나는 길",
    },
    "tour.explain": {
        "en": "Pick a batch and follow it through the loader: the red path is the way it really went in the run "
            "recorded with the sidebar's settings, and each box says what the trace measured for it there. The lower "
            "panel shows where its time went. Step batch by batch with the slider (or the arrow keys) to see round "
            "robin, waiting and reordering at work.",
        "ko": "배치를 하나 골라 데이터로더 안에서 따라가 보세요. 빨간 길은 사이드바의 설정으로 기록한 실행에서 그 배치가 "
            "실제로 지나간 길이고, 각 상자에는 트레이스가 그 자리에서 측정한 값이 적혀 있습니다. 아래 패널은 시간이 "
            "어디에 쓰였는지 보여 줍니다. 슬라이더(또는 화살표 키)로 배치를 하나씩 넘기며 라운드 로빈, 대기, 재정렬이 "
            "일하는 모습을 보세요.",
    },
    "tour.pick": {
        "en": "batch (task number, in sampler order)",
        "ko": "배치 (작업 번호, 샘플러 순서)",
    },
    "tour.epoch": {
        "en": "epoch",
        "ko": "에폭",
    },
    "tour.none": {
        "en": "No batch reached your loop in this run, so there is no path to show.",
        "ko": "이번 실행에서는 학습 루프에 도착한 배치가 없어 보여 줄 길이 없습니다.",
    },
    "tour.figure.title": {
        "en": "Batch {batch} of epoch {epoch}, made by {who}",
        "ko": "에폭 {epoch}의 배치 {batch}, 만든 곳: {who}",
    },
    "tour.who.worker": {
        "en": "worker {k}",
        "ko": "워커 {k}",
    },
    "tour.who.main": {
        "en": "the main process",
        "ko": "메인 프로세스",
    },
    "tour.x": {
        "en": "seconds since the run started",
        "ko": "실행 시작 후 경과 시간 (초)",
    },
    "tour.box.sampler": {
        "en": "sampler",
        "ko": "샘플러",
    },
    "tour.box.batch_sampler": {
        "en": "batch sampler",
        "ko": "배치 샘플러",
    },
    "tour.box.index_queue": {
        "en": "index_queue[{k}]",
        "ko": "index_queue[{k}]",
    },
    "tour.box.worker": {
        "en": "worker {k}",
        "ko": "워커 {k}",
    },
    "tour.box.worker_main": {
        "en": "main process",
        "ko": "메인 프로세스",
    },
    "tour.box.index_queue_none": {
        "en": "index queues",
        "ko": "인덱스 큐",
    },
    "tour.box.result_queue": {
        "en": "result_queue",
        "ko": "result_queue",
    },
    "tour.box.pin": {
        "en": "pin memory",
        "ko": "고정 메모리",
    },
    "tour.box.reorder": {
        "en": "reorder buffer",
        "ko": "재정렬 버퍼",
    },
    "tour.box.loop": {
        "en": "your loop",
        "ko": "학습 루프",
    },
    "tour.segment.index_queue": {
        "en": "in index_queue",
        "ko": "index_queue에서 대기",
    },
    "tour.segment.fetch": {
        "en": "fetch",
        "ko": "가져오기",
    },
    "tour.segment.collate": {
        "en": "collate",
        "ko": "콜레이트",
    },
    "tour.segment.result_queue": {
        "en": "in result_queue",
        "ko": "result_queue에서 대기",
    },
    "tour.segment.pin": {
        "en": "pin memory",
        "ko": "고정 메모리 복사",
    },
    "tour.segment.data_queue": {
        "en": "in data_queue",
        "ko": "data_queue에서 대기",
    },
    "tour.segment.reorder": {
        "en": "parked (reorder)",
        "ko": "대기 (재정렬)",
    },
    "tour.segment.loop": {
        "en": "your training step",
        "ko": "학습 단계",
    },
    "tour.note.sampler": {
        "en": "drew indices\n{indices}",
        "ko": "뽑은 인덱스\n{indices}",
    },
    "tour.note.sampler_iterable": {
        "en": "no sampler: the IterableDataset's stream decides",
        "ko": "샘플러 없음: IterableDataset의 스트림이 정함",
    },
    "tour.note.batch_sampler": {
        "en": "batch {batch} of {n_batches}\n{samples} samples\nat {t:.3f} s",
        "ko": "배치 {batch} / {n_batches}\n샘플 {samples}개\n{t:.3f}초에",
    },
    "tour.note.index_queue": {
        "en": "put at {t:.3f} s\nwaited {ms:.1f} ms for worker {worker}",
        "ko": "{t:.3f}초에 넣음\n워커 {worker} 대기: {ms:.1f} ms",
    },
    "tour.note.no_workers": {
        "en": "not used: num_workers=0",
        "ko": "쓰지 않음: num_workers=0",
    },
    "tour.note.worker": {
        "en": "fetch {samples} samples: {fetch_ms:.1f} ms\nslowest: index {index} ({slowest_ms:.1f} ms)\n"
            "collate {collate_ms:.1f} ms",
        "ko": "샘플 {samples}개 가져오기: {fetch_ms:.1f}\u00a0ms\n가장 느린 샘플: 인덱스 {index} ({slowest_ms:.1f}\u00a0ms)\n"
            "콜레이트 {collate_ms:.1f} ms",
    },
    "tour.note.result_queue": {
        "en": "{ms:.1f} ms in the queue",
        "ko": "큐에서 {ms:.1f} ms",
    },
    "tour.note.reorder_parked": {
        "en": "parked {ms:.1f} ms\nwaiting for batch {waiting_for}",
        "ko": "{ms:.1f} ms 대기\n기다린 배치: {waiting_for}",
    },
    "tour.note.reorder_direct": {
        "en": "not parked: its turn had come",
        "ko": "대기 없음: 이미 차례가 됨",
    },
    "tour.note.reorder_off": {
        "en": "no reordering: handed over as it came",
        "ko": "재정렬 없음: 도착한 대로 넘김",
    },
    "tour.note.pin_done": {
        "en": "pinned in {ms:.2f} ms",
        "ko": "{ms:.2f} ms 만에 고정 메모리로 복사",
    },
    "tour.note.pin_skipped": {
        "en": "pin skipped: no accelerator",
        "ko": "고정 메모리 복사 건너뜀: 가속기 없음",
    },
    "tour.note.pin_off": {
        "en": "not pinned:\npin_memory=False",
        "ko": "고정 메모리 안 씀:\npin_memory=False",
    },
    "tour.note.loop": {
        "en": "handed over at {t:.3f} s (#{position})\nwaited {wait_ms:.1f} ms\nstep {consume_ms:.1f} ms",
        "ko": "{t:.3f}초에 넘겨받음 (#{position})\n{wait_ms:.1f} ms 기다림\n학습 단계 {consume_ms:.1f} ms",
    },
    "tour.note.missing": {
        "en": "not in the trace",
        "ko": "트레이스에 없음",
    },
    "tour.stages.title": {
        "en": "Each stage, and the argument that controls it",
        "ko": "각 단계와 그것을 정하는 인자",
    },
    "tour.stage.this_batch": {
        "en": "This batch: {note}",
        "ko": "이 배치: {note}",
    },
    "tour.stage.sampler.arg": {
        "en": "`sampler`, `shuffle`, `generator`",
        "ko": "`sampler`, `shuffle`, `generator`",
    },
    "tour.stage.sampler.text": {
        "en": "The sampler decides the order of the dataset indices: `SequentialSampler` by default, `RandomSampler` "
            "with `shuffle=True` (seeded by `generator`), or the `sampler` you pass. An IterableDataset has none: its "
            "`__iter__` decides what comes next.",
        "ko": "샘플러는 데이터셋 인덱스의 순서를 정합니다. 기본은 `SequentialSampler`, `shuffle=True`이면 `RandomSampler`"
            "(`generator`로 시드 설정), 아니면 직접 넘긴 `sampler`입니다. IterableDataset에는 샘플러가 없고, `__iter__`가 "
            "다음에 올 것을 정합니다.",
    },
    "tour.stage.batch_sampler.arg": {
        "en": "`batch_size`, `drop_last`, `batch_sampler`",
        "ko": "`batch_size`, `drop_last`, `batch_sampler`",
    },
    "tour.stage.batch_sampler.text": {
        "en": "The batch sampler groups the sampler's indices into lists of `batch_size`; the last one is shorter unless "
            "`drop_last=True`. Pass your own `batch_sampler` (for example one that buckets by length) and leave those "
            "arguments unset. Each list is one task, numbered in this order.",
        "ko": "배치 샘플러는 샘플러의 인덱스를 `batch_size`개씩 묶어 목록으로 만듭니다. `drop_last=True`가 아니면 마지막 "
            "목록은 더 짧습니다. 직접 만든 `batch_sampler`(예: 길이별로 버킷을 만드는 것)를 넘길 때는 이 인자들을 "
            "비워 두세요. 목록 하나가 작업 하나이며, 이 순서대로 번호가 매겨집니다.",
    },
    "tour.stage.index_queue.arg": {
        "en": "`num_workers`, `prefetch_factor`",
        "ko": "`num_workers`, `prefetch_factor`",
    },
    "tour.stage.index_queue.text": {
        "en": "With `num_workers > 0` the main process puts each task on one worker's own index queue, round robin. It "
            "keeps at most `prefetch_factor × num_workers` tasks out (batches, not samples) and sends the next one "
            "only when it hands a batch to your loop.",
        "ko": "`num_workers > 0`이면 메인 프로세스가 각 작업을 라운드 로빈으로 워커마다 따로 있는 인덱스 큐에 넣습니다. "
            "한 번에 최대 `prefetch_factor × num_workers`개의 작업(샘플이 아니라 배치)만 내보내고, 학습 루프에 배치를 "
            "하나 넘길 때에만 다음 작업을 보냅니다.",
    },
    "tour.stage.worker.arg": {
        "en": "`num_workers`, `collate_fn`",
        "ko": "`num_workers`, `collate_fn`",
    },
    "tour.stage.worker.text": {
        "en": "A worker process takes the task, calls `dataset[i]` for each index (fetch) and merges the samples into "
            "one batch with `collate_fn` (collate). With `num_workers=0` the main process does this itself, inside "
            "`next()`, while your loop waits.",
        "ko": "워커 프로세스는 작업을 받아 인덱스마다 `dataset[i]`를 호출하고(가져오기), `collate_fn`으로 샘플들을 배치 "
            "하나로 합칩니다(콜레이트). `num_workers=0`이면 학습 루프가 기다리는 동안 메인 프로세스가 `next()` 안에서 "
            "이 일을 직접 합니다.",
    },
    "tour.stage.result_queue.arg": {
        "en": "`num_workers`, `timeout`",
        "ko": "`num_workers`, `timeout`",
    },
    "tour.stage.result_queue.text": {
        "en": "Every worker puts its finished batch on one shared result queue, so batches arrive in the order they "
            "finish, not in task order. Tensors travel through shared memory; `timeout` bounds how long the main "
            "process waits on this queue.",
        "ko": "모든 워커는 완성한 배치를 공유 결과 큐 하나에 넣습니다. 그래서 배치는 작업 순서가 아니라 끝난 순서대로 "
            "도착합니다. 텐서는 공유 메모리로 전달되며, `timeout`은 메인 프로세스가 이 큐에서 기다리는 시간의 "
            "상한입니다.",
    },
    "tour.stage.pin.arg": {
        "en": "`pin_memory`",
        "ko": "`pin_memory`",
    },
    "tour.stage.pin.text": {
        "en": "With `pin_memory=True` a thread in the main process copies each batch into page-locked memory, so that "
            "`.to('cuda', non_blocking=True)` can overlap the copy with compute; it sits between the result queue and "
            "a second queue, `data_queue`. Without an accelerator torch skips it and warns.",
        "ko": "`pin_memory=True`이면 메인 프로세스의 스레드 하나가 각 배치를 고정 메모리(pinned memory, 페이지 잠금 "
            "메모리)로 복사합니다. 그래야 `.to('cuda', non_blocking=True)`가 복사를 연산과 겹칠 수 있습니다. 이 스레드는 "
            "결과 큐와 두 번째 큐인 `data_queue` 사이에 있습니다. 가속기가 없으면 torch는 경고를 내고 이 단계를 "
            "건너뜁니다.",
    },
    "tour.stage.reorder.arg": {
        "en": "`in_order`",
        "ko": "`in_order`",
    },
    "tour.stage.reorder.text": {
        "en": "With `in_order=True` (the default) batches are handed over in task order: one that arrives early waits "
            "in the reorder buffer until the batches before it are in. `in_order=False` hands each one over as it "
            "arrives, so one slow sample no longer holds up the rest.",
        "ko": "`in_order=True`(기본값)이면 배치는 작업 순서대로 넘겨집니다. 일찍 도착한 배치는 앞선 배치들이 다 들어올 "
            "때까지 재정렬 버퍼에서 기다립니다. `in_order=False`이면 도착하는 대로 넘기므로, 느린 샘플 하나가 나머지를 "
            "붙잡지 않습니다.",
    },
    "tour.stage.loop.arg": {
        "en": "your loop body",
        "ko": "학습 루프 본문",
    },
    "tour.stage.loop.text": {
        "en": "`next()` returns the batch to your loop; while your step runs, the workers prepare the next batches. If "
            "your loop mostly waits for `next()`, the loader is the bottleneck; if it rarely waits, a faster loader "
            "will not help.",
        "ko": "`next()`가 배치를 학습 루프에 돌려줍니다. 학습 단계가 도는 동안 워커들은 다음 배치를 준비합니다. 학습 "
            "루프가 대부분의 시간을 `next()`를 기다리며 보낸다면 데이터로더가 병목이고, 거의 기다리지 않는다면 더 빠른 "
            "데이터로더는 도움이 되지 않습니다.",
    },
    "tour.links.title": {
        "en": "Where to look next",
        "ko": "다음에 볼 곳",
    },
    "tour.link.1_Event_table": {
        "en": "Event table: every event of the run, one row each",
        "ko": "이벤트 표: 실행의 모든 이벤트를 한 행씩",
    },
    "tour.link.2_Index_queues": {
        "en": "Index queues: every queue, moment by moment",
        "ko": "인덱스 큐: 모든 큐의 순간순간",
    },
    "tour.link.3_Worker_timelines": {
        "en": "Worker timelines: who did what, when, and what stalled",
        "ko": "워커 타임라인: 누가 언제 무엇을 했고 어디서 정체되었나",
    },
    "tour.link.4_Sampling_and_imbalance": {
        "en": "Sampling and class imbalance: which samples each epoch really drew",
        "ko": "샘플링과 클래스 불균형: 각 에폭이 실제로 뽑은 샘플",
    },
    "tour.link.5_Padding_and_collate": {
        "en": "Padding and collate: how much of each batch is padding",
        "ko": "패딩과 콜레이트: 각 배치에서 패딩이 차지하는 몫",
    },
    "tour.link.6_Pinned_memory": {
        "en": "Pinned memory: pageable vs pinned copies to the GPU",
        "ko": "고정 메모리: GPU로의 일반(pageable) 복사와 고정 메모리 복사",
    },
    "tour.link.7_Your_trace": {
        "en": "Your trace: upload a recording of your own loader",
        "ko": "내 트레이스: 내 데이터로더를 기록한 파일 올리기",
    },
    "tour.link.8_Distributed": {
        "en": "Distributed: which samples each rank's DistributedSampler handed out",
        "ko": "분산: 각 랭크의 분산 샘플러가 나눠 준 샘플",
    },
    "tour.link.0_Lessons": {
        "en": "Lessons: every DataLoader concept, step by step — guess, then watch a real run",
        "ko": "레슨: 데이터로더의 모든 개념을 차례로 — 먼저 예상하고, 실제 실행으로 확인하기",
    },
}
