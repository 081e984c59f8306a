"""Texts of the "Your trace" page's label distributions (issue 35): the data's, the sampler's and the loop's."""

TEXTS = {
    "labelshares.title": {
        "en": "Labels: the data, what the sampler intends, what the loop received",
        "ko": "레이블: 데이터, 샘플러가 의도한 것, 루프가 받은 것",
    },
    "labelshares.explain": {
        "en": "Each label's share in three places. The dataset's is read from the dataset where it says its "
            "labels (a `targets` attribute, a pandas column, a Hugging Face ClassLabel), otherwise estimated "
            "from the samples drawn (the bar's whisker is its 95 % interval). The sampler's is what its "
            "weights give each label; the loop's is what it was handed.",
        "ko": "세 곳에서 본 레이블별 비율입니다. 데이터셋의 비율은 데이터셋이 레이블을 알려 주면(`targets` 속성, "
            "pandas 열, Hugging Face ClassLabel) 거기서 읽고, 아니면 뽑힌 샘플에서 추정합니다(막대의 수염이 "
            "95 % 구간). 샘플러의 비율은 가중치가 각 레이블에 주는 몫이고, 루프의 비율은 실제로 받은 것입니다.",
    },
    "labelshares.name.dataset": {
        "en": "the dataset",
        "ko": "데이터셋",
    },
    "labelshares.name.intended": {
        "en": "the sampler intends",
        "ko": "샘플러가 의도한 것",
    },
    "labelshares.name.received": {
        "en": "the loop received",
        "ko": "루프가 받은 것",
    },
    "labelshares.x": {
        "en": "label",
        "ko": "레이블",
    },
    "labelshares.y": {
        "en": "share",
        "ko": "비율",
    },
    "labelshares.hover": {
        "en": "label %{x}: %{y:.1%} (%{customdata[0]:,.0f})<extra>%{fullData.name}</extra>",
        "ko": "레이블 %{x}: %{y:.1%} (%{customdata[0]:,.0f})<extra>%{fullData.name}</extra>",
    },
    "labelshares.epoch": {
        "en": "epoch",
        "ko": "에폭",
    },
    "labelshares.unknown": {
        "en": "Not known from this trace: {which}.",
        "ko": "이 트레이스로는 알 수 없음: {which}.",
    },
    "labelshares.ranks": {
        "en": "whose samples",
        "ko": "누구의 샘플",
    },
    "labelshares.ranks.all": {
        "en": "every rank together",
        "ko": "모든 랭크 합계",
    },
    "labelshares.rank": {
        "en": "rank {rank}",
        "ko": "랭크 {rank}",
    },
    "labelshares.none": {
        "en": "The sampler used as meant: no re-balancing mistake in this trace.",
        "ko": "샘플러가 의도대로 쓰였습니다: 이 트레이스에는 재균형 실수가 없습니다.",
    },
}
