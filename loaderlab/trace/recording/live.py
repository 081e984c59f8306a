"""What a recording has seen so far, readable from another thread while it runs.

Twin of nothing in torch. A ``LiveView`` is handed to :func:`loaderlab.trace.recording.session.record_session`
(``live=``), which attaches it to the run's tracer. Any thread may then call ``snapshot()``: it reads only
the records that arrived since the last call (the tracer's arrays and its list of workers' chunks only
grow, appends are atomic), so a poll twice a second costs little even late in a long run. A ``LiveSnapshot`` holds the event count, the
batches handed to the loop, when the last one was, and each worker's own latest event — which is what
names a stuck worker: "worker 0: last event fetch_begin (index 37) 2.4 s ago".

Workers' events are those that came from another process (the main process also emits events *about*
worker k: ``worker_start``, ``memory``). Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from ...engine import events as ev, records as rec

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
        self._heads = 0  # RecordTracer: fetch headers already read; ``_cursor`` counts records, ``_chunks`` chunks
        self._chunks = 0
        self._samples_read = 0
        self._events = 0
        self._batches = 0
        self._last_batch_ns = None
        self._workers: dict[int, WorkerLast] = {}
        self.started_ns = time.monotonic_ns()

    def attach(self, tracer: ev.Tracer) -> None:
        """Called by the recording once its tracer exists (a RecordTracer, or a ListTracer)."""
        with self._lock:
            self._tracer, self._main_pid = tracer, tracer._pid
            self._cursor = self._heads = self._chunks = self._samples_read = 0

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

    def _take_arrays(self, tracer: rec.RecordTracer) -> None:
        heads = tracer.heads[self._heads * rec.HEAD_STRIDE:len(tracer.heads) // rec.HEAD_STRIDE * rec.HEAD_STRIDE]
        rows = tracer.rows[self._cursor * rec.STRIDE:len(tracer.rows) // rec.STRIDE * rec.STRIDE]
        samples = tracer.samples
        self._heads += len(heads) // rec.HEAD_STRIDE
        self._cursor += len(rows) // rec.STRIDE
        kinds = rows[0::rec.STRIDE]
        self._events += len(kinds)
        yielded = kinds.count(rec.CODE[ev.BATCH_YIELD])  # this process's own records are the main process's
        if yielded:
            self._batches += yielded
            last = len(kinds) - 1 - kinds[::-1].index(rec.CODE[ev.BATCH_YIELD])
            self._last_batch_ns = rows[last * rec.STRIDE + 1]
        self._take_fetches(heads, None if not heads else samples)
        chunks = tracer.chunks[self._chunks:]
        self._chunks += len(chunks)
        for chunk in chunks:
            rows = rec._ints(chunk.rows)
            self._events += len(rows) // rec.STRIDE
            for at in range(len(rows) - rec.STRIDE, -1, -rec.STRIDE):  # its latest record that shows progress
                kind = rec.KINDS[rows[at]]
                if rows[at + 3] >= 0 and kind not in _SKIP:
                    self._see(WorkerLast(rows[at + 3], kind, rows[at + 6], rows[at + 5], rows[at + 1]))
                    break
            self._take_fetches(rec._ints(chunk.heads), rec._ints(chunk.samples), own=False)

    def _take_fetches(self, heads, samples, own: bool = True) -> None:
        """Count a run of fetch headers' samples and see the last sample fetched (a main-process fetch too,
        as worker -1). ``own``: the tracer's own arrays, where samples are read up to the headers' count."""
        counts = heads[rec.HEAD_STRIDE - 2::rec.HEAD_STRIDE] if heads else []
        self._events += 2 * sum(counts)
        for h in range(len(counts) - 1, -1, -1):
            if counts[h]:
                pid, worker, epoch, batch, n, _ = heads[h * rec.HEAD_STRIDE:(h + 1) * rec.HEAD_STRIDE]
                end = 3 * (self._samples_read + sum(counts[:h + 1])) if own else 3 * sum(counts[:h + 1])
                index, _, t1 = samples[end - 3:end]
                self._see(WorkerLast(worker, ev.FETCH_END, index, batch, t1))
                break
        if own:
            self._samples_read += sum(counts)

    def snapshot(self) -> LiveSnapshot:
        with self._lock:
            if isinstance(self._tracer, rec.RecordTracer):
                self._take_arrays(self._tracer)
            elif self._tracer is not None:
                records = self._tracer.records
                end = len(records)
                self._take(records[self._cursor:end])
                self._cursor = end
            return LiveSnapshot(self._events, self._batches, self.started_ns, self._last_batch_ns,
                                time.monotonic_ns(), tuple(self._workers[k] for k in sorted(self._workers)))
