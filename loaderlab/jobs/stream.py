"""Writing a job's trace as it goes: chunks of events, appended every ``FLUSH_EVERY_S``.

Twin of nothing in torch. A background thread drains each traced loader's tracer (only it removes, and only
from the front, so the loop's ``emit`` takes no lock), expands the records into events, tags them with the
loader's name and appends them to the trace file (:class:`loaderlab.trace.files.columnar.TraceWriter`: a file
cut off mid-write reads up to its last whole chunk), so a job killed outright loses at most what arrived
after the last flush. Repeated fetch
records (a worker reports a slow sample before its batch ends; the batch's final record repeats it) are
written once. Knows the event vocabulary and pandas; nothing of the script (:mod:`.job`), plotly or streamlit.
"""

from __future__ import annotations

import threading

from collections import OrderedDict
from typing import Any, Callable

import pandas as pd

from ..engine import events as ev
from ..engine.records import as_int, RecordTracer
from ..trace.core.frame import events_frame, tracer_frame
from ..trace.files.columnar import TraceWriter

FLUSH_EVERY_S = 0.5  # how much of a job a SIGKILL can lose (plus a worker's own 0.02 s buffer)
RECENT_BATCHES = 256  # batches whose fetch records are remembered to drop repeats


class _Repeats:
    """Drops fetch events already written (see the module docstring)."""

    def __init__(self) -> None:
        self.recent: OrderedDict = OrderedDict()
        self.pinned: dict = {}  # batches with a slow sample reported early: kept until the job ends

    def seen(self, key: tuple) -> set:
        if key in self.pinned:
            return self.pinned[key]
        found = self.recent.get(key)
        if found is None:
            found = self.recent[key] = set()
            if len(self.recent) > RECENT_BATCHES:
                self.recent.popitem(last=False)
        return found

    def expand(self, records: list) -> list[ev.Event]:
        """The engine's own expansion, less fetch events an earlier chunk held already."""
        for r in records:
            if type(r) is ev.Event and r.kind == ev.FETCH_BEGIN:  # an early report of a slow sample
                key = (r.pid, r.epoch, r.batch)
                self.pinned[key] = self.seen(key)
                self.recent.pop(key, None)
        out: list[ev.Event] = []
        for e in ev.expand(records):
            if e.kind in (ev.FETCH_BEGIN, ev.FETCH_END):
                seen = self.seen((e.pid, e.epoch, e.batch))
                key = (e.kind, e.t_ns, e.index)
                if key in seen:
                    continue
                seen.add(key)
            out.append(e)
        return out


def chunk_frame(events: list[ev.Event], loader: str, base_ns: int) -> pd.DataFrame:
    """Events → the trace table's rows (the recorder's own conversion), tagged with their loader; ``t_s``
    from ``base_ns``, the job's first written event (a worker's late events may come before it: a reader
    sorts and measures from the earliest, :func:`loaderlab.jobs.read.normalize`)."""
    frame = events_frame(events)
    if frame["label"].dtype != object:
        # int labels beside the None of other rows read as floats, a chunk without labels as objects: every
        # chunk keeps the labels as the dataset gave them, in one dtype (events_frame's stable sort by time)
        order = sorted(range(len(events)), key=lambda i: events[i].t_ns)
        frame["label"] = pd.Series([events[i].label for i in order], dtype=object)
    frame["t_s"] = (frame["t_ns"] - base_ns) / 1e9
    frame["loader"] = loader
    return frame


def fast_frame(records: list, loader: str, base_ns: int, pinned: dict) -> pd.DataFrame | None:
    """``chunk_frame`` of the records' events, built by the recorder's numpy path (a tenth of the time: the
    expansion into one object per event cost a traced job a fifth of its speed, issue 37); the labels kept as
    the dataset gave them. None where the records carry an early report of a slow sample, or the rest of a
    batch that had one (``pinned``): the slow path drops the repeats those make."""
    labels = {}
    for r in records:
        if type(r) is ev.Event:
            if r.kind == ev.FETCH_BEGIN:
                return None
            if r.label is not None:
                labels[(r.kind, r.pid, r.t_ns, as_int(r.index))] = r.label
        else:
            if (r.pid, r.epoch, r.batch) in pinned:
                return None
            for index, _t0, t1, label, *_rest in r.spans:
                if label is not None:
                    labels[(ev.FETCH_END, r.pid, t1, as_int(index))] = label
    tracer = RecordTracer()
    tracer.emit_records(records)
    frame = tracer_frame(tracer)
    if labels:
        keys = zip(frame["kind"].tolist(), frame["pid"].tolist(), frame["t_ns"].tolist(), frame["index"].tolist())
        frame["label"] = pd.Series([labels.get(k) for k in keys], dtype=object)
    frame["t_s"] = (frame["t_ns"] - base_ns) / 1e9
    frame["loader"] = loader
    return frame


def first_ns(records: list) -> int | None:
    """The earliest moment in ``records`` (an event's, or a sample's fetch start), None if they hold none."""
    times = [r.t_ns if type(r) is ev.Event else min(s[1] for s in r.spans) for r in records
             if type(r) is ev.Event or r.spans]
    return min(times) if times else None


class StreamWriter:
    """Owns the trace file while the job runs; ``sources`` are the traced loaders (name, tracer)."""

    def __init__(self, path: str, meta: dict[str, Any], every_s: float = FLUSH_EVERY_S,
                 on_flush: Callable[["StreamWriter"], None] | None = None) -> None:
        self.path = path
        self.sink = TraceWriter(path, meta)
        self.sources: list = []
        self.events = 0
        self.base_ns: int | None = None
        self.every_s, self.on_flush = every_s, on_flush
        self._repeats = _Repeats()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="loaderlab_trace_writer", daemon=True)
        self._thread.start()

    def add(self, source: Any) -> None:
        self.sources.append(source)

    def set_meta(self, key: str, value: Any) -> None:
        with self._lock:
            self.sink.set_meta(key, value)

    def flush(self) -> None:
        with self._lock:
            for source in list(self.sources):
                records = source.tracer.records
                n = len(records)
                if not n:
                    continue
                chunk = records[:n]
                del records[:n]
                base = self.base_ns if self.base_ns is not None else first_ns(chunk)
                if base is not None:
                    frame = fast_frame(chunk, source.name, base, self._repeats.pinned)
                    if frame is not None:
                        if len(frame):
                            self.base_ns = base
                            self.sink.write_frame(frame)
                            self.events += len(frame)
                        continue
                events = self._repeats.expand(chunk)
                if events:
                    if self.base_ns is None:
                        self.base_ns = min(e.t_ns for e in events)
                    self.sink.write_frame(chunk_frame(events, source.name, self.base_ns))
                    self.events += len(events)

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.flush()
            except OSError:  # the disk is full or gone: the job goes on, the trace stops growing
                return
            if self.on_flush is not None:
                self.on_flush(self)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.flush()
        with self._lock:
            self.sink.close()


