"""Texts of the home page's "Pipeline tour": one batch's path, stage by stage, and links to the other pages."""

EN = {
    "tour.title": "Pipeline tour: the path of one batch",
    "tour.explain": (
        "Pick a batch and follow it through the loader: the red path is the way it really went in the run "
        "recorded with the sidebar's settings, and each box says what the trace measured for it there. The lower "
        "panel shows where its time went. Step batch by batch with the slider (or the arrow keys) to see round "
        "robin, waiting and reordering at work."),
    "tour.pick": "batch (task number, in sampler order)",
    "tour.epoch": "epoch",
    "tour.none": "No batch reached your loop in this run, so there is no path to show.",
    "tour.figure.title": "Batch {batch} of epoch {epoch}, made by {who}",
    "tour.who.worker": "worker {k}",
    "tour.who.main": "the main process",
    "tour.x": "seconds since the run started",
    "tour.box.sampler": "sampler",
    "tour.box.batch_sampler": "batch sampler",
    "tour.box.index_queue": "index_queue[{k}]",
    "tour.box.worker": "worker {k}",
    "tour.box.worker_main": "main process",
    "tour.box.index_queue_none": "index queues",
    "tour.box.result_queue": "result_queue",
    "tour.box.pin": "pin memory",
    "tour.box.reorder": "reorder buffer",
    "tour.box.loop": "your loop",
    "tour.segment.index_queue": "in index_queue",
    "tour.segment.fetch": "fetch",
    "tour.segment.collate": "collate",
    "tour.segment.result_queue": "in result_queue",
    "tour.segment.pin": "pin memory",
    "tour.segment.data_queue": "in data_queue",
    "tour.segment.reorder": "parked (reorder)",
    "tour.segment.loop": "your training step",
    "tour.note.sampler": "drew indices\n{indices}",
    "tour.note.sampler_iterable": "no sampler: the IterableDataset's stream decides",
    "tour.note.batch_sampler": "batch {batch} of {n_batches}\n{samples} samples\nat {t:.3f} s",
    "tour.note.index_queue": "put at {t:.3f} s\nwaited {ms:.1f} ms for worker {worker}",
    "tour.note.no_workers": "not used: num_workers=0",
    "tour.note.worker": ("fetch {samples} samples: {fetch_ms:.1f} ms\nslowest: index {index} ({slowest_ms:.1f} ms)\n"
                         "collate {collate_ms:.1f} ms"),
    "tour.note.result_queue": "{ms:.1f} ms in the queue",
    "tour.note.reorder_parked": "parked {ms:.1f} ms\nwaiting for batch {waiting_for}",
    "tour.note.reorder_direct": "not parked: its turn had come",
    "tour.note.reorder_off": "no reordering: handed over as it came",
    "tour.note.pin_done": "pinned in {ms:.2f} ms",
    "tour.note.pin_skipped": "pin skipped: no accelerator",
    "tour.note.pin_off": "not pinned:\npin_memory=False",
    "tour.note.loop": "handed over at {t:.3f} s (#{position})\nwaited {wait_ms:.1f} ms\nstep {consume_ms:.1f} ms",
    "tour.note.missing": "not in the trace",
    "tour.stages.title": "Each stage, and the argument that controls it",
    "tour.stage.this_batch": "This batch: {note}",
    "tour.stage.sampler.arg": "`sampler`, `shuffle`, `generator`",
    "tour.stage.sampler.text": (
        "The sampler decides the order of the dataset indices: `SequentialSampler` by default, `RandomSampler` "
        "with `shuffle=True` (seeded by `generator`), or the `sampler` you pass. An IterableDataset has none: its "
        "`__iter__` decides what comes next."),
    "tour.stage.batch_sampler.arg": "`batch_size`, `drop_last`, `batch_sampler`",
    "tour.stage.batch_sampler.text": (
        "The batch sampler groups the sampler's indices into lists of `batch_size`; the last one is shorter unless "
        "`drop_last=True`. Pass your own `batch_sampler` (for example one that buckets by length) and leave those "
        "arguments unset. Each list is one task, numbered in this order."),
    "tour.stage.index_queue.arg": "`num_workers`, `prefetch_factor`",
    "tour.stage.index_queue.text": (
        "With `num_workers > 0` the main process puts each task on one worker's own index queue, round robin. It "
        "keeps at most `prefetch_factor × num_workers` tasks out (batches, not samples) and sends the next one "
        "only when it hands a batch to your loop."),
    "tour.stage.worker.arg": "`num_workers`, `collate_fn`",
    "tour.stage.worker.text": (
        "A worker process takes the task, calls `dataset[i]` for each index (fetch) and merges the samples into "
        "one batch with `collate_fn` (collate). With `num_workers=0` the main process does this itself, inside "
        "`next()`, while your loop waits."),
    "tour.stage.result_queue.arg": "`num_workers`, `timeout`",
    "tour.stage.result_queue.text": (
        "Every worker puts its finished batch on one shared result queue, so batches arrive in the order they "
        "finish, not in task order. Tensors travel through shared memory; `timeout` bounds how long the main "
        "process waits on this queue."),
    "tour.stage.pin.arg": "`pin_memory`",
    "tour.stage.pin.text": (
        "With `pin_memory=True` a thread in the main process copies each batch into page-locked memory, so that "
        "`.to('cuda', non_blocking=True)` can overlap the copy with compute; it sits between the result queue and "
        "a second queue, `data_queue`. Without an accelerator torch skips it and warns."),
    "tour.stage.reorder.arg": "`in_order`",
    "tour.stage.reorder.text": (
        "With `in_order=True` (the default) batches are handed over in task order: one that arrives early waits "
        "in the reorder buffer until the batches before it are in. `in_order=False` hands each one over as it "
        "arrives, so one slow sample no longer holds up the rest."),
    "tour.stage.loop.arg": "your loop body",
    "tour.stage.loop.text": (
        "`next()` returns the batch to your loop; while your step runs, the workers prepare the next batches. If "
        "your loop mostly waits for `next()`, the loader is the bottleneck; if it rarely waits, a faster loader "
        "will not help."),
    "tour.links.title": "Where to look next",
    "tour.link.1_Event_table": "Event table: every event of the run, one row each",
    "tour.link.2_Index_queues": "Index queues: every queue, moment by moment",
    "tour.link.3_Worker_timelines": "Worker timelines: who did what, when, and what stalled",
    "tour.link.4_Sampling_and_imbalance": "Sampling and class imbalance: which samples each epoch really drew",
    "tour.link.5_Padding_and_collate": "Padding and collate: how much of each batch is padding",
    "tour.link.6_Pinned_memory": "Pinned memory: pageable vs pinned copies to the GPU",
    "tour.link.7_Your_trace": "Your trace: upload a recording of your own loader",
}
