"""The code that runs inside one rank process: join the group, build the rank's loader, record it, save it.

Twin of the body of a ``torch.multiprocessing.spawn`` target (``main_worker(rank, ...)``). The parent
side — starting ranks, waiting, stopping, merging — is :mod:`loaderlab.trace.ranks.launch`. Messages that cross
from the parent (:class:`RankJob`) and back (:class:`RankFailure`, written as a pickle file) are named
dataclasses. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import datetime
import inspect
import os
import pickle
import queue
import time
import traceback
from dataclasses import dataclass
from typing import Any, Callable

import pandas as pd
import torch
import torch.distributed as dist
import torch.utils.data

from ...engine.loader import DataLoader
from ..core.frame import time_sorted
from ..core.run import as_run, Run, to_frame
from ..files.io import save_trace
from ..recording.recorder import record
from .samplers import epoch_sampler, sampler_settings

HOST = "127.0.0.1"
RENDEZVOUS_TIMEOUT_S = 120.0  # the longest a rank waits for the others (store, group, collectives)


@dataclass(frozen=True)
class RankJob:
    """Everything one rank needs (crosses the process boundary: every field is picklable, the queue while
    the ranks are being started)."""

    factory: Callable[..., Any]  # top-level: factory(rank, world_size) or factory() -> DataLoader
    world_size: int
    ports: Any  # a multiprocessing Queue: rank 0 puts its store's port there once for every other rank
    folder: str
    epochs: int = 1
    max_batches: int | None = None
    set_epoch: bool = True
    consumer: Callable[[Any], Any] | None = None  # top-level; called with each batch inside the rank
    sample_info: Callable[[Any, Any], tuple[Any, int]] | None = None
    timeout_s: float = 60.0


@dataclass(frozen=True)
class RankFailure:
    """A rank that raised (or died): written by the rank as a pickle, read by the parent."""

    rank: int
    kind: str  # the exception's type name ("ValueError"), or "ProcessExited" / "Timeout"
    message: str
    traceback: str = ""
    t_ns: int = 0  # when it was caught (time.monotonic_ns), to tell the first failure from its echoes

    def line(self) -> str:
        return f"rank {self.rank} failed: {self.kind}: {self.message}" if self.message else f"rank {self.rank} failed: {self.kind}"


def failure_path(folder: str, rank: int) -> str:
    return os.path.join(folder, f"rank{rank}.failure.pickle")


def trace_path(folder: str, rank: int) -> str:
    return os.path.join(folder, f"rank{rank}.json")


def call_factory(factory: Callable[..., Any], rank: int, world_size: int) -> Any:
    """``factory(rank, world_size)``, or ``factory()`` when it takes no arguments (after init_process_group,
    a ``DistributedSampler`` finds rank and world size itself)."""
    try:
        inspect.signature(factory).bind(rank, world_size)
    except TypeError:
        return factory()
    except ValueError:  # no signature to inspect: the two-argument form
        pass
    return factory(rank, world_size)



def record_rank(loader: Any, job: RankJob) -> pd.DataFrame:
    """One rank's recording: epoch by epoch, with ``set_epoch(epoch)`` first when ``job.set_epoch``."""
    sampler = epoch_sampler(loader)
    frames = []
    for epoch in range(job.epochs):
        if job.set_epoch and sampler is not None:
            sampler.set_epoch(epoch)
        frame = record(loader, 1, max_batches=job.max_batches, consumer=job.consumer, sample_info=job.sample_info)
        frame["epoch"] = epoch  # a stock torch loader's clone counts from 0 on every call
        frames.append(frame)
    merged = time_sorted(pd.concat(frames, ignore_index=True))
    merged["t_s"] = (merged["t_ns"] - merged["t_ns"].iloc[0]) / 1e9 if len(merged) else merged["t_s"]
    sources = as_run(frames[0]).extra.get("label_sources")  # the dataset's labels, the sampler (issue 35)
    return to_frame(Run(merged, loader=as_run(frames[0]).loader, epochs=job.epochs,
                        extra={"sampler": sampler_settings(sampler), **({"label_sources": sources} if sources else {})}))


def _port(job: RankJob, timeout_s: float) -> int:
    try:
        return job.ports.get(timeout=timeout_s)
    except queue.Empty:
        raise TimeoutError(f"rank 0 did not start the process group's store within {timeout_s:g} s") from None


def rank_main(rank: int, job: RankJob) -> None:
    """The rank process: join the group, build this rank's loader, record it, save the trace.

    Called by torch's launcher as ``rank_main(rank, job)``. Any exception becomes a :class:`RankFailure`
    file and exit status 1 (``SystemExit``, so torch's wrapper writes no second error file).
    """
    store = None
    try:
        timeout = datetime.timedelta(seconds=min(job.timeout_s, RENDEZVOUS_TIMEOUT_S))
        if rank == 0:  # port 0: the OS picks a free port, with no race; the others learn it from the pipe
            store = dist.TCPStore(HOST, 0, job.world_size, is_master=True, timeout=timeout, wait_for_workers=False)
            for _ in range(job.world_size - 1):
                job.ports.put(store.port)
        else:
            store = dist.TCPStore(HOST, _port(job, timeout.total_seconds()), job.world_size, is_master=False,
                                  timeout=timeout)
        dist.init_process_group("gloo", store=store, rank=rank, world_size=job.world_size, timeout=timeout)
        loader = call_factory(job.factory, rank, job.world_size)
        if not isinstance(loader, (DataLoader, torch.utils.data.DataLoader)):
            name = getattr(job.factory, "__qualname__", repr(job.factory))
            raise TypeError(f"{name}(rank={rank}, world_size={job.world_size}) returned {type(loader).__name__}, "
                            f"not a DataLoader")
        dist.barrier()  # every rank starts recording together
        frame = record_rank(loader, job)
        save_trace(frame, trace_path(job.folder, rank))
    except Exception as exc:
        failure = RankFailure(rank, type(exc).__name__, str(exc).strip(), traceback.format_exc(), time.monotonic_ns())
        with open(failure_path(job.folder, rank), "wb") as f:
            pickle.dump(failure, f)
        raise SystemExit(1) from None
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
        del store
