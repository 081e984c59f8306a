"""Texts of the "Worker timelines" page: the Gantt of every process, its stalls, and the num_workers sweep."""

EN = {
    "timelines.title": "Worker timelines: who did what, when",
    "timelines.explain": (
        "One lane per process: your loop's main process on top, then the pin thread (with `pin_memory=True`) and "
        "each worker. A worker fetches its batch's samples one by one (blue) and collates them (orange); grey is "
        "idle, pink is idle because the main process already had `prefetch_factor × num_workers` tasks out. On "
        "the main lane, red is your loop waiting in `next()` and green is your training step."),
    "timelines.try": (
        "Try it: in the sidebar give one dataset index an extra cost of 200 ms or more (straggler). The slow "
        "sample is outlined in black, and so is the wait it causes; then switch `in_order` off and compare."),
    "timelines.metric.throughput": "batches / s",
    "timelines.metric.wait": "main process waited (s)",
    "timelines.metric.wait_share": "share of the loop spent waiting",
    "timelines.metric.busy": "workers busy (mean)",
    "timelines.gantt.title": "Every process over time",
    "timelines.cut": "Showing the first {shown:,} of {total:,} spans: the start of the run.",
    "timelines.x": "seconds since the run started",
    "timelines.stage.startup": "worker start-up",
    "timelines.stage.fetch": "fetch (one sample)",
    "timelines.stage.collate": "collate",
    "timelines.stage.pin": "pin memory",
    "timelines.stage.wait": "waiting for a batch",
    "timelines.stage.consume": "your training step",
    "timelines.stage.idle": "idle",
    "timelines.stage.idle_capped": "idle: prefetch cap reached",
    "timelines.mark": "stall (see the table)",
    "timelines.stalls.title": "Stalls",
    "timelines.stalls.explain": (
        "Each row names the batch (task number), the worker and the dataset index a stall is blamed on; the "
        "outlined spans above are these."),
    "timelines.stalls.none": (
        "No stalls in this run: no sample took 5× the median and at least 0.1 s, no batch held others in the "
        "reorder buffer, and no worker stopped."),
    "timelines.col.kind": "what",
    "timelines.col.epoch": "epoch",
    "timelines.col.batch": "batch",
    "timelines.col.worker": "worker",
    "timelines.col.index": "sample index",
    "timelines.col.message": "details",
    "timelines.kind.straggler": "slow sample",
    "timelines.kind.head_of_line": "head-of-line blocking",
    "timelines.kind.stalled_worker": "stuck worker",
    "timelines.kind.worker_vanished": "worker vanished",
    "timelines.kind.slow_first_batch": "slow first batch",
    "timelines.kind.error": "error",
    "timelines.sweep.title": "Does another worker help? A sweep of num_workers",
    "timelines.sweep.explain": (
        "Runs the sidebar's settings once for each `num_workers` from 0 to {most} (one epoch each) and plots the "
        "measured batches per second. The dashed ideal line is the rate of one worker times the number of "
        "workers, flat beyond the {cores} core(s) this machine gives LoaderLab: past that, workers share cores."),
    "timelines.sweep.button": "Run the sweep",
    "timelines.sweep.running": "Running the sidebar's settings with each num_workers…",
    "timelines.sweep.stale": "The sidebar's settings changed since the sweep: press the button to sweep these.",
    "timelines.sweep.measured": "measured",
    "timelines.sweep.ideal": "ideal: 1 worker's rate × num_workers, up to the cores",
    "timelines.sweep.cores": "{cores} core(s)",
    "timelines.sweep.x": "num_workers",
    "timelines.sweep.y": "batches / s",
}
