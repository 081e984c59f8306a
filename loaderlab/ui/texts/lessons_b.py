"""Texts of the "Lessons" page, lessons 5–9: collate_fn, num_workers, prefetch_factor, in_order, persistent_workers.

Same layout as ``lessons_a``: ``title``, ``explain``, ``question``, ``choice.<id>``, ``why.<id>`` per lesson.
"""

TEXTS = {
    "lessons.collate.title": {
        "en": "`collate_fn` and `pad_sequence`",
        "ko": "`collate_fn`과 `pad_sequence`",
    },
    "lessons.collate.explain": {
        "en": "Once a batch's samples are fetched, `collate_fn` merges them into one batch. The default, "
            "`default_collate`, stacks tensors with `torch.stack`, which needs them all the same shape. Text and "
            "audio come in different lengths: a `collate_fn` that calls `torch.nn.utils.rnn.pad_sequence` pads "
            "each batch to its longest sample instead — and every padded cell is memory and compute spent on nothing.",
        "ko": "미니배치의 샘플을 다 가져오면 `collate_fn`이 그것들을 미니배치 하나로 합칩니다(콜레이트). 기본값인 "
            "`default_collate`는 `torch.stack`으로 텐서를 쌓으므로 모양이 모두 같아야 합니다. 텍스트와 오디오는 길이가 "
            "제각각입니다. `torch.nn.utils.rnn.pad_sequence`를 부르는 `collate_fn`은 대신 미니배치를 가장 긴 샘플에 맞춰 "
            "채웁니다. 패딩된 칸은 모두 아무 쓸모 없이 쓰인 메모리와 계산입니다.",
    },
    "lessons.collate.question": {
        "en": "Samples of {shortest} to {longest} tokens, `batch_size={batch_size}`, `collate_fn={collate_name}`. What "
            "does your loop get?",
        "ko": "길이 {shortest}~{longest} 토큰의 샘플, `batch_size={batch_size}`, `collate_fn={collate_name}`. 루프는 무엇을 "
            "받을까요?",
    },
    "lessons.collate.choice.error": {
        "en": "Nothing: the run fails, the samples cannot be stacked",
        "ko": "아무것도: 샘플을 쌓을 수 없어 실행이 실패함",
    },
    "lessons.collate.choice.padded": {
        "en": "Batches padded to their longest sample",
        "ko": "가장 긴 샘플에 맞춰 패딩된 미니배치",
    },
    "lessons.collate.choice.truncated": {
        "en": "Batches cut to their shortest sample",
        "ko": "가장 짧은 샘플에 맞춰 잘린 미니배치",
    },
    "lessons.collate.choice.stacked": {
        "en": "Batches stacked as they are: nothing to pad",
        "ko": "그대로 쌓은 미니배치: 패딩할 것이 없음",
    },
    "lessons.collate.why.error": {
        "en": "The run failed: `{message}`. `default_collate` calls `torch.stack`, which needs equal shapes; use a "
            "`collate_fn` with `pad_sequence`, or batch samples of equal length.",
        "ko": "실행이 실패했습니다: `{message}`. `default_collate`는 `torch.stack`을 부르는데, 이는 모양이 같아야 합니다. "
            "`pad_sequence`를 쓰는 `collate_fn`을 쓰거나 길이가 같은 샘플끼리 묶으세요.",
    },
    "lessons.collate.why.padded": {
        "en": "Each batch was padded to its longest sample (lengths {shortest}–{longest}): {padded} of {cells} cells "
            "({fraction:.0%}) are padding. Batching samples of similar length (a bucketing `batch_sampler`) cuts "
            "that waste.",
        "ko": "미니배치마다 가장 긴 샘플에 맞춰 패딩했습니다(길이 {shortest}~{longest}). 칸 {cells}개 중 {padded}개"
            "({fraction:.0%})가 패딩입니다. 길이가 비슷한 샘플끼리 묶으면(버킷 방식 `batch_sampler`) 이 낭비가 줄어듭니다.",
    },
    "lessons.collate.why.stacked": {
        "en": "Every sample had the same length ({longest}), so `torch.stack` built each batch: {padded} of {cells} "
            "cells are padding.",
        "ko": "모든 샘플의 길이가 같았으므로({longest}) `torch.stack`이 미니배치를 만들었습니다. 칸 {cells}개 중 "
            "{padded}개가 패딩입니다.",
    },
    "lessons.workers.title": {
        "en": "`num_workers` and the index queues",
        "ko": "`num_workers`와 인덱스 큐",
    },
    "lessons.workers.explain": {
        "en": "With `num_workers > 0` the main process starts that many worker processes, each with its own index "
            "queue, and hands out tasks (one batch's indices each) round robin: task 0 to worker 0, task 1 to "
            "worker 1, and so on — not to whichever worker is free. Each worker fetches and collates its batch and "
            "puts it on one shared result queue. With `num_workers=0` the main process does it all itself, inside "
            "`next()`.",
        "ko": "`num_workers > 0`이면 메인 프로세스가 그 수만큼 워커 프로세스를 시작하고, 워커마다 인덱스 큐가 하나씩 있습니다. "
            "작업(미니배치 하나의 인덱스)은 라운드 로빈으로 나눠 줍니다. 작업 0은 워커 0, 작업 1은 워커 1, … 한가한 워커에게 "
            "주는 것이 아닙니다. 각 워커는 미니배치를 가져와 콜레이트한 뒤 공유 결과 큐에 넣습니다. `num_workers=0`이면 "
            "메인 프로세스가 `next()` 안에서 모두 직접 합니다.",
    },
    "lessons.workers.question": {
        "en": "`num_workers={num_workers}`, `batch_size={batch_size}`. Which process builds batch 3 (the fourth task)?",
        "ko": "`num_workers={num_workers}`, `batch_size={batch_size}`. 미니배치 3(네 번째 작업)은 어느 프로세스가 만들까요?",
    },
    "lessons.workers.choice.w0": {
        "en": "worker 0",
        "ko": "워커 0",
    },
    "lessons.workers.choice.w1": {
        "en": "worker 1",
        "ko": "워커 1",
    },
    "lessons.workers.choice.main": {
        "en": "the main process",
        "ko": "메인 프로세스",
    },
    "lessons.workers.choice.free": {
        "en": "whichever worker is free first",
        "ko": "먼저 한가해진 워커",
    },
    "lessons.workers.why.w0": {
        "en": "Batch {batch} went onto `index_queue[{worker}]` and worker {worker} built it, as it built batches {same}: "
            "with {num_workers} workers, task k goes to worker k mod {num_workers}, busy or not.",
        "ko": "미니배치 {batch}는 `index_queue[{worker}]`에 들어갔고 워커 {worker}가 만들었습니다. 미니배치 {same}도 그 "
            "워커가 만들었습니다. 워커가 {num_workers}개이면 작업 k는 바쁘든 아니든 워커 k mod {num_workers}에게 갑니다.",
    },
    "lessons.workers.why.w1": {
        "en": "Batch {batch} went onto `index_queue[{worker}]` and worker {worker} built it, as it built batches {same}: "
            "with {num_workers} workers, task k goes to worker k mod {num_workers}, busy or not.",
        "ko": "미니배치 {batch}는 `index_queue[{worker}]`에 들어갔고 워커 {worker}가 만들었습니다. 미니배치 {same}도 그 "
            "워커가 만들었습니다. 워커가 {num_workers}개이면 작업 k는 바쁘든 아니든 워커 k mod {num_workers}에게 갑니다.",
    },
    "lessons.workers.why.main": {
        "en": "No worker processes (`num_workers=0`): the main process fetched and collated batch {batch} itself, inside "
            "`next()`, while your loop waited.",
        "ko": "워커 프로세스가 없습니다(`num_workers=0`). 메인 프로세스가 `next()` 안에서 미니배치 {batch}를 직접 가져와 "
            "콜레이트했고, 그동안 루프는 기다렸습니다.",
    },
    "lessons.prefetch.title": {
        "en": "`prefetch_factor`: how far the workers run ahead",
        "ko": "`prefetch_factor`: 워커가 얼마나 앞서 가는가",
    },
    "lessons.prefetch.explain": {
        "en": "Workers prepare batches before your loop asks for them, but not without limit: the main process keeps "
            "at most `prefetch_factor × num_workers` tasks out — dispatched and not yet handed to your loop — and "
            "sends a new one each time it hands a batch over. `prefetch_factor` counts batches per worker, not "
            "samples.",
        "ko": "워커는 루프가 요청하기 전에 미니배치를 준비하지만 한없이 하지는 않습니다. 메인 프로세스는 나가 있는 작업(보냈지만 "
            "아직 루프에 넘기지 않은 것)을 최대 `prefetch_factor × num_workers`개로 유지하고, 미니배치를 하나 넘길 때마다 "
            "새 작업을 하나 보냅니다. `prefetch_factor`는 샘플이 아니라 워커당 미니배치 수입니다.",
    },
    "lessons.prefetch.question": {
        "en": "`num_workers={num_workers}`, `prefetch_factor={prefetch_factor}`, a slow training step and fast samples. "
            "At most how many tasks are out at once?",
        "ko": "`num_workers={num_workers}`, `prefetch_factor={prefetch_factor}`, 느린 학습 단계과 빠른 샘플. 한 번에 최대 "
            "몇 개의 작업이 나가 있을까요?",
    },
    "lessons.prefetch.choice.pf": {
        "en": "{prefetch_factor} batches in all",
        "ko": "모두 합쳐 미니배치 {prefetch_factor}개",
    },
    "lessons.prefetch.choice.cap": {
        "en": "{cap} batches: `prefetch_factor × num_workers`",
        "ko": "미니배치 {cap}개: `prefetch_factor × num_workers`",
    },
    "lessons.prefetch.choice.samples": {
        "en": "{cap} samples: `prefetch_factor` counts samples",
        "ko": "샘플 {cap}개: `prefetch_factor`는 샘플 수",
    },
    "lessons.prefetch.choice.all": {
        "en": "All {n_batches}: the workers run as far ahead as they can",
        "ko": "{n_batches}개 전부: 워커는 갈 수 있는 만큼 앞서 감",
    },
    "lessons.prefetch.why.cap": {
        "en": "At most {most} tasks were out at once (top panel): `prefetch_factor × num_workers` = {prefetch_factor} × "
            "{num_workers}, each a whole batch of {batch_size} samples. While your step ran, the workers waited for "
            "that cap to open.",
        "ko": "한 번에 최대 {most}개의 작업이 나가 있었습니다(맨 위 패널). `prefetch_factor × num_workers` = "
            "{prefetch_factor} × {num_workers}이고, 각각 샘플 {batch_size}개짜리 미니배치 하나입니다. 학습 단계이 도는 "
            "동안 워커는 상한이 열리기를 기다렸습니다.",
    },
    "lessons.prefetch.why.pf": {
        "en": "At most {most} tasks were out at once: `prefetch_factor` = {prefetch_factor}.",
        "ko": "한 번에 최대 {most}개의 작업이 나가 있었습니다: `prefetch_factor` = {prefetch_factor}.",
    },
    "lessons.prefetch.why.samples": {
        "en": "At most {most} tasks were out at once, fewer than the cap of {cap}: your loop took the batches as fast "
            "as the workers made them.",
        "ko": "한 번에 최대 {most}개의 작업이 나가 있었습니다. 상한 {cap}보다 적습니다. 루프가 워커가 만드는 속도만큼 빨리 "
            "미니배치를 가져갔기 때문입니다.",
    },
    "lessons.prefetch.why.all": {
        "en": "At most {most} tasks were out at once: all {n_batches} batches of the run.",
        "ko": "한 번에 최대 {most}개의 작업이 나가 있었습니다: 실행의 미니배치 {n_batches}개 전부입니다.",
    },
    "lessons.in_order.title": {
        "en": "`in_order`: one slow sample and the reorder buffer",
        "ko": "`in_order`: 느린 샘플 하나와 재정렬 버퍼",
    },
    "lessons.in_order.explain": {
        "en": "Workers finish batches in whatever order they finish them, but with `in_order=True` (the default) the "
            "DataLoader hands them to your loop in task order. A batch that is ready early waits in a reorder buffer "
            "until every batch before it has come — so one slow sample holds up batches other workers finished long "
            "ago (head-of-line blocking). `in_order=False` hands each batch over as it arrives.",
        "ko": "워커는 끝나는 대로 미니배치를 끝내지만, `in_order=True`(기본값)이면 데이터로더는 작업 순서대로 루프에 "
            "넘깁니다. 일찍 준비된 미니배치는 앞선 미니배치가 모두 올 때까지 재정렬 버퍼에서 기다립니다. 그래서 느린 샘플 "
            "하나가 다른 워커가 오래전에 끝낸 미니배치까지 붙잡습니다(head-of-line blocking). `in_order=False`는 미니배치를 "
            "도착하는 대로 넘깁니다.",
    },
    "lessons.in_order.question": {
        "en": "`num_workers={num_workers}`, `in_order={in_order}`; sample {straggler_index} takes {straggler_ms:.0f} ms, "
            "so batch {slow} is slow, and batch {after} goes to the other worker. When does your loop get batch "
            "{after}?",
        "ko": "`num_workers={num_workers}`, `in_order={in_order}`. 샘플 {straggler_index}가 {straggler_ms:.0f} ms 걸려 "
            "미니배치 {slow}가 느리고, 미니배치 {after}는 다른 워커에게 갑니다. 루프는 미니배치 {after}를 언제 받을까요?",
    },
    "lessons.in_order.choice.before": {
        "en": "Before batch {slow}, as soon as it is ready",
        "ko": "미니배치 {slow}보다 먼저, 준비되자마자",
    },
    "lessons.in_order.choice.after": {
        "en": "Right after batch {slow}: it waits in the reorder buffer",
        "ko": "미니배치 {slow} 바로 다음: 재정렬 버퍼에서 기다림",
    },
    "lessons.in_order.choice.end": {
        "en": "Last, after every other batch",
        "ko": "마지막, 다른 모든 미니배치 다음",
    },
    "lessons.in_order.why.before": {
        "en": "The loop got the batches in the order {order}: batch {after} (worker {worker}) was handed over before "
            "the slow batch {slow} (worker {slow_worker}), as soon as it arrived. `in_order=False` skips the reorder "
            "buffer; the price is that batches come out of order.",
        "ko": "루프는 {order} 순서로 미니배치를 받았습니다. 미니배치 {after}(워커 {worker})는 느린 미니배치 {slow}(워커 "
            "{slow_worker})보다 먼저, 도착하자마자 넘겨졌습니다. `in_order=False`는 재정렬 버퍼를 건너뜁니다. 대가는 "
            "미니배치가 순서 없이 온다는 것입니다.",
    },
    "lessons.in_order.why.after": {
        "en": "The loop got the batches in the order {order}. Batch {after} (worker {worker}) was ready first but "
            "waited {parked_ms:.0f} ms in the reorder buffer until batch {slow} (worker {slow_worker}), with the slow "
            "sample, came; `in_order=False` would have handed it over at once.",
        "ko": "루프는 {order} 순서로 미니배치를 받았습니다. 미니배치 {after}(워커 {worker})가 먼저 준비됐지만, 느린 샘플이 "
            "든 미니배치 {slow}(워커 {slow_worker})가 올 때까지 재정렬 버퍼에서 {parked_ms:.0f} ms 기다렸습니다. "
            "`in_order=False`였다면 바로 넘겨졌을 것입니다.",
    },
    "lessons.in_order.why.end": {
        "en": "The loop got the batches in the order {order}: batch {after} came last.",
        "ko": "루프는 {order} 순서로 미니배치를 받았습니다. 미니배치 {after}가 마지막이었습니다.",
    },
    "lessons.persistent.title": {
        "en": "`persistent_workers`: start the workers once",
        "ko": "`persistent_workers`: 워커를 한 번만 시작하기",
    },
    "lessons.persistent.explain": {
        "en": "By default every epoch starts its worker processes afresh and shuts them down at its end: each "
            "`iter(loader)` pays the start-up again (forking, sending the dataset, `worker_init_fn`), and the first "
            "batch of every epoch waits for it. `persistent_workers=True` keeps the workers alive between epochs.",
        "ko": "기본적으로 에폭마다 워커 프로세스를 새로 시작하고 에폭이 끝나면 종료합니다. `iter(loader)`를 할 때마다 시작 "
            "비용(fork, 데이터셋 전달, `worker_init_fn`)을 다시 치르고, 에폭마다 첫 미니배치가 그것을 기다립니다. "
            "`persistent_workers=True`는 에폭 사이에도 워커를 살려 둡니다.",
    },
    "lessons.persistent.question": {
        "en": "`num_workers={num_workers}`, `persistent_workers={persistent_workers}`, {epochs} epochs. How many "
            "worker processes start in all?",
        "ko": "`num_workers={num_workers}`, `persistent_workers={persistent_workers}`, 에폭 {epochs}개. 워커 프로세스는 "
            "모두 몇 개 시작될까요?",
    },
    "lessons.persistent.choice.once": {
        "en": "{num_workers}: started once, kept for every epoch",
        "ko": "{num_workers}개: 한 번 시작해 모든 에폭에 씀",
    },
    "lessons.persistent.choice.per_epoch": {
        "en": "{total}: {num_workers} new ones every epoch",
        "ko": "{total}개: 에폭마다 새로 {num_workers}개",
    },
    "lessons.persistent.choice.per_batch": {
        "en": "One per batch",
        "ko": "미니배치마다 하나",
    },
    "lessons.persistent.why.once": {
        "en": "{started} worker processes served all {epochs} epochs: `persistent_workers=True` kept them between "
            "epochs (first batch of each epoch: {first_ms} ms).",
        "ko": "워커 프로세스 {started}개가 에폭 {epochs}개를 모두 처리했습니다. `persistent_workers=True`가 에폭 사이에도 "
            "살려 두었습니다(에폭별 첫 미니배치: {first_ms} ms).",
    },
    "lessons.persistent.why.per_epoch": {
        "en": "{started} worker processes started for {epochs} epochs: every epoch started {num_workers} new ones (new "
            "pids in the table), and its first batch waited for them ({first_ms} ms, epoch by epoch).",
        "ko": "에폭 {epochs}개에 워커 프로세스 {started}개가 시작됐습니다. 에폭마다 새로 {num_workers}개가 시작됐고(표의 새 "
            "pid), 첫 미니배치가 그것을 기다렸습니다(에폭별 {first_ms} ms).",
    },
    "lessons.persistent.why.per_batch": {
        "en": "{started} worker processes started for {epochs} epochs.",
        "ko": "에폭 {epochs}개에 워커 프로세스 {started}개가 시작됐습니다.",
    },
}
