"""The words of findings and of the plain-text report, in English (``EN``) and Korean (``KO``).

A :class:`~loaderlab.trace.findings.Finding` carries a ``key`` and its ``evidence``; :func:`render` words
it in a language: ``finding.<key>`` formatted with the evidence. ``rank.*`` words the findings of a
multi-rank trace (:mod:`.distributed`), ``part.*`` words the pieces of a list inside a finding (the slowest samples), ``where.*`` names the process an error happened in, ``severity.*``
the severities, ``report.*`` the report's layout. Both dicts have the same keys and the same format placeholders (a test checks). Values quoted from the trace (an error's text, a label,
a class name) and parameter names (``in_order=False``…) stay as they are in every language.
Knows nothing of streamlit, plotly or how the findings are found.
"""

from __future__ import annotations

from typing import Any, Mapping

LANGUAGES = ("en", "ko")

EN = {
    "finding.straggler": "{count} slow sample(s), each at least {ratio_min:.0f}x the median sample of its worker "
                         "(run median {median_ms:.2f} ms), added {lost_s:.3f} s of fetching beyond a typical "
                         "sample: {share:.0%} of the run's {run_s:.3f} s. Slowest: {worst}{and_more}.",
    "finding.slow_worker": "Worker {worker} is {ratio:.1f}x slower than the others: its median sample takes "
                           "{median_ms:.2f} ms, theirs {others_ms:.2f} ms ({samples} samples). The loop waited "
                           "{cost_s:.3f} s longer for its {batches} batches than the others' batches cost on "
                           "average: {cost_share:.0%} of the loop's {loop_s:.3f} s.",
    "finding.slow_worker_hidden": "Worker {worker} is {ratio:.1f}x slower than the others: its median sample takes "
                                  "{median_ms:.2f} ms, theirs {others_ms:.2f} ms ({samples} samples). The loop "
                                  "hardly paid for it ({cost_s:.3f} s, {cost_share:.0%} of its {loop_s:.3f} s): "
                                  "the training step hid it.",
    "finding.head_of_line": "Batch {batch} (worker {worker}) held {parked} ready batch(es) in the reorder buffer "
                            "for {blocked_s:.3f} s (epoch {epoch}); its slow sample was index {index} "
                            "({fetch_s:.3f} s). in_order=False would hand the others over as they arrive.",
    "finding.head_of_line_worker": "Batch {batch} (worker {worker}) arrived late and held {parked} ready batch(es) "
                                   "in the reorder buffer for {blocked_s:.3f} s (epoch {epoch}).",
    "finding.stalled_worker": "Worker {worker} (pid {pid}) stopped reporting inside dataset[{index}] (batch {batch}, "
                              "epoch {epoch}): silent for {silent_s:.2f} s until the trace ends, and it never "
                              "exited on its own.",
    "finding.worker_vanished": "Worker {worker} (pid {pid}) vanished without exiting (epoch {epoch}); its last "
                               "event was {last_kind} at {last_s:.3f} s.",
    "finding.slow_first_batch": "The first batch of epoch {epoch} took {first_wait_s:.2f} s ({ratio:.0f}x a "
                                "typical wait); worker start-up took {startup_s:.2f} s of it (last ready: worker "
                                "{worker}). persistent_workers=True starts the workers once, not every epoch.",
    "finding.slow_first_batch_once": "The first batch of epoch {epoch} took {first_wait_s:.2f} s ({ratio:.0f}x a "
                                     "typical wait); worker start-up took {startup_s:.2f} s of it (last ready: "
                                     "worker {worker}).",
    "finding.loader_bound": "Loader-bound: the loop waited {wait_s:.3f} s for batches and spent {consume_s:.3f} s "
                            "in its body ({share:.0%} waiting; first batches of epochs left out).",
    "finding.model_bound": "Model-bound: the loop spent {consume_s:.3f} s in its body and waited only "
                           "{wait_s:.3f} s for batches ({share:.0%} waiting); a faster loader would not help.",
    "finding.error": "Error in {where} (epoch {epoch}): {detail}",
    "finding.copy_on_access": "Worker {worker} (pid {pid}) grew from {first_mb:.0f} MB to {peak_mb:.0f} MB of private "
                              "memory during the run: copy-on-access — forked workers copy every page of the dataset "
                              "they touch. Keep samples in numpy arrays or tensors, not lists of Python objects.",
    "finding.shm_nearly_full": "/dev/shm was {share:.0%} full ({used_mb:.0f} of {total_mb:.0f} MB): batches in flight "
                               "live there, and a full /dev/shm kills workers with SIGBUS. Lower prefetch_factor, "
                               "batch_size or num_workers, or give the machine more shared memory.",
    "finding.error_in_batch": "Error in {where} (epoch {epoch}, batch {batch}): {detail}",
    "finding.error_in_sample": "Error in {where} at dataset[{index}] (epoch {epoch}, batch {batch}): {detail}",
    "finding.class_imbalance": "Epoch {epoch}: label {minority} is {minority_share:.1%} of the samples and label "
                               "{majority} {majority_share:.1%} ({ratio:.0f}:1).",
    "finding.share_drift": "Epoch {epoch}: label {label} is {share:.1%} of the samples, intended {intended:.1%} "
                           "({n} samples).",
    "finding.repeated_samples": "Epoch {epoch}: {drawn} draws hit {distinct} distinct samples ({repeats} repeats; "
                                "sample {index} drawn {times} times); {unseen} of {dataset_len} samples were "
                                "never drawn.",
    "finding.padding_waste": "Epoch {epoch}: {fraction:.0%} of the batch cells are padding ({padded_cells} of "
                             "{cells}); the worst is batch {batch} at {batch_fraction:.0%}. Batching samples of "
                             "similar length would cut it.",
    "finding.iterable_duplicates": "Epoch {epoch}: {duplicates} of {distinct} IterableDataset samples came from "
                                   "more than one worker (e.g. {label!r} from workers {workers}); every worker "
                                   "replays the whole stream unless __iter__ shards it with get_worker_info().",
    "finding.same_order": "Epochs {first_epoch} and {epoch} drew the same shuffled order ({n} samples, "
                          "{sampler}); with DistributedSampler, call sampler.set_epoch(epoch) before each epoch.",
    "finding.identical_rng": "Worker {worker} drew the same random numbers as worker {same_as_worker} ({shared} "
                             "of {draws} draws; first at sample {index}, batch {batch}, epoch {epoch}): their "
                             "RNGs were seeded alike. Derive seeds from torch.initial_seed() in worker_init_fn.",
    "finding.iterable_replayed": "Epoch {epoch}: the workers yielded {received} samples from an IterableDataset "
                                 "whose len() is {dataset_len} (per worker: {per_worker}): each worker replays "
                                 "the whole stream unless __iter__ shards it with get_worker_info().",
    "part.straggler": "index {index} (batch {batch}, worker {worker}, {fetch_s:.3f} s)",
    "part.more": ", and {n} more",
    "where.main": "the main process",
    "where.worker": "worker {worker}",
    "severity.error": "error",
    "severity.warning": "warning",
    "severity.info": "info",
    "rank.same_order_every_epoch": (
        "Every rank got the same samples in the same order in all {epochs} epochs. DistributedSampler "
        "shuffles with `seed + epoch`, and its epoch only changes when you call `sampler.set_epoch(epoch)` — "
        "without it the \"shuffle\" is the same permutation every epoch."),
    "rank.padded": (
        "{count} sample(s) per epoch are seen twice (indices {indices} in epoch {epoch}): with "
        "`drop_last=False` DistributedSampler repeats the head of its list so that every rank gets the same "
        "number of samples."),
    "rank.dropped": (
        "{count} sample(s) per epoch reach no rank: with `drop_last=True` DistributedSampler cuts its list to"
        " a multiple of the world size."),
    "rank.overlap": (
        "Ranks {rank_a} and {rank_b} got {count} of the same samples in epoch {epoch} beyond padding: their "
        "samplers disagree (a different seed or world size per rank?)."),
    "rank.slow_rank": (
        "Rank {rank}'s loop waited {wait} s for data, {ratio}× as long as rank {fast}'s. With an all-reduce "
        "after each mini-batch (DistributedDataParallel's gradient sync) the other ranks spend that time "
        "waiting for it inside their training step: every rank runs at the pace of the slowest loader."),
    "report.rank": "Rank {rank}:",
    "report.ranks": "Across the {n} ranks:",
    "report.title": "LoaderLab report",
    "report.settings": "Settings: {settings}",
    "report.events": "Events: {n}",
    "report.throughput": "Throughput:",
    "report.throughput_row": "  epoch {epoch}: {batches} batches, {samples} samples in {duration} s = {bps} "
                             "batches/s, {sps} samples/s; first batch after {first} s",
    "report.wait": "Main-process wait (time blocked in next()):",
    "report.wait_row": "  epoch {epoch}: waited {wait} s after the first batch, loop body {consume} s: {share} "
                       "waiting (first batch: {first} s more)",
    "report.wait_total": "  the whole run: waited {wait} s after each epoch's first batch, loop body {consume} s: "
                         "{share} of the loop spent waiting (first batches: {first} s more)",
    "report.workers": "Workers:",
    "report.worker_row": "  worker {worker} (pid {pid}, from epoch {epoch}): start-up {startup} s, busy {busy} s "
                         "({busy_share}), idle {idle} s, of which {capped} s at the prefetch cap",
    "report.findings": "Findings ({n}):",
    "report.findings_none": "Findings: none",
    "report.finding_row": "  [{severity}] {kind}: {message}",
    "report.na": "n/a",
    # what a replay modelled (loaderlab.trace.replay.model_note); placeholders from replay_model
    "replay.model.capped": "model: {num_workers} workers on this machine's {cores} core(s): the recorded sample time is "
                           "replayed as CPU work, at most {cores} samples at once, so workers beyond {cores} add no "
                           "speed here. If that time was waiting (disk, network), replay with io_bound=True (--io-bound).",
    "replay.model.io_bound": "model: the recorded sample time is replayed as waiting (io_bound), which does not compete "
                             "for cores: {num_workers} workers are modelled as {num_workers} at once although this "
                             "machine has {cores} core(s). CPU-bound loading would not speed up past {cores} workers.",
    "replay.model.fits": "model: the recorded sample time is replayed in {num_workers} worker(s), within this machine's "
                         "{cores} core(s).",
    "replay.model.main": "model: the recorded sample time is replayed in the main process (num_workers=0).",
    "replay.model.unknown": "model: this machine's core count is unknown, so the replay does not cap parallelism at the "
                            "cores: {num_workers} workers are modelled as {num_workers} at once.",
}

KO = {
    "finding.straggler": ("느린 샘플 {count}개가 각각 자기 워커의 샘플 중앙값의 {ratio_min:.0f}배 이상 걸려(실행 전체 중앙값 "
                          "{median_ms:.2f} ms), 보통 샘플보다 가져오기 시간을 {lost_s:.3f}초 더 썼습니다: 실행 시간 "
                          "{run_s:.3f}초의 {share:.0%}입니다. 가장 느린 샘플: {worst}{and_more}."),
    "finding.slow_worker": ("워커 {worker}: 다른 워커보다 {ratio:.1f}배 느립니다: 샘플 중앙값이 {median_ms:.2f} ms로, 다른 "
                            "워커의 {others_ms:.2f} ms보다 깁니다(샘플 {samples}개). 학습 루프는 이 워커의 배치 "
                            "{batches}개를 다른 워커의 배치보다 평균적으로 {cost_s:.3f}초 더 기다렸습니다: 루프 시간 "
                            "{loop_s:.3f}초의 {cost_share:.0%}입니다."),
    "finding.slow_worker_hidden": ("워커 {worker}: 다른 워커보다 {ratio:.1f}배 느립니다: 샘플 중앙값이 {median_ms:.2f} ms로, "
                                   "다른 워커의 {others_ms:.2f} ms보다 깁니다(샘플 {samples}개). 하지만 학습 루프는 거의 "
                                   "기다리지 않았습니다({cost_s:.3f}초, 루프 시간 {loop_s:.3f}초의 {cost_share:.0%}): "
                                   "학습 단계가 이를 가렸습니다."),
    "finding.head_of_line": ("배치 {batch}(워커 {worker}) 때문에 준비된 배치 {parked}개가 재정렬 버퍼에서 "
                             "{blocked_s:.3f}초 동안 묶여 있었습니다(에폭 {epoch}). 원인은 느린 샘플 인덱스 {index}"
                             "({fetch_s:.3f}초)입니다. in_order=False로 두면 나머지 배치는 도착하는 대로 넘겨집니다."),
    "finding.head_of_line_worker": ("늦게 도착한 배치 {batch}(워커 {worker}) 때문에 준비된 배치 {parked}개가 "
                                    "재정렬 버퍼에서 {blocked_s:.3f}초 동안 묶여 있었습니다(에폭 {epoch})."),
    "finding.stalled_worker": ("워커 {worker}(pid {pid}) 프로세스가 dataset[{index}] 안에서 보고를 멈췄습니다(배치 "
                               "{batch}, 에폭 {epoch}). 트레이스가 끝날 때까지 {silent_s:.2f}초 동안 소식이 없었고, "
                               "스스로 종료하지도 않았습니다."),
    "finding.worker_vanished": ("워커 {worker}(pid {pid}) 프로세스가 종료 기록 없이 사라졌습니다(에폭 {epoch}). "
                                "마지막 이벤트는 {last_s:.3f}초의 {last_kind}였습니다."),
    "finding.slow_first_batch": "에폭 {epoch}의 첫 배치가 {first_wait_s:.2f}초 걸렸습니다(보통 대기의 {ratio:.0f}배). "
                                "그중 {startup_s:.2f}초가 워커 시작에 쓰였습니다(마지막으로 준비된 워커: {worker}). "
                                "persistent_workers=True로 두면 워커를 에폭마다가 아니라 한 번만 시작합니다.",
    "finding.slow_first_batch_once": "에폭 {epoch}의 첫 배치가 {first_wait_s:.2f}초 걸렸습니다(보통 대기의 "
                                     "{ratio:.0f}배). 그중 {startup_s:.2f}초가 워커 시작에 쓰였습니다(마지막으로 "
                                     "준비된 워커: {worker}).",
    "finding.loader_bound": "데이터로더가 병목입니다: 학습 루프가 배치를 {wait_s:.3f}초 기다렸고 루프 본문에서 "
                            "{consume_s:.3f}초를 썼습니다(대기 비율 {share:.0%}, 각 에폭의 첫 배치는 제외).",
    "finding.model_bound": "모델이 병목입니다: 학습 루프가 본문에서 {consume_s:.3f}초를 썼고 배치는 {wait_s:.3f}초만 "
                           "기다렸습니다(대기 비율 {share:.0%}). 데이터로더가 더 빨라져도 도움이 되지 않습니다.",
    "finding.error": "{where}에서 오류가 났습니다(에폭 {epoch}): {detail}",
    "finding.copy_on_access": "워커 {worker}(pid {pid})의 전용 메모리가 실행 중 {first_mb:.0f} MB에서 {peak_mb:.0f} MB로 "
                              "늘었습니다: copy-on-access — fork된 워커는 건드린 데이터셋 페이지를 모두 복사합니다. "
                              "샘플을 Python 객체 리스트가 아니라 numpy 배열이나 텐서로 두세요.",
    "finding.shm_nearly_full": "/dev/shm가 {share:.0%} 찼습니다({total_mb:.0f} MB 중 {used_mb:.0f} MB): 전달 중인 배치가 "
                               "여기에 있고, /dev/shm가 가득 차면 워커가 SIGBUS로 종료됩니다. prefetch_factor, batch_size, "
                               "num_workers를 줄이거나 공유 메모리를 늘리세요.",
    "finding.error_in_batch": "{where}에서 오류가 났습니다(에폭 {epoch}, 배치 {batch}): {detail}",
    "finding.error_in_sample": "{where}의 dataset[{index}]에서 오류가 났습니다(에폭 {epoch}, 배치 {batch}): {detail}",
    "finding.class_imbalance": ("에폭 {epoch}: 샘플 중 레이블 {minority}의 비율은 {minority_share:.1%}, 레이블 "
                                "{majority}의 비율은 {majority_share:.1%}입니다({ratio:.0f}:1)."),
    "finding.share_drift": ("에폭 {epoch}: 샘플 중 레이블 {label}의 비율이 의도한 {intended:.1%}가 아니라 "
                            "{share:.1%}입니다(샘플 {n}개)."),
    "finding.repeated_samples": ("에폭 {epoch}: {drawn}번 뽑았지만 서로 다른 샘플은 {distinct}개였습니다(중복 "
                                 "{repeats}번, 가장 많이 뽑힌 샘플 {index}: {times}번). 샘플 {dataset_len}개 중 "
                                 "{unseen}개는 한 번도 뽑히지 않았습니다."),
    "finding.padding_waste": "에폭 {epoch}: 배치 칸의 {fraction:.0%}가 패딩입니다({cells}칸 중 {padded_cells}칸). 가장 "
                             "심한 배치는 {batch}번으로 {batch_fraction:.0%}입니다. 길이가 비슷한 샘플끼리 배치로 "
                             "묶으면 줄일 수 있습니다.",
    "finding.iterable_duplicates": "에폭 {epoch}: IterableDataset 샘플 {distinct}개 중 {duplicates}개가 둘 이상의 "
                                   "워커에서 나왔습니다(예: {label!r}, 워커 {workers}). __iter__가 get_worker_info()로 "
                                   "샤딩하지 않으면 모든 워커가 스트림 전체를 되풀이합니다.",
    "finding.same_order": ("에폭 {first_epoch}, {epoch}의 셔플 순서가 똑같습니다(샘플 {n}개, {sampler}). "
                           "DistributedSampler를 쓴다면 각 에폭 전에 sampler.set_epoch(epoch)를 호출하세요."),
    "finding.identical_rng": ("워커 {worker}의 난수가 워커 {same_as_worker}의 난수와 같습니다({draws}번 중 "
                              "{shared}번 일치, 처음은 샘플 {index}, 배치 {batch}, 에폭 {epoch}). 두 워커의 난수 생성기가 "
                              "같은 시드로 초기화되었습니다. worker_init_fn에서 torch.initial_seed()로부터 시드를 "
                              "만드세요."),
    "finding.iterable_replayed": ("에폭 {epoch}: len()이 {dataset_len}인 IterableDataset에서 워커들이 샘플 "
                                  "{received}개를 내놓았습니다(워커별: {per_worker}). __iter__가 get_worker_info()로 "
                                  "샤딩하지 않으면 모든 워커가 스트림 전체를 되풀이합니다."),
    "part.straggler": "인덱스 {index}(배치 {batch}, 워커 {worker}, {fetch_s:.3f}초)",
    "part.more": " 외 {n}개",
    "where.main": "메인 프로세스",
    "where.worker": "워커 {worker}",
    "severity.error": "오류",
    "severity.warning": "경고",
    "severity.info": "정보",
    "rank.same_order_every_epoch": (
        "{epochs}개 에폭 모두에서 모든 랭크가 같은 샘플을 같은 순서로 받았습니다. 분산 샘플러는 `seed + epoch`로 셔플하는데, 에폭 값은 "
        "`sampler.set_epoch(epoch)`를 호출해야만 바뀝니다 — 호출하지 않으면 \"셔플\"은 매 에폭 같은 순열입니다."),
    "rank.padded": (
        "에폭마다 샘플 {count}개를 두 번 봅니다 (에폭 {epoch}의 인덱스 {indices}): `drop_last=False`이면 분산 샘플러가 모든 랭크에 같은 수의 샘플을 "
        "주려고 목록의 앞부분을 반복합니다."),
    "rank.dropped": (
        "에폭마다 샘플 {count}개가 어느 랭크에도 가지 않습니다: `drop_last=True`이면 분산 샘플러가 목록을 world size의 배수로 자릅니다."),
    "rank.overlap": (
        "에폭 {epoch}에서 랭크 {rank_a}과(와) 랭크 {rank_b}가 패딩 말고도 같은 샘플 {count}개를 받았습니다: 두 샘플러가 서로 다릅니다 (랭크마다 다른 시드나 "
        "world size?)."),
    "rank.slow_rank": (
        "랭크 {rank}의 루프는 데이터를 {wait}초 기다렸습니다. 랭크 {fast}의 {ratio}배입니다. 미니배치마다 all-reduce를 하면 "
        "(DistributedDataParallel의 그래디언트 동기화) 다른 랭크들은 그 시간 동안 학습 단계 안에서 이 랭크를 기다립니다: 모든 랭크가 가장 느린 데이터로더의 속도로 "
        "움직입니다."),
    "report.rank": "랭크 {rank}:",
    "report.ranks": "랭크 {n}개 전체:",
    "report.title": "LoaderLab 보고서",
    "report.settings": "설정: {settings}",
    "report.events": "이벤트: {n}개",
    "report.throughput": "처리량:",
    "report.throughput_row": "  에폭 {epoch}: 배치 {batches}개, 샘플 {samples}개를 {duration}초에 처리 = 초당 배치 {bps}개, "
                             "초당 샘플 {sps}개; 첫 배치까지 {first}초",
    "report.wait": "메인 프로세스 대기(next()에서 막혀 있던 시간):",
    "report.wait_row": "  에폭 {epoch}: 첫 배치 뒤 {wait}초 대기, 루프 본문 {consume}초: {share} 대기(첫 배치: "
                       "{first}초 더)",
    "report.wait_total": "  실행 전체: 각 에폭의 첫 배치 뒤 {wait}초 대기, 루프 본문 {consume}초: 학습 루프 중 대기 비율 "
                         "{share}(첫 배치: {first}초 더)",
    "report.workers": "워커:",
    "report.worker_row": "  워커 {worker}(pid {pid}, 에폭 {epoch}부터): 시작 {startup}초, 작업 {busy}초({busy_share}), "
                         "유휴 {idle}초(그중 프리페치 상한에 걸린 시간 {capped}초)",
    "report.findings": "발견 사항({n}개):",
    "report.findings_none": "발견 사항: 없음",
    "report.finding_row": "  [{severity}] {kind}: {message}",
    "report.na": "해당 없음",
    "replay.model.capped": "모델: 이 컴퓨터의 코어 {cores}개에서 워커 {num_workers}개. 기록된 샘플 시간을 CPU 작업으로 "
                           "재생하므로 한 번에 최대 {cores}개 샘플만 처리되고, {cores}개를 넘는 워커는 여기서 속도를 "
                           "더하지 않습니다. 그 시간이 대기(디스크, 네트워크)였다면 io_bound=True(--io-bound)로 재생하세요.",
    "replay.model.io_bound": "모델: 기록된 샘플 시간을 대기(io_bound)로 재생하며, 대기는 코어를 두고 경쟁하지 않습니다. "
                             "이 컴퓨터의 코어는 {cores}개지만 워커 {num_workers}개가 동시에 도는 것으로 모델링됩니다. "
                             "CPU 작업이 대부분인 로딩이라면 워커 {cores}개를 넘어서는 빨라지지 않습니다.",
    "replay.model.fits": "모델: 기록된 샘플 시간을 워커 {num_workers}개로 재생합니다. 이 컴퓨터의 코어 {cores}개 "
                         "안에서 돕니다.",
    "replay.model.main": "모델: 기록된 샘플 시간을 메인 프로세스에서 재생합니다(num_workers=0).",
    "replay.model.unknown": "모델: 이 컴퓨터의 코어 수를 알 수 없어 코어 수로 병렬성을 제한하지 않습니다. 워커 "
                            "{num_workers}개가 동시에 도는 것으로 모델링됩니다.",
}

TEXTS = {"en": EN, "ko": KO}


def text(key: str, lang: str = "en", **params: Any) -> str:
    """``key`` in ``lang``, formatted with ``params``."""
    if lang not in TEXTS:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    template = TEXTS[lang][key]
    return template.format(**params) if params else template


def render(key: str, evidence: Mapping[str, Any], lang: str = "en") -> str:
    """A finding's sentence: template ``finding.<key>`` in ``lang`` with its evidence. An error's
    ``where_worker`` (None = the main process) is worded in ``lang`` as ``where``; a straggler's ``worst``
    (a list of samples) as ``part.straggler`` items joined, and its ``more`` as ``and_more``."""
    params = dict(evidence)
    if "worst" in params:  # a list of samples, each worded in the language, and how many more there were
        params["worst"] = ", ".join(text("part.straggler", lang, **item) for item in params["worst"])
        params["and_more"] = text("part.more", lang, n=params["more"]) if params.get("more") else ""
    if "where_worker" in params:
        who = params["where_worker"]
        params["where"] = text("where.main", lang) if who is None else text("where.worker", lang, worker=who)
    return text(f"finding.{key}", lang, **params)
