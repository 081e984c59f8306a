"""Writing a job's trace as it goes: chunks of events, appended every ``FLUSH_EVERY_S``.

Twin of nothing in torch. A background thread drains each traced loader's tracer (a
:class:`~loaderlab.engine.records.RecordTracer`: only it removes, and only from the front, so the loop's
``emit`` takes no lock) and hands the records to a :class:`.rows.RowWriter`, which turns them into the trace
table's rows and appends them to the trace file, so a job killed outright loses at most what arrived after the
last flush. The RowWriter works in a process of its own where the platform forks (:mod:`.trace_process`: the
rows are built away from the loop's GIL), else in that thread. ``run`` forks that process before the job
imports torch (:func:`.trace_process.start_early`), so the job's process never imports the RowWriter's
modules (pandas); without it they are imported here, before the fork: a forked process that imported numpy
itself from a job with torch's threads running hung for good beside a busy machine (2 of 11 runs of a job
killed at once). Knows nothing of the script (:mod:`.job`), plotly or streamlit.
"""

from __future__ import annotations

import sys
import threading
import time

from typing import Any, Callable

from . import trace_process

FLUSH_EVERY_S = 0.5  # how much of a job a SIGKILL can lose (plus a worker's own 0.02 s buffer)
ANSWER_WAIT_S = 2.0  # how long a flush waits for the writing process to say what the file holds


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
        started = trace_process.take_early(path, meta)
        if started is None:
            from .rows import RowWriter  # pandas: only in a process that did not start its writer early

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
