"""Recording across ranks: N real processes in one ``torch.distributed`` process group, each recording its loader.

Twin of a ``torch.multiprocessing.spawn`` training script, parent side: ranks are started with torch's
own launcher (:func:`torch.multiprocessing.start_processes`) and run :func:`loaderlab.trace.ranks.process.rank_main`:
join a gloo process group on 127.0.0.1 (rank 0 hosts the ``TCPStore`` on a port the OS picks and sends
it to the others through a queue), build the rank's DataLoader with ``factory(rank, world_size)``, usually
over a ``DistributedSampler``, and run it with :func:`loaderlab.record` (calling ``sampler.set_epoch(epoch)``
before each epoch unless told not to). Each rank saves its trace to a temporary folder with
:mod:`loaderlab.trace.files.io`; the parent merges them into one table with a ``rank`` column and removes the folder.

Failure handling: a rank that raises writes a :class:`RankFailure` (rank, exception type, message,
traceback) and exits; the parent then stops every other rank together with its worker processes
(suspended first, so none can start another, then killed) and raises :class:`DistributedRunError`.
A run past ``timeout_s`` ends the same way. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import inspect
import multiprocessing
import os
import pickle
import shutil
import tempfile
import time
from multiprocessing.connection import wait
from typing import Any, Callable

import pandas as pd
import psutil
import torch.multiprocessing as tmp

from ..core.frame import time_sorted
from ..core.run import as_run, Run, to_frame
from ..files.io import load_trace
from .process import failure_path, rank_main, RankFailure, RankJob, trace_path

WORLD_SIZES = (2, 3, 4)
START_METHODS = ("fork", "spawn")
KILL_WAIT_S = 5.0  # how long the parent waits for a killed process to be gone


class DistributedRunError(RuntimeError):
    """A multi-rank run that did not finish: ``failure`` is the first cause, ``others`` any echoes, and
    ``killed_pids`` the processes (ranks and their workers) the parent had to kill."""

    def __init__(self, failure: RankFailure, others: tuple[RankFailure, ...] = (),
                 killed_pids: tuple[int, ...] = ()) -> None:
        detail = f"\n\n{failure.traceback.rstrip()}" if failure.traceback else ""
        super().__init__(failure.line() + detail)
        self.failure, self.others, self.killed_pids = failure, others, killed_pids


def _kill_trees(processes: list) -> tuple[int, ...]:
    """Stop every live rank process and all its descendants (workers); return the pids killed.

    A rank is suspended first, so that it cannot start another worker while its tree is collected. Ranks
    are killed and joined through multiprocessing (which must reap them itself to keep their exit codes);
    psutil only kills and waits for their descendants.
    """
    ranks, descendants = [], []
    for process in processes:
        if not process.is_alive():
            continue
        try:
            root = psutil.Process(process.pid)
            root.suspend()
            descendants += root.children(recursive=True)
        except psutil.NoSuchProcess:
            continue
        ranks.append(process)
    for victim in descendants:
        try:
            victim.kill()
        except psutil.NoSuchProcess:
            pass
    for process in ranks:
        process.kill()
    for process in ranks:
        process.join(KILL_WAIT_S)
    psutil.wait_procs(descendants, timeout=KILL_WAIT_S)
    return tuple(p.pid for p in ranks) + tuple(v.pid for v in descendants)


def _read_failure(folder: str, rank: int, process: Any) -> RankFailure:
    try:
        with open(failure_path(folder, rank), "rb") as f:
            return pickle.load(f)
    except (OSError, pickle.UnpicklingError, EOFError):
        code = process.exitcode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        return RankFailure(rank, "ProcessExited", f"the rank process ended with {how} without reporting an error",
                           t_ns=time.monotonic_ns())


def _join(context: Any, folder: str, timeout_s: float) -> None:
    """Wait for every rank; on the first failure (or the deadline) kill the rest and raise."""
    pending = dict(context.sentinels)  # sentinel → rank
    processes = context.processes
    deadline = time.monotonic() + timeout_s
    failed: list[int] = []
    while pending and not failed:
        ready = wait(list(pending), timeout=max(0.0, deadline - time.monotonic()))
        if not ready:
            late = sorted(pending.values())
            killed = _kill_trees(processes)
            failure = RankFailure(late[0], "Timeout", f"ranks {late} were still running after {timeout_s:g} s "
                                                      f"(timeout_s={timeout_s:g}); they were stopped")
            raise DistributedRunError(failure, killed_pids=killed)
        for sentinel in ready:
            rank = pending.pop(sentinel)
            processes[rank].join()
            if processes[rank].exitcode != 0:
                failed.append(rank)
    if failed:
        killed = _kill_trees(processes)
        failures = [_read_failure(folder, r, processes[r]) for r in range(len(processes))
                    if r in failed or os.path.exists(failure_path(folder, r))]
        # The cause comes first: a rank that died on its own without a word (a signal), else the earliest
        # exception; the others' errors ("Connection closed by peer") are its echoes.
        failures.sort(key=lambda f: (f.kind != "ProcessExited" or f.rank not in failed, f.t_ns))
        raise DistributedRunError(failures[0], tuple(failures[1:]), killed)


def merge_rank_frames(frames: list[pd.DataFrame]) -> pd.DataFrame:
    """Rank traces → one table sorted by ``t_ns`` (one clock for every process), ``t_s`` from the first
    event of any rank, and a ``rank`` column (the last). Its run (:func:`~loaderlab.trace.core.run.as_run`; ``attrs`` in the
    file): rank 0's ``loader`` settings and ``epochs``, and in ``extra`` the ``world_size`` and each rank's
    DistributedSampler settings in ``samplers``."""
    parts = [f.assign(rank=rank) for rank, f in enumerate(frames)]
    merged = time_sorted(pd.concat(parts, ignore_index=True))
    start = int(merged["t_ns"].iloc[0]) if len(merged) else 0
    merged["t_s"] = (merged["t_ns"] - start) / 1e9
    merged["rank"] = merged["rank"].astype("int64")
    runs = [as_run(f) for f in frames]
    extra = {"world_size": len(frames), "samplers": [r.extra.get("sampler") or {} for r in runs]}
    if runs[0].extra.get("label_sources"):  # rank 0's: every rank's dataset is the same (issue 35)
        extra["label_sources"] = runs[0].extra["label_sources"]
    return to_frame(Run(merged, loader=runs[0].loader, epochs=runs[0].epochs, extra=extra))


def check_world_size(world_size: Any) -> None:
    if not isinstance(world_size, int) or isinstance(world_size, bool) or world_size not in WORLD_SIZES:
        raise ValueError(f"world_size must be {WORLD_SIZES[0]}–{WORLD_SIZES[-1]}, but got world_size={world_size!r}")


def check_factory(factory: Any) -> None:
    """``factory`` must be callable as ``factory(rank, world_size)`` or as ``factory()`` (the form a training
    script writes: a ``DistributedSampler`` reads rank and world size from the process group)."""
    name = getattr(factory, "__qualname__", type(factory).__name__)
    if not callable(factory):
        raise TypeError(f"factory must be a function factory(rank, world_size) or factory() that returns a "
                        f"DataLoader, but got a {type(factory).__name__}")
    try:
        signature = inspect.signature(factory)
    except ValueError:  # no signature to inspect (a builtin): let the rank find out
        return
    for args in ((0, 1), ()):
        try:
            signature.bind(*args)
            return
        except TypeError:
            pass
    raise TypeError(f"factory must accept two arguments, factory(rank, world_size), or none, factory(), but "
                    f"{name}{signature} does neither")


def record_ranks(factory: Callable[[int, int], Any], world_size: int, epochs: int = 1, *,
                 max_batches: int | None = None, set_epoch: bool = True, consumer: Callable[[Any], Any] | None = None,
                 sample_info: Callable[[Any, Any], tuple[Any, int]] | None = None, timeout_s: float = 60.0,
                 start_method: str = "fork") -> pd.DataFrame:
    """Run ``world_size`` ranks in a gloo process group and return their merged trace (a ``rank`` column).

    ``factory(rank, world_size)`` (a top-level function or picklable object) runs in each rank after
    ``init_process_group`` and returns that rank's DataLoader. ``set_epoch``: call the sampler's
    ``set_epoch(epoch)`` before each epoch, as a training loop should. ``consumer(batch)`` runs in the rank
    for each batch (it may use ``torch.distributed`` collectives). Raises :class:`DistributedRunError` when
    a rank fails or the run passes ``timeout_s``; no rank or worker process outlives the call.
    """
    check_world_size(world_size)
    check_factory(factory)
    if not isinstance(epochs, int) or isinstance(epochs, bool) or epochs < 1:
        raise ValueError(f"epochs should be a positive integer, but got epochs={epochs!r}")
    if start_method not in START_METHODS:
        raise ValueError(f"start_method must be one of {', '.join(START_METHODS)}, but got {start_method!r}")
    if not timeout_s > 0:
        raise ValueError(f"timeout_s must be positive, but got timeout_s={timeout_s!r}")
    # No store (and no thread) in the parent: a thread busy in C++ while the parent forks can leave a
    # lock held in the child for good. Rank 0 hosts the store and sends its port through this pipe.
    ports = multiprocessing.get_context(start_method).Queue()
    # the launching process's id in the name: whoever checks for folders left behind can tell its own
    folder = tempfile.mkdtemp(prefix=f"loaderlab-ranks-{os.getpid()}-")
    context = None
    try:
        job = RankJob(factory, world_size, ports, folder, epochs, max_batches, set_epoch, consumer,
                      sample_info, timeout_s)
        context = tmp.start_processes(rank_main, args=(job,), nprocs=world_size, join=False,
                                      start_method=start_method)
        _join(context, folder, timeout_s)
        return merge_rank_frames([load_trace(trace_path(folder, rank)) for rank in range(world_size)])
    finally:
        if context is not None:
            _kill_trees(context.processes)  # no-op when every rank has exited
            for name in context.error_files:  # torch's launcher leaves its error files behind
                if name and os.path.exists(name):
                    os.unlink(name)
        ports.close()
        ports.join_thread()
        shutil.rmtree(folder, ignore_errors=True)
