"""What a stock torch DataLoader's worker can tell about itself: when its process started, and which task it
works on; and, in the main process, which task a batch handed over was.

Twin of the parts of ``torch/utils/data/_utils/worker.py`` (``_worker_loop``) and ``dataloader.py``
(``_MultiProcessingDataLoaderIter``) that keep this to themselves. LoaderLab's engine emits ``worker_start``
from the main process as it starts each worker and numbers every task it sends (:mod:`loaderlab.engine.multi`);
torch does neither, and the recorder must not change torch's code, so it reads them where torch leaves them:

- **Worker start.** :func:`process_start_ns` is the worker process's start on the ``time.monotonic_ns`` axis,
  read inside the worker (the first code of ours there is its ``worker_init_fn``):

  - a forked worker (Linux's default): the moment ``fork()`` returned in the child, noted by an
    ``os.register_at_fork`` hook this module installs when it is imported in the main process; nanoseconds.
  - any other worker on Linux (spawn, forkserver): the process's creation time as the kernel keeps it
    (``/proc/self/stat``'s start time, in clock ticks, usually 10 ms, rounded down), moved onto the monotonic
    axis. It covers the interpreter's start, the imports (torch's ~1 s) and unpickling the dataset: all of
    which a spawned worker really spends before it is ready.
  - elsewhere: unknown (None): the trace then has no ``worker_start`` and its start-up reads "not traced".

  Start-up thus runs from the process's start to the end of the user's ``worker_init_fn`` (``worker_ready``);
  the seeding torch does before ``worker_init_fn`` is inside it. The engine's ``worker_start`` is main's
  moment after ``Process.start()`` returned: for a forked worker the two lie a fork apart.
- **The task.** Torch hands a worker ``(task id, indices)`` on its index queue and never passes the task id
  to the dataset. For an IterableDataset (whose "indices" are all None, so nothing numbers its batches),
  :func:`watch_tasks` wraps that queue's ``get`` in the worker, found in ``_worker_loop``'s frame, so that
  :func:`current_task` names the task being fetched. Without workers, the batch is the main-process
  iterator's count of batches yielded (:func:`main_iterator`).
- **The hand-over.** :func:`handed_task` is the task id of the batch ``next()`` just returned; with
  ``in_order=True`` torch hands tasks over in order, skipping those of workers whose stream had ended.

Each reader returns None where torch's internals are not what it expects: the trace then lacks the numbers
(as before), the run is unchanged. Knows torch's private names listed above; nothing of pandas, plotly or
streamlit.
"""

from __future__ import annotations

import os
import sys
import time
import weakref
from typing import Any

from torch.utils.data.dataloader import _BaseDataLoaderIter

from ...engine import events as ev

MAX_STARTUP_S = 600.0  # a start further back than this is not this worker's (a clock that moved, a time namespace)

_forked: tuple[int, int, int] | None = None  # (pid, monotonic ns, parent pid) of the last fork() into this process
_task = ev.NO_BATCH  # the task this worker took last from its index queue


def _note_fork() -> None:
    global _forked, _task
    _forked, _task = (os.getpid(), time.monotonic_ns(), os.getppid()), ev.NO_BATCH


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_note_fork)


def _proc_start_ns() -> int | None:
    """This process's creation time from ``/proc/self/stat``, on the monotonic axis (None off Linux)."""
    try:
        with open("/proc/self/stat", "rb") as fh:
            stat = fh.read()
        ticks = int(stat[stat.rindex(b")") + 2:].split()[19])  # field 22, counted after "pid (comm) state"
        boot_ns = ticks * 1_000_000_000 // os.sysconf("SC_CLK_TCK")
        return boot_ns - (time.clock_gettime_ns(time.CLOCK_BOOTTIME) - time.monotonic_ns())
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def parent_gone() -> bool:
    """True where this process was forked and the process that forked it has died since. Torch's worker loop
    notes its parent only after ``worker_init_fn`` (``ManagerWatchdog``): a worker whose job was killed while
    it started takes the reparenting for its parent and waits for tasks for good, so the recorder's init asks
    this first (a job SIGKILLed while its workers started left one alive beside two busy cores)."""
    return _forked is not None and _forked[0] == os.getpid() and os.getppid() != _forked[2]


def process_start_ns() -> tuple[int, str] | None:
    """``(t_ns, how)``: when this process started (``how``: ``"fork"`` or ``"process"``), or None when unknown
    (see the module docstring)."""
    now = time.monotonic_ns()
    if _forked is not None and _forked[0] == os.getpid():
        return _forked[1], "fork"
    start = _proc_start_ns()
    if start is None or not 0 <= now - start <= MAX_STARTUP_S * 1e9:
        return None
    return start, "process"


def watch_tasks() -> bool:
    """Call from ``worker_init_fn``: from now on :func:`current_task` names the task this worker fetches for.
    False where the caller is not torch's ``_worker_loop`` as this module knows it."""
    caller = sys._getframe(2)  # our caller is the worker_init_fn; its caller torch's worker loop
    queue = caller.f_locals.get("index_queue") if caller.f_code.co_name == "_worker_loop" else None
    get = getattr(queue, "get", None)
    if get is None:
        return False

    def get_noting_task(*args: Any, **kwargs: Any) -> Any:
        global _task
        message = get(*args, **kwargs)
        if type(message) is tuple and len(message) == 2 and isinstance(message[0], int):
            _task = message[0]  # (task id, indices); None and _ResumeIteration are no task
        return message

    queue.get = get_noting_task  # an instance attribute: torch's loop calls index_queue.get(timeout=…)
    return True


def current_task() -> int:
    """The task this worker took last (``NO_BATCH`` before its first, or where :func:`watch_tasks` failed)."""
    return _task


def main_iterator() -> Any:
    """Call from a dataset's ``__iter__`` in the main process: a weak reference to the torch iterator whose
    fetcher is asking (its ``_num_yielded`` is the number of the batch being fetched), or None."""
    frame = sys._getframe(1)
    for _ in range(12):  # iter(loader) → _get_iterator → __init__ → create_fetcher → fetcher → __iter__
        frame = frame.f_back
        if frame is None:
            return None
        owner = frame.f_locals.get("self")
        if isinstance(owner, _BaseDataLoaderIter):
            return weakref.ref(owner)
    return None


def handed_task(iterator: Any) -> int | None:
    """The task id of the batch ``next(iterator)`` just returned, where torch's iterator says it: with
    ``in_order=True`` the task before the next one it waits for; None otherwise (the position stands)."""
    received = getattr(iterator, "_rcvd_idx", None)
    if not isinstance(received, int) or not getattr(iterator, "_in_order", True):
        return None
    return received - 1
