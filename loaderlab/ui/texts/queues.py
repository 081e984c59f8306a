"""Texts of the "Index queues" page: the animation of every queue and the depth plots."""

EN = {
    "queues.title": "Index queues: where every batch waits",
    "queues.explain": (
        "The main process sends each task (the indices of one batch) to one worker's `index_queue`, round "
        "robin; the worker fetches and collates it and puts the batch on the shared `result_queue`. With "
        "`in_order=True` a batch that arrives before its turn parks in the reorder buffer. The main process "
        "keeps at most `prefetch_factor × num_workers` tasks out at once and sends a new one only when it "
        "hands a batch to your loop."),
    "queues.try": (
        "Try it: change `num_workers` or `prefetch_factor` in the sidebar; give one sample a long extra cost "
        "(straggler) and switch `in_order` off and on to see the reorder buffer fill and empty."),
    "queues.no_workers": (
        "With `num_workers=0` there are no queues: the main process fetches and collates every batch itself, "
        "inside `next()`. Set `num_workers` to 1 or more in the sidebar."),
    "queues.animation.title": "Every queue, moment by moment",
    "queues.animation.explain": (
        "Each box is one batch, labelled with its task number and coloured by the worker that makes it; "
        "place 0 is the next to leave. Press Play or drag the slider. The counter above shows the tasks out "
        "(sent but not yet handed to your loop) against the cap; it turns red at the cap."),
    "queues.row.index_queue": "index_queue[{k}]",
    "queues.row.worker": "worker {k} (fetching)",
    "queues.row.result_queue": "result_queue",
    "queues.row.pin": "pin thread",
    "queues.row.data_queue": "data_queue",
    "queues.row.reorder": "reorder buffer",
    "queues.row.loop": "your loop",
    "queues.legend.worker": "batches of worker {k}",
    "queues.legend.main": "batches of the main process",
    "queues.counter": ("outstanding tasks: {outstanding} / {cap} (prefetch_factor × num_workers)"
                       "   ·   handed to your loop: {handed}"),
    "queues.x": "place in the queue (0 = next out)",
    "queues.hover": "task %{text} (epoch %{customdata})",
    "queues.play": "▶ Play",
    "queues.pause": "❚❚ Pause",
    "queues.time": "t = ",
    "queues.time_suffix": " s",
    "queues.depth.title": "How full each queue was",
    "queues.depth.explain": (
        "Depth over time of every queue, from the same events. The dashed line is the cap "
        "`prefetch_factor × num_workers`: the outstanding tasks never pass it, so no queue can either."),
    "queues.depth.outstanding": "outstanding tasks",
    "queues.depth.result_queue": "result_queue",
    "queues.depth.data_queue": "data_queue",
    "queues.depth.reorder": "reorder buffer",
    "queues.depth.cap": "cap: prefetch_factor × num_workers",
    "queues.depth.panel.outstanding": "tasks out (sent, not yet handed to your loop)",
    "queues.depth.panel.index": "index queues",
    "queues.depth.panel.result": "result queue",
    "queues.depth.panel.reorder": "reorder buffer",
    "queues.depth.x": "seconds since the run started",
    "queues.depth.y": "batches",
    "queues.metric.cap": "cap (tasks)",
    "queues.metric.peak_outstanding": "most tasks out",
    "queues.metric.peak_result": "most batches in result_queue",
    "queues.metric.peak_reorder": "most batches parked",
    "queues.findings": "What this run shows",
}
