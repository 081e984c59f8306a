"""Texts for traces of ``python -m loaderlab run`` (a training job with one or more DataLoaders)."""

TEXTS = {
    "jobs.loader": {
        "en": "DataLoader of this job",
        "ko": "이 작업의 데이터로더",
    },
    "jobs.loader.help": {
        "en": "The job iterated {n} DataLoaders; each is named after the variable it was assigned to, with the line "
            "that made it. The views show one at a time.",
        "ko": "이 작업은 데이터로더 {n}개를 돌렸습니다. 각각 대입된 변수 이름과 만든 줄로 부릅니다. 화면은 한 번에 하나씩 "
            "보여 줍니다.",
    },
    "jobs.loader.option": {
        "en": "{name} ({site})",
        "ko": "{name} ({site})",
    },
}
