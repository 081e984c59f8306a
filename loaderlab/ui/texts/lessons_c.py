"""Texts of the "Lessons" page, lessons 10–14: seeding, WeightedRandomSampler, pin_memory, DistributedSampler, timeout.

Same layout as ``lessons_a``: ``title``, ``explain``, ``question``, ``choice.<id>``, ``why.<id>`` per lesson.
"""

TEXTS = {
    "lessons.seeding.title": {
        "en": "Worker seeding and `get_worker_info()`",
        "ko": "워커 시드와 `get_worker_info()`",
    },
    "lessons.seeding.explain": {
        "en": "Each worker is its own process with its own random generators. torch seeds `random`, torch and NumPy "
            "in worker k from `base_seed + k` (`base_seed` is drawn from the loader's `generator` every epoch), so "
            "random augmentations differ between workers. Inside a worker `torch.utils.data.get_worker_info()` tells "
            "the dataset its `id`, `num_workers` and `seed` — which is how an `IterableDataset` splits its stream. "
            "Reseeding NumPy with a constant in `worker_init_fn` undoes all of this.",
        "ko": "워커는 각자 별도의 프로세스이고 난수 생성기도 따로 가집니다. torch는 워커 k의 `random`, torch, NumPy에 "
            "`base_seed + k`로 시드를 줍니다(`base_seed`는 에폭마다 데이터로더의 `generator`에서 뽑습니다). 그래서 무작위 "
            "증강이 워커마다 다릅니다. 워커 안에서 `torch.utils.data.get_worker_info()`는 데이터셋에 `id`, `num_workers`, "
            "`seed`를 알려 줍니다. `IterableDataset`은 이것으로 스트림을 나눕니다. `worker_init_fn`에서 NumPy에 상수 시드를 "
            "다시 주면 이 모든 것이 무효가 됩니다.",
    },
    "lessons.seeding.question": {
        "en": "A sharded `IterableDataset` draws `np.random.random()` for every sample; `num_workers={num_workers}`, "
            "`worker_init_fn`: `{init}`. Do the workers draw the same numbers?",
        "ko": "나눠진 `IterableDataset`이 샘플마다 `np.random.random()`을 뽑습니다. `num_workers={num_workers}`, "
            "`worker_init_fn`: `{init}`. 워커들이 같은 수를 뽑을까요?",
    },
    "lessons.seeding.choice.different": {
        "en": "No: each worker's NumPy is seeded differently",
        "ko": "아니요: 워커마다 NumPy 시드가 다름",
    },
    "lessons.seeding.choice.same": {
        "en": "Yes: every worker starts from the same NumPy state",
        "ko": "예: 모든 워커가 같은 NumPy 상태에서 시작함",
    },
    "lessons.seeding.choice.error": {
        "en": "Neither: `np.random` cannot be used inside a worker",
        "ko": "둘 다 아님: 워커 안에서는 `np.random`을 쓸 수 없음",
    },
    "lessons.seeding.why.different": {
        "en": "The {workers} workers (seeds {seeds}, as `get_worker_info().seed` reports them) drew {n} different "
            "numbers for {samples} samples: none came twice. Each worker yielded only its share of the stream, split "
            "with `get_worker_info()`.",
        "ko": "워커 {workers}개(`get_worker_info().seed`가 알려 준 시드 {seeds})가 샘플 {samples}개에 서로 다른 수 {n}개를 "
            "뽑았습니다. 같은 수는 한 번도 없었습니다. 각 워커는 `get_worker_info()`로 나눈 자기 몫의 스트림만 내놓았습니다.",
    },
    "lessons.seeding.why.same": {
        "en": "Worker {worker} drew the same numbers as worker {other} ({shared} draws in common): `worker_init_fn` "
            "seeded NumPy with one constant in every worker, throwing away torch's per-worker seeds ({seeds}). "
            "Derive the seed from `torch.initial_seed()` instead.",
        "ko": "워커 {worker}가 워커 {other}와 같은 수를 뽑았습니다(공통 {shared}개). `worker_init_fn`이 모든 워커에서 NumPy에 "
            "같은 상수 시드를 주어 torch의 워커별 시드({seeds})를 버렸습니다. 대신 `torch.initial_seed()`에서 시드를 "
            "만드세요.",
    },
    "lessons.weighted.title": {
        "en": "`WeightedRandomSampler` and class imbalance",
        "ko": "`WeightedRandomSampler`와 클래스 불균형",
    },
    "lessons.weighted.explain": {
        "en": "With imbalanced classes a model seldom sees the rare one. `WeightedRandomSampler(weights, num_samples, "
            "replacement)` draws indices with probability proportional to one weight per sample; with weight 1 / "
            "(size of the sample's class) every class is drawn equally often. That needs `replacement=True`: without "
            "replacement each sample is drawn at most once, and a full epoch keeps the data's own proportions.",
        "ko": "클래스가 불균형하면 모델은 드문 클래스를 거의 보지 못합니다. `WeightedRandomSampler(weights, num_samples, "
            "replacement)`는 샘플마다 하나인 가중치에 비례하는 확률로 인덱스를 뽑습니다. 가중치를 1 / (샘플이 속한 클래스의 "
            "크기)로 주면 모든 클래스가 같은 빈도로 뽑힙니다. 단 `replacement=True`여야 합니다. 비복원이면 샘플은 많아야 한 "
            "번 뽑히고, 에폭 전체는 데이터 자체의 비율을 그대로 따릅니다.",
    },
    "lessons.weighted.question": {
        "en": "Label 1 is {data:.0%} of the data; `WeightedRandomSampler` with inverse class-frequency weights, "
            "`replacement={replacement}`. What share of one epoch's samples is label 1?",
        "ko": "레이블 1은 데이터의 {data:.0%}입니다. 클래스 빈도의 역수를 가중치로 쓴 `WeightedRandomSampler`, "
            "`replacement={replacement}`. 한 에폭의 샘플 중 레이블 1의 비율은 얼마일까요?",
    },
    "lessons.weighted.choice.data": {
        "en": "About {data:.0%}, as in the data",
        "ko": "데이터처럼 약 {data:.0%}",
    },
    "lessons.weighted.choice.balanced": {
        "en": "About 50%",
        "ko": "약 50%",
    },
    "lessons.weighted.choice.all": {
        "en": "Nearly 100%: the rare class's large weights win",
        "ko": "거의 100%: 드문 클래스의 큰 가중치가 이김",
    },
    "lessons.weighted.why.data": {
        "en": "Label 1 made up {share:.1%} of the epoch ({count} of {drawn}), the data's own {data:.0%}: {distinct} "
            "distinct samples, {repeats} repeats. Without replacement every sample comes exactly once, so the "
            "weights only change the order.",
        "ko": "레이블 1은 에폭의 {share:.1%}({drawn}개 중 {count}개)로, 데이터 자체의 {data:.0%}입니다. 서로 다른 샘플 "
            "{distinct}개, 중복 {repeats}개. 비복원이면 모든 샘플이 정확히 한 번씩 오므로 가중치는 순서만 바꿉니다.",
    },
    "lessons.weighted.why.balanced": {
        "en": "Label 1 made up {share:.1%} of the epoch ({count} of {drawn}), against {data:.0%} of the data: the weights "
            "balanced the classes. The price: only {distinct} distinct samples were drawn ({repeats} repeats) — rare "
            "samples came many times, some common ones never.",
        "ko": "레이블 1은 에폭의 {share:.1%}({drawn}개 중 {count}개)로, 데이터의 {data:.0%}와 다릅니다. 가중치가 클래스 "
            "균형을 맞췄습니다. 대가: 서로 다른 샘플은 {distinct}개뿐이고(중복 {repeats}개), 드문 샘플은 여러 번, 흔한 "
            "샘플 일부는 한 번도 오지 않았습니다.",
    },
    "lessons.weighted.why.all": {
        "en": "Label 1 made up {share:.1%} of the epoch ({count} of {drawn}).",
        "ko": "레이블 1은 에폭의 {share:.1%}({drawn}개 중 {count}개)였습니다.",
    },
    "lessons.pin.title": {
        "en": "`pin_memory` and `non_blocking`",
        "ko": "`pin_memory`와 `non_blocking`",
    },
    "lessons.pin.explain": {
        "en": "A copy to the GPU from ordinary (pageable) memory goes through a staging buffer and blocks. With "
            "`pin_memory=True` the DataLoader first copies each batch into page-locked (pinned) memory, so that "
            "`batch.to('cuda', non_blocking=True)` runs asynchronously and overlaps the copy with compute. Pinning is "
            "itself a host copy: it pays when copies are large next to compute.",
        "ko": "일반(페이지 가능) 메모리에서 GPU로 복사하면 중간 버퍼를 거치고 기다려야 합니다. `pin_memory=True`이면 "
            "데이터로더가 먼저 각 미니배치를 페이지 잠금(고정 메모리)으로 복사하므로, `batch.to('cuda', non_blocking=True)`가 "
            "비동기로 돌아 복사와 계산이 겹칩니다. 고정 자체도 호스트 복사이므로, 계산에 비해 복사가 클 때 이득입니다.",
    },
    "lessons.pin.question": {
        "en": "`pin_memory={pin_memory}`, `num_workers={num_workers}`. Where are the batches pinned?",
        "ko": "`pin_memory={pin_memory}`, `num_workers={num_workers}`. 미니배치는 어디에서 고정될까요?",
    },
    "lessons.pin.choice.main_thread": {
        "en": "In a thread of the main process, between `result_queue` and your loop",
        "ko": "메인 프로세스의 스레드에서, `result_queue`와 루프 사이",
    },
    "lessons.pin.choice.workers": {
        "en": "In each worker process, before the batch goes on the result queue",
        "ko": "각 워커 프로세스에서, 결과 큐에 넣기 전에",
    },
    "lessons.pin.choice.loop": {
        "en": "In your loop, inside `.to('cuda', non_blocking=True)`",
        "ko": "루프 안, `.to('cuda', non_blocking=True)`에서",
    },
    "lessons.pin.choice.none": {
        "en": "Nowhere: the batches stay in pageable memory",
        "ko": "어디에서도: 미니배치는 페이지 가능 메모리에 그대로 있음",
    },
    "lessons.pin.why.main_thread": {
        "en": "{pinned} of {batches} batches went through the pin stage in the main process (pid {pid}, the `pin` "
            "lane): a pin thread takes each batch off the result queue and puts it, pinned, on `data_queue`. "
            "{skipped} were skipped because this machine has no accelerator — torch then warns and pins nothing.",
        "ko": "미니배치 {batches}개 중 {pinned}개가 메인 프로세스(pid {pid}, `pin` 줄)의 고정 단계를 거쳤습니다. 고정 "
            "스레드가 결과 큐에서 미니배치를 꺼내 고정 메모리에 담아 `data_queue`에 넣습니다. 이 컴퓨터에는 가속기가 없어 "
            "{skipped}개는 건너뛰었습니다. 이때 torch는 경고하고 아무것도 고정하지 않습니다.",
    },
    "lessons.pin.why.workers": {
        "en": "{pinned} of {batches} batches were pinned in the worker processes.",
        "ko": "미니배치 {batches}개 중 {pinned}개가 워커 프로세스에서 고정되었습니다.",
    },
    "lessons.pin.why.none": {
        "en": "No pin stage ran: with `pin_memory=False` the {batches} batches went straight from the result queue to "
            "your loop, in pageable memory, and `.to('cuda')` copies them synchronously.",
        "ko": "고정 단계가 없었습니다. `pin_memory=False`이면 미니배치 {batches}개가 결과 큐에서 곧바로 페이지 가능 메모리에 "
            "담긴 채 루프로 가고, `.to('cuda')`는 동기적으로 복사합니다.",
    },
    "lessons.distributed.title": {
        "en": "`DistributedSampler` and `set_epoch`",
        "ko": "`DistributedSampler`와 `set_epoch`",
    },
    "lessons.distributed.explain": {
        "en": "In distributed training each process (rank) must read a different part of the data. "
            "`DistributedSampler(dataset, num_replicas, rank)` shuffles all indices with a seed the ranks share and "
            "gives each rank every `num_replicas`-th one, so the parts never overlap. It shuffles with `seed + "
            "epoch`, and learns the epoch only from `sampler.set_epoch(epoch)`. (Both ranks run here in one process: "
            "with `num_replicas` and `rank` given, no process group is needed.)",
        "ko": "분산 학습에서는 각 프로세스(랭크)가 데이터의 다른 부분을 읽어야 합니다. `DistributedSampler(dataset, "
            "num_replicas, rank)`는 랭크들이 공유하는 시드로 모든 인덱스를 섞고, 각 랭크에 `num_replicas`번째마다 하나씩 "
            "주므로 부분이 겹치지 않습니다. 섞을 때 `seed + epoch`를 쓰는데, 에폭은 `sampler.set_epoch(epoch)`로만 알게 "
            "됩니다. (여기서는 두 랭크가 한 프로세스에서 돕니다. `num_replicas`와 `rank`를 주면 프로세스 그룹이 필요 "
            "없습니다.)",
    },
    "lessons.distributed.question": {
        "en": "{num_replicas} ranks, `shuffle=True`, {epochs} epochs, `set_epoch` called: {set_epoch}. What order does "
            "rank 0 read in epoch 1?",
        "ko": "랭크 {num_replicas}개, `shuffle=True`, 에폭 {epochs}개, `set_epoch` 호출: {set_epoch}. 랭크 0은 에폭 1에 "
            "어떤 순서로 읽을까요?",
    },
    "lessons.distributed.choice.same": {
        "en": "The same order as in epoch 0",
        "ko": "에폭 0과 같은 순서",
    },
    "lessons.distributed.choice.new": {
        "en": "A new shuffled order",
        "ko": "새로 섞은 순서",
    },
    "lessons.distributed.choice.other_rank": {
        "en": "Rank 1's order from epoch 0: the ranks swap halves",
        "ko": "에폭 0의 랭크 1 순서: 랭크끼리 절반을 바꿈",
    },
    "lessons.distributed.why.same": {
        "en": "Rank 0 read {first} in epoch 0 and {second} in epoch 1 — the same order: without `set_epoch` the sampler "
            "shuffles with `seed + 0` every epoch. The ranks still split the data ({per_rank} indices each, "
            "{overlap} in common), but every epoch repeats the first.",
        "ko": "랭크 0은 에폭 0에 {first}, 에폭 1에 {second}를 읽었습니다. 같은 순서입니다. `set_epoch`가 없으면 샘플러는 매 "
            "에폭 `seed + 0`으로 섞습니다. 랭크들은 여전히 데이터를 나누지만(랭크마다 인덱스 {per_rank}개, 공통 "
            "{overlap}개), 모든 에폭이 첫 에폭을 되풀이합니다.",
    },
    "lessons.distributed.why.new": {
        "en": "Rank 0 read {first} in epoch 0 and {second} in epoch 1: `set_epoch(epoch)` changed the seed, so each "
            "epoch is a new shuffle, and the {ranks} ranks still split it ({per_rank} indices each, {overlap} in "
            "common).",
        "ko": "랭크 0은 에폭 0에 {first}, 에폭 1에 {second}를 읽었습니다. `set_epoch(epoch)`가 시드를 바꿔 에폭마다 새로 "
            "섞였고, 랭크 {ranks}개는 여전히 나눠 읽었습니다(랭크마다 인덱스 {per_rank}개, 공통 {overlap}개).",
    },
    "lessons.distributed.why.other_rank": {
        "en": "Rank 0 read in epoch 1 ({second}) what rank 1 read in epoch 0.",
        "ko": "랭크 0은 에폭 1에 랭크 1이 에폭 0에 읽은 것({second})을 읽었습니다.",
    },
    "lessons.timeout.title": {
        "en": "`timeout` and a stuck worker",
        "ko": "`timeout`과 멈춘 워커",
    },
    "lessons.timeout.explain": {
        "en": "`timeout` (seconds; 0 waits forever) bounds how long the main process waits for the next batch from the "
            "workers. A worker stuck in `__getitem__` — a hung network read, a deadlock — otherwise freezes training "
            "without a word. With a timeout your loop gets torch's `RuntimeError` instead, and LoaderLab's trace "
            "shows which worker was stuck on which sample.",
        "ko": "`timeout`(초, 0이면 무한히 기다림)은 메인 프로세스가 워커의 다음 미니배치를 기다리는 시간의 상한입니다. "
            "`__getitem__`에서 멈춘 워커(응답 없는 네트워크 읽기, 교착 상태)는 그렇지 않으면 아무 말 없이 학습을 멈춰 세웁니다. "
            "timeout이 있으면 루프는 대신 torch의 `RuntimeError`를 받고, LoaderLab의 트레이스는 어느 워커가 어느 샘플에서 "
            "멈췄는지 보여 줍니다.",
    },
    "lessons.timeout.question": {
        "en": "`num_workers={num_workers}`, `timeout={timeout}`, and sample {straggler_index} takes {straggler_ms:.0f} ms. "
            "What happens when your loop reaches its batch?",
        "ko": "`num_workers={num_workers}`, `timeout={timeout}`, 샘플 {straggler_index}가 {straggler_ms:.0f} ms 걸립니다. "
            "루프가 그 미니배치에 이르면 어떻게 될까요?",
    },
    "lessons.timeout.choice.waits": {
        "en": "The loop waits for the slow sample, then goes on",
        "ko": "루프가 느린 샘플을 기다린 뒤 계속함",
    },
    "lessons.timeout.choice.raises": {
        "en": "After about `timeout` seconds the loop gets a `RuntimeError`",
        "ko": "약 `timeout`초 뒤 루프가 `RuntimeError`를 받음",
    },
    "lessons.timeout.choice.skips": {
        "en": "The DataLoader skips the slow sample and goes on",
        "ko": "데이터로더가 느린 샘플을 건너뛰고 계속함",
    },
    "lessons.timeout.choice.restarts": {
        "en": "The DataLoader restarts the stuck worker and retries the batch",
        "ko": "데이터로더가 멈춘 워커를 다시 시작하고 미니배치를 다시 시도함",
    },
    "lessons.timeout.why.raises": {
        "en": "The loop received {handed} batches, then torch's error: `{message}`. Worker {worker} was still inside "
            "`dataset[{index}]` (batch {batch}) when the loop gave up. The workers were shut down afterwards; none is "
            "left running.",
        "ko": "루프는 미니배치 {handed}개를 받은 뒤 torch의 오류를 받았습니다: `{message}`. 루프가 포기했을 때 워커 {worker}는 "
            "아직 `dataset[{index}]`(미니배치 {batch}) 안에 있었습니다. 그 뒤 워커들은 종료되었고, 남은 프로세스는 없습니다.",
    },
    "lessons.timeout.why.waits": {
        "en": "The loop received all {handed} batches: sample {index} took {slow_s:.2f} s in worker {worker}, less than "
            "`timeout={timeout}`, so the loop simply waited for it.",
        "ko": "루프는 미니배치 {handed}개를 모두 받았습니다. 샘플 {index}는 워커 {worker}에서 {slow_s:.2f}초 걸렸고, "
            "`timeout={timeout}`보다 짧아 루프는 그저 기다렸습니다.",
    },
}
