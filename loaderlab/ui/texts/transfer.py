"""Texts of the "Pinned memory & GPU transfer" page."""

EN = {
    "transfer.title": "Pinned memory and the copy to the GPU",
    "transfer.explain": (
        "After the DataLoader hands a batch over, the batch still has to reach the GPU. From ordinary "
        "(pageable) memory, `batch.to('cuda')` blocks the loop and the GPU computes nothing meanwhile. With "
        "`pin_memory=True` the loader's pin thread first copies each batch into page-locked memory; then "
        "`.to('cuda', non_blocking=True)` issued on a second CUDA stream copies the next batch while the model "
        "still computes on this one. Pinning is itself a copy, so it pays only when the copying it hides is "
        "worth more than the pinning it costs."),
    "transfer.measured": "Measured on this machine's GPU ({gpu}): the timelines below are CUDA-event timings.",
    "transfer.measure_failed": "Measuring on this GPU failed ({error}); the timelines below are modelled instead.",
    "transfer.modelled": ("Modelled, no GPU on this machine: the timelines below are computed from the "
                          "bandwidths shown, not measured. Set them to your hardware's."),
    "transfer.assumptions": (
        "Assumptions of the model: pageable copies run at {pageable:g} GB/s, pinned copies at {pinned:g} GB/s and "
        "the pin thread's host memcpy at {pin:g} GB/s (GB = 10⁹ bytes); every batch is ready when the loop asks "
        "(the workers keep up); a copy runs at most one batch ahead of the compute (two batches on the GPU at "
        "once); the pin thread waits once two pinned batches wait for the loop, and the loop, like one that "
        "reads its loss every step, issues a copy once the compute two batches back has ended. Defaults: PCIe 4.0 x16 peaks near 25 GB/s, pinned copies commonly "
        "reach about half of that and pageable ones half again, because the driver stages them through a "
        "pinned buffer of its own."),
    "transfer.control.batch_mb": "batch size (MB)",
    "transfer.control.n_batches": "batches per epoch",
    "transfer.control.compute_ms": "model compute per batch (ms)",
    "transfer.control.pageable_gbps": "pageable copy (GB/s)",
    "transfer.control.pinned_gbps": "pinned copy (GB/s)",
    "transfer.control.pin_gbps": "pinning: host memcpy (GB/s)",
    "transfer.control.measured_help": "Measured on this GPU; editable only when the page models the copies.",
    "transfer.mode.pageable": "pageable: batch.to('cuda')",
    "transfer.mode.pinned": "pinned: pin_memory=True, then .to('cuda', non_blocking=True) on a copy stream",
    "transfer.mode.pageable_short": "pageable",
    "transfer.mode.pinned_short": "pinned + non_blocking",
    "transfer.stage.pin": "pin (host, pin thread)",
    "transfer.stage.copy": "copy to GPU",
    "transfer.stage.compute": "model compute",
    "transfer.timeline.title": "One epoch, batch by batch",
    "transfer.timeline.caption": ("Each bar is one batch's stage; the number is the batch. Top: every copy "
                                  "waits for the compute before it and the compute for its copy. Bottom: the "
                                  "pin thread works ahead, and each copy runs while the previous batch computes."),
    "transfer.timeline.x": "ms since the first batch was asked for",
    "transfer.batch": "batch",
    "transfer.totals.title": "Time per epoch, and where it went",
    "transfer.totals.x": "ms per epoch",
    "transfer.totals.text": "{total_ms:.1f} ms, {overlap:.0%} of copying hidden",
    "transfer.part.compute": "GPU computing",
    "transfer.part.exposed_copy": "copying while nothing computes",
    "transfer.part.idle": "GPU idle, waiting for a pinned batch",
    "transfer.metric.pageable": "epoch, pageable (ms)",
    "transfer.metric.pinned": "epoch, pinned + non_blocking (ms)",
    "transfer.metric.overlap": "copying hidden behind compute",
    "transfer.metric.pageable_gbps": "pageable copy, measured (GB/s)",
    "transfer.metric.pinned_gbps": "pinned copy, measured (GB/s)",
    "transfer.metric.pin_gbps": "pinning, measured (GB/s)",
    "transfer.verdict.faster": ("Here pinning with non_blocking copies saves {saved:.0%} of the epoch: "
                                "{overlap:.0%} of the copying ran while the model computed."),
    "transfer.verdict.slower": ("Here pinning makes the epoch {lost:.0%} longer: pinning a batch takes {pin_ms:.1f} ms, "
                                "more than the overlap hides. This is the slowdown reported in pytorch/pytorch#24984."),
    "transfer.verdict.same": "Here both ways take the same time.",
    "transfer.engine.title": "The loader's own pin stage on this machine",
    "transfer.engine.explain": (
        "Below, the sidebar's loader runs with `pin_memory=True` (at most {n} samples, one epoch). Without an "
        "accelerator torch warns and starts no pin thread; LoaderLab still runs the stage and records a "
        "`pin_begin`/`pin_end` pair per batch, so the stage stays visible in every view."),
    "transfer.engine.events": "pin events",
    "transfer.engine.batches": "batches through the pin stage",
    "transfer.engine.bytes": "bytes per batch (median)",
    "transfer.engine.skipped": "Every pin event of this run says “{detail}”: nothing was pinned.",
    "transfer.engine.pinned": "The pin stage really pinned every batch ({n} batches).",
    "transfer.engine.none": "This run recorded no pin events.",
    "transfer.engine.rejected": "Torch rejects the sidebar's settings (see the sidebar), so the loader's pin stage is not run.",
    "transfer.code.loop": "A training loop that overlaps copies with compute, in plain torch",
    "transfer.loop_code": '''import torch

loader = torch.utils.data.DataLoader(dataset, batch_size=64, num_workers=4, pin_memory=True)
copy_stream = torch.cuda.Stream()

def to_gpu(batch):
    with torch.cuda.stream(copy_stream):  # the copy runs beside the compute stream
        return batch.to("cuda", non_blocking=True)  # non_blocking needs pinned memory to overlap

batches = iter(loader)
ready = to_gpu(next(batches))
while ready is not None:
    torch.cuda.current_stream().wait_stream(copy_stream)  # this batch's copy is done
    batch = ready
    batch.record_stream(torch.cuda.current_stream())       # made on copy_stream, used here
    cpu_batch = next(batches, None)
    ready = None if cpu_batch is None else to_gpu(cpu_batch)  # the next copy starts now...
    loss = model(batch)                                     # ...while the model computes
''',
}
