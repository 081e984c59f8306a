"""The event vocabulary the engine speaks, and the tracer interface it speaks through.

Twin of nothing in torch: torch's DataLoader records one profiler span per ``__next__`` and nothing
from its workers. Every stage of :mod:`loaderlab.engine` calls ``tracer.emit(kind, ...)``; what the
tracer does with it (drop it, keep it as objects in a list, pack it into arrays (:mod:`.records`), ship it
to another process) is its own business. This module
knows nothing of pandas, plotly or streamlit: turning events into tables is :mod:`loaderlab.trace`'s job.

Timestamps are ``time.monotonic_ns()``: on Linux that clock is shared by all processes of the machine,
so worker and main-process events line up on one axis without any clock exchange.
"""

from __future__ import annotations

from array import array

import os
import time
from typing import Any, NamedTuple

# The moments one batch passes through, in pipeline order (``stage_moment``).
SAMPLER_YIELD = "sampler_yield"  # main: the (batch) sampler produced the indices of a batch
INDEX_PUT = "index_put"  # main: task put on worker k's index queue (queue = "index_queue[k]")
INDEX_GET = "index_get"  # worker: task taken from its index queue
FETCH_BEGIN = "fetch_begin"  # worker or main: dataset[index] starts (one per sample; index = dataset index)
FETCH_END = "fetch_end"
COLLATE_BEGIN = "collate_begin"
COLLATE_END = "collate_end"
RESULT_PUT = "result_put"  # worker: batch put on the shared result queue (nbytes = tensor bytes)
RESULT_GET = "result_get"  # main (or pin thread): batch taken from the result queue
REORDER_PARK = "reorder_park"  # main: batch arrived ahead of its turn and waits in the reorder buffer
REORDER_RELEASE = "reorder_release"  # main: a parked batch leaves the reorder buffer
PIN_BEGIN = "pin_begin"  # pin thread: pinning a batch starts (detail says "skipped: no accelerator")
PIN_END = "pin_end"
BATCH_YIELD = "batch_yield"  # main: the batch is handed to the user's loop
CONSUMER_BEGIN = "consumer_begin"  # main: the user's loop body starts (right after batch_yield)
CONSUMER_END = "consumer_end"  # main: the user's loop body ended (the next ``next()`` call began)
WORKER_START = "worker_start"  # main: the worker process was started (pid = the main process, arg0 = the worker's)
WORKER_READY = "worker_ready"  # worker: seeded, worker_init_fn done, fetcher built (arg0 = the seed)
WORKER_EXIT = "worker_exit"  # worker: loop left (detail = why) / main: process gone (arg0 = exit code)
STACK = "stack"  # worker: its current Python stack, sent on request (detail = the formatted stack)
EPOCH_BEGIN = "epoch_begin"  # main: iter(loader) was called
EPOCH_END = "epoch_end"  # main: StopIteration raised to the user
ERROR = "error"  # anywhere: a failure (detail = the message, arg0 = its cause: CAUSE_*)
MEMORY = "memory"  # main, about worker k: its RSS (nbytes), arg0..arg3 = pid, uss, shm used, shm total (.memory)

ALL_KINDS = (
    SAMPLER_YIELD, INDEX_PUT, INDEX_GET, FETCH_BEGIN, FETCH_END, COLLATE_BEGIN, COLLATE_END,
    RESULT_PUT, RESULT_GET, REORDER_PARK, REORDER_RELEASE, PIN_BEGIN, PIN_END, BATCH_YIELD,
    CONSUMER_BEGIN, CONSUMER_END, WORKER_START, WORKER_READY, WORKER_EXIT, STACK, EPOCH_BEGIN, EPOCH_END, ERROR, MEMORY,
)

MAIN_PROCESS = -1  # the ``worker`` value of events emitted in the main process
NO_BATCH = -1  # the ``batch`` / ``index`` value where an event has none
NO_ARG = -1  # an ``arg0``..``arg3`` value where the event kind gives that field no meaning
KEYED = 1 << 62  # set in a sample identity read from a library's keys (engine/fingerprint.py), clear in a content one
NO_EXITCODE = -(2**63)  # worker_exit's arg0 when the process had no exit code yet (-1 is SIGHUP)

# Why an ``error`` event happened (its ``arg0``): the engine's own contract, never a text to parse.
CAUSE_EXCEPTION = 0  # an exception in the dataset, collate or worker_init_fn (detail: "Type: message")
CAUSE_UNSENT = 1  # a worker could not pickle a batch to send it (detail: the pickler's error); torch waits forever
CAUSE_TIMEOUT = 2  # no batch within the loader's ``timeout`` (detail: "timeout")
CAUSE_WORKER_DIED = 3  # a worker process vanished (detail: which, and the signal)
CAUSE_WORKER_FAILED = 4  # main received a worker's Failure (detail: "worker k: Type")


class Event(NamedTuple):
    """One moment in one process. ``batch`` is the task number in sampler order within the epoch."""

    kind: str
    t_ns: int
    pid: int
    worker: int
    epoch: int
    batch: int = NO_BATCH
    index: int = NO_BATCH  # dataset index (fetch events); -1 otherwise
    queue: str = ""  # which queue, for put/get events: "index_queue[k]", "result_queue", "data_queue"
    nbytes: int = 0  # tensor bytes of the batch, for result_put / pin events (and a stock loader's collate_end)
    label: Any = None  # optional sample label, filled by a ``sample_info`` hook
    length: int = -1  # optional sample length (sequence data), filled by a ``sample_info`` hook; a stock
    # loader's collate_end: the batch's tensors
    detail: str = ""  # free text only: an error message, a stack, why a worker left, "skipped: no accelerator"
    arg0: int = NO_ARG  # the kind's numbers (see ARGS); never parsed out of ``detail``
    arg1: int = NO_ARG
    arg2: int = NO_ARG
    arg3: int = NO_ARG
    indices: Any = None  # sampler_yield: the batch's dataset indices, a list of ints (None for an iterable's)


FIELDS = Event._fields

# What ``arg0``..``arg3`` hold, per kind (NO_ARG elsewhere). Fetch events of one sample say 1 (a fetch_end
# whose sample raised says 0); a ``__getitems__`` call has index NO_BATCH and says how many it asked for.
ARGS = {
    EPOCH_BEGIN: ("sampler_epoch",),  # a recorded stock loader: its sampler's own ``epoch`` (set_epoch), if any
    SAMPLER_YIELD: ("samples",),  # with ``indices``
    INDEX_PUT: ("queue_worker",),  # k of ``index_queue[k]``: the worker the task is sent to
    INDEX_GET: ("queue_worker",),
    FETCH_BEGIN: ("samples",),
    FETCH_END: ("samples", "fingerprint"),  # fingerprint: an IterableDataset sample's content (.fingerprint)
    COLLATE_END: ("cpu_ns", "voluntary_switches", "runqueue_ns", "others_cpu_ns"),  # in a worker, since its
    # batch began: its CPU time, voluntary switches, time waiting runnable for a core (-1: unknown; traces
    # before it held the involuntary switches), the CPU time of the worker's other threads
    BATCH_YIELD: ("task",),  # the task handed over (``batch`` is its place in hand-over order)
    # the main thread's clocks as the loop body begins and ends (-1 unknown): its run-queue clock (ns waited
    # runnable for a core: workers that held the cores, other programs), its minor page faults (first reads of a
    # batch in shared memory), its CPU clock and the process's (all its threads: torch's intra-op threads run
    # a step's ops beside the main thread); the differences are the body's
    CONSUMER_BEGIN: ("runqueue_ns", "minor_faults", "cpu_ns", "process_cpu_ns"),
    CONSUMER_END: ("runqueue_ns", "minor_faults", "cpu_ns", "process_cpu_ns"),
    REORDER_PARK: ("waits_for",),  # the task that must be handed over first
    WORKER_START: ("worker_pid",),
    WORKER_READY: ("seed",),
    WORKER_EXIT: ("exitcode",),  # main's worker_exit only (NO_EXITCODE if none yet); a worker's own says NO_ARG
    ERROR: ("cause",),
    MEMORY: ("worker_pid", "uss", "shm_used", "shm_total"),  # uss -1 where unreadable
}


def seed_arg(seed: int) -> int:
    """A worker's seed as an int64 ``arg0`` (``base_seed + worker_id`` can pass 2**63 - 1: then NO_ARG)."""
    return seed if -(2**63) <= seed < 2**63 else NO_ARG


def index_list(indices: Any) -> tuple[list | None, int]:
    """A sampler's output → (its indices as a list of ints, or None where they are not ints; how many).

    A batch sampler yields a list (or tuple, range, tensor…); without automatic batching the sampler
    yields one index; an IterableDataset's "indices" are Nones.
    """
    if type(indices) is list:  # a batch sampler's list: converted in C (each batch of a job passes here)
        try:
            return array("q", indices).tolist(), len(indices)
        except (TypeError, OverflowError):  # not ints, or beyond int64: as below
            pass
    seq = indices if isinstance(indices, (list, tuple)) else (
        [indices] if isinstance(indices, (int, str, bytes)) or not hasattr(indices, "__iter__") else list(indices))
    try:
        return [i.__index__() for i in seq], len(seq)
    except (AttributeError, TypeError):
        return None, len(seq)


class FetchSpans(NamedTuple):
    """One batch's samples in compact form: ``spans`` = [(index, t0_ns, t1_ns, label, length, detail,
    fingerprint), …] (older senders' tuples end at ``detail``: no fingerprint).

    Fetching is the hot path (one sample can take a microsecond), so it is recorded as one tuple per
    sample and expanded into ``fetch_begin`` / ``fetch_end`` events only when someone reads the trace.
    """

    pid: int
    worker: int
    epoch: int
    batch: int
    spans: tuple


def fetch_spans(spans: list, labels: list | None, lengths: list | None, failed: dict | None,
                fingerprints: list | None = None) -> tuple:
    """``emit_fetches``' flat arguments → FetchSpans.spans (a sample still being fetched is left out)."""
    failed = failed or {}
    return tuple((spans[3 * k], spans[3 * k + 1], spans[3 * k + 2], labels[k] if labels else None,
                  lengths[k] if lengths else -1, failed.get(k, ""),
                  fingerprints[k] if fingerprints else NO_ARG) for k in range(len(spans) // 3))


def expand(records: list) -> list[Event]:
    """Events and FetchSpans (as tracers store them) → events only, sorted by time.

    A worker reports a sample that is taking long as a ``fetch_begin`` (with the batch's finished samples)
    before the batch ends (see ``inflight``); the batch's final FetchSpans repeats them, and every
    repeat — same process, same moment, same index, same kind — is dropped here.
    """
    events: list[Event] = []
    seen: set[tuple[str, int, int, int]] = set()

    def add(event: Event) -> None:
        key = (event.kind, event.pid, event.t_ns, event.index)
        if event.kind in (FETCH_BEGIN, FETCH_END):
            if key in seen:
                return
            seen.add(key)
        events.append(event)

    for r in records:
        if type(r) is Event:
            add(r)
        else:
            for index, t0, t1, label, length, detail, *more in r.spans:
                add(Event(FETCH_BEGIN, t0, r.pid, r.worker, r.epoch, r.batch, index, arg0=1))
                add(Event(FETCH_END, t1, r.pid, r.worker, r.epoch, r.batch, index, label=label, length=length,
                          detail=detail, arg0=0 if detail else 1, arg1=more[0] if more else NO_ARG))
    events.sort(key=lambda e: e.t_ns)
    return events


class Tracer:
    """The engine's only view of who is watching. The base class drops everything (tracing off)."""

    enabled = False
    sample_info = None  # optional top-level callable (index, sample) -> (label, length), run per sample
    inflight = None  # (epoch, batch, [index, t0, t1, …, index, t0], labels, lengths, fingerprints): in fetching
    guard = None  # a recording's RunGuard (see .interrupt): the main process's waits check it; None = never stop

    def emit(self, kind: str, worker: int, epoch: int, batch: int = NO_BATCH, index: int = NO_BATCH, **fields: Any) -> None:
        """Record that ``kind`` happened now. Must be cheap and must never raise."""

    def emit_fetches(self, worker: int, epoch: int, batch: int, spans: list, labels: list | None = None,
                     lengths: list | None = None, failed: dict | None = None,
                     fingerprints: list | None = None) -> None:
        """Record a batch's sample fetches: ``spans`` = [index, t0, t1, …] (three per sample), the
        ``sample_info`` hook's labels and lengths (or None), ``failed`` = {position: exception name} or None,
        each sample's content fingerprint (an IterableDataset's: :mod:`.fingerprint`) or None."""

    def emit_records(self, records: Any) -> None:
        """Take records made elsewhere (a worker process's chunk) with their own timestamps."""


NULL_TRACER = Tracer()


class ListTracer(Tracer):
    """Keeps every record in memory as an object, in arrival order. Safe to emit into from several threads.

    The simple tracer: one Event per event, one FetchSpans per batch, easy to read and to drain. A recording
    uses :class:`loaderlab.engine.records.RecordTracer` instead, which keeps no object per event.

    ``list.append`` and ``list.extend`` are atomic under the GIL, so no lock is taken on the hot path.
    """

    enabled = True

    def __init__(self, sample_info=None) -> None:
        self.records: list = []
        self.sample_info = sample_info
        self._pid = os.getpid()

    def emit(self, kind: str, worker: int, epoch: int, batch: int = NO_BATCH, index: int = NO_BATCH, **fields: Any) -> None:
        if fields:
            self.records.append(Event(kind, time.monotonic_ns(), self._pid, worker, epoch, batch, index, **fields))
        else:
            self.records.append(Event(kind, time.monotonic_ns(), self._pid, worker, epoch, batch, index))

    def emit_fetches(self, worker: int, epoch: int, batch: int, spans: list, labels: list | None = None,
                     lengths: list | None = None, failed: dict | None = None,
                     fingerprints: list | None = None) -> None:
        # A tuple of tuples of atomics: the garbage collector stops tracking it, so long recordings
        # don't make every collection slower.
        self.records.append(FetchSpans(self._pid, worker, epoch, batch,
                                       fetch_spans(spans, labels, lengths, failed, fingerprints)))

    def emit_records(self, records: Any) -> None:
        if not isinstance(records, list):  # a worker's compact chunk (loaderlab.engine.records.Chunk)
            records = records.events()
        self.records.extend(records)

    def snapshot(self) -> list[Event]:
        """The events so far, sorted by time (safe while a run is still going)."""
        return expand(list(self.records))
