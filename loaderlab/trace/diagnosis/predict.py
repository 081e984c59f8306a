"""Predicted samples per second of a loader setting: a deterministic pipeline model of a trace's measured
costs (:mod:`loaderlab.trace.diagnosis.costs`), so that the report, its JSON and the dashboard print the same claims, fast.

Twin of nothing in torch; it models torch's DataLoader pipeline. Per batch of ``b`` samples (``k = b /
recorded batch_size``; fetch, collate, receive-per-byte, pin and step scale with ``k``, the receive's
per-tensor part does not):

    num_workers = 0:  T = fetch + collate_main + pin + step + copy
    num_workers = n:  T = max(W / n, M, pin, (W_cpu + M + pin) / cores)
                      W = fetch + collate_worker        (one worker's own time per batch)
                      M = receive(bytes, tensors) + step + copy   (the main process per batch)
                      W_cpu = W when fetching computes, else the collate only (waiting needs no core)
    epoch: batches × T + the pipeline's fill (W - T: the first batch is a whole worker's batch), + a worker's
           start-up, its cold first batch beyond a warm one, and (n - 1) × the spawn gap when workers start
           that epoch (not persistent, or the first)

``receive`` is the measured receive plus the hand-over the other costs leave unexplained in the recorded
run (:func:`calibrated`): the model reproduces the recorded setting's steady time per batch. ``cores`` are
this machine's, or fewer where the recorded workers waited for a core (:func:`~loaderlab.trace.diagnosis.costs.measured_costs`).

``copy`` is a pageable host→GPU copy of the batch's bytes, charged when a run that pinned would stop
pinning (its bandwidth: measured when given, else the stated :data:`~loaderlab.trace.diagnosis.costs.PAGEABLE_BPS`). The speed-up
of a change is the model's rate with it over the model's rate of the recorded setting, so the model's
own error in the recorded setting cancels. Knows nothing of torch, plotly or streamlit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .costs import Costs, PAGEABLE_BPS

MODELLED = ("num_workers", "batch_size", "persistent_workers", "pin_memory", "bytes_factor")
# When the step is the slow part, a change must shorten the steady time per batch by this much: what the model
# cannot explain in the recorded loop counts as hand-over, which a step-bound loop with a GPU-like 20 ms step
# turned into a 1.06x claim for num_workers=0 (real 1.02-1.03x, run to run).
STEADY_MIN = 1.10


@dataclass(frozen=True)
class Setting:
    num_workers: int
    batch_size: int
    persistent: bool
    pin_memory: bool
    bytes_factor: float = 1.0  # the batch's bytes relative to the recorded (0.25: uint8 instead of float32)


def calibrated(c: Costs) -> Costs:
    """``c`` with the hand-over the other costs do not explain: with workers, the recorded loop's steady time
    per batch beyond the modelled one is counted as moving batches between the processes (pickling, the
    pipe, waking each side: what the ``ipc`` verdict points at). It goes where a move goes: on the main
    process's path, and away with ``num_workers=0``; its bytes part scales with the batch's bytes."""
    if not c.num_workers or math.isnan(c.observed_s):
        return c
    left = c.observed_s - batch_time(c, recorded(c))
    return replace(c, handover_s=max(0.0, left))


def recorded(c: Costs) -> Setting:
    return Setting(c.num_workers, c.batch_size, c.persistent, c.pin_memory)


def changed(c: Costs, change: dict) -> Setting:
    """The recorded setting with ``change`` applied (keys: :data:`MODELLED`, ``persistent_workers``)."""
    s = recorded(c)
    for key, value in change.items():
        name = {"persistent_workers": "persistent"}.get(key, key)
        s = replace(s, **{name: value})
    if not s.num_workers:
        s = replace(s, persistent=False)
    return s


def batch_time(c: Costs, s: Setting, pageable_bps: float | None = None) -> float:
    """Seconds per batch in the steady state of setting ``s`` (module docstring)."""
    k = s.batch_size / c.batch_size
    nbytes = (c.nbytes if c.nbytes > 0 else 0.0) * k * s.bytes_factor
    scale_b = k * s.bytes_factor  # what scales with bytes
    fetch, step = c.fetch_s * k, c.step_s * k
    pin = c.pin_s * scale_b if s.pin_memory else 0.0
    copy = nbytes / (pageable_bps or PAGEABLE_BPS) if c.pin_memory and not s.pin_memory else 0.0
    # Bytes-bound parts of the collate (the copy, shared memory) shrink with the bytes, the rest with k.
    def collate(total: float, by_bytes: float) -> float:
        return max(0.0, total - by_bytes) * k + by_bytes * scale_b
    if not s.num_workers:
        # fetching in the loop: a computing dataset's CPU time, not the worker's own time, part of which its
        # feeder thread held the GIL pickling the last batch (no such thread without workers)
        own = fetch * c.cpu_share if c.num_workers else fetch
        return own + collate(c.main_collate_s, c.main_copy_s) + pin + step + copy
    return max(pipeline(c, s, pageable_bps).values())


def pipeline(c: Costs, s: Setting, pageable_bps: float | None = None) -> dict[str, float]:
    """With workers, each bound on the time per batch: ``workers`` (W / n), ``main`` (M), ``pin``, ``cores``."""
    k = s.batch_size / c.batch_size
    scale_b = k * s.bytes_factor
    nbytes = (c.nbytes if c.nbytes > 0 else 0.0) * scale_b
    fetch = c.fetch_s * k
    pin = c.pin_s * scale_b if s.pin_memory else 0.0
    copy = nbytes / (pageable_bps or PAGEABLE_BPS) if c.pin_memory and not s.pin_memory else 0.0
    w = fetch + max(0.0, c.worker_collate_s - c.shm_s) * k + (c.shm_s - c.shm_fixed_s) * scale_b + c.shm_fixed_s
    m = c.move_s(nbytes) + c.body_shm_s(nbytes) + c.step_s * k + copy
    w_cpu = w if c.computing else w - fetch
    return {"workers": w / max(s.num_workers, 1), "main": m, "pin": pin,
            "cores": (w_cpu + m + pin) / max(c.cores, 1)}


def epochs_time(c: Costs, s: Setting, pageable_bps: float | None = None) -> float:
    """Seconds for all the recorded epochs' samples under ``s``: the steady batches, each epoch's pipeline
    fill (with workers the first batch takes a whole worker's batch, W, not T) and the start-ups (the main
    process starts the workers one after another: ``spawn_s`` per worker beyond the first)."""
    batches = math.ceil(c.samples / s.batch_size)
    t = batch_time(c, s, pageable_bps)
    if not s.num_workers:
        return c.epochs * batches * t
    fill = max(0.0, pipeline(c, s, pageable_bps)["workers"] * s.num_workers - t)
    starts = 1 if s.persistent else c.epochs
    return c.epochs * (batches * t + fill) + starts * (c.startup_s + c.cold_s + (s.num_workers - 1) * c.spawn_s)


def speedup(c: Costs, change: dict, pageable_bps: float | None = None) -> float:
    """The model's samples/s with ``change`` over its samples/s of the recorded setting (same samples)."""
    before = epochs_time(c, recorded(c), pageable_bps)
    after = epochs_time(c, changed(c, change), pageable_bps)
    return before / after if after > 0 else math.nan


def keeps_up(c: Costs, limit: int) -> tuple[int, str]:
    """The fewest workers (1..``limit``) at which fetching stops being the slowest part at the recorded batch
    size, and what binds then: ``main`` (the step and the receive: the workers keep up), ``cores`` (the
    machine's cores are full), ``pin``; or ``(limit, "none")`` when no count up to ``limit`` keeps up."""
    base = recorded(c)
    for n in range(1, max(limit, 1) + 1):
        bounds = pipeline(c, replace(base, num_workers=n))
        if bounds.pop("workers") <= max(bounds.values()):
            return n, max(bounds, key=bounds.get)
    return max(limit, 1), "none"


def worker_limit(c: Costs) -> int:
    """The most workers worth weighing: the cores when fetching computes (the model's cores bound charges
    the main process's share), beyond them when it waits (waiting needs no core; bounded at 4 per core)."""
    cores = max(1, math.ceil(c.cores))
    return cores if c.computing else 4 * cores


def shortens_steady(c: Costs, change: dict) -> bool:
    """Whether ``change`` shortens the steady time per batch by :data:`STEADY_MIN` (start-ups left out: with the
    step the slow part, a gain from start-ups alone fades as the job runs longer)."""
    return batch_time(c, recorded(c)) >= STEADY_MIN * batch_time(c, changed(c, change))
