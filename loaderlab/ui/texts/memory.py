"""Texts of the memory section (on the event-table page): worker RSS / private memory and /dev/shm."""

TEXTS = {
    "memory.title": {
        "en": "Worker memory and /dev/shm",
        "ko": "워커 메모리와 /dev/shm",
    },
    "memory.explain": {
        "en": "Sampled every 100 ms from /proc. Solid: a worker's resident memory (RSS, shared pages included); dotted: "
            "its private memory (USS). A dotted line climbing during the run is copy-on-access: a forked worker copies "
            "every page of the dataset it touches. Dashed grey: /dev/shm in use — batches in flight live there.",
        "ko": "/proc에서 100ms마다 측정합니다. 실선: 워커의 상주 메모리(RSS, 공유 페이지 포함), 점선: 전용 메모리(USS). "
            "실행 중 점선이 올라가면 copy-on-access입니다: fork된 워커는 건드린 데이터셋 페이지를 모두 복사합니다. "
            "회색 파선: 사용 중인 /dev/shm — 전달 중인 배치가 여기에 있습니다.",
    },
    "memory.none": {
        "en": "No memory samples: the run had no worker processes, or it ended within 100 ms.",
        "ko": "메모리 측정값이 없습니다: 워커 프로세스가 없었거나 실행이 100ms 안에 끝났습니다.",
    },
    "memory.x": {
        "en": "seconds since the run started",
        "ko": "실행 시작 후 경과 시간 (초)",
    },
    "memory.y": {
        "en": "MB",
        "ko": "MB",
    },
    "memory.rss": {
        "en": "worker {worker}: RSS",
        "ko": "워커 {worker}: RSS",
    },
    "memory.uss": {
        "en": "worker {worker}: private (USS)",
        "ko": "워커 {worker}: 전용 메모리(USS)",
    },
    "memory.shm": {
        "en": "/dev/shm in use",
        "ko": "사용 중인 /dev/shm",
    },
}
