"""Texts of the "Lessons" page: the page's own words, and lessons 1–4 (Dataset, batches, shuffle, batch_sampler).

Each lesson has ``title``, ``explain``, ``question``, ``choice.<id>`` and ``why.<id>`` (the explanation
of the choice the run proved right, filled with what the run measured). Lessons 5–9 are in
``lessons_b``, 10–14 in ``lessons_c``.
"""

TEXTS = {
    "lessons.title": {
        "en": "Lessons: every DataLoader concept, one real run at a time",
        "ko": "레슨: 데이터로더의 모든 개념을, 실제 실행 하나씩으로",
    },
    "lessons.intro": {
        "en": "Each lesson explains one idea and asks you a question. Answer first: then the loaderlab engine runs the "
            "lesson's settings — real worker processes, real queues — and the answer is read from what that run "
            "recorded.",
        "ko": "각 레슨은 개념 하나를 설명하고 질문을 하나 던집니다. 먼저 답하세요. 그러면 loaderlab 엔진이 레슨의 설정으로 "
            "실제로 실행되고(진짜 워커 프로세스, 진짜 큐), 정답은 그 실행이 기록한 내용에서 읽어 냅니다.",
    },
    "lessons.pick": {
        "en": "lesson",
        "ko": "레슨",
    },
    "lessons.option": {
        "en": "{n}. {title}",
        "ko": "{n}. {title}",
    },
    "lessons.prev": {
        "en": "← previous lesson",
        "ko": "← 이전 레슨",
    },
    "lessons.next": {
        "en": "next lesson →",
        "ko": "다음 레슨 →",
    },
    "lessons.heading": {
        "en": "Lesson {n} of {total}: {title}",
        "ko": "레슨 {n} / {total}: {title}",
    },
    "lessons.question": {
        "en": "Your guess",
        "ko": "여러분의 예상",
    },
    "lessons.check": {
        "en": "Check my answer with a real run",
        "ko": "실제 실행으로 답 확인하기",
    },
    "lessons.need_choice": {
        "en": "Pick an answer first.",
        "ko": "먼저 답을 고르세요.",
    },
    "lessons.waiting": {
        "en": "Answer the question to start the run.",
        "ko": "질문에 답하면 실행이 시작됩니다.",
    },
    "lessons.right": {
        "en": "Right: {choice}",
        "ko": "정답입니다: {choice}",
    },
    "lessons.wrong": {
        "en": "Not quite. You answered “{picked}”; the run shows: {choice}",
        "ko": "아쉽습니다. “{picked}”라고 답했지만, 실행 결과는 이렇습니다: {choice}",
    },
    "lessons.run.title": {
        "en": "What the run recorded",
        "ko": "실행이 기록한 것",
    },
    "lessons.run.error": {
        "en": "torch's message: {message}",
        "ko": "torch의 메시지: {message}",
    },
    "lessons.code.title": {
        "en": "The same in plain torch",
        "ko": "순수 torch로 쓴 같은 코드",
    },
    "lessons.try": {
        "en": "Change it yourself: {page}, with this lesson's settings filled in",
        "ko": "직접 바꿔 보기: {page} (이 레슨의 설정이 채워진 채로)",
    },
    "lessons.dataset.title": {
        "en": "Dataset: map-style vs iterable-style",
        "ko": "데이터셋: 맵 스타일과 반복 가능 스타일",
    },
    "lessons.dataset.explain": {
        "en": "A map-style `Dataset` answers `dataset[i]` for any index: the sampler decides the order and each worker "
            "fetches the indices it is sent. An `IterableDataset` has no indices: every worker gets its own copy and "
            "calls `iter()` on it, so the stream decides what comes next — and unless `__iter__` splits the stream "
            "with `get_worker_info()`, every worker yields all of it.",
        "ko": "맵 스타일 `Dataset`은 어떤 인덱스든 `dataset[i]`로 답합니다. 순서는 샘플러가 정하고, 각 워커는 받은 인덱스를 "
            "가져옵니다. `IterableDataset`에는 인덱스가 없습니다. 워커마다 데이터셋 사본을 받아 `iter()`를 부르므로 다음에 "
            "무엇이 올지는 스트림이 정합니다. 그래서 `__iter__`가 `get_worker_info()`로 스트림을 나누지 않으면 모든 워커가 "
            "스트림 전체를 내놓습니다.",
    },
    "lessons.dataset.question": {
        "en": "An `IterableDataset` of {n_samples} samples that does not split its stream, `num_workers={num_workers}`, "
            "`batch_size={batch_size}`. How many samples reach your loop in one epoch?",
        "ko": "스트림을 나누지 않는 샘플 {n_samples}개짜리 `IterableDataset`, `num_workers={num_workers}`, "
            "`batch_size={batch_size}`. 한 에폭에 몇 개의 샘플이 루프에 도착할까요?",
    },
    "lessons.dataset.choice.once": {
        "en": "{n_samples}: each sample once; the workers share the stream",
        "ko": "{n_samples}개: 샘플마다 한 번씩, 워커들이 스트림을 나눠 가짐",
    },
    "lessons.dataset.choice.per_worker": {
        "en": "{n_samples} × {num_workers}: every worker yields the whole stream",
        "ko": "{n_samples} × {num_workers}개: 모든 워커가 스트림 전체를 내놓음",
    },
    "lessons.dataset.choice.error": {
        "en": "None: torch rejects an `IterableDataset` with `num_workers > 0`",
        "ko": "0개: torch는 `num_workers > 0`인 `IterableDataset`을 거부함",
    },
    "lessons.dataset.why.once": {
        "en": "Your loop received {received} samples from a dataset of {n}: each one once (per worker: {per_worker}). "
            "A map-style dataset gets its indices from the sampler, and a sharded `IterableDataset` splits its "
            "stream with `get_worker_info()`, so no sample comes twice.",
        "ko": "루프는 샘플 {n}개짜리 데이터셋에서 {received}개를 받았습니다. 모두 한 번씩입니다(워커별: {per_worker}). 맵 "
            "스타일 데이터셋은 샘플러에게서 인덱스를 받고, 나눠진 `IterableDataset`은 `get_worker_info()`로 스트림을 "
            "나누므로 같은 샘플이 두 번 오지 않습니다.",
    },
    "lessons.dataset.why.per_worker": {
        "en": "Your loop received {received} samples from a dataset of {n}: the {workers} workers each yielded the "
            "whole stream (samples per worker: {per_worker}). torch gives every worker a copy of the dataset and "
            "calls `iter()` on each; only your `__iter__` can split the work, with `get_worker_info()`.",
        "ko": "루프는 샘플 {n}개짜리 데이터셋에서 {received}개를 받았습니다. 워커 {workers}개가 저마다 스트림 전체를 "
            "내놓았습니다(워커별 샘플 수: {per_worker}). torch는 워커마다 데이터셋 사본을 주고 각각 `iter()`를 부릅니다. "
            "일을 나눌 수 있는 것은 여러분의 `__iter__`뿐이며, `get_worker_info()`로 나눕니다.",
    },
    "lessons.batches.title": {
        "en": "DataLoader and batches: `batch_size`, `drop_last`, `batch_size=None`",
        "ko": "데이터로더와 미니배치: `batch_size`, `drop_last`, `batch_size=None`",
    },
    "lessons.batches.explain": {
        "en": "The DataLoader groups the sampler's indices into lists of `batch_size` and collates each list into one "
            "batch, a tensor whose first dimension is the batch. When the data does not divide evenly the last "
            "batch is shorter, unless `drop_last=True` drops it. `batch_size=None` turns batching off: each sample "
            "reaches your loop on its own, without a batch dimension.",
        "ko": "데이터로더는 샘플러의 인덱스를 `batch_size`개씩 묶고, 묶음마다 콜레이트해 미니배치 하나를 만듭니다. 첫 번째 "
            "차원이 미니배치인 텐서입니다. 데이터가 나누어떨어지지 않으면 마지막 미니배치가 더 작습니다. "
            "`drop_last=True`이면 그 미니배치를 버립니다. `batch_size=None`은 미니배치 만들기를 끕니다. 샘플이 미니배치 "
            "차원 없이 하나씩 루프에 도착합니다.",
    },
    "lessons.batches.question": {
        "en": "{n_samples} samples, `batch_size={batch_size}`, `drop_last={drop_last}`. What does your loop receive?",
        "ko": "샘플 {n_samples}개, `batch_size={batch_size}`, `drop_last={drop_last}`. 루프는 무엇을 받을까요?",
    },
    "lessons.batches.choice.short_last": {
        "en": "Batches of {batch_size}, and a shorter last one with what is left",
        "ko": "{batch_size}개짜리 미니배치들과, 남은 것을 담은 더 작은 마지막 미니배치",
    },
    "lessons.batches.choice.dropped": {
        "en": "Only full batches of {batch_size}; the rest never reaches the loop",
        "ko": "{batch_size}개로 꽉 찬 미니배치만; 나머지는 루프에 오지 않음",
    },
    "lessons.batches.choice.padded": {
        "en": "Full batches of {batch_size}: the last one is topped up with repeated samples",
        "ko": "{batch_size}개로 꽉 찬 미니배치: 마지막 것은 샘플을 되풀이해 채움",
    },
    "lessons.batches.choice.unbatched": {
        "en": "One sample at a time, without a batch dimension",
        "ko": "미니배치 차원 없이 샘플 하나씩",
    },
    "lessons.batches.why.short_last": {
        "en": "The run made {batches} batches of sizes {sizes}: all {received} of the {n} samples arrived, the last "
            "batch holding the {last} left over. `drop_last=True` would drop a short last batch.",
        "ko": "실행은 크기 {sizes}의 미니배치 {batches}개를 만들었습니다. 샘플 {n}개 중 {received}개가 모두 도착했고, "
            "마지막 미니배치가 남은 {last}개를 담았습니다. `drop_last=True`라면 작은 마지막 미니배치를 버립니다.",
    },
    "lessons.batches.why.dropped": {
        "en": "The run made {batches} batches of sizes {sizes}: {received} of the {n} samples arrived and {dropped} "
            "never did, because `drop_last=True` drops an incomplete last batch (useful when every step needs "
            "the same batch shape).",
        "ko": "실행은 크기 {sizes}의 미니배치 {batches}개를 만들었습니다. 샘플 {n}개 중 {received}개가 도착했고 {dropped}개는 "
            "오지 않았습니다. `drop_last=True`는 덜 찬 마지막 미니배치를 버리기 때문입니다(모든 스텝에 같은 모양의 "
            "미니배치가 필요할 때 유용합니다).",
    },
    "lessons.batches.why.unbatched": {
        "en": "With `batch_size=None` the run handed over {batches} items of one sample each: no batch sampler, no "
            "batch dimension; `collate_fn` only converts each sample (NumPy arrays become tensors).",
        "ko": "`batch_size=None`으로 실행은 샘플 하나씩인 항목 {batches}개를 넘겼습니다. 배치 샘플러도, 미니배치 차원도 "
            "없습니다. `collate_fn`은 샘플마다 변환만 합니다(NumPy 배열은 텐서가 됩니다).",
    },
    "lessons.shuffle.title": {
        "en": "`shuffle` and the Sampler",
        "ko": "`shuffle`과 샘플러",
    },
    "lessons.shuffle.explain": {
        "en": "The sampler decides the order in which dataset indices are read. `shuffle=False` gives a "
            "`SequentialSampler` (0, 1, 2, …); `shuffle=True` a `RandomSampler`, which draws a new permutation each "
            "time an epoch starts, from the `generator` you pass (or torch's global seed). Pass your own `sampler` "
            "for any other order — but not together with `shuffle=True`.",
        "ko": "샘플러는 데이터셋 인덱스를 읽는 순서를 정합니다. `shuffle=False`는 `SequentialSampler`(0, 1, 2, …)를, "
            "`shuffle=True`는 `RandomSampler`를 씁니다. `RandomSampler`는 에폭이 시작될 때마다 넘겨준 `generator`(없으면 "
            "torch의 전역 시드)로 새 순열을 뽑습니다. 다른 순서가 필요하면 `sampler`를 직접 넘기세요. 다만 "
            "`shuffle=True`와 함께 쓰면 안 됩니다.",
    },
    "lessons.shuffle.question": {
        "en": "`shuffle={shuffle}` with a seeded `generator`, {epochs} epochs. How does epoch 1's order compare with "
            "epoch 0's?",
        "ko": "시드를 준 `generator`와 `shuffle={shuffle}`, 에폭 {epochs}개. 에폭 1의 순서는 에폭 0과 비교해 어떨까요?",
    },
    "lessons.shuffle.choice.new": {
        "en": "A new random order every epoch",
        "ko": "에폭마다 새로운 무작위 순서",
    },
    "lessons.shuffle.choice.same": {
        "en": "The same random order every epoch: the generator is seeded",
        "ko": "에폭마다 같은 무작위 순서: generator에 시드를 줬으므로",
    },
    "lessons.shuffle.choice.sequential": {
        "en": "0, 1, 2, … in both epochs",
        "ko": "두 에폭 모두 0, 1, 2, …",
    },
    "lessons.shuffle.why.new": {
        "en": "The `{sampler}` drew {first} in epoch 0 and {second} in epoch 1: one seeded generator, advanced by every "
            "epoch, gives a new order each epoch that is still the same from run to run.",
        "ko": "`{sampler}`는 에폭 0에 {first}, 에폭 1에 {second}를 뽑았습니다. 시드를 준 generator 하나가 에폭마다 "
            "진행되므로, 에폭마다 새로운 순서이면서도 실행할 때마다 같은 순서입니다.",
    },
    "lessons.shuffle.why.same": {
        "en": "The `{sampler}` drew {first} in epoch 0 and {second} in epoch 1: the same order twice.",
        "ko": "`{sampler}`는 에폭 0에 {first}, 에폭 1에 {second}를 뽑았습니다. 같은 순서가 두 번입니다.",
    },
    "lessons.shuffle.why.sequential": {
        "en": "The `{sampler}` read {first} in epoch 0 and {second} in epoch 1: with `shuffle=False` the order is the "
            "dataset's own, every epoch.",
        "ko": "`{sampler}`는 에폭 0에 {first}, 에폭 1에 {second}를 읽었습니다. `shuffle=False`이면 매 에폭 데이터셋 "
            "자체의 순서입니다.",
    },
    "lessons.batch_sampler.title": {
        "en": "`batch_sampler`: when you make the batches yourself",
        "ko": "`batch_sampler`: 미니배치를 직접 만들 때",
    },
    "lessons.batch_sampler.explain": {
        "en": "A `batch_sampler` yields whole lists of indices — for example batches of samples of similar length. It "
            "replaces both the sampler and the batching, so `batch_size`, `shuffle`, `sampler` and `drop_last` have "
            "nothing left to do: torch wants them at their defaults and rejects the loader otherwise, before any "
            "worker starts. The engine runs torch's own validation.",
        "ko": "`batch_sampler`는 인덱스 목록을 통째로 내놓습니다. 예를 들어 길이가 비슷한 샘플끼리 묶은 미니배치입니다. "
            "샘플러와 묶기를 모두 대신하므로 `batch_size`, `shuffle`, `sampler`, `drop_last`는 할 일이 없습니다. torch는 이들이 "
            "기본값이기를 요구하고, 아니면 워커가 시작되기 전에 데이터로더를 거부합니다. 엔진은 torch의 검증을 그대로 "
            "실행합니다.",
    },
    "lessons.batch_sampler.question": {
        "en": "`batch_sampler=BucketBatchSampler(lengths, batch_size={batch_size})` and `shuffle={shuffle}`. What "
            "happens?",
        "ko": "`batch_sampler=BucketBatchSampler(lengths, batch_size={batch_size})`와 `shuffle={shuffle}`. 어떻게 될까요?",
    },
    "lessons.batch_sampler.choice.error": {
        "en": "`DataLoader(...)` raises a `ValueError` before any batch",
        "ko": "`DataLoader(...)`가 미니배치 하나 없이 `ValueError`를 냄",
    },
    "lessons.batch_sampler.choice.batch_sampler": {
        "en": "The batches are exactly the `batch_sampler`'s lists",
        "ko": "미니배치는 정확히 `batch_sampler`의 목록들",
    },
    "lessons.batch_sampler.choice.shuffled": {
        "en": "The DataLoader shuffles the `batch_sampler`'s batches",
        "ko": "데이터로더가 `batch_sampler`의 미니배치들을 섞음",
    },
    "lessons.batch_sampler.why.error": {
        "en": "The engine rejected the loader with torch's own error: `{message}`. A `batch_sampler` already decides "
            "order and size, so your own `shuffle`, `sampler`, `batch_size` or `drop_last` would contradict it; "
            "shuffle inside the batch sampler instead.",
        "ko": "엔진은 torch의 오류 그대로 데이터로더를 거부했습니다: `{message}`. `batch_sampler`가 이미 순서와 크기를 정하므로 "
            "따로 준 `shuffle`, `sampler`, `batch_size`, `drop_last`는 그것과 충돌합니다. 섞기는 배치 샘플러 안에서 하세요.",
    },
    "lessons.batch_sampler.why.batch_sampler": {
        "en": "The run used `{kind}`: {batches} batches of sizes {sizes}, the first one {first}. `batch_size`, "
            "`shuffle`, `sampler` and `drop_last` stayed at their defaults — the only way torch accepts them next "
            "to a `batch_sampler`.",
        "ko": "실행은 `{kind}`를 썼습니다. 크기 {sizes}의 미니배치 {batches}개, 첫 번째는 {first}입니다. `batch_size`, "
            "`shuffle`, `sampler`, `drop_last`는 기본값 그대로였습니다. `batch_sampler`와 함께 torch가 받아들이는 유일한 "
            "방법입니다.",
    },
}
