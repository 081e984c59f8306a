"""The words of findings, each key's English and Korean side by side (``TEXTS``): ``finding.<key>`` for a run's
findings, ``part.*`` the pieces of a list inside a finding (the slowest samples), ``where.*`` the process an
error happened in, ``severity.*`` the severities.

Part of :data:`loaderlab.texts.words.WORDS` (look them up there). Values quoted from the trace (an error's
text, a label, a class name) and parameter names (``in_order=False``…) stay as they are in every language.
Knows nothing of how the findings are found.
"""

from .wording import plural

TEXTS = {
    "finding.straggler": {
        "en": plural(
            "count",
            one="{count} slow sample, each at least {ratio_min:.0f}x the median sample of its worker (run "
                "median {median_ms:.2f} ms), added {lost_s:.3f} s of fetching beyond a typical sample: "
                "{share:.0%} of the run's {run_s:.3f} s. Slowest: {worst}{and_more}.",
            other="{count} slow samples, each at least {ratio_min:.0f}x the median sample of its worker "
                "(run median {median_ms:.2f} ms), added {lost_s:.3f} s of fetching beyond a typical "
                "sample: {share:.0%} of the run's {run_s:.3f} s. Slowest: {worst}{and_more}."),
        "ko": "느린 샘플 {count}개가 각각 자기 워커의 샘플 중앙값의 {ratio_min:.0f}배 이상 걸려(실행 전체 중앙값 "
            "{median_ms:.2f} ms), 보통 샘플보다 가져오기 시간을 {lost_s:.3f}초 더 썼습니다: 실행 시간 "
            "{run_s:.3f}초의 {share:.0%}입니다. 가장 느린 샘플: {worst}{and_more}.",
    },
    "finding.slow_worker": {
        "en": "Worker {worker} is {ratio:.1f}x slower than the others: its median sample takes "
            "{median_ms:.2f} ms, theirs {others_ms:.2f} ms ({samples} samples). The loop waited "
            "{cost_s:.3f} s longer for its {batches} batches than the others' batches cost on "
            "average: {cost_share:.0%} of the loop's {loop_s:.3f} s.",
        "ko": "워커 {worker}: 다른 워커보다 {ratio:.1f}배 느립니다: 샘플 중앙값이 {median_ms:.2f} ms로, 다른 "
            "워커의 {others_ms:.2f} ms보다 깁니다(샘플 {samples}개). 학습 루프는 이 워커의 배치 "
            "{batches}개를 다른 워커의 배치보다 평균적으로 {cost_s:.3f}초 더 기다렸습니다: 루프 시간 "
            "{loop_s:.3f}초의 {cost_share:.0%}입니다.",
    },
    "finding.slow_worker_hidden": {
        "en": "Worker {worker} is {ratio:.1f}x slower than the others: its median sample takes "
            "{median_ms:.2f} ms, theirs {others_ms:.2f} ms ({samples} samples). The loop "
            "hardly paid for it ({cost_s:.3f} s, {cost_share:.0%} of its {loop_s:.3f} s): "
            "the training step hid it.",
        "ko": "워커 {worker}: 다른 워커보다 {ratio:.1f}배 느립니다: 샘플 중앙값이 {median_ms:.2f} ms로, "
            "다른 워커의 {others_ms:.2f} ms보다 깁니다(샘플 {samples}개). 하지만 학습 루프는 거의 "
            "기다리지 않았습니다({cost_s:.3f}초, 루프 시간 {loop_s:.3f}초의 {cost_share:.0%}): "
            "학습 단계가 이를 가렸습니다.",
    },
    "finding.head_of_line": {
        "en": plural(
            "parked",
            one="Batch {batch} (worker {worker}) held {parked} ready batch in the reorder buffer for "
                "{blocked_s:.3f} s (epoch {epoch}); its slow sample was index {index} ({fetch_s:.3f} s). "
                "in_order=False would hand the others over as they arrive.",
            other="Batch {batch} (worker {worker}) held {parked} ready batches in the reorder buffer for "
                "{blocked_s:.3f} s (epoch {epoch}); its slow sample was index {index} ({fetch_s:.3f} s). "
                "in_order=False would hand the others over as they arrive."),
        "ko": "배치 {batch}(워커 {worker}) 때문에 준비된 배치 {parked}개가 재정렬 버퍼에서 "
            "{blocked_s:.3f}초 동안 묶여 있었습니다(에폭 {epoch}). 원인은 느린 샘플 인덱스 {index}"
            "({fetch_s:.3f}초)입니다. in_order=False로 두면 나머지 배치는 도착하는 대로 넘겨집니다.",
    },
    "finding.head_of_line_worker": {
        "en": plural(
            "parked",
            one="Batch {batch} (worker {worker}) arrived late and held {parked} ready batch in the "
                "reorder buffer for {blocked_s:.3f} s (epoch {epoch}).",
            other="Batch {batch} (worker {worker}) arrived late and held {parked} ready batches in the "
                "reorder buffer for {blocked_s:.3f} s (epoch {epoch})."),
        "ko": "늦게 도착한 배치 {batch}(워커 {worker}) 때문에 준비된 배치 {parked}개가 "
            "재정렬 버퍼에서 {blocked_s:.3f}초 동안 묶여 있었습니다(에폭 {epoch}).",
    },
    "finding.stalled_worker": {
        "en": "Worker {worker} (pid {pid}) stopped reporting inside dataset[{index}] (batch {batch}, "
            "epoch {epoch}): silent for {silent_s:.2f} s until the trace ends, and it never "
            "exited on its own.",
        "ko": "워커 {worker}(pid {pid}) 프로세스가 dataset[{index}] 안에서 보고를 멈췄습니다(배치 "
            "{batch}, 에폭 {epoch}). 트레이스가 끝날 때까지 {silent_s:.2f}초 동안 소식이 없었고, "
            "스스로 종료하지도 않았습니다.",
    },
    "finding.worker_vanished": {
        "en": "Worker {worker} (pid {pid}) vanished without exiting (epoch {epoch}); its last "
            "event was {last_kind} at {last_s:.3f} s.",
        "ko": "워커 {worker}(pid {pid}) 프로세스가 종료 기록 없이 사라졌습니다(에폭 {epoch}). "
            "마지막 이벤트는 {last_s:.3f}초의 {last_kind}였습니다.",
    },
    "finding.slow_first_batch": {
        "en": "The first batch of epoch {epoch} took {first_wait_s:.2f} s ({ratio:.0f}x a "
            "typical wait); worker start-up took {startup_s:.2f} s of it (last ready: worker "
            "{worker}). persistent_workers=True starts the workers once, not every epoch.",
        "ko": "에폭 {epoch}의 첫 배치가 {first_wait_s:.2f}초 걸렸습니다(보통 대기의 {ratio:.0f}배). "
            "그중 {startup_s:.2f}초가 워커 시작에 쓰였습니다(마지막으로 준비된 워커: {worker}). "
            "persistent_workers=True로 두면 워커를 에폭마다가 아니라 한 번만 시작합니다.",
    },
    "finding.slow_first_batch_once": {
        "en": "The first batch of epoch {epoch} took {first_wait_s:.2f} s ({ratio:.0f}x a "
            "typical wait); worker start-up took {startup_s:.2f} s of it (last ready: "
            "worker {worker}).",
        "ko": "에폭 {epoch}의 첫 배치가 {first_wait_s:.2f}초 걸렸습니다(보통 대기의 "
            "{ratio:.0f}배). 그중 {startup_s:.2f}초가 워커 시작에 쓰였습니다(마지막으로 "
            "준비된 워커: {worker}).",
    },
    "finding.loader_bound": {
        "en": "Loader-bound: the loop waited {wait_s:.3f} s for batches and spent {consume_s:.3f} s "
            "in its body ({share:.0%} waiting; first batches of epochs left out).",
        "ko": "데이터로더가 병목입니다: 학습 루프가 배치를 {wait_s:.3f}초 기다렸고 루프 본문에서 "
            "{consume_s:.3f}초를 썼습니다(대기 비율 {share:.0%}, 각 에폭의 첫 배치는 제외).",
    },
    "finding.model_bound": {
        "en": "Model-bound: the loop spent {consume_s:.3f} s in its body and waited only "
            "{wait_s:.3f} s for batches ({share:.0%} waiting); a faster loader would not help.",
        "ko": "모델이 병목입니다: 학습 루프가 본문에서 {consume_s:.3f}초를 썼고 배치는 {wait_s:.3f}초만 "
            "기다렸습니다(대기 비율 {share:.0%}). 데이터로더가 더 빨라져도 도움이 되지 않습니다.",
    },
    "finding.model_bound_steady": {
        "en": "Model-bound once running: the loop spent {consume_s:.3f} s in its body and waited only {wait_s:.3f} s "
            "for batches ({share:.0%} waiting; first batches of epochs left out). The bottleneck says what held "
            "the run back.",
        "ko": "실행 중에는 모델이 병목입니다: 학습 루프가 본문에서 {consume_s:.3f}초를 썼고 배치는 {wait_s:.3f}초만 "
            "기다렸습니다(대기 비율 {share:.0%}, 각 에폭의 첫 배치는 제외). 무엇이 실행을 붙잡았는지는 병목이 "
            "알려 줍니다.",
    },
    "finding.model_bound_cores": {
        "en": "The loop spent {consume_s:.3f} s in its body and waited only {wait_s:.3f} s for batches "
            "({share:.0%} waiting), but its body also waited for the cores the workers held: more workers, up "
            "to the cores, would still help (see the bottleneck).",
        "ko": "학습 루프가 본문에서 {consume_s:.3f}초를 썼고 배치는 {wait_s:.3f}초만 기다렸지만(대기 비율 "
            "{share:.0%}), 본문도 워커가 차지한 코어를 기다렸습니다: 코어 수까지는 워커를 늘리면 여전히 "
            "빨라집니다(병목 참고).",
    },
    "finding.machine_stall": {
        "en": plural(
            "samples",
            one="The whole machine paused: no process of the run made progress for {stalled_s:.3f} s in all "
                "(pauses: {windows}; the first from {start_s:.3f} s to {end_s:.3f} s, with {processes} processes "
                "inside a sample or the loop's body). Other programs or the system held the cores; the {samples} "
                "sample it slowed is not counted as a slow sample.",
            other="The whole machine paused: no process of the run made progress for {stalled_s:.3f} s in all "
                  "(pauses: {windows}; the first from {start_s:.3f} s to {end_s:.3f} s, with {processes} processes "
                  "inside a sample or the loop's body). Other programs or the system held the cores; the "
                  "{samples} samples it slowed are not counted as slow samples."),
        "ko": "컴퓨터 전체가 멈췄습니다: 모두 {stalled_s:.3f}초 동안 실행의 어느 프로세스도 진행하지 못했습니다"
            "(멈춘 횟수 {windows}번, 처음은 {start_s:.3f}초부터 {end_s:.3f}초까지, 프로세스 {processes}개가 샘플이나 "
            "루프 본문 안에 있었음). 다른 프로그램이나 시스템이 코어를 차지한 것이므로, 이 때문에 느려진 샘플 "
            "{samples}개는 느린 샘플로 세지 않습니다.",
    },
    "finding.error": {
        "en": "Error in {where} (epoch {epoch}): {detail}",
        "ko": "{where}에서 오류가 났습니다(에폭 {epoch}): {detail}",
    },
    "finding.copy_on_access": {
        "en": "Worker {worker} (pid {pid}) grew from {first_mb:.0f} MB to {peak_mb:.0f} MB of private "
            "memory during the run: copy-on-access — forked workers copy every page of the dataset "
            "they touch. Keep samples in numpy arrays or tensors, not lists of Python objects.",
        "ko": "워커 {worker}(pid {pid})의 전용 메모리가 실행 중 {first_mb:.0f} MB에서 {peak_mb:.0f} MB로 "
            "늘었습니다: copy-on-access — fork된 워커는 건드린 데이터셋 페이지를 모두 복사합니다. "
            "샘플을 Python 객체 리스트가 아니라 numpy 배열이나 텐서로 두세요.",
    },
    "finding.shm_nearly_full": {
        "en": "/dev/shm was {share:.0%} full ({used_mb:.0f} of {total_mb:.0f} MB): batches in flight "
            "live there, and a full /dev/shm kills workers with SIGBUS. Lower prefetch_factor, "
            "batch_size or num_workers, or give the machine more shared memory.",
        "ko": "/dev/shm가 {share:.0%} 찼습니다({total_mb:.0f} MB 중 {used_mb:.0f} MB): 전달 중인 배치가 "
            "여기에 있고, /dev/shm가 가득 차면 워커가 SIGBUS로 종료됩니다. prefetch_factor, batch_size, "
            "num_workers를 줄이거나 공유 메모리를 늘리세요.",
    },
    "finding.error_in_batch": {
        "en": "Error in {where} (epoch {epoch}, batch {batch}): {detail}",
        "ko": "{where}에서 오류가 났습니다(에폭 {epoch}, 배치 {batch}): {detail}",
    },
    "finding.error_in_sample": {
        "en": "Error in {where} at dataset[{index}] (epoch {epoch}, batch {batch}): {detail}",
        "ko": "{where}의 dataset[{index}]에서 오류가 났습니다(에폭 {epoch}, 배치 {batch}): {detail}",
    },
    "finding.class_imbalance": {
        "en": "Epoch {epoch}: label {minority} is {minority_share:.1%} of the samples and label "
            "{majority} {majority_share:.1%} ({ratio:.0f}:1); {batches_without} of the {batches} batches "
            "have no label {minority}.",
        "ko": "에폭 {epoch}: 샘플 중 레이블 {minority}의 비율은 {minority_share:.1%}, 레이블 "
            "{majority}의 비율은 {majority_share:.1%}입니다({ratio:.0f}:1). 배치 {batches}개 중 "
            "{batches_without}개에는 레이블 {minority}가 없습니다.",
    },
    "finding.share_drift": {
        "en": "Epoch {epoch}: label {label} is {share:.1%} of the samples, intended {intended:.1%} "
            "({n} samples).",
        "ko": "에폭 {epoch}: 샘플 중 레이블 {label}의 비율이 의도한 {intended:.1%}가 아니라 "
            "{share:.1%}입니다(샘플 {n}개).",
    },
    "finding.repeated_samples": {
        "en": "Epoch {epoch}: {drawn} draws hit {distinct} distinct samples ({repeats} repeats; "
            "sample {index} drawn {times} times); {unseen} of {dataset_len} samples were "
            "never drawn.",
        "ko": "에폭 {epoch}: {drawn}번 뽑았지만 서로 다른 샘플은 {distinct}개였습니다(중복 "
            "{repeats}번, 가장 많이 뽑힌 샘플 {index}: {times}번). 샘플 {dataset_len}개 중 "
            "{unseen}개는 한 번도 뽑히지 않았습니다.",
    },
    "finding.padding_waste": {
        "en": "Epoch {epoch}: {fraction:.0%} of the batch cells are padding ({padded_cells} of "
            "{cells}); the worst is batch {batch} at {batch_fraction:.0%}. Batching samples of "
            "similar length would cut it.",
        "ko": "에폭 {epoch}: 배치 칸의 {fraction:.0%}가 패딩입니다({cells}칸 중 {padded_cells}칸). 가장 "
            "심한 배치는 {batch}번으로 {batch_fraction:.0%}입니다. 길이가 비슷한 샘플끼리 배치로 "
            "묶으면 줄일 수 있습니다.",
    },
    "finding.padding_waste_bucketed": {
        "en": "Epoch {epoch}: {fraction:.0%} of the batch cells are padding ({padded_cells} of "
            "{cells}); the worst is batch {batch} at {batch_fraction:.0%}. Batching samples of "
            "similar length (sorted by length into batches of the same sizes) would leave "
            "{bucketed_fraction:.0%} padding: {saved_cells} fewer cells ({saved_fraction:.0%} of them).",
        "ko": "에폭 {epoch}: 배치 칸의 {fraction:.0%}가 패딩입니다({cells}칸 중 {padded_cells}칸). 가장 "
            "심한 배치는 {batch}번으로 {batch_fraction:.0%}입니다. 길이가 비슷한 샘플끼리(길이순으로 정렬해 "
            "같은 크기의 배치로) 묶으면 패딩이 {bucketed_fraction:.0%}로 줄어 칸이 {saved_cells}개"
            "({saved_fraction:.0%}) 줄어듭니다.",
    },
    "finding.iterable_duplicates": {
        "en": "Epoch {epoch}: {duplicates} of {distinct} IterableDataset samples came from "
            "more than one worker (e.g. {label!r} from workers {workers}, at stream positions {positions}); "
            "every worker replays the whole stream unless __iter__ shards it with get_worker_info().",
        "ko": "에폭 {epoch}: IterableDataset 샘플 {distinct}개 중 {duplicates}개가 둘 이상의 "
            "워커에서 나왔습니다(예: {label!r}, 워커 {workers}, 스트림 위치 {positions}). __iter__가 "
            "get_worker_info()로 샤딩하지 않으면 모든 워커가 스트림 전체를 되풀이합니다.",
    },
    "finding.iterable_duplicates_content": {  # samples told apart by a fingerprint of their content
        "en": "Epoch {epoch}: {duplicates} of {distinct} IterableDataset samples came from "
            "more than one worker (e.g. the same content from workers {workers}, at stream positions "
            "{positions}); every worker replays the whole stream unless __iter__ shards it with "
            "get_worker_info().",
        "ko": "에폭 {epoch}: IterableDataset 샘플 {distinct}개 중 {duplicates}개가 둘 이상의 "
            "워커에서 나왔습니다(예: 같은 내용의 샘플이 워커 {workers}의 스트림 위치 {positions}에 있음). "
            "__iter__가 get_worker_info()로 샤딩하지 않으면 모든 워커가 스트림 전체를 되풀이합니다.",
    },
    "finding.iterable_duplicates_key": {  # samples told apart by the keys their library gave them (webdataset's)
        "en": "Epoch {epoch}: {duplicates} of {distinct} IterableDataset samples came from "
            "more than one worker (e.g. the same sample, by the key its library gave it, from workers {workers}, "
            "at stream positions {positions}); every worker replays the whole stream unless it is split among "
            "the workers (webdataset: the default workersplitter, or __iter__ with get_worker_info()).",
        "ko": "에폭 {epoch}: IterableDataset 샘플 {distinct}개 중 {duplicates}개가 둘 이상의 "
            "워커에서 나왔습니다(예: 라이브러리가 붙인 키가 같은 샘플이 워커 {workers}의 스트림 위치 {positions}에 "
            "있음). 워커끼리 스트림을 나누지 않으면(webdataset은 기본 workersplitter, 또는 __iter__에서 "
            "get_worker_info()) 모든 워커가 스트림 전체를 되풀이합니다.",
    },
    "finding.iterable_duplicates_range": {  # by content, after a transform that may be random: a range
        "en": "Epoch {epoch}: between {duplicates} and {upper} of the {fetched} IterableDataset samples fetched "
            "came from more than one worker (e.g. the same content from workers {workers}, at stream positions "
            "{positions}). The samples carry no key and their content is read after the dataset's transform: a "
            "random augmentation makes two copies of one sample look different, so only {duplicates} look "
            "alike, while their labels allow up to {upper}. Every worker replays the whole stream unless "
            "__iter__ shards it with get_worker_info().",
        "ko": "에폭 {epoch}: 가져온 IterableDataset 샘플 {fetched}개 중 {duplicates}~{upper}개가 둘 이상의 "
            "워커에서 나왔습니다(예: 같은 내용의 샘플이 워커 {workers}의 스트림 위치 {positions}에 있음). 샘플에 "
            "키가 없고 내용은 데이터셋의 변환 뒤에 읽으므로, 무작위 증강이 한 샘플의 두 사본을 다르게 보이게 해 "
            "{duplicates}개만 같아 보이지만 레이블로는 {upper}개까지 가능합니다. __iter__가 "
            "get_worker_info()로 샤딩하지 않으면 모든 워커가 스트림 전체를 되풀이합니다.",
    },
    "finding.same_order": {
        "en": "Epochs {first_epoch} and {epoch} drew the same shuffled order ({n} samples, "
            "{sampler}); with DistributedSampler, call sampler.set_epoch(epoch) before each epoch.",
        "ko": "에폭 {first_epoch}, {epoch}의 셔플 순서가 똑같습니다(샘플 {n}개, {sampler}). "
            "DistributedSampler를 쓴다면 각 에폭 전에 sampler.set_epoch(epoch)를 호출하세요.",
    },
    "finding.same_order_set_epoch": {
        "en": "Epochs {first_epoch} and {epoch} drew the same shuffled order ({n} samples, "
            "{sampler}): the sampler's epoch stayed {sampler_epoch}, so set_epoch was never called. "
            "Call sampler.set_epoch(epoch) before each epoch.",
        "ko": "에폭 {first_epoch}, {epoch}의 셔플 순서가 똑같습니다(샘플 {n}개, {sampler}). 샘플러의 "
            "에폭이 {sampler_epoch}에 머물렀으니 set_epoch가 한 번도 호출되지 않았습니다. 각 에폭 전에 "
            "sampler.set_epoch(epoch)를 호출하세요.",
    },
    "finding.identical_rng": {
        "en": "Worker {worker} drew the same random numbers as worker {same_as_worker} ({shared} "
            "of {draws} draws; first at sample {index}, batch {batch}, epoch {epoch}): their "
            "RNGs were seeded alike. Derive seeds from torch.initial_seed() in worker_init_fn.",
        "ko": "워커 {worker}의 난수가 워커 {same_as_worker}의 난수와 같습니다({draws}번 중 "
            "{shared}번 일치, 처음은 샘플 {index}, 배치 {batch}, 에폭 {epoch}). 두 워커의 난수 생성기가 "
            "같은 시드로 초기화되었습니다. worker_init_fn에서 torch.initial_seed()로부터 시드를 "
            "만드세요.",
    },
    "finding.iterable_replayed": {
        "en": "Epoch {epoch}: the workers yielded {received} samples from an IterableDataset "
            "whose len() is {dataset_len} (per worker: {per_worker}): each worker replays "
            "the whole stream unless __iter__ shards it with get_worker_info().",
        "ko": "에폭 {epoch}: len()이 {dataset_len}인 IterableDataset에서 워커들이 샘플 "
            "{received}개를 내놓았습니다(워커별: {per_worker}). __iter__가 get_worker_info()로 "
            "샤딩하지 않으면 모든 워커가 스트림 전체를 되풀이합니다.",
    },
    "part.straggler": {
        "en": "index {index} (batch {batch}, worker {worker}, {fetch_s:.3f} s)",
        "ko": "인덱스 {index}(배치 {batch}, 워커 {worker}, {fetch_s:.3f}초)",
    },
    "part.more": {
        "en": ", and {n} more",
        "ko": " 외 {n}개",
    },
    "where.main": {
        "en": "the main process",
        "ko": "메인 프로세스",
    },
    "where.worker": {
        "en": "worker {worker}",
        "ko": "워커 {worker}",
    },
    "severity.error": {
        "en": "error",
        "ko": "오류",
    },
    "severity.warning": {
        "en": "warning",
        "ko": "경고",
    },
    "severity.info": {
        "en": "info",
        "ko": "정보",
    },
}
