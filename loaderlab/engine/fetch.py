"""Turning one task's indices into one collated batch.

Twin of ``torch/utils/data/_utils/fetch.py`` (``_MapDatasetFetcher``, ``_IterableDatasetFetcher``):
same calls into the dataset in the same order (``__getitems__`` when the dataset has one, ``StopIteration``
when an iterable replica runs dry, ``drop_last`` on a short final batch). Runs in a worker process or,
with ``num_workers=0``, in the main process; it does not know which, nor what the queues look like.

With a tracer that is enabled, each sample is bracketed by ``fetch_begin`` / ``fetch_end`` and the
collate call by ``collate_begin`` / ``collate_end``. With tracing off the plain path is the same list
comprehension torch runs, so tracing off costs nothing here.
"""

from __future__ import annotations

import operator
import os
import threading
import time

try:
    import resource
    _RUSAGE_THREAD = getattr(resource, "RUSAGE_THREAD", None)  # Linux
except ImportError:  # no resource module (Windows)
    _RUSAGE_THREAD = None
from functools import partial
from typing import Any, Callable, Iterable

from . import events as ev
from .fingerprint import fingerprint


_usage_at_start: tuple[int, int, int, int] | None = None  # this worker thread's usage when its batch began
_schedstat: tuple[int, int] | None = None  # (native thread id, open fd of its /proc schedstat), per process


def runqueue_ns() -> int:
    """How long this thread has waited runnable for a core (ns, Linux's per-thread schedstat), -1 if unknown.
    One ``pread`` (~1 µs) of a file opened once per thread; a forked worker opens its own."""
    global _schedstat
    tid = threading.get_native_id()
    try:
        if _schedstat is None or _schedstat[0] != tid:
            _schedstat = (tid, os.open(f"/proc/self/task/{tid}/schedstat", os.O_RDONLY))
        return int(os.pread(_schedstat[1], 64, 0).split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def body_clocks() -> dict[str, int]:
    """The main thread's clocks as a loop body begins or ends (``consumer_begin``/``consumer_end``'s fields):
    ``arg0`` its run-queue clock (:func:`runqueue_ns`), ``arg1`` its minor page faults (a body that reads a
    batch a worker put in shared memory maps its pages in: -1 where unknown), ``arg2`` its CPU clock (ns),
    ``arg3`` the process's CPU clock (ns): beside the main thread's it tells how many cores the body kept busy
    (torch's intra-op threads run a step's ops on several; a worker added beside them takes one of them)."""
    faults = resource.getrusage(_RUSAGE_THREAD).ru_minflt if _RUSAGE_THREAD is not None else ev.NO_ARG
    return {"arg0": runqueue_ns(), "arg1": faults, "arg2": time.thread_time_ns(), "arg3": time.process_time_ns()}


def _thread_usage() -> tuple[int, int, int, int]:
    # rusage's CPU times may move in whole scheduler ticks: the thread's and process's CPU clocks are exact
    r = resource.getrusage(_RUSAGE_THREAD)
    return time.thread_time_ns(), r.ru_nvcsw, runqueue_ns(), time.process_time_ns()


def start_batch_usage(worker: int) -> None:
    """Note this thread's usage as a worker's batch begins (see :func:`batch_usage`)."""
    global _usage_at_start
    _usage_at_start = _thread_usage() if worker >= 0 and _RUSAGE_THREAD is not None else None


def batch_usage(worker: int) -> dict[str, int]:
    """``collate_end``'s numbers in a worker, since its batch began: this thread's CPU time (ns), its voluntary
    context switches, how long it waited runnable for a core (ns; -1 where the system does not say), and the
    CPU time (ns) of the worker's other threads meanwhile (its queue's sending thread, the event flusher).
    A batch that never gave the core up voluntarily (no sleep, no I/O, no lock) but took longer than its CPU
    time waited for a core; one that gave it up while its own process's other threads ran may have waited
    for them (the GIL). Replay reads each batch's cost from these (``trace.replay_costs``)."""
    if worker < 0 or _usage_at_start is None:
        return {}
    cpu, voluntary, runqueue, process = _thread_usage()
    waited = runqueue - _usage_at_start[2] if runqueue >= 0 and _usage_at_start[2] >= 0 else -1
    return {"arg0": cpu - _usage_at_start[0], "arg1": voluntary - _usage_at_start[1], "arg2": waited,
            "arg3": max(0, (process - _usage_at_start[3]) - (cpu - _usage_at_start[0]))}


def traced_fetch(tracer: ev.Tracer, worker: int, get: Callable, indices: Iterable, batch: int, epoch: int,
                 stop_on_exhaustion: bool = False, identify: Callable | None = None) -> tuple[list, bool]:
    """``[get(i) for i in indices]``, timing each sample; returns (data, exhausted).

    The batch's samples go to the tracer once, at its end, as one flat list ``[index, t0, t1, …]``: per
    sample this costs two clock reads and three list appends, and no object that outlives the batch.
    ``tracer.inflight`` is ``(epoch, batch, that list, labels, lengths, fingerprints)`` while the batch is fetched: a
    sample in progress is the list's trailing ``index, t0`` pair, so a worker's flusher can report a sample
    that is taking long before it ends (with the batch's finished samples, labels included). With ``stop_on_exhaustion`` (iterable replicas) a ``StopIteration`` ends the batch early
    instead of propagating. ``identify(sample) -> int`` (an IterableDataset's :func:`.fingerprint.fingerprint`)
    names each sample by its content: a sample without an index has no other identity.
    """
    start_batch_usage(worker)
    now, info = time.monotonic_ns, tracer.sample_info
    spans: list = []
    labels = lengths = failed = None
    if info is not None:
        labels, lengths = [], []
    data: list = []
    append = spans.append
    prints = [] if identify is not None else None
    tracer.inflight = (epoch, batch, spans, labels, lengths, prints)
    try:
        for i in indices:
            append(i)
            append(now())
            try:
                sample = get(i)
            except BaseException as exc:  # close the span so the failing (or exhausting) sample shows
                spans.append(now())
                failed = {len(spans) // 3 - 1: type(exc).__name__}
                if info is not None:
                    labels.append(None)
                    lengths.append(-1)
                if prints is not None:
                    prints.append(ev.NO_ARG)
                if stop_on_exhaustion and isinstance(exc, StopIteration):
                    return data, True
                raise
            if info is not None:
                label, length = info(i, sample)
                labels.append(label)
                lengths.append(length)
            append(now())
            if prints is not None:  # after the sample's span closed: the fetch time stays the dataset's own
                prints.append(identify(sample))
            data.append(sample)
    finally:
        tracer.inflight = None
        if prints:
            tracer.emit_fetches(worker, epoch, batch, spans, labels, lengths, failed, prints)
        else:
            tracer.emit_fetches(worker, epoch, batch, spans, labels, lengths, failed)
    return data, False


class Fetcher:
    """Shared state: the dataset, whether to batch, the collate function, and who to tell."""

    def __init__(self, dataset, auto_collation: bool, collate_fn: Callable, drop_last: bool,
                 tracer: ev.Tracer = ev.NULL_TRACER, worker: int = ev.MAIN_PROCESS) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.tracer = tracer
        self.worker = worker

    def fetch(self, indices: Any, batch: int = ev.NO_BATCH, epoch: int = 0) -> Any:
        raise NotImplementedError

    def _collate(self, data: Any, batch: int, epoch: int) -> Any:
        if not self.tracer.enabled:
            return self.collate_fn(data)
        self.tracer.emit(ev.COLLATE_BEGIN, self.worker, epoch, batch)
        out = self.collate_fn(data)
        self.tracer.emit(ev.COLLATE_END, self.worker, epoch, batch, **batch_usage(self.worker))
        return out


class MapFetcher(Fetcher):
    """Indexes a map-style dataset."""

    def fetch(self, indices: Any, batch: int = ev.NO_BATCH, epoch: int = 0) -> Any:
        dataset = self.dataset
        if not self.auto_collation:
            if self.tracer.enabled:
                data = traced_fetch(self.tracer, self.worker, partial(operator.getitem, dataset), [indices],
                                    batch, epoch)[0][0]
            else:
                data = dataset[indices]
            return self._collate(data, batch, epoch)
        # torch checks truthiness too: ``__getitems__ = None`` on a subclass switches it off.
        getitems = getattr(dataset, "__getitems__", None)
        if not self.tracer.enabled:
            data = getitems(indices) if getitems else [dataset[i] for i in indices]
        elif getitems:
            start_batch_usage(self.worker)
            self.tracer.emit(ev.FETCH_BEGIN, self.worker, epoch, batch, arg0=len(indices))
            data = getitems(indices)
            self.tracer.emit(ev.FETCH_END, self.worker, epoch, batch, arg0=len(indices))
        else:
            data, _ = traced_fetch(self.tracer, self.worker, partial(operator.getitem, dataset), indices, batch, epoch)
        return self._collate(data, batch, epoch)


class IterableFetcher(Fetcher):
    """Pulls from one replica of an iterable-style dataset; a worker holds one replica."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.dataset_iter = iter(self.dataset)
        self.ended = False
        self.position = 0  # how many items this replica has produced: the sample's name in events

    def _pull(self, _position: int) -> Any:
        return next(self.dataset_iter)

    def fetch(self, indices: Any, batch: int = ev.NO_BATCH, epoch: int = 0) -> Any:
        if self.ended:
            raise StopIteration
        wanted = len(indices) if self.auto_collation else 1
        if self.tracer.enabled:
            # An iterable has no indices: a sample is named by its position in this replica's stream.
            positions = range(self.position, self.position + wanted)
            data, self.ended = traced_fetch(self.tracer, self.worker, self._pull, positions, batch, epoch,
                                            stop_on_exhaustion=self.auto_collation, identify=fingerprint)
            self.position += len(data)
        elif not self.auto_collation:
            data = [next(self.dataset_iter)]
        else:
            data = []
            for _ in indices:
                try:
                    data.append(next(self.dataset_iter))
                except StopIteration:
                    self.ended = True
                    break
        if not self.auto_collation:
            return self._collate(data[0], batch, epoch)
        if len(data) == 0 or (self.drop_last and len(data) < len(indices)):
            raise StopIteration
        return self._collate(data, batch, epoch)


def make_fetcher(is_iterable: bool, dataset, auto_collation: bool, collate_fn: Callable, drop_last: bool,
                 **tracing: Any) -> Fetcher:
    kind = IterableFetcher if is_iterable else MapFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last, **tracing)
