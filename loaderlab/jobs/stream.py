"""Writing a job's trace as it goes: chunks of events, appended every ``FLUSH_EVERY_S``.

Twin of nothing in torch. A background thread drains each traced loader's tracer (a
:class:`~loaderlab.engine.records.RecordTracer`: only it removes, and only from the front, so the loop's
``emit`` takes no lock) and hands the records to a :class:`RowWriter`, which turns them into the trace table's
rows with numpy, tags them with the loader's name and appends them to the trace file
(:class:`loaderlab.trace.files.columnar.TraceWriter`: a file cut off mid-write reads up to its last whole
chunk), so a job killed outright loses at most what arrived after the last flush. The RowWriter works in a
process of its own where the platform forks (:mod:`.trace_process`: the rows are built away from the loop's
GIL), else in that thread. Repeated fetch records (a worker reports a slow sample before its batch ends; the
batch's final record repeats it) are written once. Knows the event vocabulary and pandas; nothing of the
script (:mod:`.job`), plotly or streamlit.
"""

from __future__ import annotations

import sys
import threading
import time

from collections import OrderedDict
from typing import Any, Callable

import pandas as pd

from ..engine import events as ev
from ..engine.records import Chunk, chunk_events, CODE, HEAD_STRIDE, STRIDE
from ..trace.core.frame import chunks_frame, events_frame
from ..trace.files.columnar import TraceWriter
from . import trace_process

FLUSH_EVERY_S = 0.5  # how much of a job a SIGKILL can lose (plus a worker's own 0.02 s buffer)
ANSWER_WAIT_S = 2.0  # how long a flush waits for the writing process to say what the file holds
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


class StreamWriter:
    """Owns the trace file while the job runs; ``sources`` are the traced loaders (name, tracer). The rows are
    built and written in a process of their own where the platform forks (:mod:`.trace_process`), else here."""

    def __init__(self, path: str, meta: dict[str, Any], every_s: float = FLUSH_EVERY_S,
                 on_flush: Callable[["StreamWriter"], None] | None = None) -> None:
        self.path = path
        self.sources: list = []
        self.events = 0  # what the file holds, as its writer last said
        self.every_s, self.on_flush = every_s, on_flush
        self._lock = threading.Lock()
        self._failed: str | None = None
        self._closed = False
        self._pending = 0  # records sent that the writing process has not yet said it wrote
        open(path, "wb").close()  # a path that cannot be written fails here, in the job, before the script runs
        started = trace_process.start(path, meta, RowWriter)
        self._process, self._outbox, self._answers = started if started else (None, None, None)
        self._rows = None if started else RowWriter(path, meta)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="loaderlab_trace_writer", daemon=True)
        self._thread.start()

    def add(self, source: Any) -> None:
        self.sources.append(source)

    def set_meta(self, key: str, value: Any) -> None:
        with self._lock:
            if self._closed:
                return
            if self._rows is not None:
                self._rows.set_meta(key, value)
            elif self._failed is None:
                self._send(trace_process.Meta(key, value))

    def flush(self) -> None:
        with self._lock:
            if self._closed:
                return
            for source in list(self.sources):
                chunks = source.tracer.drain()
                if not chunks:
                    continue
                if self._rows is not None:
                    self._rows.write(source.name, chunks)
                    self.events = self._rows.events
                elif self._failed is None:
                    self._send(trace_process.Records(source.name, chunks))
                    self._pending += 1
            # the count run prints is what the file holds: wait (this thread, never the loop) for the answers
            deadline = time.monotonic() + ANSWER_WAIT_S
            while self._pending and self._failed is None:
                left = deadline - time.monotonic()
                if left <= 0 or self._read_answers(left):
                    break
            self._read_answers()

    def _send(self, message: Any) -> None:
        try:
            self._outbox.send(message)
        except (OSError, ValueError) as exc:  # the writing process is gone: the trace stops growing
            self._failed = f"{type(exc).__name__}: {exc}"

    def _read_answers(self, wait_s: float = 0.0) -> bool:
        """Take the writing process's answers so far (waiting up to ``wait_s`` for one); True once it finished."""
        if self._answers is None:  # writing here, not in a process
            return True
        try:
            while self._answers.poll(wait_s):
                answer = self._answers.recv()
                if isinstance(answer, trace_process.Written):
                    self.events, self._pending = answer.events, max(0, self._pending - 1)
                elif isinstance(answer, trace_process.Failed):
                    self._failed = answer.error
                wait_s = 0.0
        except (EOFError, OSError):  # it ended: nothing more will come
            return True
        return False

    def _loop(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.flush()
            except OSError:  # the disk is full or gone: the job goes on, the trace stops growing
                return
            if self.on_flush is not None:
                self.on_flush(self)

    def close(self, timeout_s: float = trace_process.FINISH_TIMEOUT_S) -> None:
        """Write what is left and the file's end; with a writing process, wait for it (``timeout_s``)."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join()
        self.flush()
        with self._lock:
            if self._closed:
                return
            self._closed = True
            if self._rows is not None:
                self._rows.close()
                return
            if self._failed is None:
                self._send(trace_process.Finish())
            self._outbox.close()
            deadline = time.monotonic() + timeout_s
            while not self._read_answers(max(0.0, deadline - time.monotonic())) and time.monotonic() < deadline:
                pass
            self._process.join(max(0.0, deadline - time.monotonic()))
            if self._process.is_alive():  # a disk that hangs: the job ends, the file stays cut short
                self._process.kill()
                self._process.join()
                self._failed = self._failed or f"its writer did not end the file within {timeout_s:.0f} s"
        if self._failed is not None:
            sys.stderr.write(f"loaderlab: the trace {self.path} stopped growing: {self._failed}\n")
