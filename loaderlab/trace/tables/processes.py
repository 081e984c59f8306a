"""The worker processes of a trace and what each did: its life, its tasks, the time it held none.

Twin of nothing in torch (its workers keep no such record). Pure functions over the events table, built on the
lookups of :mod:`loaderlab.trace.core.lookups` and the numpy grouping of :mod:`loaderlab.trace.core.groups`: a big trace's
worker rows are grouped by position, never copied into a table of their own. Knows the event vocabulary and
pandas; nothing of plotly or streamlit.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.cache import shared
from ..core.frame import arg_column
from ..core.groups import firsts, key_ids, lasts
from ..core.lookups import has_kind, main_pid, normal, positions, rows, trace_end


def _first_own_t(f: pd.DataFrame, kind: str, worker: np.ndarray, pid: np.ndarray, mp: int | None) -> dict:
    """Per worker pid, the ``t_s`` of its own first event of ``kind``."""
    at = positions(f, kind)
    at = at[(worker[at] >= 0) & (pid[at] != mp)]
    out: dict = {}
    for p, t in zip(pid[at].tolist(), f["t_s"].to_numpy()[at].tolist()):
        out.setdefault(p, t)
    return out


@shared
def worker_processes(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per worker process (a worker restarted each epoch is a new process, with a new pid).

    Columns: ``pid, worker, epoch, start_s`` (main started it), ``ready_s`` (seeded, ``worker_init_fn`` done),
    ``first_s, last_s`` (its own first and last events; a stack it was asked for does not count),
    ``last_kind``, ``exit_s`` (its own ``worker_exit``; NaN if it never said goodbye), ``main_exit_s`` (main
    saw it gone), ``end_s`` (the first of the two exits, else the end of the trace).
    """
    f = normal(frame)
    mp = main_pid(f)
    cols = ["pid", "worker", "epoch", "start_s", "ready_s", "first_s", "last_s", "last_kind", "exit_s",
            "main_exit_s", "end_s"]
    pid, worker = f["pid"].to_numpy(), f["worker"].to_numpy()
    own = np.flatnonzero((worker >= 0) & (pid != mp))  # the workers' own rows (positions; no copy of them)
    if not len(own):
        return pd.DataFrame(columns=cols)
    starts = rows(f, ev.WORKER_START)
    starts = starts.assign(wpid=starts[arg_column(ev.WORKER_START, "worker_pid")])
    starts = starts.drop_duplicates("wpid")  # the first start named with that pid
    main_exits = rows(f, ev.WORKER_EXIT)
    main_exits = main_exits[main_exits["pid"] == mp]
    code, pids = pd.factorize(pid[own])  # one code per process, in order of its first row
    first, last_any = firsts(code, own, len(pids)), lasts(code, own, len(pids))
    # The epoch main started it in: a worker's own events before its first task say epoch 0 (engine quirk).
    tasked = f["batch"].to_numpy()[own] >= 0
    task_row = firsts(code[tasked], own[tasked], len(pids))
    ready, exit_ = _first_own_t(f, ev.WORKER_READY, worker, pid, mp), _first_own_t(f, ev.WORKER_EXIT, worker, pid, mp)
    # A stack is sent from a signal handler when asked, even by a worker stuck inside __getitem__: it is
    # no sign of progress, so it is not the worker's "last event" (unless it is all the worker sent).
    stacks = positions(f, ev.STACK)
    if len(stacks):
        acting = ~np.isin(own, stacks)
        acts = lasts(code[acting], own[acting], len(pids))
    else:
        acts = last_any
    start_of = starts.set_index("wpid")
    end_of_trace = trace_end(f)
    t_s, epochs, kinds = f["t_s"].to_numpy(), f["epoch"].to_numpy(), f["kind"]
    out = []
    for k, p in enumerate(pids.tolist()):
        w = int(worker[first[k]])
        epoch = int(start_of.at[p, "epoch"] if p in start_of.index
                    else epochs[task_row[k] if task_row[k] >= 0 else first[k]])
        first_s = float(t_s[first[k]])
        gone = main_exits[(main_exits["worker"] == w) & (main_exits["t_s"] >= first_s)]["t_s"]
        exit_s = float(exit_.get(p, math.nan))
        main_exit_s = float(gone.iloc[0]) if len(gone) else math.nan
        end_s = np.nanmin([exit_s, main_exit_s]) if not (math.isnan(exit_s) and math.isnan(main_exit_s)) \
            else end_of_trace
        last = acts[k] if acts[k] >= 0 else last_any[k]
        out.append({"pid": int(p), "worker": w, "epoch": epoch,
                    "start_s": float(start_of.at[p, "t_s"]) if p in start_of.index else math.nan,
                    "ready_s": float(ready.get(p, math.nan)), "first_s": first_s,
                    "last_s": float(t_s[last]), "last_kind": str(kinds.iat[last]),
                    "exit_s": exit_s, "main_exit_s": main_exit_s, "end_s": float(end_s)})
    return pd.DataFrame(out, columns=cols).sort_values(["first_s"]).reset_index(drop=True)


@shared(at_hand=("procs",))
def worker_tasks(frame: pd.DataFrame, *, procs: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per task a worker process worked on: ``pid, worker, epoch, batch, start_s, end_s, open``.

    A task runs from the worker taking it (``index_get``, else its first fetch) to putting its result
    (``result_put``, else its last event). A task not finished (no ``result_put``; in a trace with none,
    as from a stock torch DataLoader, no ``collate_end``) is still running (``open``): it ends where its
    process ends. ``procs``: :func:`worker_processes` of the same frame, if already at hand.
    """
    f = normal(frame)
    mp = main_pid(f)
    kinds = (ev.INDEX_GET, ev.FETCH_BEGIN, ev.FETCH_END, ev.COLLATE_BEGIN, ev.COLLATE_END, ev.RESULT_PUT)
    keys = ["pid", "worker", "epoch", "batch"]
    values = {k: f[k].to_numpy() for k in keys}
    at = positions(f, *kinds)
    at = at[(values["worker"][at] >= 0) & (values["pid"][at] != mp) & (values["batch"][at] >= 0)]
    cols = ["pid", "worker", "epoch", "batch", "start_s", "end_s", "open"]
    if not len(at):
        return pd.DataFrame(columns=cols)
    code = key_ids({k: v[at] for k, v in values.items()}, keys)  # a task: in order of its first row
    groups = int(code.max()) + 1
    first, last = firsts(code, at, groups), lasts(code, at, groups)
    t_s = f["t_s"].to_numpy()  # sorted: a task's first row has its smallest time, its last row its largest
    out = pd.DataFrame({**{k: v[first] for k, v in values.items()}, "start_s": t_s[first], "end_s": t_s[last]})
    # A task is finished by its result_put; in a trace without result_puts (torch's), by its collate_end.
    finish = next((k for k in (ev.RESULT_PUT, ev.COLLATE_END) if has_kind(f, k)), None)
    if finish is None:
        out["open"] = False
    else:
        done = positions(f, finish)
        done = done[(values["worker"][done] >= 0) & (values["pid"][done] != mp) & (values["batch"][done] >= 0)]
        done = pd.DataFrame({k: values[k][done] for k in ("pid", "epoch", "batch")}).drop_duplicates()
        out = out.merge(done.assign(_done=True), on=["pid", "epoch", "batch"], how="left")
        out["open"] = out["_done"].isna()
    ends = (worker_processes(f) if procs is None else procs).set_index("pid")["end_s"]
    out.loc[out["open"], "end_s"] = out.loc[out["open"], "pid"].map(ends)
    return out[cols].sort_values(["start_s"]).reset_index(drop=True)


def _gaps(intervals: pd.DataFrame, lo: float, hi: float) -> list[tuple[float, float]]:
    """The parts of [lo, hi] that no interval (start_s, end_s) covers."""
    gaps, cursor = [], lo
    for start, end in sorted(zip(intervals["start_s"], intervals["end_s"])):
        if start > cursor:
            gaps.append((cursor, min(start, hi)))
        cursor = max(cursor, end)
    if hi > cursor:
        gaps.append((cursor, hi))
    return [(a, b) for a, b in gaps if b > a]


@shared(at_hand=("procs", "tasks"))
def idle_intervals(frame: pd.DataFrame, *, procs: pd.DataFrame | None = None,
                   tasks: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per worker process, the time between ``worker_ready`` and its end when it held no task.

    ``procs`` / ``tasks``: :func:`worker_processes` / :func:`worker_tasks` of the same frame, if at hand.
    """
    f = normal(frame)
    procs = worker_processes(f) if procs is None else procs
    tasks = worker_tasks(f, procs=procs) if tasks is None else tasks
    out = []
    for p in procs.itertuples():
        lo = p.ready_s if not math.isnan(p.ready_s) else p.first_s
        for a, b in _gaps(tasks[tasks["pid"] == p.pid], lo, p.end_s):
            out.append({"pid": p.pid, "worker": p.worker, "epoch": p.epoch, "start_s": a, "end_s": b})
    return pd.DataFrame(out, columns=["pid", "worker", "epoch", "start_s", "end_s"])
