"""What a recording has seen so far, readable from another thread while it runs.

Twin of nothing in torch. A ``LiveView`` is handed to :func:`loaderlab.trace.session.record_session`
(``live=``), which attaches it to the run's tracer. Any thread may then call ``snapshot()``: it reads only
the records that arrived since the last call (the tracer's list only grows, appends are atomic), so a
poll twice a second costs little even late in a long run. A ``LiveSnapshot`` holds the event count, the
batches handed to the loop, when the last one was, and each worker's own latest event — which is what
names a stuck worker: "worker 0: last event fetch_begin (index 37) 2.4 s ago".

Workers' events are those that came from another process (the main process also emits events *about*
worker k: ``worker_start``, ``memory``). Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ..engine import events as ev

_SKIP = (ev.STACK, ev.MEMORY)  # a worker answering "where are you?" has not made progress


@dataclass(frozen=True)
class WorkerLast:
    """One worker's latest own event."""

    worker: int
    kind: str
    index: int  # dataset index (fetch events), else -1
    batch: int  # task number, else -1
    t_ns: int


@dataclass(frozen=True)
class LiveSnapshot:
    """A running recording at one moment (``now_ns``, time.monotonic_ns)."""

    events: int  # events recorded so far (a sample's fetch counts as two: begin and end)
    batches: int  # batches handed to the loop
    started_ns: int  # when the recording began
    last_batch_ns: int | None  # when the last batch was handed over (None: none yet)
    now_ns: int
    workers: tuple[WorkerLast, ...]  # by worker id

    @property
    def elapsed_s(self) -> float:
        return (self.now_ns - self.started_ns) / 1e9

    @property
    def since_batch_s(self) -> float:
        """Seconds since a batch was last handed over (or since the start, before the first)."""
        return (self.now_ns - (self.last_batch_ns or self.started_ns)) / 1e9

    def ago_s(self, last: WorkerLast) -> float:
        return max(0.0, (self.now_ns - last.t_ns) / 1e9)

    def quiet_workers(self) -> list[WorkerLast]:
        """The workers, longest silent first: a worker stuck inside ``__getitem__`` comes first."""
        return sorted(self.workers, key=lambda w: w.t_ns)


class LiveView:
    """Counts a tracer's records as they arrive; ``snapshot()`` is safe from any thread."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tracer = None
        self._main_pid = None
        self._cursor = 0
        self._events = 0
        self._batches = 0
        self._last_batch_ns = None
        self._workers: dict[int, WorkerLast] = {}
        self.started_ns = time.monotonic_ns()

    def attach(self, tracer: ev.ListTracer) -> None:
        """Called by the recording once its tracer exists."""
        with self._lock:
            self._tracer, self._main_pid = tracer, tracer._pid
            self._cursor = 0

    def _see(self, last: WorkerLast) -> None:
        known = self._workers.get(last.worker)
        if known is None or last.t_ns >= known.t_ns:
            self._workers[last.worker] = last

    def _take(self, records: list) -> None:
        for r in records:
            if type(r) is ev.Event:
                self._events += 1
                if r.pid == self._main_pid:
                    if r.kind == ev.BATCH_YIELD:
                        self._batches += 1
                        self._last_batch_ns = r.t_ns
                elif r.worker >= 0 and r.kind not in _SKIP:
                    self._see(WorkerLast(r.worker, r.kind, r.index, r.batch, r.t_ns))
            elif r.spans:  # FetchSpans: a batch's samples (repeats of reported slow samples included)
                self._events += 2 * len(r.spans)
                index, _, t1 = r.spans[-1][:3]
                self._see(WorkerLast(r.worker, ev.FETCH_END, index, r.batch, t1))

    def snapshot(self) -> LiveSnapshot:
        with self._lock:
            if self._tracer is not None:
                records = self._tracer.records
                end = len(records)
                self._take(records[self._cursor:end])
                self._cursor = end
            return LiveSnapshot(self._events, self._batches, self.started_ns, self._last_batch_ns,
                                time.monotonic_ns(), tuple(self._workers[k] for k in sorted(self._workers)))
