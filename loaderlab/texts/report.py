"""The words of the report's frame and of the cross-rank findings, each key's English and Korean side by
side: the report's headings and rows (``report.*``) and the rank findings (``rank.*``).

Part of :data:`loaderlab.texts.words.WORDS` (look them up there). Knows nothing of how a
report is laid out or a rank finding is reached.
"""

from .wording import plural

TEXTS = {
    "rank.same_order_every_epoch": {
        "en": "Every rank got the same samples in the same order in all {epochs} epochs. DistributedSampler "
            "shuffles with `seed + epoch`, and its epoch only changes when you call `sampler.set_epoch(epoch)` — "
            "without it the \"shuffle\" is the same permutation every epoch.",
        "ko": "{epochs}개 에폭 모두에서 모든 랭크가 같은 샘플을 같은 순서로 받았습니다. 분산 샘플러는 `seed + epoch`로 셔플하는데, 에폭 값은 "
            "`sampler.set_epoch(epoch)`를 호출해야만 바뀝니다 — 호출하지 않으면 \"셔플\"은 매 에폭 같은 순열입니다.",
    },
    "rank.padded": {
        "en": plural(
            "count",
            one="{count} sample per epoch is seen twice (indices {indices} in epoch {epoch}): with "
                "`drop_last=False` DistributedSampler repeats the head of its list so that every rank "
                "gets the same number of samples.",
            other="{count} samples per epoch are seen twice (indices {indices} in epoch {epoch}): with "
                "`drop_last=False` DistributedSampler repeats the head of its list so that every rank "
                "gets the same number of samples."),
        "ko": "에폭마다 샘플 {count}개를 두 번 봅니다 (에폭 {epoch}의 인덱스 {indices}): `drop_last=False`이면 분산 샘플러가 모든 랭크에 같은 수의 샘플을 "
            "주려고 목록의 앞부분을 반복합니다.",
    },
    "rank.dropped": {
        "en": plural(
            "count",
            one="{count} sample per epoch reaches no rank: with `drop_last=True` DistributedSampler cuts "
                "its list to a multiple of the world size.",
            other="{count} samples per epoch reach no rank: with `drop_last=True` DistributedSampler cuts "
                "its list to a multiple of the world size."),
        "ko": "에폭마다 샘플 {count}개가 어느 랭크에도 가지 않습니다: `drop_last=True`이면 분산 샘플러가 목록을 world size의 배수로 자릅니다.",
    },
    "rank.overlap": {
        "en": "Ranks {rank_a} and {rank_b} got {count} of the same samples in epoch {epoch} beyond padding: their "
            "samplers disagree (a different seed or world size per rank?).",
        "ko": "에폭 {epoch}에서 랭크 {rank_a}과(와) 랭크 {rank_b}가 패딩 말고도 같은 샘플 {count}개를 받았습니다: 두 샘플러가 서로 다릅니다 (랭크마다 다른 시드나 "
            "world size?).",
    },
    "rank.slow_rank": {
        "en": "Rank {rank}'s loop waited {wait} s for data, {ratio}× as long as rank {fast}'s. With an all-reduce "
            "after each mini-batch (DistributedDataParallel's gradient sync) the other ranks spend that time "
            "waiting for it inside their training step: every rank runs at the pace of the slowest loader.",
        "ko": "랭크 {rank}의 루프는 데이터를 {wait}초 기다렸습니다. 랭크 {fast}의 {ratio}배입니다. 미니배치마다 all-reduce를 하면 "
            "(DistributedDataParallel의 그래디언트 동기화) 다른 랭크들은 그 시간 동안 학습 단계 안에서 이 랭크를 기다립니다: 모든 랭크가 가장 느린 데이터로더의 속도로 "
            "움직입니다.",
    },
    "report.rank": {
        "en": "Rank {rank}:",
        "ko": "랭크 {rank}:",
    },
    "report.ranks": {
        "en": "Across the {n} ranks:",
        "ko": "랭크 {n}개 전체:",
    },
    "report.title": {
        "en": "LoaderLab report",
        "ko": "LoaderLab 보고서",
    },
    "report.settings": {
        "en": "Settings: {settings}",
        "ko": "설정: {settings}",
    },
    "report.settings_written": {
        "en": "Settings (as written): {settings}",
        "ko": "설정 (작성한 그대로): {settings}",
    },
    "report.wrapper": {
        "en": "  {by} re-created it ({at}): {changes}",
        "ko": "  {by}이(가) 다시 만들었습니다 ({at}): {changes}",
    },
    "report.wrapper_inside": {
        "en": "  {by} re-created it inside its {inside} ({at}): {changes}",
        "ko": "  {by}이(가) {inside} 안에서 다시 만들었습니다 ({at}): {changes}",
    },
    "report.wrapper_same": {
        "en": "no setting changed",
        "ko": "바뀐 설정 없음",
    },
    "report.wrapper_keeps": {
        "en": "the batches still come from your batch_sampler (over your {sampler})",
        "ko": "배치는 여전히 작성한 batch_sampler({sampler} 위)에서 나옵니다",
    },
    "report.events": {
        "en": "Events: {n}",
        "ko": "이벤트: {n}개",
    },
    "report.throughput": {
        "en": "Throughput:",
        "ko": "처리량:",
    },
    "report.throughput_row": {
        "en": "  epoch {epoch}: {batches} batches, {samples} samples in {duration} s = {bps} "
            "batches/s, {sps} samples/s; first batch after {first} s",
        "ko": "  에폭 {epoch}: 배치 {batches}개, 샘플 {samples}개를 {duration}초에 처리 = 초당 배치 {bps}개, "
            "초당 샘플 {sps}개; 첫 배치까지 {first}초",
    },
    "report.wait": {
        "en": "Main-process wait (time blocked in next()):",
        "ko": "메인 프로세스 대기(next()에서 막혀 있던 시간):",
    },
    "report.wait_row": {
        "en": "  epoch {epoch}: waited {wait} s after the first batch, loop body {consume} s: {share} "
            "waiting (first batch: {first} s more)",
        "ko": "  에폭 {epoch}: 첫 배치 뒤 {wait}초 대기, 루프 본문 {consume}초: {share} 대기(첫 배치: "
            "{first}초 더)",
    },
    "report.wait_total": {
        "en": "  the whole run: waited {wait} s after each epoch's first batch, loop body {consume} s: "
            "{share} of the loop spent waiting (first batches: {first} s more)",
        "ko": "  실행 전체: 각 에폭의 첫 배치 뒤 {wait}초 대기, 루프 본문 {consume}초: 학습 루프 중 대기 비율 "
            "{share}(첫 배치: {first}초 더)",
    },
    "report.workers": {
        "en": "Workers:",
        "ko": "워커:",
    },
    "report.worker_row": {
        "en": "  worker {worker} (pid {pid}, from epoch {epoch}): start-up {startup}, busy {busy} s "
            "({busy_share}), idle {idle} s, of which {capped} s at the prefetch cap",
        "ko": "  워커 {worker}(pid {pid}, 에폭 {epoch}부터): 시작 {startup}, 작업 {busy}초({busy_share}), "
            "유휴 {idle}초(그중 프리페치 상한에 걸린 시간 {capped}초)",
    },
    "report.findings": {
        "en": "Findings ({n}):",
        "ko": "발견 사항({n}개):",
    },
    "report.findings_none": {
        "en": "Findings: none",
        "ko": "발견 사항: 없음",
    },
    "report.finding_row": {
        "en": "  [{severity}] {kind}: {message}",
        "ko": "  [{severity}] {kind}: {message}",
    },
    "report.payload": {  # medians per batch (summary.payload)
        "en": plural("tensors", one="Each batch carries {tensors} tensor, {size}.",
                     other="Each batch carries {tensors} tensors, {size}."),
        "ko": "배치 하나에 텐서 {tensors}개({size})가 들어 있습니다.",
    },
    "report.labels": {"en": "Labels (of the samples the loop received):", "ko": "레이블(학습 루프가 받은 샘플):"},
    "report.labels_row": {
        "en": plural("n", one="  epoch {epoch}: {samples} samples, {n} label: {labels}",
                     other="  epoch {epoch}: {samples} samples, {n} labels: {labels}"),
        "ko": "  에폭 {epoch}: 샘플 {samples}개, 레이블 {n}개: {labels}",
    },
    "report.label_share": {"en": "{label!s} ({share:.0%})", "ko": "{label!s}({share:.0%})"},
    "report.labels_more": {"en": " and {n} more", "ko": " 외 {n}개"},
    "report.labels_none": {
        "en": "Labels: none recorded (record(..., sample_info=) names them; loaderlab run reads them from "
            "(input, label) pairs and dicts, or from the key given to --label).",
        "ko": "레이블: 기록되지 않음(record(..., sample_info=)로 이름을 붙이세요. loaderlab run은 (입력, 레이블) "
            "쌍과 딕셔너리에서, 또는 --label로 지정한 키에서 읽습니다).",
    },
    "report.startup_s": {"en": "{value} s", "ko": "{value}초"},
    "report.startup_unknown": {"en": "not traced", "ko": "기록되지 않음"},  # no worker_start (an older stock trace)
    "report.na": {
        "en": "n/a",
        "ko": "해당 없음",
    },
    # The report's lines for the verdict and suggestions (their words: .diagnosis_texts)
    "report.bottleneck": {"en": "{title} [{wording}]", "ko": "{title} [{wording}]"},
    "report.suggestions": {"en": "What to try (ranked by a model of the measured costs, not measured):",
                           "ko": "시도해 볼 것 (잰 비용의 모델로 순위를 매김, 잰 값 아님):"},
}
