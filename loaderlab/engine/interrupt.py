"""Stopping a recording from outside the loop: a deadline and a stop flag the main process's waits check.

Twin of nothing in torch: torch's ``next()`` waits for a batch until it comes, the ``timeout`` passes or a
worker dies. A shared server also needs to stop a run that is merely too long, or whose worker is stuck
inside ``__getitem__`` with no ``timeout`` set. A recording hands its tracer a ``RunGuard``; while one is
set, the multi-process iterator waits in slices of ``POLL_S`` and calls ``guard.check()`` between them,
which raises ``RunStopped`` once the deadline has passed or someone called ``guard.stop(reason)`` (from
any thread). Without a guard nothing changes: batches, errors and waits are torch's.

Why a run stopped is a named reason (``TimeCap``, ``UnsentResult``, ``StopAsked``, ``Abandoned``), never a bare string.
Knows nothing of pandas.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

POLL_S = 0.1  # how often a guarded wait wakes to check its guard


@dataclass(frozen=True)
class TimeCap:
    """The run reached its wall-time cap."""

    seconds: float


@dataclass(frozen=True)
class UnsentResult:
    """A worker could not send a batch (it could not be pickled); torch would wait for it forever."""

    worker: int
    task: int
    message: str  # the pickler's own error, "RuntimeError: Cowardly refusing to serialize ..."


@dataclass(frozen=True)
class StopAsked:
    """Someone asked the run to stop (a server shutting down, a user leaving)."""

    why: str


@dataclass(frozen=True)
class Abandoned:
    """No page was waiting for the run any more (its tab closed, or its settings changed) for ``seconds``."""

    seconds: float


class RunStopped(Exception):
    """Raised from a guarded wait (or between batches) when the guard says stop."""

    def __init__(self, reason) -> None:
        super().__init__(reason)
        self.reason = reason


class RunGuard:
    """A deadline (``seconds`` from now, or none) and a stop flag; thread-safe."""

    def __init__(self, seconds: float | None = None) -> None:
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self._reason = None
        self._lock = threading.Lock()

    def stop(self, reason) -> None:
        """Ask the run to stop; the first reason given wins."""
        with self._lock:
            if self._reason is None:
                self._reason = reason

    @property
    def reason(self):
        """Why the run must stop, or None while it may go on."""
        if self._reason is None and self.deadline is not None and time.monotonic() >= self.deadline:
            self.stop(TimeCap(self.seconds))
        return self._reason

    def check(self) -> None:
        reason = self.reason
        if reason is not None:
            raise RunStopped(reason)
