"""The words of the suggestions, each key's English and Korean side by side: what to try (``suggestion.try*``,
``suggestion.direction.*``), the notes a suggestion leans on (``suggestion.note.*``), and why there is none
(``suggestion.why.*``: the verdict's, the changes the cost model cannot weigh, and those whose costs the trace
cannot show, named with the command that measures them).

Part of :data:`loaderlab.texts.words.WORDS` (look them up there). Knows nothing of how a suggestion is ranked.
"""

TEXTS = {
    "suggestion.try": {
        "en": "Try {change} ({direction}).",
        "ko": "{change}을(를) 시도해 보세요({direction}).",
    },
    "suggestion.try_range": {
        "en": "Try {name}={low}, up to {name}={high} ({direction}).",
        "ko": "{name}={low}부터 {name}={high}까지 시도해 보세요({direction}).",
    },
    "suggestion.measure": {
        "en": "The cost model ranks it from this trace's costs but measures nothing: `python -m loaderlab run "
            "--tune <script>` measures it in your job.",
        "ko": "비용 모델은 이 트레이스의 비용으로 순위를 매길 뿐 아무것도 재지 않습니다: `python -m loaderlab run "
            "--tune <script>`가 사용자의 작업에서 잽니다.",
    },
    "suggestion.direction.more_workers": {"en": "more workers", "ko": "워커 늘리기"},
    "suggestion.direction.fewer_workers": {"en": "fewer workers", "ko": "워커 줄이기"},
    "suggestion.direction.no_workers": {"en": "load in the loop itself", "ko": "루프 안에서 직접 로딩"},
    "suggestion.direction.bigger_batches": {"en": "fewer, bigger batches", "ko": "더 적고 큰 배치"},
    "suggestion.direction.persistent": {"en": "start the workers once", "ko": "워커를 한 번만 시작"},
    "suggestion.direction.pageable": {"en": "no pinning thread", "ko": "메모리 고정 스레드 없이"},
    "suggestion.direction.fewer_bytes": {"en": "fewer bytes to move", "ko": "옮길 바이트 줄이기"},
    "suggestion.fewer_bytes": {
        "en": "{factor:.0f}x fewer bytes per batch (e.g. uint8 samples, converted and normalised on the GPU; "
            "no loader setting does this)",
        "ko": "배치당 바이트를 {factor:.0f}배 줄이기(예: uint8 샘플을 GPU에서 변환·정규화; 로더 설정으로는 "
            "할 수 없습니다)",
    },
    "suggestion.note.workers_main": {
        "en": "The fewest workers that keep up with your step ({step_ms:.2f} ms per batch, median).",
        "ko": "학습 단계(배치당 중앙값 {step_ms:.2f} ms)를 따라가는 가장 적은 워커 수입니다.",
    },
    "suggestion.note.workers_cores": {
        "en": "Fetching computes, so this machine's cores ({cores}) cap it: more workers would share them.",
        "ko": "가져오기가 계산이라 이 컴퓨터의 코어 {cores}개가 한계입니다: 워커를 더 늘려도 코어를 나눠 쓸 "
            "뿐입니다.",
    },
    "suggestion.note.workers_pin": {
        "en": "With these workers the pin-memory thread becomes the slow part.",
        "ko": "이 워커 수에서는 메모리 고정 스레드가 느린 부분이 됩니다.",
    },
    "suggestion.note.workers_none": {
        "en": "No worker count keeps up with your step ({step_ms:.2f} ms per batch, median); this is the most "
            "that still helps. Cheaper samples would help more.",
        "ko": "어떤 워커 수로도 학습 단계(배치당 중앙값 {step_ms:.2f} ms)를 따라가지 못합니다. 이 값이 "
            "그래도 도움이 되는 최대치입니다. 샘플을 더 싸게 만드는 편이 더 도움이 됩니다.",
    },
    "suggestion.note.batch": {
        "en": "Assumes your step's time grows with the batch (a GPU step often grows less).",
        "ko": "학습 단계 시간이 배치 크기에 비례해 늘어난다고 가정합니다(GPU 단계는 대개 덜 늘어납니다).",
    },
    "suggestion.note.pageable": {
        "en": "Charges your step a pageable copy of each batch to the GPU at an assumed {pageable_gbps:.0f} GB/s "
            "(not measured on your GPU).",
        "ko": "각 배치를 GPU로 보내는 페이지 가능 메모리 복사를 가정한 {pageable_gbps:.0f} GB/s로 학습 "
            "단계에 더했습니다(사용자의 GPU에서 잰 값이 아닙니다).",
    },
    "suggestion.note.pageable_measured": {
        "en": "Charges your step a pageable copy of each batch to the GPU at {pageable_gbps:.1f} GB/s, measured on "
            "your {device} when the trace was recorded.",
        "ko": "각 배치를 GPU로 보내는 페이지 가능 메모리 복사를 트레이스를 기록할 때 사용자의 {device}에서 잰 "
            "{pageable_gbps:.1f} GB/s로 학습 단계에 더했습니다.",
    },
    "suggestion.note.in_loop": {
        "en": "The loop then collates itself: no shared memory (assumed {shm_gbps:.0f} GB/s to write, "
            "{drop_gbps:.1f} GB/s to free) and no move between processes; a plain copy at an assumed "
            "{copy_gbps:.0f} GB/s.",
        "ko": "그러면 루프가 직접 콜레이트합니다: 공유 메모리(가정: 쓰기 {shm_gbps:.0f} GB/s, 해제 "
            "{drop_gbps:.1f} GB/s)도 프로세스 간 이동도 없고, 가정한 {copy_gbps:.0f} GB/s의 일반 복사만 합니다.",
    },
    "suggestion.note.assumed_move": {
        "en": "This run had no workers, so moving each batch from one is assumed (tensors: {tensors}, at "
            "50 µs each; shared memory at {shm_gbps:.0f} GB/s), not measured.",
        "ko": "이 실행에는 워커가 없어서, 워커에서 배치를 옮기는 비용은 잰 값이 아니라 가정한 값입니다(텐서 "
            "{tensors}개에 각 50 µs, 공유 메모리 {shm_gbps:.0f} GB/s).",
    },
    "suggestion.note.cores": {
        "en": "Your step, the loop and the workers ({workers}) would share this machine's cores ({cores}) less thinly.",
        "ko": "학습 단계, 루프, 워커 {workers}개가 이 컴퓨터의 코어 {cores}개를 덜 빠듯하게 나눠 씁니다.",
    },
    "suggestion.none": {
        "en": "No loader setting to suggest: {why}",
        "ko": "제안할 로더 설정이 없습니다: {why}",
    },
    "suggestion.why.consumer": {
        "en": "the loader already keeps up with your step.",
        "ko": "로더가 이미 학습 단계를 따라가고 있습니다.",
    },
    "suggestion.why.none": {
        "en": "the run is too short to tell.",
        "ko": "실행이 너무 짧아 판단할 수 없습니다.",
    },
    "suggestion.why.no_gain": {
        "en": "the cost model ranks no change it covers ahead of your settings; `python -m loaderlab run --tune "
            "<script>` measures the others in your job.",
        "ko": "비용 모델이 다루는 변경 중 지금 설정보다 앞서는 것이 없습니다. 다른 설정은 `python -m loaderlab run "
            "--tune <script>`가 사용자의 작업에서 잽니다.",
    },
    "suggestion.why.no_costs": {
        "en": "this trace has no per-batch fetch, collate and step times to predict from.",
        "ko": "이 트레이스에는 예측에 쓸 배치별 가져오기·콜레이트·학습 단계 시간이 없습니다.",
    },
    "suggestion.why.unmodelled_straggler": {
        "en": "in_order=False or a larger prefetch_factor may help, but the cost model does not know the order "
            "samples arrive in, so it claims nothing (python -m loaderlab run --tune measures both: prefetch_factor "
            "inside your job, in_order=False without your step).",
        "ko": "in_order=False나 더 큰 prefetch_factor가 도움이 될 수 있지만, 비용 모델은 샘플이 도착하는 "
            "순서를 모르므로 아무것도 주장하지 않습니다(python -m loaderlab run --tune이 둘 다 측정합니다: "
            "prefetch_factor는 작업 안에서, in_order=False는 학습 단계 없이).",
    },
    "suggestion.why.unmodelled_prefetch": {
        "en": "a larger prefetch_factor (4 times this one, say) should help, but the cost model does not model the "
            "batches in flight, so it claims no number: measure it with `python -m loaderlab run --tune <script>`.",
        "ko": "더 큰 prefetch_factor(예: 지금의 4배)가 도움이 될 것이지만, 비용 모델은 동시에 오가는 배치를 모델링하지 "
            "않으므로 수치를 주장하지 않습니다: `python -m loaderlab run --tune <script>`로 재 보세요.",
    },
    "suggestion.why.unseen_in_loop_threads": {
        "en": "the loader already keeps up with your step. Whether num_workers=0 would be faster (no move between "
            "processes) is not in this recording: your samples' torch ops would run with the loop's torch threads, "
            "not a worker's one, and the trace does not say the loop runs one. {measure}",
        "ko": "로더가 이미 학습 단계를 따라가고 있습니다. num_workers=0(프로세스 간 이동 없음)이 더 빠를지는 이 기록에 "
            "없습니다: 샘플의 torch 연산이 워커의 스레드 1개가 아니라 루프의 torch 스레드로 실행되며, 트레이스는 루프가 "
            "스레드 1개를 쓴다고 말하지 않습니다. {measure}",
    },
    "suggestion.why.unseen_in_loop_serial": {
        "en": "the loader already keeps up with your step. Whether num_workers=0 would be faster is not in this "
            "recording: its slow samples would run one after another in the loop. {measure}",
        "ko": "로더가 이미 학습 단계를 따라가고 있습니다. num_workers=0이 더 빠를지는 이 기록에 없습니다: 느린 샘플이 "
            "루프에서 하나씩 차례로 실행됩니다. {measure}",
    },
    "suggestion.why.unseen_no_move": {
        "en": "workers would load while your step runs, but this run had none, so what moving each batch from "
            "a worker costs (its pickling, its shared memory, the worker's GIL while your dataset computes) is "
            "not in it. {measure}",
        "ko": "워커가 학습 단계와 동시에 로드하겠지만, 이 실행에는 워커가 없었으므로 배치를 워커에서 옮기는 비용(피클링, "
            "공유 메모리, 데이터셋이 계산하는 동안의 워커 GIL)이 기록에 없습니다. {measure}",
    },
    "suggestion.why.unseen_step_threads": {
        "en": "more workers would share the cores your step's torch threads keep busy (it ran on more than one "
            "core), and what that costs is not in this recording: a parallel op waits for its slowest thread. "
            "{measure}",
        "ko": "워커를 늘리면 학습 단계의 torch 스레드가 쓰는 코어(한 개보다 많은 코어에서 실행됨)를 함께 쓰게 되는데, 그 "
            "비용은 이 기록에 없습니다: 병렬 연산은 가장 느린 스레드를 기다립니다. {measure}",
    },
    "suggestion.why.unseen_step_unclocked": {
        "en": "this trace has no process clock around your steps (it was recorded before LoaderLab kept one), so "
            "whether your step's torch threads would share the cores with more workers is not known. {measure}",
        "ko": "이 트레이스에는 학습 단계 전후의 프로세스 시계가 없어(그 기록 전에 만들어짐), 학습 단계의 torch 스레드가 "
            "늘어난 워커와 코어를 나눠 쓸지 알 수 없습니다. {measure}",
    },
    # the last sentence of an unseen_* wording: the command that measures it, or, where the trace is run --tune's,
    # the table it measured (the report printed it above; telling that user to run --tune read as if it had not)
    "suggestion.measure.it": {
        "en": "`python -m loaderlab run --tune <script>` measures it in your job.",
        "ko": "`python -m loaderlab run --tune <script>`가 사용자의 작업에서 잽니다.",
    },
    "suggestion.measure.workers": {
        "en": "`python -m loaderlab run --tune <script>` measures num_workers={low} up to num_workers={high} in your "
            "job.",
        "ko": "`python -m loaderlab run --tune <script>`가 사용자의 작업에서 num_workers={low}부터 num_workers={high}까지 "
            "잽니다.",
    },
    "suggestion.measure.tuned": {
        "en": "This trace comes from run --tune: what it measured in your job is in its table.",
        "ko": "이 트레이스는 run --tune으로 기록되었습니다: 사용자의 작업에서 잰 값은 그 표에 있습니다.",
    },
    "suggestion.why.unmodelled_slow_worker": {
        "en": "the cost model cannot tell what makes one worker slow, so it claims nothing.",
        "ko": "비용 모델은 한 워커가 왜 느린지 알 수 없으므로 아무것도 주장하지 않습니다.",
    },
}
