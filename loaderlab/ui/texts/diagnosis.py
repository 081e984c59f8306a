"""Words of the diagnosis box every page with findings leads with (:mod:`loaderlab.ui.diagnosis_view`).

The verdict's own sentences and the suggestions' are the trace layer's (``verdict.*``, ``suggestion.*`` in
:mod:`loaderlab.trace.finding_texts`); these are the box's controls.
"""

from __future__ import annotations

TEXTS = {
    "diagnosis.replay": {
        "en": "What would fix it? Replay this run with other settings",
        "ko": "무엇이 해결할까? 다른 설정으로 이 실행을 재생하기",
    },
    "diagnosis.replay.help": {
        "en": "Re-runs this run's measured costs (each sample's fetch time, worker start-up, your step, what "
            "each batch carries) with each setting that addresses the bottleneck: a few seconds.",
        "ko": "이 실행에서 잰 비용(샘플마다 가져오는 시간, 워커 시작, 학습 단계, 배치가 담은 것)을 병목을 "
            "해결하는 설정마다 다시 실행합니다: 몇 초 걸립니다.",
    },
    "diagnosis.replaying": {
        "en": "Replaying this run with each suggested setting…",
        "ko": "제안된 설정마다 이 실행을 재생하는 중…",
    },
    "diagnosis.suggestions": {
        "en": "What to change (measured by replaying this run):",
        "ko": "무엇을 바꿀까 (이 실행을 재생해서 측정):",
    },
}
