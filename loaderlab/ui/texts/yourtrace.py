"""Texts of the "Your trace" page."""

EN = {
    "yourtrace.title": "Your trace",
    "yourtrace.explain": (
        "Load a trace recorded from your own DataLoader with `python -m loaderlab record my_data.py:make_loader "
        "-o trace.json` (or one downloaded here) to see its timeline, queue depths, label counts and findings. "
        "Without a file, the page shows the current run from the sidebar's settings; download it as a LoaderLab "
        "trace, or as a Chrome trace to open in Perfetto (ui.perfetto.dev)."),
    "yourtrace.upload": "trace file (.json written by `loaderlab record` or downloaded from this page)",
    "yourtrace.source.run": "Showing the current run (the sidebar's settings): {events:,} events, {batches:,} batches.",
    "yourtrace.source.upload": "Showing {name}: {events:,} events, {batches:,} batches.",
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
