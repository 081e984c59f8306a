"""The words of the diagnosis, each key's English and Korean side by side: the bottleneck verdict
(``verdict.*``) and replay's model notes (``replay.model.*``); the suggestions' are in :mod:`.suggestions`.

Part of :data:`loaderlab.texts.words.WORDS` (look them up there). Knows nothing of how a
verdict is reached.
"""

from .wording import plural

TEXTS = {
    "verdict.title.workers": {"en": "Bottleneck: the workers", "ko": "병목: 워커"},
    "verdict.title.ipc": {"en": "Bottleneck: moving batches between processes",
                          "ko": "병목: 프로세스 사이의 배치 전달"},
    "verdict.title.startup": {"en": "Bottleneck: worker start-up", "ko": "병목: 워커 시작"},
    "verdict.title.straggler": {"en": "Bottleneck: a few slow samples", "ko": "병목: 소수의 느린 샘플"},
    "verdict.title.slow_worker": {"en": "Bottleneck: one slow worker", "ko": "병목: 느린 워커 하나"},
    "verdict.title.consumer": {"en": "Bottleneck: your training step", "ko": "병목: 학습 단계"},
    "verdict.title.main_process": {"en": "Bottleneck: loading in the main process",
                                   "ko": "병목: 메인 프로세스에서의 로딩"},
    "verdict.title.pin_memory": {"en": "Bottleneck: the pin-memory thread", "ko": "병목: 메모리 고정 스레드"},
    "verdict.title.prefetch": {"en": "Bottleneck: too few batches in flight (prefetch_factor)",
                               "ko": "병목: 미리 가져오는 배치가 너무 적음(prefetch_factor)"},
    "verdict.title.none": {"en": "Bottleneck: too short to say", "ko": "병목: 판단하기에 너무 짧음"},
    "verdict.workers_cpu": {
        "en": "Fetching is the slow part: the loop waited {share:.0%} of its time while the workers ({workers}) "
            "were busy {busy:.0%} of theirs ({work_ms:.2f} ms of fetching and collating per batch, "
            "{step_ms:.2f} ms of your step, median{step_note}). More workers help, up to this machine's cores ({cores}).",
        "ko": "가져오기가 느린 부분입니다: 학습 루프는 시간의 {share:.0%}를 기다렸고, 워커 {workers}개는 "
            "시간의 {busy:.0%} 동안 일했습니다(배치당 가져오기와 합치기 {work_ms:.2f} ms, 학습 단계 "
            "중앙값 {step_ms:.2f} ms{step_note}). 워커를 늘리면 이 컴퓨터의 코어 {cores}개까지는 빨라집니다.",
    },
    "verdict.workers_step_waited": {
        "en": "Fetching holds your loop back, though the loop waited only {share:.0%} of its time: your step "
            "({step_ms:.2f} ms of its own, median{step_note}) also waited for the cores held by the workers ({workers}, "
            "busy {busy:.0%} of their time, {work_ms:.2f} ms of fetching and collating per batch). More workers "
            "help, up to this machine's cores ({cores}).",
        "ko": "학습 루프는 시간의 {share:.0%}만 기다렸지만 가져오기가 루프를 붙잡고 있습니다: 학습 단계(자체 "
            "시간 중앙값 {step_ms:.2f} ms{step_note})도 워커 {workers}개가 차지한 코어를 기다렸고, 워커는 시간의 "
            "{busy:.0%} 동안 일했습니다(배치당 가져오기와 합치기 {work_ms:.2f} ms). 워커를 늘리면 이 컴퓨터의 "
            "코어 {cores}개까지는 빨라집니다.",
    },
    "verdict.workers_latency": {
        "en": "Fetching is the slow part: the loop waited {share:.0%} of its time while the workers ({workers}) "
            "were busy {busy:.0%} of theirs ({work_ms:.2f} ms of fetching and collating per batch, "
            "{step_ms:.2f} ms of your step, median{step_note}). The workers already fill this machine's cores ({cores}): more "
            "workers help only if fetching waits on disk or network (latency-bound), not if it computes.",
        "ko": "가져오기가 느린 부분입니다: 학습 루프는 시간의 {share:.0%}를 기다렸고, 워커 {workers}개는 "
            "시간의 {busy:.0%} 동안 일했습니다(배치당 가져오기와 합치기 {work_ms:.2f} ms, 학습 단계 "
            "중앙값 {step_ms:.2f} ms{step_note}). 워커가 이미 이 컴퓨터의 코어 {cores}개를 채웁니다: 가져오기가 디스크나 "
            "네트워크를 기다리는 경우(지연 시간에 묶인 경우)에만 워커를 늘리면 빨라지고, 계산이라면 "
            "빨라지지 않습니다.",
    },
    "verdict.workers_contended": {
        "en": "Fetching is the slow part: the loop waited {share:.0%} of its time while the workers ({workers}) "
            "were busy {busy:.0%} of theirs ({work_ms:.2f} ms of fetching and collating per batch, "
            "{step_ms:.2f} ms of your step, median{step_note}). But the run got only {got:.1f} of this machine's "
            "cores ({cores}): its workers waited for a core, held by other programs or by more processes than cores. More "
            "workers will not help; fewer can, and so can freeing the cores.",
        "ko": "가져오기가 느린 부분입니다: 학습 루프는 시간의 {share:.0%}를 기다렸고, 워커 {workers}개는 "
            "시간의 {busy:.0%} 동안 일했습니다(배치마다 가져오기와 콜레이트 {work_ms:.2f} ms, 학습 스텝 "
            "{step_ms:.2f} ms, 중앙값{step_note}). 그런데 이 실행은 이 컴퓨터의 코어 {cores}개 중 {got:.1f}개만 썼습니다: "
            "워커들이 코어를 기다렸고, 다른 프로그램이나 코어보다 많은 프로세스가 코어를 차지했습니다. 워커를 늘려도 "
            "빨라지지 않고, 줄이거나 코어를 비우면 빨라질 수 있습니다.",
    },
    "verdict.ipc": {
        "en": plural("tensors",
            one="Moving batches between processes is the slow part: the loop waited {share:.0%} of its time "
            "while the workers were busy only {busy:.0%} of theirs. Each batch took {move_ms:.2f} ms from its "
            "worker to the main process ({tensors} tensor, {size}), against {work_ms:.2f} ms to fetch "
            "and collate it. More workers cannot fix this: fewer, bigger batches or fewer tensors per batch "
            "can, or num_workers=0.",
            other="Moving batches between processes is the slow part: the loop waited {share:.0%} of its time "
            "while the workers were busy only {busy:.0%} of theirs. Each batch took {move_ms:.2f} ms from its "
            "worker to the main process ({tensors} tensors, {size}), against {work_ms:.2f} ms to fetch "
            "and collate it. More workers cannot fix this: fewer, bigger batches or fewer tensors per batch "
            "can, or num_workers=0."),
        "ko": "프로세스 사이에 배치를 옮기는 일이 느린 부분입니다: 학습 루프는 시간의 {share:.0%}를 "
            "기다렸지만 워커는 시간의 {busy:.0%}만 일했습니다. 배치 하나가 워커에서 메인 프로세스까지 "
            "{move_ms:.2f} ms 걸렸고(텐서 {tensors}개, {size}), 가져오고 콜레이트하는 데는 "
            "{work_ms:.2f} ms 걸렸습니다. 워커를 늘려도 해결되지 않습니다: 더 적고 큰 배치, 배치당 더 "
            "적은 텐서, 또는 num_workers=0이 해결합니다.",
    },
    "verdict.ipc_unknown_tensors": {
        "en": "Moving batches between processes is the slow part: the loop waited {share:.0%} of its time "
            "while the workers were busy only {busy:.0%} of theirs. Each batch took {move_ms:.2f} ms from its "
            "worker to the main process ({size}), against {work_ms:.2f} ms to fetch and collate it. "
            "More workers cannot fix this: fewer, bigger batches or fewer tensors per batch can, or "
            "num_workers=0.",
        "ko": "프로세스 사이에 배치를 옮기는 일이 느린 부분입니다: 학습 루프는 시간의 {share:.0%}를 "
            "기다렸지만 워커는 시간의 {busy:.0%}만 일했습니다. 배치 하나가 워커에서 메인 프로세스까지 "
            "{move_ms:.2f} ms 걸렸고({size}), 가져오고 콜레이트하는 데는 {work_ms:.2f} ms 걸렸습니다. "
            "워커를 늘려도 해결되지 않습니다: 더 적고 큰 배치, 배치당 더 적은 텐서, 또는 num_workers=0이 "
            "해결합니다.",
    },
    "verdict.startup": {
        "en": plural("epochs",
            one="Worker start-up is the slow part: the waits for each epoch's first batch took {first_s:.3f} s, "
                "{first_share:.0%} of the loop's time over {epochs} epoch (a worker took {startup_ms:.0f} ms to "
                "start). Cheaper pickling of the dataset starts them faster.",
            other="Worker start-up is the slow part: the waits for each epoch's first batch took {first_s:.3f} s, "
                  "{first_share:.0%} of the loop's time over {epochs} epochs (a worker took {startup_ms:.0f} ms to "
                  "start). persistent_workers=True starts them once; cheaper pickling of the dataset starts them "
                  "faster."),
        "ko": "워커 시작이 느린 부분입니다: 에폭마다 첫 배치를 기다린 시간이 {first_s:.3f}초로, 에폭 "
            "{epochs}개 동안 루프 시간의 {first_share:.0%}입니다(워커 하나가 시작하는 데 {startup_ms:.0f} ms). "
            "persistent_workers=True로 두면 워커를 한 번만 시작하고, 데이터셋을 더 가볍게 피클하면 더 빨리 "
            "시작합니다.",
    },
    "verdict.straggler": {
        "en": "A few slow samples are the slow part: {count} of them cost {lost_s:.3f} s, {lost_share:.0%} "
            "of the {wait_s:.3f} s the loop waited; in order, each holds every batch behind it. "
            "in_order=False hands the others over meanwhile.",
        "ko": "소수의 느린 샘플이 느린 부분입니다: 느린 샘플 {count}개가 {lost_s:.3f}초를 썼고, 이는 "
            "학습 루프가 기다린 {wait_s:.3f}초의 {lost_share:.0%}입니다. 순서를 지키면 느린 샘플 하나가 "
            "뒤의 배치를 모두 붙잡습니다. in_order=False로 두면 그동안 다른 배치를 넘겨 줍니다.",
    },
    "verdict.slow_worker": {
        "en": "One worker is the slow part: worker {worker} took {ratio:.1f}x as long per sample as the others "
            "({median_ms:.2f} ms against {others_ms:.2f} ms), and waiting for its batches cost {lost_s:.3f} s, "
            "{lost_share:.0%} of the {wait_s:.3f} s the loop waited. More workers do not fix a worker that is "
            "slow itself: look at what only it does (the samples it is given, a lock or a file it waits on).",
        "ko": "워커 하나가 느린 부분입니다: 워커 {worker}는 샘플 하나에 다른 워커의 {ratio:.1f}배가 "
            "걸렸고({median_ms:.2f} ms 대 {others_ms:.2f} ms), 그 워커의 배치를 기다린 시간이 {lost_s:.3f}초로 "
            "학습 루프가 기다린 {wait_s:.3f}초의 {lost_share:.0%}입니다. 워커를 늘려도 스스로 느린 워커는 "
            "고쳐지지 않습니다: 그 워커만 하는 일(받는 샘플, 기다리는 락이나 파일)을 살펴보세요.",
    },
    "verdict.step_clock": {
        "en": ", without its waits for a core: {step_wall_ms:.2f} ms on the clock",
        "ko": ", 코어를 기다린 시간 제외(포함하면 {step_wall_ms:.2f} ms)",
    },
    "verdict.prefetch": {
        "en": "Too few batches in flight are the slow part: the loop waited {share:.0%} of its time while the "
            "workers sat idle at the prefetch cap {capped:.0%} of theirs (prefetch_factor={prefetch_factor}, "
            "num_workers={workers}: {in_flight} batches in flight at most; busy {busy:.0%}, {work_ms:.2f} ms of "
            "fetching and collating per batch, {move_ms:.2f} ms to move one). Each batch's trip to the loop and "
            "the next task's trip back leave a worker with nothing to do: a larger prefetch_factor keeps it "
            "working meanwhile.",
        "ko": "미리 가져오는 배치가 너무 적은 것이 느린 부분입니다: 학습 루프는 시간의 {share:.0%}를 기다렸고, "
            "워커는 시간의 {capped:.0%} 동안 prefetch 한도에 걸려 유휴 상태였습니다(prefetch_factor={prefetch_factor}, "
            "num_workers={workers}: 동시에 최대 {in_flight}개 배치; 일한 비율 {busy:.0%}, 배치당 가져오기와 "
            "합치기 {work_ms:.2f} ms, 옮기기 {move_ms:.2f} ms). 배치가 루프로 가고 다음 작업이 돌아오는 동안 "
            "워커는 할 일이 없습니다: prefetch_factor를 늘리면 그동안에도 일합니다.",
    },
    "verdict.consumer": {
        "en": "Your training step is the slow part: it took {step_ms:.2f} ms per batch (median{step_note}) and the loop waited "
            "only {share:.0%} of its time ({wait_ms:.2f} ms per batch): the loader keeps up, so more loading "
            "power (more workers, deeper prefetching) will not make this run faster.",
        "ko": "학습 단계가 느린 부분입니다: 배치당 중앙값 {step_ms:.2f} ms{step_note} 걸렸고 학습 루프는 시간의 {share:.0%}만 "
            "기다렸습니다(배치당 {wait_ms:.2f} ms). 로더가 따라오고 있으므로 로딩을 늘려도(워커 추가, 더 깊은 "
            "프리페치) 이 실행은 빨라지지 않습니다.",
    },
    "verdict.main_process": {
        "en": "Loading inside the loop is the slow part: with num_workers=0 the loop spent {share:.0%} of its "
            "time fetching and collating ({work_ms:.2f} ms per batch, against {step_ms:.2f} ms of your step, median{step_note}). "
            "Workers would load while your step runs.",
        "ko": "루프 안에서의 로딩이 느린 부분입니다: num_workers=0이라 학습 루프가 시간의 {share:.0%}를 "
            "가져오고 합치는 데 썼습니다(배치당 {work_ms:.2f} ms, 학습 단계는 중앙값 {step_ms:.2f} ms{step_note}). 워커를 "
            "쓰면 학습 단계가 도는 동안 로딩합니다.",
    },
    "verdict.main_process_measured": {
        "en": "Loading inside the loop is the slow part: with num_workers=0 the loop spent {share:.0%} of its "
              "time fetching and collating ({work_ms:.2f} ms per batch, against {step_ms:.2f} ms of your step, "
              "median{step_note}). Yet run --tune measured settings with workers inside this job and none "
              "was measurably faster than num_workers=0 (its table): the time is in loading each sample, so a "
              "cheaper __getitem__ or collate_fn is what shortens it.",
        "ko": "루프 안에서의 로딩이 느린 부분입니다: num_workers=0이라 학습 루프가 시간의 {share:.0%}를 "
              "가져오고 합치는 데 썼습니다(배치당 {work_ms:.2f} ms, 학습 단계는 중앙값 {step_ms:.2f} ms{step_note}). "
              "그래도 run --tune이 이 작업 안에서 워커를 쓰는 설정을 재 보니 num_workers=0보다 눈에 띄게 빠른 것이 "
              "없었습니다(그 표): "
              "시간은 샘플 하나를 읽는 데 들므로, 더 가벼운 __getitem__이나 collate_fn이 이를 줄입니다.",
    },
    "verdict.pin_memory": {
        "en": "The pin-memory thread is the slow part: it took {pin_ms:.2f} ms per batch, {pin_share:.0%} of "
            "the loop's time, while the loop waited {share:.0%} of its time. pin_memory=False skips it.",
        "ko": "메모리 고정 스레드가 느린 부분입니다: 배치당 {pin_ms:.2f} ms, 루프 시간의 {pin_share:.0%}를 "
            "썼고, 학습 루프는 시간의 {share:.0%}를 기다렸습니다. pin_memory=False로 두면 건너뜁니다.",
    },
    "verdict.none_tuned": {
        "en": plural("batches",
                     one="Too short to say: {batches} batch traced (a verdict needs at least {min_batches}). run "
                         "--tune served the job's other batches in its timed slices, which are not traced: run the "
                         "job without --tune to record it whole.",
                     other="Too short to say: {batches} batches traced (a verdict needs at least {min_batches}). "
                           "run --tune served the job's other batches in its timed slices, which are not traced: "
                           "run the job without --tune to record it whole."),
        "ko": "판단하기에 너무 짧습니다: 기록된 배치 {batches}개(판단하려면 최소 {min_batches}개 필요). run --tune이 "
              "나머지 배치를 측정 구간에서 제공했고 그 구간은 기록되지 않습니다: 작업 전체를 기록하려면 --tune 없이 "
              "실행하세요.",
    },
    "verdict.none": {
        "en": plural("batches",
                     one="Too short to say: {batches} batch in {wall_s:.3f} s (a verdict needs at least "
                         "{min_batches}).",
                     other="Too short to say: {batches} batches in {wall_s:.3f} s (a verdict needs at least "
                           "{min_batches})."),
        "ko": "판단하기에 너무 짧습니다: {wall_s:.3f}초 동안 배치 {batches}개(판단하려면 최소 "
            "{min_batches}개가 필요합니다).",
    },
    "replay.model.capped": {
        "en": plural(
            "cores",
            one="model: {num_workers} workers on this machine's {cores} core: the recorded sample time is "
                "replayed as CPU work, one sample at a time, so workers beyond {cores} add no "
                "speed here. If that time was waiting (disk, network), replay with io_bound=True "
                "(--io-bound).",
            other="model: {num_workers} workers on this machine's cores ({cores}): the recorded sample time "
                "is replayed as CPU work, at most {cores} samples at once, so workers beyond {cores} add "
                "no speed here. If that time was waiting (disk, network), replay with io_bound=True "
                "(--io-bound)."),
        "ko": "모델: 이 컴퓨터의 코어 {cores}개에서 워커 {num_workers}개. 기록된 샘플 시간을 CPU 작업으로 "
            "재생하므로 한 번에 최대 {cores}개 샘플만 처리되고, {cores}개를 넘는 워커는 여기서 속도를 "
            "더하지 않습니다. 그 시간이 대기(디스크, 네트워크)였다면 io_bound=True(--io-bound)로 재생하세요.",
    },
    "replay.model.io_bound": {
        "en": plural(
            "cores",
            one="model: the recorded sample time is replayed as waiting (io_bound), which does not "
                "compete for cores: {num_workers} workers are modelled as {num_workers} at once although "
                "this machine has {cores} core. CPU-bound loading would not speed up past {cores} "
                "workers.",
            other="model: the recorded sample time is replayed as waiting (io_bound), which does not "
                "compete for cores: {num_workers} workers are modelled as {num_workers} at once although "
                "this machine has {cores} cores. CPU-bound loading would not speed up past {cores} "
                "workers."),
        "ko": "모델: 기록된 샘플 시간을 대기(io_bound)로 재생하며, 대기는 코어를 두고 경쟁하지 않습니다. "
            "이 컴퓨터의 코어는 {cores}개지만 워커 {num_workers}개가 동시에 도는 것으로 모델링됩니다. "
            "CPU 작업이 대부분인 로딩이라면 워커 {cores}개를 넘어서는 빨라지지 않습니다.",
    },
    "replay.model.fits": {
        "en": plural(
            "num_workers",
            one=plural(
                    "cores",
                    one="model: the recorded sample time is replayed in {num_workers} worker, within this "
                        "machine's {cores} core.",
                    other="model: the recorded sample time is replayed in {num_workers} worker, within this "
                        "machine's {cores} cores."),
            other=plural(
                    "cores",
                    one="model: the recorded sample time is replayed in {num_workers} workers, within "
                        "this machine's {cores} core.",
                    other="model: the recorded sample time is replayed in {num_workers} workers, within "
                        "this machine's cores ({cores}).")),
        "ko": "모델: 기록된 샘플 시간을 워커 {num_workers}개로 재생합니다. 이 컴퓨터의 코어 {cores}개 "
            "안에서 돕니다.",
    },
    "replay.model.main": {
        "en": "model: the recorded sample time is replayed in the main process (num_workers=0).",
        "ko": "모델: 기록된 샘플 시간을 메인 프로세스에서 재생합니다(num_workers=0).",
    },
    "replay.model.unknown": {
        "en": "model: this machine's core count is unknown, so the replay does not cap parallelism at the "
            "cores: {num_workers} workers are modelled as {num_workers} at once.",
        "ko": "모델: 이 컴퓨터의 코어 수를 알 수 없어 코어 수로 병렬성을 제한하지 않습니다. 워커 "
            "{num_workers}개가 동시에 도는 것으로 모델링됩니다.",
    },
}
