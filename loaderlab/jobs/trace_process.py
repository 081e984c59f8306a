"""The trace file's own process: a job's writer builds and writes the table rows away from the loop's GIL.

Twin of nothing in torch. In a job whose loop runs in the main process (``num_workers=0``), a writer thread
turning records into rows and Arrow batches holds the GIL the loop needs (a Hugging Face map-style job: 46 ms
of a 0.38 s loop). So the job forks, before the script runs, a process that only writes: the job's writer
thread drains each tracer and sends the raw chunks (:class:`Records`) down a pipe; this process builds the
rows (the job's row writer, :class:`.rows.RowWriter`, handed to :func:`start`) and appends them to the file,
and says after each write how many events the file holds (:class:`Written`), so what the job prints is what
the file has.

Messages, each one pickled object on the pipe: :class:`Records`, :class:`Meta` and :class:`Finish` from the
job; :class:`Written` and :class:`Failed` back. The process ignores SIGINT and SIGTERM (a Ctrl-C reaches the
whole process group: the job decides when the file ends); it ends on :class:`Finish` (closing the file) or
when the job is gone without one — the pipe closed, or the job's pid no longer its parent (a process the
script forked may hold the pipe open long after the job was killed outright): what arrived is written, and
the file is left without its end, as a job killed outright leaves it.

``run`` starts it early (:func:`start_early`): forked before the job imports torch or starts a thread, so it
imports its own modules (pandas, 0.35 s) in a clean copy of a small process, on another core while the job
imports torch, and the job's process never imports pandas. Its first message is then :class:`Open` (the file
and its first meta). A fork made later, from a job with torch's threads running, hung for good when the
child imported numpy; :func:`start` (a writer for code that made its :class:`.stream.StreamWriter` without
``run``) forks with the modules imported already. Knows the records; nothing of how rows are built, of the
script, plotly or streamlit.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import signal
from dataclasses import dataclass, field
from typing import Any, Callable

from ..engine.records import Chunk

FINISH_TIMEOUT_S = 30.0  # the job waits this long for the file's end (a slow disk), then leaves it cut short
PARENT_CHECK_S = 1.0  # how often a waiting writer checks that the job is still its parent


@dataclass(frozen=True)
class Records:
    """What one loader's tracer held since the last flush."""

    loader: str
    chunks: list[Chunk] = field(default_factory=list)


@dataclass(frozen=True)
class Open:
    """The first message to a writer started early: the file to write and the meta known at the start."""

    path: str
    meta: dict[str, Any]


@dataclass(frozen=True)
class Meta:
    """A file metadata entry (the reader sees the last value set for each key)."""

    key: str
    value: Any


@dataclass(frozen=True)
class Finish:
    """The job is over: write the file's end, answer with the last :class:`Written`, exit."""


@dataclass(frozen=True)
class Written:
    """The events the file holds now."""

    events: int


@dataclass(frozen=True)
class Failed:
    """Writing failed (a full disk…): the file stops growing; the job goes on."""

    error: str


def _next(inbox: Any, job: int) -> Any:
    """The job's next message; :class:`Finish`'s absence (None) once the job is gone."""
    while not inbox.poll(PARENT_CHECK_S):
        if os.getppid() != job:
            return None
    try:
        return inbox.recv()
    except EOFError:
        return None


def _detach(jobs_ends: tuple) -> int:
    """The job's pid; the job's signals ignored and its pipe ends (``jobs_ends``, copied here by the fork)
    closed, or the pipes would never read as closed."""
    job = os.getppid()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for end in jobs_ends:
        end.close()
    return job


def _write(inbox: Any, outbox: Any, rows: Any, job: int) -> None:
    while True:
        message = _next(inbox, job)
        if message is None:  # the job is gone without a Finish: keep what arrived, leave the end unwritten
            return
        if isinstance(message, Records):
            rows.write(message.loader, message.chunks)
            outbox.send(Written(rows.events))
        elif isinstance(message, Meta):
            rows.set_meta(message.key, message.value)
        elif isinstance(message, Finish):
            rows.close()
            outbox.send(Written(rows.events))
            return


def _say_failed(outbox: Any, exc: Exception) -> None:
    try:
        outbox.send(Failed(f"{type(exc).__name__}: {exc}"))
    except OSError:
        pass


def serve(inbox: Any, outbox: Any, path: str, meta: dict[str, Any], make_rows: Callable,
          jobs_ends: tuple = ()) -> None:
    """The writing process's loop (the target of :func:`start`): ``make_rows(path, meta)`` writes the file."""
    job = _detach(jobs_ends)
    try:
        _write(inbox, outbox, make_rows(path, meta), job)
    except Exception as exc:  # noqa: BLE001 - any failure is said to the job, which goes on without a trace
        _say_failed(outbox, exc)
    finally:
        os._exit(0)  # a forked copy of the job: none of its exit handlers (the script's, torch's) may run here


def serve_early(inbox: Any, outbox: Any, make_rows: str, jobs_ends: tuple = ()) -> None:
    """The loop of a writer started early (the target of :func:`start_early`): imports ``make_rows``
    (``"module:name"``) at once, then waits for :class:`Open`; a job that ends without one ends it."""
    job = _detach(jobs_ends)
    try:
        module, name = make_rows.split(":")
        make = getattr(importlib.import_module(module), name)
        first = _next(inbox, job)
        if isinstance(first, Open):
            _write(inbox, outbox, make(first.path, first.meta), job)
    except Exception as exc:  # noqa: BLE001 - as serve
        _say_failed(outbox, exc)
    finally:
        os._exit(0)


def start(path: str, meta: dict[str, Any], make_rows: Callable) -> tuple[Any, Any, Any] | None:
    """(process, the job's end of the records pipe, the job's end of the answers pipe), or None where this
    platform cannot fork (the job then writes from its own thread). ``make_rows(path, meta)``: what writes
    the rows in the new process (passed in, so this module needs nothing of :mod:`.stream`)."""
    return _fork(serve, path, meta, make_rows)


def _fork(target: Callable, *args: Any) -> tuple[Any, Any, Any] | None:
    """Fork ``target(inbox, outbox, *args, jobs_ends)`` as the writing process: (process, the job's end of the
    records pipe, the job's end of the answers pipe), or None where this platform cannot fork."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    context = multiprocessing.get_context("fork")
    inbox_r, inbox_w = context.Pipe(duplex=False)
    outbox_r, outbox_w = context.Pipe(duplex=False)
    process = context.Process(target=target, args=(inbox_r, outbox_w, *args, (inbox_w, outbox_r)),
                              name="loaderlab_trace_file", daemon=False)
    process.start()
    inbox_r.close()
    outbox_w.close()
    return process, inbox_w, outbox_r


_early: tuple[Any, Any, Any] | None = None  # the writer start_early forked, until a StreamWriter takes it


def start_early(make_rows: str) -> bool:
    """Fork the writing process now (see the module docstring), to import ``make_rows`` (``"module:name"``,
    called as ``make_rows(path, meta)`` on :class:`Open`). False where this platform cannot fork. The job
    hands it to its writer with :func:`take_early`; :func:`release_early` ends one no writer took."""
    global _early
    if _early is not None:
        return True
    _early = _fork(serve_early, make_rows)
    return _early is not None


def take_early(path: str, meta: dict[str, Any]) -> tuple[Any, Any, Any] | None:
    """The writer :func:`start_early` forked, told to write ``path`` (as :func:`start` returns it), or None."""
    global _early
    early, _early = _early, None
    if early is not None:
        early[1].send(Open(path, meta))
    return early


def release_early() -> None:
    """End a writer started early that no job took (``run`` failed before its trace began): its pipe closes,
    it ends; waited for, so no process is left (a non-daemon child would be joined at exit all the same)."""
    global _early
    early, _early = _early, None
    if early is not None:
        process, inbox_w, outbox_r = early
        inbox_w.close()
        outbox_r.close()
        process.join()
