"""Queue depths over time and how busy each worker was: an events table → tidy pandas tables.

Twin of nothing in torch (torch keeps no such counts; SPDL's per-queue stats are the nearest kin).
Pure functions over the table :func:`loaderlab.record` returns; knows the event vocabulary and pandas,
nothing of plotly or streamlit. Shared conventions (``batch`` = task id, seconds on ``t_s``, missing
event kinds give empty tables or NaN, never an exception) are those of :mod:`.analysis`, which re-exports
the two public functions here.

The queues of torch's design, as events see them (each item enters at one event and leaves at another)::

    index_queue[k]  index_put (main)    → index_get (worker k)
    result_queue    result_put (worker) → pin_begin (pin thread), else result_get (main)
    data_queue      pin_end (pin thread) → result_get (main)            (only with pin_memory=True)
    reorder         reorder_park         → reorder_release               (in_order=True only)
    outstanding     index_put            → handed over: reorder_release if parked, else result_get

``outstanding`` is the number the main process caps at ``prefetch_factor * num_workers``: it sends a new
task only when it hands a batch over. An item whose leaving is not in the trace leaves when its queue
is dropped: an index queue when its worker exits, the result queues at worker shutdown, the reorder
buffer and the outstanding count at the end of the epoch.
"""

from __future__ import annotations

import math

import pandas as pd

from ..engine import events as ev
from .tables import (idle_intervals, main_pid, normal, prefetch_cap, rows, trace_end,
                       worker_processes, worker_tasks)

DEPTH_COLUMNS = ["t_s", "queue", "depth"]


def _first_after(times: pd.Series, starts: pd.Series) -> pd.Series:
    """For each start, the first of ``times`` at or after it (NaN if none)."""
    t = times.sort_values().to_numpy()
    if not len(t):
        return pd.Series(math.nan, index=starts.index)
    pos = t.searchsorted(starts.to_numpy(), side="left")
    return pd.Series([t[p] if p < len(t) else math.nan for p in pos], index=starts.index, dtype=float)


def _first_leave(enters: pd.DataFrame, leaves: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """``enters`` with ``start_s``, and ``end_s`` from the first matching leave at or after it (NaN if none).

    "At or after": a persistent worker's results left over from an epoch cut short are drained at the
    next epoch's start and logged with the new epoch, so an earlier leave with the same key is not ours.
    """
    e = enters[keys + ["t_s"]].drop_duplicates(keys).rename(columns={"t_s": "start_s"})
    lv = e.merge(leaves[keys + ["t_s"]].rename(columns={"t_s": "end_s"}), on=keys)
    lv = lv[lv["end_s"] >= lv["start_s"]].groupby(keys, as_index=False)["end_s"].min()
    return e.merge(lv, on=keys, how="left")


def _intervals(f: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Per queue name, the (start_s, end_s) of each item's stay."""
    mp = main_pid(f)
    main_exits = rows(f, ev.WORKER_EXIT)
    main_exits = main_exits[main_exits["pid"] == mp]
    epoch_marks = pd.concat([rows(f, ev.EPOCH_BEGIN, ev.EPOCH_END)["t_s"], main_exits["t_s"]])
    out: dict[str, pd.DataFrame] = {}

    puts = rows(f, ev.INDEX_PUT)
    gets = rows(f, ev.INDEX_GET)
    exits = rows(f, ev.WORKER_EXIT)  # the worker's own exit or main seeing it gone: its queue is gone
    for name, enters in puts.groupby("queue"):
        iv = _first_leave(enters, gets[gets["queue"] == name], ["epoch", "batch"])
        worker = int(str(name).split("[")[-1].rstrip("]")) if "[" in str(name) else -2
        missing = iv["end_s"].isna()
        iv.loc[missing, "end_s"] = _first_after(exits[exits["worker"] == worker]["t_s"], iv.loc[missing, "start_s"])
        out[str(name)] = iv

    pin_begins = rows(f, ev.PIN_BEGIN)
    received = rows(f, ev.RESULT_GET)
    taken = pd.concat([pin_begins, received])  # the pin thread takes Results; main takes the rest
    if len(rows(f, ev.RESULT_PUT)):
        iv = _first_leave(rows(f, ev.RESULT_PUT), taken, ["epoch", "batch"])
        stale = iv[iv["end_s"].isna()].assign(epoch=lambda t: t["epoch"] + 1, t_s=lambda t: t["start_s"])
        drained = _first_leave(stale, taken, ["epoch", "batch"])  # logged under the next epoch (see above)
        iv.loc[iv["end_s"].isna(), "end_s"] = drained["end_s"].to_numpy()
        out["result_queue"] = iv
    if len(rows(f, ev.PIN_END)) and len(rows(f, ev.RESULT_PUT)):
        out["data_queue"] = _first_leave(rows(f, ev.PIN_END), received[received["queue"] == "data_queue"],
                                         ["epoch", "batch"])
    queue_gone = pd.concat([main_exits["t_s"], rows(f, ev.EPOCH_BEGIN)["t_s"]])  # shut down, or drained
    for name in ("result_queue", "data_queue"):
        if name in out:
            iv = out[name]
            missing = iv["end_s"].isna()
            iv.loc[missing, "end_s"] = _first_after(queue_gone, iv.loc[missing, "start_s"])

    if len(rows(f, ev.REORDER_PARK)):
        out["reorder"] = _first_leave(rows(f, ev.REORDER_PARK), rows(f, ev.REORDER_RELEASE), ["epoch", "batch"])
    if len(puts):
        # Main hands a batch over (and only then sends the next task) on arrival, or on release if parked.
        parked = rows(f, ev.REORDER_PARK)[["epoch", "batch"]].drop_duplicates()
        direct = received.merge(parked, on=["epoch", "batch"], how="left", indicator=True)
        direct = direct[direct["_merge"] == "left_only"]
        out["outstanding"] = _first_leave(puts, pd.concat([rows(f, ev.REORDER_RELEASE), direct]), ["epoch", "batch"])
    for name in ("reorder", "outstanding"):
        if name in out:
            iv = out[name]
            missing = iv["end_s"].isna()
            iv.loc[missing, "end_s"] = _first_after(epoch_marks, iv.loc[missing, "start_s"])
    return out


def queue_depths(frame: pd.DataFrame) -> pd.DataFrame:
    """A step series per queue: ``t_s, queue, depth`` — the depth from ``t_s`` until the queue's next row.

    Each queue starts at depth 0 at the start of the trace. Queues: ``index_queue[k]``, ``result_queue``,
    ``data_queue`` (pin stage), ``reorder`` and ``outstanding`` (see the module docstring).
    """
    f = normal(frame)
    start = float(f["t_s"].min()) if len(f) else 0.0
    parts = []
    for name, iv in _intervals(f).items():
        ups = pd.DataFrame({"t_s": iv["start_s"], "delta": 1})
        downs = pd.DataFrame({"t_s": iv["end_s"].dropna(), "delta": -1})
        steps = pd.concat([ups, downs]).sort_values(["t_s", "delta"], kind="stable")  # leave before enter
        steps = pd.concat([pd.DataFrame({"t_s": [start], "delta": [0]}), steps], ignore_index=True)
        steps["depth"] = steps["delta"].cumsum().astype("int64")
        steps = steps.drop_duplicates("t_s", keep="last")  # one depth per instant
        parts.append(steps.assign(queue=name)[DEPTH_COLUMNS])
    if not parts:
        return pd.DataFrame(columns=DEPTH_COLUMNS)
    return pd.concat(parts, ignore_index=True)


def intervals_where(series: pd.DataFrame, test, end: float) -> list[tuple[float, float]]:
    """Intervals over which a step series (``t_s, depth``; the depth holds until the next row, the last
    until ``end``) passes ``test``; touching intervals are merged."""
    t, d = series["t_s"].to_list(), series["depth"].to_list()
    out = []
    for i, depth in enumerate(d):
        hi = t[i + 1] if i + 1 < len(t) else end
        if test(depth) and hi > t[i]:
            if out and out[-1][1] == t[i]:
                out[-1] = (out[-1][0], hi)
            else:
                out.append((t[i], hi))
    return out


def _intersect(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Intersection of two sorted lists of disjoint intervals."""
    i = j = 0
    out = []
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def worker_utilisation(frame: pd.DataFrame) -> pd.DataFrame:
    """Per worker process: how its life split between start-up, work and waiting.

    Columns: ``pid, worker, epoch, startup_s`` (``worker_start`` → ``worker_ready``), ``lifetime_s``
    (ready → exit), ``busy_s`` (holding a task), ``idle_s``, ``capped_idle_s`` (idle with an empty index
    queue while the outstanding tasks were at the ``prefetch_factor * num_workers`` cap: the worker
    could have worked but the main process had not consumed enough to send more; NaN when the cap is
    unknown), ``busy_fraction`` and ``capped_idle_fraction`` (both of the lifetime).
    """
    cap, f = prefetch_cap(frame), normal(frame)
    procs = worker_processes(f)
    tasks = worker_tasks(f, procs=procs)
    idle = idle_intervals(f, procs=procs, tasks=tasks)
    depths, end = queue_depths(f), trace_end(f)
    outstanding = depths[depths["queue"] == "outstanding"]
    at_cap = intervals_where(outstanding, lambda d: d >= cap, end) if cap == cap else None
    out = []
    for p in procs.itertuples():
        lo = p.ready_s if not math.isnan(p.ready_s) else p.first_s
        lifetime = p.end_s - lo
        mine = tasks[tasks["pid"] == p.pid]
        busy = float((mine["end_s"].clip(upper=p.end_s) - mine["start_s"]).clip(lower=0).sum())
        gaps = idle[idle["pid"] == p.pid]
        gaps = list(zip(gaps["start_s"], gaps["end_s"]))
        capped = math.nan
        if at_cap is not None:
            queue = depths[depths["queue"] == f"index_queue[{p.worker}]"]
            empty = intervals_where(queue, lambda d: d == 0, end) if len(queue) else [(lo, p.end_s)]
            capped = sum(b - a for a, b in _intersect(_intersect(gaps, at_cap), empty))
        out.append({"pid": p.pid, "worker": p.worker, "epoch": p.epoch, "startup_s": p.ready_s - p.start_s,
                    "lifetime_s": lifetime, "busy_s": busy, "idle_s": float(sum(b - a for a, b in gaps)),
                    "capped_idle_s": capped,
                    "busy_fraction": busy / lifetime if lifetime > 0 else math.nan,
                    "capped_idle_fraction": capped / lifetime if lifetime > 0 else math.nan})
    cols = ["pid", "worker", "epoch", "startup_s", "lifetime_s", "busy_s", "idle_s", "capped_idle_s",
            "busy_fraction", "capped_idle_fraction"]
    return pd.DataFrame(out, columns=cols)
