"""The loop body's measurements, read from one trace: each step's own time (what it waited for a core taken
out), the first step of each epoch apart (a first CUDA step drags a mean up), and what the body spent mapping
in a batch a worker put in shared memory.

Twin of nothing in torch: torch times no loop body. Read by :mod:`loaderlab.trace.diagnosis.costs` (the step
``num_workers=0`` would run) and the verdict (the step it quotes). Knows nothing of the cost model's other
parts, plotly or streamlit.
"""

from __future__ import annotations

import math

import pandas as pd

from ...engine import events as ev
from .summary import events
from ..core.cache import shared
from ..core.lookups import named_rows, normal, paired_rows

# A body that reads its batch in shared memory maps the pages in, one fault per 64 KiB (the kernel's
# fault-around on a shared mapping): 6-12 µs a fault here (plain torch, 2 workers: 4 faults cost 48 µs more than
# the same read of a batch collated in the loop, 294 faults 1.4 ms). The lower side, as costs' figures are.
FAULT_S = 6e-6
FAULT_AROUND = 64 * 2**10


@shared
def step_times(frame) -> pd.DataFrame:
    """``epoch, batch, step_s, first, faults, cpu_s`` per loop body (``first``: the epoch's first step;
    ``faults``: its minor page faults, ``cpu_s``: its process's CPU time, all threads; NaN where the trace has
    none). A body's time is its own: what it waited for a core
    (the main thread's run-queue clock on ``consumer_begin`` and ``consumer_end``, where the trace has it) is
    left out — workers that held the cores while it ran are no part of the step that ``num_workers=0`` would
    run."""
    f = normal(events(frame))
    steps = paired_rows(f, ev.CONSUMER_BEGIN, ev.CONSUMER_END, ["epoch", "batch"]).dropna(subset=["end_s"])
    steps = steps.sort_values(["epoch", "start_s"])
    clock = {kind: named_rows(f, kind, ["epoch", "batch", "runqueue_ns", "minor_faults", "process_cpu_ns"]
                              ).drop_duplicates(["epoch", "batch"]) for kind in (ev.CONSUMER_BEGIN, ev.CONSUMER_END)}
    waited = steps[["epoch", "batch"]].merge(clock[ev.CONSUMER_BEGIN], on=["epoch", "batch"], how="left").merge(
        clock[ev.CONSUMER_END], on=["epoch", "batch"], how="left", suffixes=("_begin", "_end"))
    known = (waited["runqueue_ns_begin"] >= 0) & (waited["runqueue_ns_end"] >= waited["runqueue_ns_begin"])
    wait_s = ((waited["runqueue_ns_end"] - waited["runqueue_ns_begin"]) / 1e9).where(known, 0.0).to_numpy()
    wall = (steps["end_s"] - steps["start_s"]).to_numpy()
    out = pd.DataFrame({"epoch": steps["epoch"].to_numpy(), "batch": steps["batch"].to_numpy(),
                        "step_s": (wall - wait_s).clip(min=0.0)})
    out["first"] = ~out.duplicated("epoch")
    counted = (waited["minor_faults_begin"] >= 0) & (waited["minor_faults_end"] >= waited["minor_faults_begin"])
    out["faults"] = (waited["minor_faults_end"] - waited["minor_faults_begin"]).where(counted).to_numpy(dtype=float)
    cpu = waited["process_cpu_ns_end"] - waited["process_cpu_ns_begin"]
    timed = (waited["process_cpu_ns_begin"] >= 0) & (cpu >= 0)
    out["cpu_s"] = (cpu / 1e9).where(timed).to_numpy(dtype=float)
    return out.reset_index(drop=True)


def touch_s(frame, nbytes: float, tensors: float) -> float:
    """The later steps' median minor faults at :data:`FAULT_S` each: a body that reads a batch in shared memory
    maps its pages in (no more faults than the batch has :data:`FAULT_AROUND` blocks count: the rest are the
    step's own, which it pays without workers too)."""
    s = step_times(frame)
    faults = s.loc[~s["first"], "faults"].dropna() if (~s["first"]).any() else s["faults"].dropna()
    if not len(faults) or not nbytes > 0:
        return 0.0
    blocks = math.ceil(nbytes / FAULT_AROUND) + (0 if math.isnan(tensors) else tensors)
    return min(float(faults.median()), blocks) * FAULT_S


def step_cores(frame) -> float:
    """The cores the main process kept busy while the later steps ran: their process CPU time over their own
    time (NaN where the trace has no process clock). About 1 for a step on one thread, up to torch's
    intra-op thread count for a step whose ops run in parallel. A sum over the steps, not a median of each:
    the kernel adds the other threads' CPU time to the process clock in scheduler ticks (4 ms here), so one
    sub-millisecond body reads 1.0 or 5.4 cores where the sum over 372 reads 1.9."""
    s = step_times(frame)
    later = s[~s["first"]] if (~s["first"]).any() else s
    later = later.dropna(subset=["cpu_s"])
    own = float(later["step_s"].sum())
    return float(later["cpu_s"].sum()) / own if len(later) and own > 0 else math.nan


def step_medians(frame) -> tuple[float, float]:
    """``(step, first)``: the median step without each epoch's first, and the first steps' median."""
    s = step_times(frame)
    later, first = s.loc[~s["first"], "step_s"], s.loc[s["first"], "step_s"]
    later = later if len(later) else first
    med = float(later.median()) if len(later) else math.nan
    return med, (float(first.median()) if len(first) else math.nan)
