"""Words of the diagnosis box every page with findings leads with (:mod:`loaderlab.ui.diagnosis_view`).

The verdict's own sentences and the suggestions' are the trace layer's (``verdict.*``, ``suggestion.*`` in
:mod:`loaderlab.texts.words`); these are the box's controls.
"""

from __future__ import annotations

TEXTS = {
    "diagnosis.suggest": {
        "en": "What would fix it? Predict this run under other settings",
        "ko": "무엇이 해결할까? 다른 설정에서 이 실행을 예측하기",
    },
    "diagnosis.suggest.help": {
        "en": "Models this run's measured costs (fetching, collating, moving each batch by its bytes, pinning, "
            "your step, worker start-up) under each setting that addresses the bottleneck: the same claims as "
            "`python -m loaderlab report`.",
        "ko": "이 실행에서 잰 비용(가져오기, 합치기, 바이트에 따른 배치 이동, 메모리 고정, 학습 단계, 워커 "
            "시작)을 병목을 해결하는 설정마다 모델로 계산합니다: `python -m loaderlab report`와 같은 "
            "예측입니다.",
    },
    "diagnosis.suggesting": {
        "en": "Predicting this run under each suggested setting…",
        "ko": "제안된 설정마다 이 실행을 예측하는 중…",
    },
    "diagnosis.suggestions": {
        "en": "What to change (predicted from this run's measured costs):",
        "ko": "무엇을 바꿀까 (이 실행에서 잰 비용으로 예측):",
    },
}
