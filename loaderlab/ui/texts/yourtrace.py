"""Texts of the "Your trace" page."""

EN = {
    "yourtrace.title": "Your trace",
    "yourtrace.explain": (
        "Load a trace recorded from your own DataLoader with `python -m loaderlab record my_data.py:make_loader "
        "-o trace.json` (or one downloaded here) to see its timeline, queue depths, label counts and findings. "
        "Without a file, the page shows the current run from the sidebar's settings; download it as a LoaderLab "
        "trace, or as a Chrome trace to open in Perfetto (ui.perfetto.dev)."),
    "yourtrace.sidebar.hidden": (
        "LoaderLab's run settings do not apply to an uploaded trace, so they are hidden. Remove the file to get "
        "them back, as you left them."),
    "yourtrace.upload": "trace file (.json written by `loaderlab record` or downloaded from this page)",
    "yourtrace.source.run": "Showing the current run (the sidebar's settings): {events:,} events, {batches:,} batches.",
    "yourtrace.source.upload": "Showing {name}: {events:,} events, {batches:,} batches.",
    "yourtrace.error.file": "{detail}",
    "yourtrace.error.empty": "{name} holds no events; record at least one batch and load that file.",
    "yourtrace.error.views": ("{name} was read, but its events do not fit together ({error}); record the trace "
                              "again with `python -m loaderlab record`."),
    "yourtrace.download.trace": "Download the trace (LoaderLab JSON)",
    "yourtrace.download.chrome": "Download for Perfetto (Chrome trace JSON)",
    "yourtrace.download.help": "Load it here again, or run `python -m loaderlab report` on it.",
    "yourtrace.download.chrome_help": "Open it at ui.perfetto.dev or chrome://tracing.",
    "yourtrace.findings.title": "Findings",
    "yourtrace.findings.none": "No findings: nothing in this trace stands out.",
    "yourtrace.col.severity": "severity",
    "yourtrace.col.message": "finding",
    "yourtrace.col.epoch": "epoch",
    "yourtrace.col.batch": "batch",
    "yourtrace.col.worker": "worker",
    "yourtrace.col.index": "dataset index",
    "yourtrace.severity.error": "error",
    "yourtrace.severity.warning": "warning",
    "yourtrace.severity.info": "info",
    "yourtrace.timeline.cut": "Showing the first {shown:,} of {total:,} spans; the downloads hold them all.",
    "yourtrace.depths.title": "Queue depths",
    "yourtrace.depths.explain": (
        "Items waiting in each queue of torch's design: index_queue[k] holds tasks sent to worker k, result_queue "
        "batches made by workers, data_queue pinned batches, reorder the batches parked until an earlier one "
        "arrives, outstanding the tasks in flight (capped at prefetch_factor × num_workers)."),
    "yourtrace.depths.none": "This trace has no queue events (a single-process loader, or one recorded from torch).",
    "yourtrace.depths.x": "seconds since the trace started",
    "yourtrace.depths.y": "items in the queue",
    "yourtrace.labels.title": "Labels per epoch",
    "yourtrace.labels.x": "label",
    "yourtrace.labels.y": "samples the loop received",
    "yourtrace.labels.epoch": "epoch {epoch}",
    "yourtrace.labels.none": "This trace has no labels (record with sample_info= to see them).",
    "yourtrace.settings": "The loader's settings stored in the trace",
}

KO = {
    "yourtrace.title": "내 트레이스",
    "yourtrace.explain": (
        "내 데이터로더에서 `python -m loaderlab record my_data.py:make_loader -o trace.json`으로 기록한 트레이스(또는 "
        "여기서 내려받은 트레이스)를 올리면 타임라인, 큐 깊이, 레이블 개수와 발견 사항을 볼 수 있습니다. 파일이 "
        "없으면 사이드바 설정으로 실행한 현재 결과를 보여 줍니다. LoaderLab 트레이스로, 또는 Perfetto"
        "(ui.perfetto.dev)에서 열 수 있는 Chrome 트레이스로 내려받으세요."),
    "yourtrace.sidebar.hidden": (
        "LoaderLab의 실행 설정은 올린 트레이스에 적용되지 않아 숨겼습니다. 파일을 지우면 다시 나타나며, 값은 그대로입니다."),
    "yourtrace.upload": "트레이스 파일 (`loaderlab record`가 쓴 .json 또는 이 페이지에서 내려받은 파일)",
    "yourtrace.source.run": "현재 실행(사이드바 설정)을 보여 줍니다: 이벤트 {events:,}개, 배치 {batches:,}개.",
    "yourtrace.source.upload": "{name}을(를) 보여 줍니다: 이벤트 {events:,}개, 배치 {batches:,}개.",
    "yourtrace.error.file": "이 파일은 트레이스로 읽을 수 없습니다. 자세한 내용(영문): {detail}",
    "yourtrace.error.empty": "{name}에는 이벤트가 없습니다. 배치를 하나 이상 기록한 뒤 그 파일을 올리세요.",
    "yourtrace.error.views": ("{name}을(를) 읽었지만 이벤트들이 서로 맞지 않습니다({error}). "
                              "`python -m loaderlab record`로 트레이스를 다시 기록하세요."),
    "yourtrace.download.trace": "트레이스 내려받기 (LoaderLab JSON)",
    "yourtrace.download.chrome": "Perfetto용으로 내려받기 (Chrome 트레이스 JSON)",
    "yourtrace.download.help": "여기에 다시 올리거나, `python -m loaderlab report`로 살펴보세요.",
    "yourtrace.download.chrome_help": "ui.perfetto.dev 또는 chrome://tracing에서 여세요.",
    "yourtrace.findings.title": "발견 사항",
    "yourtrace.findings.none": "발견 사항 없음: 이 트레이스에는 눈에 띄는 문제가 없습니다.",
    "yourtrace.col.severity": "심각도",
    "yourtrace.col.message": "발견 사항",
    "yourtrace.col.epoch": "에폭",
    "yourtrace.col.batch": "배치",
    "yourtrace.col.worker": "워커",
    "yourtrace.col.index": "데이터셋 인덱스",
    "yourtrace.severity.error": "오류",
    "yourtrace.severity.warning": "경고",
    "yourtrace.severity.info": "정보",
    "yourtrace.timeline.cut": "구간 {total:,}개 중 처음 {shown:,}개만 보여 줍니다. 내려받은 파일에는 모두 들어 있습니다.",
    "yourtrace.depths.title": "큐 깊이",
    "yourtrace.depths.explain": (
        "torch 설계의 각 큐에서 기다리는 항목 수입니다. index_queue[k]는 워커 k에게 보낸 작업, result_queue는 "
        "워커가 만든 배치, data_queue는 고정 메모리로 복사된 배치, reorder는 앞선 배치가 도착할 때까지 재정렬 버퍼에서 "
        "기다리는 배치, outstanding은 처리 중인 작업(상한 prefetch_factor × num_workers)입니다."),
    "yourtrace.depths.none": "이 트레이스에는 큐 이벤트가 없습니다(단일 프로세스 데이터로더이거나 torch에서 기록한 트레이스).",
    "yourtrace.depths.x": "트레이스 시작 후 경과 시간 (초)",
    "yourtrace.depths.y": "큐 안의 항목 수",
    "yourtrace.labels.title": "에폭별 레이블",
    "yourtrace.labels.x": "레이블",
    "yourtrace.labels.y": "학습 루프가 받은 샘플 수",
    "yourtrace.labels.epoch": "에폭 {epoch}",
    "yourtrace.labels.none": "이 트레이스에는 레이블이 없습니다(레이블을 보려면 sample_info=로 기록하세요).",
    "yourtrace.settings": "트레이스에 저장된 데이터로더 설정",
}
