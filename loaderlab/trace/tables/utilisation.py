"""How busy each worker was, and when it waited on the prefetch cap: an events table → tidy pandas tables.

Twin of nothing in torch (torch keeps no such counts; SPDL's per-queue stats are the nearest kin).
Pure functions over the table :func:`loaderlab.record` returns; knows the event vocabulary and pandas,
nothing of plotly or streamlit. Shared conventions (``batch`` = task id, seconds on ``t_s``, missing
event kinds give empty tables or NaN, never an exception) are those of :mod:`loaderlab.trace.tables.waits`, which re-exports
:func:`worker_utilisation` and :func:`queue_depths` (whose rules, and the queue stays they count, live in
:mod:`loaderlab.trace.tables.stays`).

A worker idles "because of the cap" while its index queue is empty and the main process has
``prefetch_factor * num_workers`` tasks out: main sends a new task only when it hands a batch over.
:func:`capped_idle` finds those intervals once; :func:`worker_utilisation` sums them and the timeline table
(:func:`loaderlab.trace.tables.timeline.timeline_spans`) draws them, so both say the same seconds.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .stays import queue_depths
from ..core.cache import shared
from ..core.lookups import normal, prefetch_cap, trace_end
from .processes import idle_intervals, worker_processes, worker_tasks

CAPPED_COLUMNS = ["pid", "worker", "epoch", "start_s", "end_s"]


def intervals_where(series: pd.DataFrame, test, end: float) -> list[tuple[float, float]]:
    """Intervals over which a step series (``t_s, depth``; the depth holds until the next row, the last
    until ``end``) passes ``test`` (given the depths as an array); touching intervals are merged."""
    t, d = series["t_s"].to_numpy(dtype=float), series["depth"].to_numpy()
    if not len(t):
        return []
    hi = np.r_[t[1:], end]
    keep = np.asarray(test(d), dtype=bool) & (hi > t)
    lo, hi = t[keep], hi[keep]
    if not len(lo):
        return []
    new = np.r_[True, hi[:-1] != lo[1:]]  # an interval that does not start where the one before ended
    last = np.r_[new[1:], True]
    return list(zip(lo[new].tolist(), hi[last].tolist()))


def _intersect(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Intersection of two sorted lists of disjoint intervals: one piece per overlapping pair.

    A sweep over both lists' edges: a piece is where both cover; at one time, ends come before starts, so
    intervals that only touch make no piece and pieces that touch stay apart."""
    if not a or not b:
        return []
    edges = np.array([*a, *b], dtype=float)
    at = np.r_[edges[:, 0], edges[:, 1]]
    step = np.r_[np.ones(len(edges)), -np.ones(len(edges))]
    order = np.lexsort((step, at))  # ends (-1) first at equal times
    at, depth = at[order], np.cumsum(step[order])
    both = np.flatnonzero(depth[:-1] == 2)
    lo, hi = at[both], at[both + 1]
    keep = hi > lo
    return list(zip(lo[keep].tolist(), hi[keep].tolist()))


@shared(settings=True, at_hand=("procs", "tasks", "idle", "depths"))
def capped_idle(frame: pd.DataFrame, *, procs: pd.DataFrame | None = None, tasks: pd.DataFrame | None = None,
                idle: pd.DataFrame | None = None, depths: pd.DataFrame | None = None) -> pd.DataFrame:
    """The parts of each worker's idle intervals spent waiting on the prefetch cap (module docstring):
    ``pid, worker, epoch, start_s, end_s``, in the order of the processes and their idle intervals.

    Empty when the cap is unknown (no ``loader`` settings, or no workers). ``procs``, ``tasks``, ``idle``,
    ``depths``: the frame's :func:`~loaderlab.trace.core.lookups.worker_processes`, :func:`~loaderlab.trace.core.lookups.worker_tasks`,
    :func:`~loaderlab.trace.core.lookups.idle_intervals` and :func:`queue_depths`, if already at hand.
    """
    cap, f = prefetch_cap(frame), normal(frame)
    if math.isnan(cap):
        return pd.DataFrame(columns=CAPPED_COLUMNS)
    procs = worker_processes(f) if procs is None else procs
    tasks = worker_tasks(f, procs=procs) if tasks is None else tasks
    idle = idle_intervals(f, procs=procs, tasks=tasks) if idle is None else idle
    depths, end = (queue_depths(f) if depths is None else depths), trace_end(f)
    at_cap = intervals_where(depths[depths["queue"] == "outstanding"], lambda d: d >= cap, end)
    out = []
    for p in procs.itertuples():
        lo = p.ready_s if not math.isnan(p.ready_s) else p.first_s
        gaps = idle[idle["pid"] == p.pid]
        gaps = list(zip(gaps["start_s"], gaps["end_s"]))
        queue = depths[depths["queue"] == f"index_queue[{p.worker}]"]
        empty = intervals_where(queue, lambda d: d == 0, end) if len(queue) else [(lo, p.end_s)]
        out += [{"pid": p.pid, "worker": p.worker, "epoch": p.epoch, "start_s": a, "end_s": b}
                for a, b in _intersect(_intersect(gaps, at_cap), empty)]
    return pd.DataFrame(out, columns=CAPPED_COLUMNS)


@shared(settings=True, at_hand=("capped",))
def worker_utilisation(frame: pd.DataFrame, *, capped: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per worker process: how its life split between start-up, work and waiting.

    Columns: ``pid, worker, epoch, startup_s`` (``worker_start`` → ``worker_ready``), ``lifetime_s``
    (ready → exit), ``busy_s`` (holding a task), ``idle_s``, ``capped_idle_s`` (the :func:`capped_idle`
    seconds: idle with an empty index queue while the outstanding tasks were at the
    ``prefetch_factor * num_workers`` cap; NaN when the cap is unknown), ``busy_fraction`` and
    ``capped_idle_fraction`` (both of the lifetime). ``capped``: :func:`capped_idle` of the same run, if
    already at hand (a page that also draws it computes it once).
    """
    f = normal(frame)
    procs = worker_processes(f)
    tasks = worker_tasks(f, procs=procs)
    idle = idle_intervals(f, procs=procs, tasks=tasks)
    known = not math.isnan(prefetch_cap(frame))
    capped_s: dict[int, float] = {}
    if known:
        c = capped_idle(frame, procs=procs, tasks=tasks, idle=idle) if capped is None else capped
        for pid, a, b in zip(c["pid"], c["start_s"], c["end_s"]):
            capped_s[pid] = capped_s.get(pid, 0) + (b - a)
    out = []
    for p in procs.itertuples():
        lo = p.ready_s if not math.isnan(p.ready_s) else p.first_s
        lifetime = p.end_s - lo
        mine = tasks[tasks["pid"] == p.pid]
        busy = float((mine["end_s"].clip(upper=p.end_s) - mine["start_s"]).clip(lower=0).sum())
        gaps = idle[idle["pid"] == p.pid]
        idle_s = float(sum(b - a for a, b in zip(gaps["start_s"], gaps["end_s"])))
        capped = capped_s.get(p.pid, 0) if known else math.nan
        out.append({"pid": p.pid, "worker": p.worker, "epoch": p.epoch, "startup_s": p.ready_s - p.start_s,
                    "lifetime_s": lifetime, "busy_s": busy, "idle_s": idle_s,
                    "capped_idle_s": capped,
                    "busy_fraction": busy / lifetime if lifetime > 0 else math.nan,
                    "capped_idle_fraction": capped / lifetime if lifetime > 0 else math.nan})
    cols = ["pid", "worker", "epoch", "startup_s", "lifetime_s", "busy_s", "idle_s", "capped_idle_s",
            "busy_fraction", "capped_idle_fraction"]
    return pd.DataFrame(out, columns=cols)
