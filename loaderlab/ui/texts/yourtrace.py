"""Texts of the "Your trace" page."""

TEXTS = {
    "yourtrace.title": {
        "en": "Your trace",
        "ko": "내 트레이스",
    },
    "yourtrace.explain": {
        "en": "Load a trace recorded from your own DataLoader with `python -m loaderlab record my_data.py:make_loader "
            "-o trace.json` (or one downloaded here) to see its timeline, queue depths, label counts and findings. "
            "Without a file, the page shows the current run from the sidebar's settings; download it as a LoaderLab "
            "trace, or as a Chrome trace to open in Perfetto (ui.perfetto.dev).",
        "ko": "내 데이터로더에서 `python -m loaderlab record my_data.py:make_loader -o trace.json`으로 기록한 트레이스(또는 "
            "여기서 내려받은 트레이스)를 올리면 타임라인, 큐 깊이, 레이블 개수와 발견 사항을 볼 수 있습니다. 파일이 "
            "없으면 사이드바 설정으로 실행한 현재 결과를 보여 줍니다. LoaderLab 트레이스로, 또는 Perfetto"
            "(ui.perfetto.dev)에서 열 수 있는 Chrome 트레이스로 내려받으세요.",
    },
    "yourtrace.sidebar.hidden": {
        "en": "LoaderLab's run settings do not apply to an uploaded trace, so they are hidden. Remove the file to get "
            "them back, as you left them.",
        "ko": "LoaderLab의 실행 설정은 올린 트레이스에 적용되지 않아 숨겼습니다. 파일을 지우면 다시 나타나며, 값은 그대로입니다.",
    },
    "yourtrace.upload": {
        "en": "trace file (.json written by `loaderlab record` or downloaded from this page)",
        "ko": "트레이스 파일 (`loaderlab record`가 쓴 .json 또는 이 페이지에서 내려받은 파일)",
    },
    "yourtrace.source.run": {
        "en": "Showing the current run (the sidebar's settings): {events:,} events, {batches:,} batches.",
        "ko": "현재 실행(사이드바 설정)을 보여 줍니다: 이벤트 {events:,}개, 배치 {batches:,}개.",
    },
    "yourtrace.source.upload": {
        "en": "Showing {name}: {events:,} events, {batches:,} batches.",
        "ko": "{name}을(를) 보여 줍니다: 이벤트 {events:,}개, 배치 {batches:,}개.",
    },
    "yourtrace.error.file": {
        "en": "{detail}",
        "ko": "이 파일은 트레이스로 읽을 수 없습니다. 자세한 내용(영문): {detail}",
    },
    "yourtrace.error.empty": {
        "en": "{name} holds no events; record at least one batch and load that file.",
        "ko": "{name}에는 이벤트가 없습니다. 배치를 하나 이상 기록한 뒤 그 파일을 올리세요.",
    },
    "yourtrace.error.views": {
        "en": "{name} was read, but its events do not fit together ({error}); record the trace "
            "again with `python -m loaderlab record`.",
        "ko": "{name}을(를) 읽었지만 이벤트들이 서로 맞지 않습니다({error}). "
            "`python -m loaderlab record`로 트레이스를 다시 기록하세요.",
    },
    "yourtrace.download.trace": {
        "en": "Download the trace (LoaderLab JSON)",
        "ko": "트레이스 내려받기 (LoaderLab JSON)",
    },
    "yourtrace.download.chrome": {
        "en": "Download for Perfetto (Chrome trace JSON)",
        "ko": "Perfetto용으로 내려받기 (Chrome 트레이스 JSON)",
    },
    "yourtrace.download.help": {
        "en": "Load it here again, or run `python -m loaderlab report` on it.",
        "ko": "여기에 다시 올리거나, `python -m loaderlab report`로 살펴보세요.",
    },
    "yourtrace.download.chrome_help": {
        "en": "Open it at ui.perfetto.dev or chrome://tracing.",
        "ko": "ui.perfetto.dev 또는 chrome://tracing에서 여세요.",
    },
    "yourtrace.findings.title": {
        "en": "Findings",
        "ko": "발견 사항",
    },
    "yourtrace.findings.none": {
        "en": "No findings: nothing in this trace stands out.",
        "ko": "발견 사항 없음: 이 트레이스에는 눈에 띄는 문제가 없습니다.",
    },
    "yourtrace.col.severity": {
        "en": "severity",
        "ko": "심각도",
    },
    "yourtrace.col.message": {
        "en": "finding",
        "ko": "발견 사항",
    },
    "yourtrace.col.epoch": {
        "en": "epoch",
        "ko": "에폭",
    },
    "yourtrace.col.batch": {
        "en": "batch",
        "ko": "배치",
    },
    "yourtrace.col.worker": {
        "en": "worker",
        "ko": "워커",
    },
    "yourtrace.col.index": {
        "en": "dataset index",
        "ko": "데이터셋 인덱스",
    },
    "yourtrace.severity.error": {
        "en": "error",
        "ko": "오류",
    },
    "yourtrace.severity.warning": {
        "en": "warning",
        "ko": "경고",
    },
    "yourtrace.severity.info": {
        "en": "info",
        "ko": "정보",
    },
    "yourtrace.timeline.cut": {
        "en": "Showing the first {shown:,} of {total:,} spans; the downloads hold them all.",
        "ko": "구간 {total:,}개 중 처음 {shown:,}개만 보여 줍니다. 내려받은 파일에는 모두 들어 있습니다.",
    },
    "yourtrace.depths.title": {
        "en": "Queue depths",
        "ko": "큐 깊이",
    },
    "yourtrace.depths.explain": {
        "en": "Items waiting in each queue of torch's design: index_queue[k] holds tasks sent to worker k, result_queue "
            "batches made by workers, data_queue pinned batches, reorder the batches parked until an earlier one "
            "arrives, outstanding the tasks in flight (capped at prefetch_factor × num_workers).",
        "ko": "torch 설계의 각 큐에서 기다리는 항목 수입니다. index_queue[k]는 워커 k에게 보낸 작업, result_queue는 "
            "워커가 만든 배치, data_queue는 고정 메모리로 복사된 배치, reorder는 앞선 배치가 도착할 때까지 재정렬 버퍼에서 "
            "기다리는 배치, outstanding은 처리 중인 작업(상한 prefetch_factor × num_workers)입니다.",
    },
    "yourtrace.depths.none": {
        "en": "This trace has no queue events (a single-process loader, or one recorded from torch).",
        "ko": "이 트레이스에는 큐 이벤트가 없습니다(단일 프로세스 데이터로더이거나 torch에서 기록한 트레이스).",
    },
    "yourtrace.depths.x": {
        "en": "seconds since the trace started",
        "ko": "트레이스 시작 후 경과 시간 (초)",
    },
    "yourtrace.depths.y": {
        "en": "items in the queue",
        "ko": "큐 안의 항목 수",
    },
    "yourtrace.labels.title": {
        "en": "Labels per epoch",
        "ko": "에폭별 레이블",
    },
    "yourtrace.labels.x": {
        "en": "label",
        "ko": "레이블",
    },
    "yourtrace.labels.y": {
        "en": "samples the loop received",
        "ko": "학습 루프가 받은 샘플 수",
    },
    "yourtrace.labels.epoch": {
        "en": "epoch {epoch}",
        "ko": "에폭 {epoch}",
    },
    "yourtrace.labels.none": {
        "en": "This trace has no labels (record with sample_info= to see them).",
        "ko": "이 트레이스에는 레이블이 없습니다(레이블을 보려면 sample_info=로 기록하세요).",
    },
    "yourtrace.settings": {
        "en": "The loader's settings stored in the trace",
        "ko": "트레이스에 저장된 데이터로더 설정",
    },
}
