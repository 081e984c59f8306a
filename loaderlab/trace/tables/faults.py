"""Where a run failed or got stuck, read from its (partial) trace and the loader's own message.

Twin of nothing in torch, which names the worker ("Caught ValueError in DataLoader worker process 1") or
the pid ("DataLoader worker (pid(s) 4242) exited unexpectedly") but never the sample. Here:

- ``failure_site(frame, error)`` → a ``Site``: the worker, and the dataset index whose fetch ended in an
  exception (its ``fetch_end`` carries the exception's name), or the batch whose collate never ended, or
  — for a dead worker, whose unsent events died with it — the task it was working on (sent to its index
  queue, never received back) and the sample it was seen fetching, with its pid and signal;
- ``stop_report(frame, reason, stopped_at_ns)`` → the run's :class:`~loaderlab.trace.core.run.Stop` (``Run.stop``): why
  the run was stopped (a named type) and, for each worker stuck inside a fetch, its last event, how long
  before the stop, and its Python stack (the ``stack`` event it sent when asked).

Pure functions over the event table; knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import re
import signal
from dataclasses import dataclass

import pandas as pd

from ...engine import events as ev
from ...engine.interrupt import UnsentResult
from ..core.frame import arg_column
from ..core.lookups import batch_indices, main_pid, normal
from ..core.run import Stop, stop_of, StuckWorker

WORKER_PID = arg_column(ev.WORKER_START, "worker_pid")
SAMPLES = arg_column(ev.FETCH_END, "samples")  # 0: the sample raised
QUEUE_WORKER = arg_column(ev.INDEX_PUT, "queue_worker")  # k of index_queue[k]
EXITCODE = arg_column(ev.WORKER_EXIT, "exitcode")

CAUGHT_RE = re.compile(r"Caught (\w+) in DataLoader worker process (\d+)\.")
EXITED_RE = re.compile(r"DataLoader worker \(pid\(s\) ([\d, ]+)\) exited unexpectedly")
SIGNAL_RE = re.compile(r"\(pid (\d+)\) is killed by signal: ([^.]+)\.")
EXIT_CODE_RE = re.compile(r"\(pid (\d+)\) exited unexpectedly with exit code (-?\d+)")
OWN_KINDS = (ev.INDEX_GET, ev.FETCH_BEGIN, ev.FETCH_END, ev.COLLATE_BEGIN, ev.COLLATE_END, ev.RESULT_PUT,
             ev.WORKER_READY, ev.ERROR)  # what a worker says about its own progress


@dataclass(frozen=True)
class Site:
    """Where a run failed. ``what``: fetch (an index raised), collate, init (worker_init_fn), killed (the
    process died), unsent (a batch could not be pickled), timeout (torch's ``timeout``), other."""

    what: str
    worker: int | None = None  # -1: the main process (num_workers=0)
    index: int | None = None  # dataset index (stream position for iterables)
    task: int | None = None  # the batch's number in sampler order
    indices: str = ""  # the task's indices, as the sampler gave them
    pid: int | None = None
    signal: str = ""  # "Killed", or "exit code 3"
    unfinished: str = ""  # killed: every batch sent to the worker that never came back ("0, 2")


def site_sentence(site: Site) -> str:
    """The English headline: "worker 1 failed on index 37"."""
    who = "the main process" if site.worker == ev.MAIN_PROCESS else f"worker {site.worker}"
    pid = f" (pid {site.pid})" if site.pid is not None else ""
    if site.what == "fetch":
        return f"{who} failed on index {site.index}"
    if site.what == "collate":
        return f"{who} failed collating batch {site.task} (indices {site.indices})"
    if site.what == "init":
        return f"{who} failed in worker_init_fn"
    if site.what == "killed":
        where = f" while fetching index {site.index}" if site.index is not None else (
            f" with batch(es) {site.unfinished} unfinished" if site.unfinished else "")
        return f"{who}{pid} died ({site.signal or 'unknown cause'}){where}"
    if site.what == "unsent":
        return f"{who} could not send batch {site.task} (indices {site.indices}); torch would wait for it forever"
    if site.what == "timeout":
        return "no batch arrived within timeout"
    return "the loader failed"


def worker_pids(frame: pd.DataFrame) -> dict[int, int]:
    """{worker id: pid} of the workers' latest processes, from main's ``worker_start`` (its ``worker_pid``)."""
    f = normal(frame)
    starts = f[(f["kind"] == ev.WORKER_START) & (f[WORKER_PID] >= 0)]
    return {int(worker): int(pid) for worker, pid in zip(starts["worker"], starts[WORKER_PID])}


def task_indices(frame: pd.DataFrame, task: int | None, epoch: int | None = None) -> str:
    f = normal(frame)
    rows = f[(f["kind"] == ev.SAMPLER_YIELD) & (f["batch"] == task)]
    if epoch is not None:
        rows = rows[rows["epoch"] == epoch]
    if not len(rows):
        return ""
    indices = batch_indices(rows["indices"].iloc[-1], rows[arg_column(ev.SAMPLER_YIELD, "samples")].iloc[-1])
    return "" if indices is None else str(indices)


def in_flight(frame: pd.DataFrame, kind_begin: str = ev.FETCH_BEGIN, kind_end: str = ev.FETCH_END) -> pd.DataFrame:
    """``kind_begin`` rows with no matching end (same worker, epoch, batch, index): work never finished."""
    f = normal(frame)
    key = ["worker", "epoch", "batch", "index"]
    begins = f[f["kind"] == kind_begin]
    ends = f[f["kind"] == kind_end][key].drop_duplicates()
    merged = begins.merge(ends, on=key, how="left", indicator=True)
    return merged[merged["_merge"] == "left_only"].drop(columns="_merge")


def _exception_site(f: pd.DataFrame, worker: int) -> Site | None:
    failed = f[(f["kind"] == ev.FETCH_END) & (f["worker"] == worker) & (f[SAMPLES] == 0)]  # a sample that raised
    if len(failed):
        row = failed.iloc[-1]
        return Site("fetch", worker, int(row["index"]), int(row["batch"]),
                    task_indices(f, int(row["batch"]), int(row["epoch"])))
    open_collates = in_flight(f[f["worker"] == worker], ev.COLLATE_BEGIN, ev.COLLATE_END)
    if len(open_collates):
        row = open_collates.iloc[-1]
        return Site("collate", worker, None, int(row["batch"]), task_indices(f, int(row["batch"]), int(row["epoch"])))
    return None


def _outstanding_tasks(f: pd.DataFrame, worker: int) -> pd.DataFrame:
    """``epoch, batch`` of the tasks sent to ``worker`` that never came back (its results may die with it)."""
    sent = f[(f["kind"] == ev.INDEX_PUT) & (f[QUEUE_WORKER] == worker)][["epoch", "batch"]]
    back = f[f["kind"] == ev.RESULT_GET][["epoch", "batch"]].drop_duplicates()
    left = sent.merge(back, how="left", indicator=True)
    return left[left["_merge"] == "left_only"]


def failure_site(frame: pd.DataFrame, error: BaseException | str) -> Site:
    """Where the loader raised ``error`` (the exception, or its text), using the trace up to it."""
    f = normal(frame)
    text = str(error)
    caught = CAUGHT_RE.search(text)
    if caught:
        worker = int(caught.group(2))
        return _exception_site(f, worker) or Site("init", worker)
    exited = EXITED_RE.search(text)
    if exited:
        pid = int(exited.group(1).split(",")[0])
        cause = str(getattr(error, "__cause__", None) or "")
        killed = SIGNAL_RE.search(cause)
        code = EXIT_CODE_RE.search(cause)
        how = killed.group(2) if killed else (f"exit code {code.group(2)}" if code else "")
        worker = next((w for w, p in worker_pids(f).items() if p == pid), None)
        return _killed_site(f, worker, pid, how)
    if "DataLoader timed out after" in text:
        return Site("timeout")
    # A worker killed just after sending tensors makes the main process fail to receive them (torch's
    # EOFError / ConnectionResetError): main's worker_exit events still say who died and how.
    return _exception_site(f, ev.MAIN_PROCESS) or _killed_by_exit_code(f) or Site("other")


def _killed_site(f: pd.DataFrame, worker: int | None, pid: int | None, how: str) -> Site:
    if worker is None:
        return Site("killed", pid=pid, signal=how)
    fetching = in_flight(f[f["worker"] == worker])
    left = _outstanding_tasks(f, worker)
    index = int(fetching["index"].iloc[-1]) if len(fetching) else None
    task = int(fetching["batch"].iloc[-1]) if len(fetching) else None
    return Site("killed", worker, index, task, task_indices(f, task) if task is not None else "", pid, how,
                ", ".join(str(int(b)) for b in left["batch"]))


def _killed_by_exit_code(f: pd.DataFrame) -> Site | None:
    pids = worker_pids(f)
    exits = f[(f["kind"] == ev.WORKER_EXIT) & (f["pid"] == main_pid(f))]  # main's, not the worker's own goodbye
    exits = exits[(exits[EXITCODE] < 0) & (exits[EXITCODE] != ev.NO_EXITCODE)]
    if not len(exits):
        return None
    row = exits.iloc[0]
    number = -int(row[EXITCODE])
    try:
        how = signal.strsignal(number) or f"signal {number}"
    except ValueError:
        how = f"signal {number}"
    worker = int(row["worker"])
    return _killed_site(f, worker, pids.get(worker), how)


def unsent_site(frame: pd.DataFrame, reason: UnsentResult) -> Site:
    f = normal(frame)
    return Site("unsent", reason.worker, None, reason.task, task_indices(f, reason.task),
                worker_pids(f).get(reason.worker))


def stuck_workers(frame: pd.DataFrame, stopped_at_ns: int | None) -> list[dict]:
    """Workers inside a fetch (or collate) when the run stopped: where, since when, and their stack."""
    f = normal(frame)
    stop = int(stopped_at_ns if stopped_at_ns is not None else (f["t_ns"].max() if len(f) else 0))
    pids = worker_pids(f)
    out = []
    stuck = pd.concat([in_flight(f), in_flight(f, ev.COLLATE_BEGIN, ev.COLLATE_END)])
    for worker, rows in stuck[stuck["worker"] >= 0].groupby("worker"):
        worker = int(worker)
        first = rows.sort_values("t_ns").iloc[0]
        own = f[(f["worker"] == worker) & f["kind"].isin(OWN_KINDS) & (f["pid"] == pids.get(worker, -2))
                & (f["t_ns"] <= stop)]
        last = own.iloc[-1] if len(own) else first
        stacks = f[(f["kind"] == ev.STACK) & (f["worker"] == worker)]
        index = int(first["index"]) if first["kind"] == ev.FETCH_BEGIN else None
        out.append({"worker": worker, "pid": pids.get(worker), "index": index, "batch": int(first["batch"]),
                    "since_s": round((stop - int(first["t_ns"])) / 1e9, 3),
                    "last_event": str(last["kind"]), "last_index": int(last["index"]),
                    "last_ago_s": round((stop - int(last["t_ns"])) / 1e9, 3),
                    "stack": str(stacks["detail"].iloc[-1]) if len(stacks) else ""})
    return out


def stop_report(frame: pd.DataFrame, reason, stopped_at_ns: int | None) -> Stop:
    """The run's :class:`~loaderlab.trace.core.run.Stop` for the guard's ``reason`` (:func:`~loaderlab.trace.core.run.stop_of`: a time cap, the
    user's Stop, …) with its stuck workers (see :func:`stuck_workers`)."""
    return stop_of(reason, tuple(StuckWorker(**s) for s in stuck_workers(frame, stopped_at_ns)))
