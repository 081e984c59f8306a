"""Runs that go on in a background thread while pages watch them, one per configuration, server-wide.

Twin of nothing in torch. A page asks a ``RunRegistry`` for ``config``'s run: ``start`` returns the run
already in progress for that config (a rerun of the page, or another visitor, re-attaches to it) or takes
a run slot and starts one in a daemon thread. ``request`` does not block: when every slot is taken it
returns the config's :class:`~.queue.Ticket` in the server's fair queue (:mod:`.queue`), and the run starts
by itself when the ticket's turn comes (``ticket.result`` is then the run); ``start`` is the blocking form
(``ServerBusy`` after the queue's ``wait_s``). While it
runs, any thread may read ``run.snapshot()`` (a :class:`loaderlab.trace.recording.live.LiveSnapshot`) and call
``run.stop(reason)``; the run itself never touches the pages. When it ends, its outcome waits in the
registry until a page ``collect``s it: the trace, a ``FailureReport``, or the exception it raised.

Watchers say ``attach()`` / ``detach()``. A run no page has watched for ``ORPHAN_GRACE_S`` is stopped
with ``Abandoned`` and its outcome dropped (nobody asked for a stopped trace); a run whose page stays
open goes on until it ends, the user stops it, or the time cap (``LOADERLAB_MAX_RUN_SECONDS``) passes.
Knows nothing of streamlit.
"""

from __future__ import annotations

import threading
from typing import Any

from ..engine.interrupt import Abandoned, RunGuard
from ..trace.recording.live import LiveSnapshot, LiveView
from .queue import FairQueue, Ticket
from .run import RunConfig, RunFailed, run

ORPHAN_GRACE_S = 1.5  # a page rerun re-attaches well within this; a closed tab's run stops after it
KEEP_FINISHED = 8  # finished outcomes nobody collected (a tab closed at the end) are dropped beyond this


class BackgroundRun:
    """One run in progress (or finished, waiting to be collected). Thread-safe."""

    def __init__(self, config: RunConfig, seconds: float) -> None:
        self.config = config
        self.guard = RunGuard(seconds)
        self.view = LiveView()
        self.done = threading.Event()
        self.outcome: Any = None  # the trace (pd.DataFrame) or a FailureReport
        self.error: BaseException | None = None  # anything else run() raised
        self.abandoned = False  # stopped because no page waited for it: its outcome is dropped
        self._watchers = 0
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        self.ticket: Ticket | None = None  # its place in the queue, released when it ends

    def snapshot(self) -> LiveSnapshot:
        return self.view.snapshot()

    def stop(self, reason) -> None:
        """Ask the run to stop (``StopAsked``…): its workers' stacks are taken, they are shut down, and the
        trace so far becomes the outcome."""
        self.guard.stop(reason)

    def wait(self, timeout: float | None = None) -> bool:
        return self.done.wait(timeout)

    def attach(self) -> None:
        with self._lock:
            self._watchers += 1
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    def detach(self) -> None:
        with self._lock:
            self._watchers -= 1
            if self._watchers == 0 and not self.done.is_set():
                self._timer = threading.Timer(ORPHAN_GRACE_S, stop_if_unwatched, args=(self,))
                self._timer.daemon = True
                self._timer.start()

    def wait_stalled(self, seconds: float, timeout: float) -> LiveSnapshot | None:
        """Block until no batch has been handed over for ``seconds`` (the snapshot then), or None when the
        run ended or ``timeout`` passed first. A time-based condition: checked every 0.1 s."""
        waited = 0.0
        while waited < timeout:
            snap = self.snapshot()
            if snap.since_batch_s >= seconds:
                return snap
            if self.done.wait(0.1):
                return None
            waited += 0.1
        return None


def stop_if_unwatched(handle: BackgroundRun) -> None:
    """The orphan timer: stop ``handle`` if still no page watches it."""
    with handle._lock:
        handle._timer = None
        if handle._watchers == 0 and not handle.done.is_set():
            handle.abandoned = True
            handle.guard.stop(Abandoned(ORPHAN_GRACE_S))


def execute(handle: BackgroundRun, registry: RunRegistry) -> None:
    """The background thread: record ``handle.config``, keep the outcome, give the slot back."""
    try:
        handle.outcome = run(handle.config, guard=handle.guard, live=handle.view)
    except RunFailed as exc:
        handle.outcome = exc.report
    except BaseException as exc:  # noqa: BLE001 - shown by the page that collects it
        handle.error = exc
    finally:
        registry.finished(handle)


class RunRegistry:
    """Server-wide: the background runs by config, and the fair queue of run slots they hold."""

    def __init__(self, queue: FairQueue) -> None:
        self.queue = queue
        self._runs: dict[RunConfig, BackgroundRun] = {}
        self._changed = threading.Condition()

    def get(self, config: RunConfig) -> BackgroundRun | None:
        with self._changed:
            return self._runs.get(config)

    def running(self) -> list[BackgroundRun]:
        with self._changed:
            return [h for h in self._runs.values() if not h.done.is_set()]

    def request(self, config: RunConfig, seconds: float) -> BackgroundRun | Ticket:
        """``config``'s run (in progress, or finished and not yet collected), a new one in a free slot, or —
        every slot taken — its ticket in the queue: the run starts when the ticket's turn comes. A page that
        waits on a ticket ``queue.touch``es it as it polls and ``queue.leave``s it when it goes."""
        with self._changed:
            handle = self._runs.get(config)
            if handle is not None:
                return handle
        ticket = self.queue.join(config, lambda t: self._launch(config, seconds, t))
        return ticket.result if isinstance(ticket.result, BackgroundRun) else ticket

    def start(self, config: RunConfig, seconds: float) -> BackgroundRun:
        """Blocking :meth:`request`: waits up to ``queue.wait_s`` for the ticket's turn, then ServerBusy."""
        got = self.request(config, seconds)
        if isinstance(got, BackgroundRun):
            return got
        self.queue.await_turn(got)
        if isinstance(got.result, BaseException):
            raise got.result
        return got.result

    def _launch(self, config: RunConfig, seconds: float, ticket: Ticket) -> BackgroundRun:
        """The ticket's turn (called by the queue, outside its lock): start the run in a daemon thread.
        Until a page attaches, the run is unwatched: the orphan timer stops it if none comes."""
        with self._changed:
            existing = self._runs.get(config)
            if existing is None:
                handle = self._runs[config] = BackgroundRun(config, seconds)
                handle.ticket = ticket
                self._changed.notify_all()
        if existing is not None:  # the same settings got a run meanwhile: give the slot back
            self.queue.release(ticket)
            return existing
        handle.attach()
        handle.detach()  # the waiting page attaches within its poll; a page that left never does
        threading.Thread(target=execute, args=(handle, self), name="loaderlab_background_run", daemon=True).start()
        return handle

    def stop(self, config: RunConfig, reason) -> bool:
        """Stop ``config``'s run if one is in progress; True if there was one."""
        handle = self.get(config)
        if handle is None or handle.done.is_set():
            return False
        handle.stop(reason)
        return True

    def collect(self, config: RunConfig) -> BackgroundRun | None:
        """Take ``config``'s finished run out of the registry (None while it runs, or if there is none)."""
        with self._changed:
            handle = self._runs.get(config)
            if handle is None or not handle.done.is_set():
                return None
            del self._runs[config]
            return handle

    def finished(self, handle: BackgroundRun) -> None:
        """Called by the run's thread at its end."""
        with self._changed:
            stopped = getattr(handle.outcome, "stop", None)  # a Run's; a FailureReport has none
            if handle.abandoned and stopped and self._runs.get(handle.config) is handle:
                del self._runs[handle.config]  # nobody asked for this stopped trace: a later visit reruns
            done = [c for c, h in self._runs.items() if h.done.is_set()]
            for config in done[:max(0, len(done) - KEEP_FINISHED + 1)]:
                del self._runs[config]
            handle.done.set()
            self._changed.notify_all()
        if handle.ticket is not None:
            self.queue.release(handle.ticket)  # after the outcome is kept: the next in line may start now

    def wait_for_run(self, timeout: float) -> BackgroundRun | None:
        """Block until some run is in progress (tests and tools); None after ``timeout``."""
        with self._changed:
            self._changed.wait_for(lambda: any(not h.done.is_set() for h in self._runs.values()), timeout)
            return next((h for h in self._runs.values() if not h.done.is_set()), None)
