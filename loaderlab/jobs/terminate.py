"""SIGTERM for a job whose main thread is blocked in C: the trace is still closed and the job still ends.

Twin of nothing in torch. ``run`` turns SIGTERM into :class:`~.script.Terminated` in the script, so its
``finally`` blocks run, but a Python signal handler only runs when the main thread returns to the
interpreter: a script waiting inside C++ (a rendezvous, a collective, a blocking read) would then ignore
SIGTERM, where plain ``python`` dies at once. The C-level handler writes each signal's number to a
wakeup pipe at once (:func:`signal.set_wakeup_fd`); this thread reads it, and if the Python handler has
not run ``GRACE_S`` after a SIGTERM, flushes the trace and ends the process with status 143. (Once it ran,
the script unwinds in Python, and torch may take its 5 s per stuck worker to stop them: that is left alone.) (A script
that sets its own SIGTERM handler is left to it; one that sets its own wakeup fd, as asyncio does, takes the
pipe: then only the Python handler acts.)
Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import os
import signal
import threading
from typing import Callable

GRACE_S = 5.0  # how long Python's own SIGTERM handler may take to run before the job is ended from outside


_owner = {"pid": None}  # the job's process while run's handlers are installed


def _child_as_python_would() -> None:
    """In a process forked from the job (a DataLoader worker, the script's own child): SIGTERM kills, as in a
    child of plain ``python`` (torch ends a stuck worker with SIGTERM), and no wakeup pipe of the parent's."""
    if _owner["pid"] is not None and os.getpid() != _owner["pid"]:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.set_wakeup_fd(-1)


_registered = False


def children_as_python_would(pid: int | None) -> None:
    """While ``pid`` runs a job, its forked children get plain SIGTERM handling (``None``: the job is over)."""
    global _registered
    _owner["pid"] = pid
    if not _registered:
        os.register_at_fork(after_in_child=_child_as_python_would)
        _registered = True


class TermWatch:
    def __init__(self, on_stuck: Callable[[], None]) -> None:
        self.on_stuck = on_stuck
        self.handler: Callable | None = None  # run's SIGTERM handler: a script that sets its own is left alone
        self.handled = threading.Event()  # set by the Python-level SIGTERM handler
        self._read, self._write = os.pipe()
        os.set_blocking(self._write, False)
        self._previous = signal.set_wakeup_fd(self._write, warn_on_full_buffer=False)
        self._thread = threading.Thread(target=self._watch, name="loaderlab_sigterm_watch", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while True:
            try:
                data = os.read(self._read, 64)
            except OSError:
                return
            if not data:  # the pipe was closed: the job is over
                return
            if signal.SIGTERM not in data or signal.getsignal(signal.SIGTERM) is not self.handler:
                continue  # another signal, or the script handles SIGTERM itself (a checkpoint on preemption…)
            if not self.handled.wait(GRACE_S):
                self.on_stuck()
                os._exit(128 + signal.SIGTERM)

    def stop(self) -> None:
        """The job is closing on its own: never end it from here."""
        self.handled.set()
        try:
            signal.set_wakeup_fd(self._previous)
        except ValueError:  # not the main thread (cannot happen from Job.run)
            pass
        os.close(self._write)
        self._thread.join(timeout=1)
        os.close(self._read)
