"""Texts of the "Your trace" page."""

TEXTS = {
    "yourtrace.title": {
        "en": "Your trace",
        "ko": "내 트레이스",
    },
    "yourtrace.explain": {
        "en": "Trace your own training job: put `python -m loaderlab run` in front of the command you already use "
            "(`python -m loaderlab run train.py --lr 3e-4` writes `trace.lltrace`; your script does not change). "
            "Load that file here, or give its path below to follow the job while it runs. A loader you build in a "
            "function can also be recorded alone: `python -m loaderlab record my_data.py:make_loader -o "
            "trace.lltrace`. Without a file, the page shows the current run from the sidebar's settings; download "
            "it as a LoaderLab trace, or as a Chrome trace to open in Perfetto (ui.perfetto.dev).",
        "ko": "내 학습 작업을 트레이스하세요: 평소 쓰는 명령 앞에 `python -m loaderlab run`을 붙이면 됩니다"
            "(`python -m loaderlab run train.py --lr 3e-4`가 `trace.lltrace`를 씁니다. 스크립트는 바꾸지 않습니다). "
            "그 파일을 여기에 올리거나, 아래에 경로를 적어 작업이 도는 동안 따라가 보세요. 함수로 만드는 로더 하나만 "
            "기록할 수도 있습니다: `python -m loaderlab record my_data.py:make_loader -o trace.lltrace`. 파일이 "
            "없으면 사이드바 설정으로 실행한 현재 결과를 보여 줍니다. LoaderLab 트레이스로, 또는 Perfetto"
            "(ui.perfetto.dev)에서 열 수 있는 Chrome 트레이스로 내려받으세요.",
    },
    "yourtrace.sidebar.hidden": {
        "en": "LoaderLab's run settings do not apply to an uploaded trace, so they are hidden. Remove the file to get "
            "them back, as you left them.",
        "ko": "LoaderLab의 실행 설정은 올린 트레이스에 적용되지 않아 숨겼습니다. 파일을 지우면 다시 나타나며, 값은 그대로입니다.",
    },
    "yourtrace.upload": {
        "en": "trace file (.lltrace or .json written by `loaderlab run` or `loaderlab record`, or downloaded from "
            "this page)",
        "ko": "트레이스 파일 (`loaderlab run`이나 `loaderlab record`가 쓴 .lltrace 또는 .json, 또는 이 페이지에서 "
            "내려받은 파일)",
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
    # --- a big trace: the whole run in time bins, the details for a window ---------------------------------
    "yourtrace.upload.limit": {
        "en": "This server takes trace files up to {mb:,} MB (its `server.maxUploadSize`); the browser refuses a "
            "bigger one. Record fewer batches (`--batches`), or start the dashboard with a higher limit: "
            "`streamlit run app.py --server.maxUploadSize {double:,}`.",
        "ko": "이 서버는 {mb:,} MB까지의 트레이스 파일을 받습니다(`server.maxUploadSize`). 더 큰 파일은 브라우저가 "
            "거절합니다. 배치를 덜 기록하거나(`--batches`), 한도를 올려 대시보드를 시작하세요: "
            "`streamlit run app.py --server.maxUploadSize {double:,}`.",
    },
    "yourtrace.big.note": {
        "en": "This trace holds {events:,} events, too many to draw span by span. The overview sums the whole run "
            "in {bins:,} time bins; the timeline and queue depths below it show only the window you choose.",
        "ko": "이 트레이스에는 이벤트가 {events:,}개 있어 구간을 하나하나 그리기에는 너무 많습니다. 개요는 실행 전체를 "
            "시간 구간 {bins:,}개로 묶어 보여 주고, 그 아래 타임라인과 큐 깊이는 고른 시간 창만 보여 줍니다.",
    },
    "yourtrace.overview.title": {
        "en": "The whole run",
        "ko": "실행 전체",
    },
    "yourtrace.overview.busy": {
        "en": "Busy share of each worker (holding a task; darker = busier)",
        "ko": "워커별 바쁜 비율 (작업을 맡고 있던 시간, 진할수록 바쁨)",
    },
    "yourtrace.overview.depth": {
        "en": "Queue depths: mean in each bin, shaded from lowest to highest",
        "ko": "큐 깊이: 구간별 평균, 음영은 최저에서 최고까지",
    },
    "yourtrace.overview.labels": {
        "en": "Label shares per {window:,} batches",
        "ko": "배치 {window:,}개마다의 레이블 비율",
    },
    "yourtrace.overview.label": {
        "en": "label {label}",
        "ko": "레이블 {label}",
    },
    "yourtrace.overview.other": {
        "en": "other labels",
        "ko": "나머지 레이블",
    },
    "yourtrace.overview.busy_hover": {
        "en": "%{y}, %{x:.2f} s: busy %{z:.0%}",
        "ko": "%{y}, %{x:.2f} s: 바쁨 %{z:.0%}",
    },
    "yourtrace.overview.depth_hover": {
        "en": "%{x:.2f} s: mean %{y:.2f}, lowest %{customdata[0]:.0f}, highest %{customdata[1]:.0f}",
        "ko": "%{x:.2f} s: 평균 %{y:.2f}, 최저 %{customdata[0]:.0f}, 최고 %{customdata[1]:.0f}",
    },
    "yourtrace.overview.label_hover": {
        "en": "%{x:.2f} s: %{y:.1%} of the samples",
        "ko": "%{x:.2f} s: 샘플의 %{y:.1%}",
    },
    "yourtrace.window.slider": {
        "en": "Window shown in detail (seconds since the trace started)",
        "ko": "자세히 볼 시간 창 (트레이스 시작 후 초)",
    },
    "yourtrace.window.caption": {
        "en": "The views below show {t0:.3f}–{t1:.3f} s of the trace: {events:,} events. The window is shaded in "
            "the overview.",
        "ko": "아래 그림은 트레이스의 {t0:.3f}–{t1:.3f}초 구간입니다: 이벤트 {events:,}개. 개요에서 이 시간 창은 "
            "음영으로 표시됩니다.",
    },
    "yourtrace.window.cut": {
        "en": "The window you chose holds {events:,} events; the views below show its first {shown:.3f} s "
            "({kept:,} events). Choose a narrower window to see the rest in detail.",
        "ko": "고른 시간 창에는 이벤트가 {events:,}개 있어, 아래 그림은 처음 {shown:.3f}초(이벤트 {kept:,}개)만 "
            "보여 줍니다. 나머지를 자세히 보려면 시간 창을 좁히세요.",
    },
    "yourtrace.findings.big": {
        "en": "Looking for findings reads all {events:,} events; on a trace this big that takes a while.",
        "ko": "발견 사항을 찾으려면 이벤트 {events:,}개를 모두 읽어야 해서, 이만큼 큰 트레이스에서는 시간이 걸립니다.",
    },
    "yourtrace.findings.button": {
        "en": "Look for findings",
        "ko": "발견 사항 찾기",
    },
    "yourtrace.download.window": {
        "en": "Download this window (LoaderLab JSON)",
        "ko": "이 시간 창 내려받기 (LoaderLab JSON)",
    },
    "yourtrace.download.window_chrome": {
        "en": "Download this window for Perfetto (Chrome trace JSON)",
        "ko": "이 시간 창을 Perfetto용으로 내려받기 (Chrome 트레이스 JSON)",
    },
    "yourtrace.download.big": {
        "en": "The downloads hold the window shown below. For the whole trace in Perfetto, run "
            "`python -m loaderlab export {name} --chrome {stem}.chrome.json` on your machine.",
        "ko": "내려받는 파일에는 아래에 보이는 시간 창만 들어 있습니다. 트레이스 전체를 Perfetto에서 보려면 내 컴퓨터에서 "
            "`python -m loaderlab export {name} --chrome {stem}.chrome.json`을 실행하세요.",
    },
}
