"""A job's trace rows, built and appended to the trace file: what the writing process does with the records.

Twin of nothing in torch. :class:`RowWriter` turns one traced loader's drained records (a
:class:`~loaderlab.engine.records.RecordTracer`'s chunks) into the trace table's rows with numpy, tags them with
the loader's name and appends them to the trace file (:class:`loaderlab.trace.files.columnar.TraceWriter`: a
file cut off mid-write reads up to its last whole chunk). Repeated fetch records (a worker reports a slow sample
before its batch ends; the batch's final record repeats it) are written once. It runs in the job's writing
process (:mod:`.trace_process`). Knows the event vocabulary and pandas; nothing of the script (:mod:`.job`),
plotly or streamlit.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pandas as pd

from ..engine import events as ev
from ..engine.records import Chunk, chunk_events, CODE, HEAD_STRIDE, STRIDE
from ..trace.core.frame import chunks_frame, events_frame
from ..trace.files.columnar import TraceWriter

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


def fast_frame(chunks: list[Chunk], loader: str, base_ns: int | None, pinned: dict) -> pd.DataFrame | None:
    """``chunk_frame`` of the chunks' events, built by the recorder's numpy path with no object per event (the
    expansion into objects cost a traced job a fifth of its speed, issue 37); labels kept as the dataset gave
    them; ``t_s`` from ``base_ns`` (None: the chunks' first moment). None where the chunks carry an early
    report of a slow sample, or the rest of a batch that had one (``pinned``): the event path drops the
    repeats those make."""
    fetch_begin = CODE[ev.FETCH_BEGIN]
    for chunk in chunks:
        if fetch_begin in memoryview(chunk.rows).cast("q")[::STRIDE]:
            return None
        heads = memoryview(chunk.heads).cast("q")
        if pinned and any((heads[h], heads[h + 2], heads[h + 3]) in pinned for h in range(0, len(heads), HEAD_STRIDE)):
            return None
    frame = chunks_frame(chunks, labels_as_given=True)
    if len(frame):
        base = int(frame["t_ns"].min()) if base_ns is None else base_ns
        frame["t_s"] = (frame["t_ns"] - base) / 1e9
        frame["loader"] = loader
    return frame


class RowWriter:
    """The trace file and what writing it remembers: the first event's time, the fetches already written.
    ``write`` takes one loader's drained chunks; ``events`` is the rows the file holds."""

    def __init__(self, path: str, meta: dict[str, Any]) -> None:
        self.sink = TraceWriter(path, meta)
        self.events = 0
        self.base_ns: int | None = None
        self._repeats = _Repeats()

    def write(self, loader: str, chunks: list[Chunk]) -> None:
        frame = fast_frame(chunks, loader, self.base_ns, self._repeats.pinned)
        if frame is None:
            events = self._repeats.expand([r for chunk in chunks for r in chunk_events(chunk)])
            if not events:
                return
            if self.base_ns is None:
                self.base_ns = min(e.t_ns for e in events)
            frame = chunk_frame(events, loader, self.base_ns)
        elif not len(frame):
            return
        elif self.base_ns is None:
            self.base_ns = int(frame["t_ns"].min())
        self.sink.write_frame(frame)
        self.events += len(frame)

    def set_meta(self, key: str, value: Any) -> None:
        self.sink.set_meta(key, value)

    def close(self) -> None:
        self.sink.close()
