"""The words of class imbalance on a user's own job, each key's English and Korean side by side: the findings
that name a re-balancing mistake (``finding.<kind>`` of :mod:`loaderlab.trace.diagnosis.sampling_checks`) and
the report's three label distributions per epoch (``report.labels.*``).

Part of :data:`loaderlab.texts.words.WORDS`. Argument names (``num_samples``, ``replacement=False``), labels and
torch's own error text stay as they are in every language. Knows nothing of how the findings are found.
"""

TEXTS = {
    "finding.sampler_share_off": {
        "en": "Epoch {epoch}: label {label} is {share:.1%} of what the loop received ({count:,} of {n:,}), "
            "but the sampler's weights intend {intended:.1%}; a fair draw of {n:,} lands within "
            "{low:.1%}–{high:.1%}. The labels the samples carry are not the ones the weights were made "
            "from: check that weight i belongs to dataset[i] (a shuffled or filtered table, a "
            "target_transform).",
        "ko": "에폭 {epoch}: 루프가 받은 샘플 중 레이블 {label}의 비율은 {share:.1%}({n:,}개 중 "
            "{count:,}개)인데, 샘플러의 가중치가 의도한 비율은 {intended:.1%}입니다. {n:,}번을 공정하게 뽑으면 "
            "{low:.1%}–{high:.1%} 안에 들어옵니다. 샘플이 가진 레이블이 가중치를 만들 때 쓴 레이블과 "
            "다릅니다: 가중치 i가 dataset[i]의 것인지 확인하세요(섞거나 걸러 낸 표, target_transform).",
    },
    "finding.sampler_share_off_data": {
        "en": "Epoch {epoch}: label {label} is {share:.1%} of what the loop received ({count:,} of {n:,}), "
            "but {intended:.1%} of the data, which this sampler draws alike; a fair draw of {n:,} lands within "
            "{low:.1%}–{high:.1%}. The labels the samples carry are not the ones the dataset says (a "
            "target_transform, a labels attribute left from before the data changed).",
        "ko": "에폭 {epoch}: 루프가 받은 샘플 중 레이블 {label}의 비율은 {share:.1%}({n:,}개 중 {count:,}개)인데, "
            "이 샘플러가 고르게 뽑는 데이터에서는 {intended:.1%}입니다. {n:,}번을 공정하게 뽑으면 "
            "{low:.1%}–{high:.1%} 안에 들어옵니다. 샘플이 가진 레이블이 데이터셋이 말하는 레이블과 다릅니다"
            "(target_transform, 데이터가 바뀌기 전에 남은 labels 속성).",
    },
    "finding.sampler_share_off_shard": {
        "en": "Epoch {epoch}: label {label} is {share:.1%} of what this rank received ({count:,} of {n:,}), "
            "but {intended:.1%} of the data; a fair share of {n:,} lands within {low:.1%}–{high:.1%}. "
            "DistributedSampler(shuffle=False) deals index i to rank i mod num_replicas: data ordered in a "
            "period of the ranks gives each rank other classes. Use shuffle=True (and set_epoch).",
        "ko": "에폭 {epoch}: 이 랭크가 받은 샘플 중 레이블 {label}의 비율은 {share:.1%}({n:,}개 중 {count:,}개)인데, "
            "데이터에서는 {intended:.1%}입니다. {n:,}개를 공정하게 나누면 {low:.1%}–{high:.1%} 안에 들어옵니다. "
            "DistributedSampler(shuffle=False)는 인덱스 i를 랭크 i mod num_replicas에 나눠 주므로, 랭크 수를 "
            "주기로 정렬된 데이터는 랭크마다 다른 클래스를 줍니다. shuffle=True(와 set_epoch)를 쓰세요.",
    },
    "finding.minority_missing": {
        "en": "Epoch {epoch}: label {label} is in {with_label:,} of {batches:,} batches ({without:,} have "
            "none): it is {share:.1%} of what the loop received, {count:,} samples in batches of "
            "{batch_size}. A WeightedRandomSampler with one weight per sample (1 / the count of its "
            "label) puts it in most batches.",
        "ko": "에폭 {epoch}: 레이블 {label}은 배치 {batches:,}개 중 {with_label:,}개에만 있습니다({without:,}개에는 "
            "없음). 루프가 받은 샘플의 {share:.1%}, 크기 {batch_size}인 배치들에 {count:,}개입니다. 샘플마다 "
            "가중치 하나(그 레이블 개수의 역수)를 준 WeightedRandomSampler를 쓰면 대부분의 배치에 들어갑니다.",
    },
    "finding.class_weights_per_sample": {
        "en": "WeightedRandomSampler got {n_weights:,} weights for a dataset of {dataset_len:,} samples, so "
            "it draws only indices 0–{last}: epoch {epoch}'s {drawn:,} draws hit {distinct:,} distinct "
            "samples and {unseen:,} samples were never drawn. Its weights are one per sample, not one per "
            "class: pass class_weights[labels] (each sample's class weight), with num_samples=len(dataset).",
        "ko": "WeightedRandomSampler가 샘플 {dataset_len:,}개짜리 데이터셋에 가중치를 {n_weights:,}개만 받아서 "
            "인덱스 0–{last}만 뽑습니다: 에폭 {epoch}의 {drawn:,}번 추출이 서로 다른 샘플 {distinct:,}개에만 "
            "닿았고 {unseen:,}개는 한 번도 뽑히지 않았습니다. 가중치는 클래스마다가 아니라 샘플마다 하나입니다: "
            "class_weights 대신 class_weights[labels](각 샘플의 클래스 가중치)를 num_samples=len(dataset)과 "
            "함께 넘기세요.",
    },
    "finding.draws_without_replacement": {
        "en": "WeightedRandomSampler(replacement=False) was asked for num_samples={num_samples:,} but has "
            "{nonzero:,} non-zero weights (of {n_weights:,}): without replacement each sample is drawn at "
            "most once, so torch fails at the first batch{error_part}. Set num_samples to at most "
            "{nonzero:,}, or replacement=True.",
        "ko": "WeightedRandomSampler(replacement=False)에 num_samples={num_samples:,}를 요청했지만 0이 아닌 "
            "가중치는 {n_weights:,}개 중 {nonzero:,}개뿐입니다: 비복원 추출은 샘플마다 한 번까지만 뽑으므로 "
            "torch는 첫 배치에서 실패합니다{error_part}. num_samples를 {nonzero:,} 이하로 두거나 "
            "replacement=True로 하세요.",
    },
    "part.torch_said": {
        "en": " (torch: {error})",
        "ko": " (torch: {error})",
    },
    "finding.unseen_samples": {
        "en": "Epoch {epoch}: {unseen:,} of {dataset_len:,} samples ({fraction:.1%}) were never drawn: "
            "{drawn:,} draws hit {distinct:,} distinct samples{worst_part}. Over-sampling one class "
            "draws the others' rows less than once each; more epochs, or num_samples nearer "
            "{suggested:,}, let the loop see them.",
        "ko": "에폭 {epoch}: 샘플 {dataset_len:,}개 중 {unseen:,}개({fraction:.1%})가 한 번도 뽑히지 "
            "않았습니다: {drawn:,}번 추출이 서로 다른 샘플 {distinct:,}개에 닿았습니다{worst_part}. 한 클래스를 "
            "많이 뽑으면 다른 클래스의 행은 한 번도 안 뽑히는 것이 생깁니다. 에폭을 늘리거나 num_samples를 "
            "{suggested:,}에 가깝게 하면 루프가 그 샘플들을 봅니다.",
    },
    "part.unseen_label": {
        "en": "; most of them label {label} ({unseen:,} of its {count:,})",
        "ko": "; 대부분 레이블 {label}입니다({count:,}개 중 {unseen:,}개)",
    },
    "report.labels.title": {
        "en": "Labels per epoch (share of each: the dataset / the sampler intends / the loop received):",
        "ko": "에폭별 레이블(각 비율: 데이터셋 / 샘플러가 의도한 것 / 루프가 받은 것):",
    },
    "report.labels.row": {
        "en": "  epoch {epoch}, label {label}: {dataset} / {intended} / {received}",
        "ko": "  에폭 {epoch}, 레이블 {label}: {dataset} / {intended} / {received}",
    },
    "report.labels.unknown": {
        "en": "not known",
        "ko": "알 수 없음",
    },
    "report.labels.interval": {
        "en": "{share:.1%} (estimated, {low:.1%}–{high:.1%})",
        "ko": "{share:.1%} (추정, {low:.1%}–{high:.1%})",
    },
    "report.labels.source": {
        "en": "  the dataset's shares: {source}",
        "ko": "  데이터셋의 비율: {source}",
    },
    "report.labels.source.read": {
        "en": "read from the dataset ({where}, {n:,} samples)",
        "ko": "데이터셋에서 읽음({where}, 샘플 {n:,}개)",
    },
    "report.labels.source.inverse_weight": {
        "en": "estimated from the samples drawn, each weighted by 1 / its sampler weight",
        "ko": "뽑힌 샘플에서 추정(각 샘플을 샘플러 가중치의 역수로 가중)",
    },
    "report.labels.source.whole_epoch": {
        "en": "counted from the epoch, which drew every sample once",
        "ko": "모든 샘플을 한 번씩 뽑은 에폭에서 셈",
    },
    "report.labels.source.uniform_draws": {
        "en": "estimated from the samples drawn (the sampler draws every sample alike)",
        "ko": "뽑힌 샘플에서 추정(샘플러가 모든 샘플을 똑같이 뽑음)",
    },
}
