"""The loop's process at work while it waits for its workers' batches: the cores its other threads kept busy
then, and the finding that names them (issue 33: threads the cost model cannot see).

Twin of nothing in torch. With workers, the loop's thread sleeps on the result queue while it waits and
unpickles what arrives; its process's other threads should be idle but for the recorder's flusher. Where
they kept a core busy, it was mostly torch's intra-op threads, which OpenMP leaves spinning after each op of
the step before they sleep (``OMP_WAIT_POLICY``), on the cores the workers need. Measured, one SQLite dataset,
an MLP step, 1 worker, 2 cores: the other threads kept 0.92 cores busy while the loop waited with torch's 2
threads, 0.02 with ``OMP_WAIT_POLICY=PASSIVE``, 0.02 with one thread; the plain job 1.91 s against 1.29 s and
1.49 s, and ``num_workers=0`` 0.92 s. Its slices' rates in one process also moved by up to 45 %
(7,603-14,015 samples/s) against 5 % with the threads passive: why ``run --tune``'s rounds in such a process
say less than their spread shows.

Reads the loop bodies' clocks (``consumer_begin``/``consumer_end``: ``cpu_ns`` the loop's thread,
``process_cpu_ns`` its process): the wait between one step's end and the next step's begin, each epoch's
first left out (worker start-up). Knows nothing of the cost model, plotly or streamlit.
"""

from __future__ import annotations

import math
from typing import Any

from ...engine import events as ev
from ..core import kinds
from ..core.findings import Finding, finding
from ..core.lookups import named_rows, normal, settings
from ..core.run import as_run
from .summary import events
from .tuning_noise import BUSY_CORES  # the other threads' cores while waiting: 0.02-0.07 unless they spin

BUSY_MIN_S = 0.1  # and this much CPU in all, so a handful of waits' clock ticks never reads as a finding


def wait_cores(frame: Any) -> tuple[float, float, float]:
    """``(cores, cpu_s, wait_s)``: the CPU time of the loop's process beyond its own thread's, over the wall
    time, while it waited for batches between steps (each epoch's first wait left out); NaN cores where the
    trace has no such clocks or no such wait. Meaningful where workers made the batches: without them the
    fetch runs in the loop, and a sample's torch ops on torch's threads."""
    f = normal(events(frame))
    cols = ["epoch", "batch", "process_cpu_ns", "cpu_ns", "t_s"]
    ends = named_rows(f, ev.CONSUMER_END, cols).drop_duplicates(["epoch", "batch"])
    begins = named_rows(f, ev.CONSUMER_BEGIN, cols).drop_duplicates(["epoch", "batch"])
    waits = ends.merge(begins.assign(batch=begins["batch"] - 1), on=["epoch", "batch"], suffixes=("_end", "_next"))
    clocked = (waits["process_cpu_ns_end"] >= 0) & (waits["process_cpu_ns_next"] >= waits["process_cpu_ns_end"]) \
        & (waits["cpu_ns_end"] >= 0) & (waits["cpu_ns_next"] >= waits["cpu_ns_end"])
    waits = waits[clocked & (waits["t_s_next"] >= waits["t_s_end"])]
    wall = float((waits["t_s_next"] - waits["t_s_end"]).sum())
    process = float((waits["process_cpu_ns_next"] - waits["process_cpu_ns_end"]).sum())
    cpu = max(0.0, process - float((waits["cpu_ns_next"] - waits["cpu_ns_end"]).sum())) / 1e9
    return (cpu / wall if wall > 0 else math.nan), cpu, wall


def busy_wait_findings(frame: Any) -> list[Finding]:
    """One finding where the loop's other threads kept :data:`BUSY_CORES` or more busy while its workers made
    the batches (and :data:`BUSY_MIN_S` of CPU in all); worded for torch's threads where the loop ran several."""
    if not settings(frame).get("num_workers"):
        return []
    cores, cpu_s, wait_s = wait_cores(frame)
    if not (cores >= BUSY_CORES and cpu_s >= BUSY_MIN_S):
        return []
    threads = as_run(frame).extra.get("torch_threads")
    key = "busy_wait" if threads and threads > 1 else "busy_wait_other"
    return [finding(kinds.BUSY_WAIT, "warning", key=key, cores=cores, cpu_s=cpu_s, wait_s=wait_s,
                    threads=threads or 0)]
