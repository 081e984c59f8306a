"""A fair queue for the server's run slots: first come, first served, with a place and an estimate.

Twin of nothing in torch. The server runs at most ``size`` loaders at once (``LOADERLAB_MAX_CONCURRENT_RUNS``:
overlapping runs share the cores and distort each other's timings). A request that finds every slot taken
is not turned away: it ``join``s the line and gets a :class:`Ticket`. When a slot frees, the oldest live
ticket is *granted*: its ``granted`` event is set and its ``on_grant`` callback (say, "start this run") is
called, so a slot never idles while someone waits. Requests with the same ``key`` (identical settings) share
one ticket. ``place`` and ``estimate_s`` say where a ticket stands: the estimate replays the line against
the median of recently measured run durations (``DEFAULT_RUN_S`` until a run has been measured).

Abandonment: a page that waits for its ticket ``touch``es it as it polls; a ticket nobody touched for
``abandon_s`` (a closed tab) is dropped when its turn comes, and ``leave`` drops it at once (changed
settings). ``with queue:`` is the blocking form for code with no page to show a place (it waits up to
``wait_s``, then raises :class:`~.limits.ServerBusy`).

Knows nothing of runs or streamlit: a key is any hashable value, the clock is injectable for tests.
"""

from __future__ import annotations

import statistics
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from typing import Any

from .limits import ServerBusy

ABANDON_S = 3.0  # a waiting page polls twice a second: this many seconds of silence means it is gone
BLOCKING_WAIT_S = 120.0  # ``with queue:`` waits this long before giving up (only code with no page uses it)
DEFAULT_RUN_S = 0.5  # one default run on 2 cores (measured 0.36–0.47 s) until the server has measured its own
RECENT = 20  # how many recent run durations the estimate reads


class Ticket:
    """One place in line (shared by the requests with the same key). ``granted`` is set when its turn
    comes; ``result`` then holds what ``on_grant`` returned."""

    def __init__(self, key: Hashable, now: float, on_grant: Callable[["Ticket"], Any] | None,
                 abandonable: bool) -> None:
        self.key = key
        self.joined_at = self.seen_at = now
        self.on_grant = on_grant
        self.abandonable = abandonable
        self.watchers = 1
        self.granted = threading.Event()
        self.granted_at: float | None = None
        self.result: Any = None
        self.dropped = False  # left or abandoned before its turn

    def __repr__(self) -> str:
        return f"Ticket({self.key!r}, granted={self.granted.is_set()}, dropped={self.dropped})"


class FairQueue:
    """At most ``size`` granted tickets at once; the others wait in order. Thread-safe; one per server."""

    def __init__(self, size: int, *, wait_s: float = BLOCKING_WAIT_S, abandon_s: float = ABANDON_S,
                 default_run_s: float = DEFAULT_RUN_S, clock: Callable[[], float] = time.monotonic) -> None:
        if size < 1:
            raise ValueError(f"size must be a whole number ≥ 1; got {size!r}")
        self.size, self.wait_s, self.abandon_s = size, wait_s, abandon_s
        self.default_run_s, self.clock = default_run_s, clock
        self._waiting: deque[Ticket] = deque()
        self._running: list[Ticket] = []
        self._durations: deque[float] = deque(maxlen=RECENT)
        self._lock = threading.Lock()
        self._held = threading.local()  # the tickets ``with queue:`` holds, per thread

    # --- joining and leaving --------------------------------------------------------------------------

    def join(self, key: Hashable, on_grant: Callable[[Ticket], Any] | None = None, *,
             abandonable: bool = True) -> Ticket:
        """A ticket for ``key``: the waiting one with the same key (one more watcher), or a new one at the
        end of the line. If a slot is free and nobody waits ahead, it is granted before this returns."""
        with self._lock:
            now = self.clock()
            for ticket in self._waiting:
                if ticket.key == key and not self._gone(ticket, now):
                    ticket.watchers += 1
                    ticket.seen_at = now
                    return ticket
            ticket = Ticket(key, now, on_grant, abandonable)
            self._waiting.append(ticket)
            granted = self._grant(now)
        self._announce(granted)
        return ticket

    def touch(self, ticket: Ticket) -> None:
        """The ticket's page is still there (it polls)."""
        with self._lock:
            ticket.seen_at = self.clock()

    def leave(self, ticket: Ticket) -> None:
        """One watcher stopped waiting (its page reran with other settings); the last one takes the ticket
        out of the line. A granted ticket is not affected (``release`` ends it)."""
        with self._lock:
            if ticket.granted_at is not None or ticket.dropped:  # granted (its work may be starting): too late
                return
            ticket.watchers -= 1
            if ticket.watchers <= 0:
                self._drop(ticket)

    def release(self, ticket: Ticket) -> None:
        """A granted ticket's work is over: its slot goes to the next in line; its duration is measured."""
        with self._lock:
            now = self.clock()
            if ticket in self._running:
                self._running.remove(ticket)
                self._durations.append(now - ticket.granted_at)
            granted = self._grant(now)
        self._announce(granted)

    # --- where a ticket stands ------------------------------------------------------------------------

    def place(self, ticket: Ticket) -> int:
        """1 for the next in line; 0 once granted (or dropped)."""
        with self._lock:
            now = self.clock()
            live = [t for t in self._waiting if not self._gone(t, now)]
            return live.index(ticket) + 1 if ticket in live else 0

    def typical_run_s(self) -> float:
        with self._lock:
            return self._typical()

    def estimate_s(self, ticket: Ticket) -> float:
        """Seconds until ``ticket``'s turn if every run takes the typical (median recent) time: the running
        runs end when their typical time is up, then each ticket ahead takes the earliest free slot."""
        with self._lock:
            now = self.clock()
            if ticket not in self._waiting:
                return 0.0
            typical = self._typical()
            free_at = sorted([max(typical - (now - t.granted_at), 0.0) for t in self._running]
                             + [0.0] * (self.size - len(self._running)))
            for waiting in self._waiting:
                if self._gone(waiting, now):
                    continue
                start = free_at.pop(0)
                if waiting is ticket:
                    return start
                free_at.append(start + typical)
                free_at.sort()
            return 0.0

    def waiting(self) -> int:
        with self._lock:
            now = self.clock()
            return sum(not self._gone(t, now) for t in self._waiting)

    def running(self) -> int:
        with self._lock:
            return len(self._running)

    # --- the blocking form ----------------------------------------------------------------------------

    def await_turn(self, ticket: Ticket) -> None:
        """Block up to ``wait_s`` for ``ticket``'s turn. If it does not come, this waiter leaves the line
        (as :meth:`leave`) and :class:`~.limits.ServerBusy` is raised. A ticket granted just as the wait ran
        out counts as granted: ``granted_at`` is set under the lock before ``granted`` is (outside it), and
        reading only the event would leave that ticket holding its slot with nobody to release it."""
        if ticket.granted.wait(self.wait_s):
            return
        with self._lock:
            granted = ticket.granted_at is not None
            running = len(self._running)
        if granted:
            ticket.granted.wait()  # its grant is being announced this moment
            return
        self.leave(ticket)
        raise ServerBusy(f"The server is busy: {running} run(s) in progress and others waiting "
                         f"(LOADERLAB_MAX_CONCURRENT_RUNS={self.size}); waited {self.wait_s:g} s.")

    def __enter__(self) -> Ticket:
        ticket = self.join(object(), abandonable=False)  # a key of its own: never shared
        self.await_turn(ticket)
        self._held.__dict__.setdefault("tickets", []).append(ticket)
        return ticket

    def __exit__(self, *exc) -> None:
        self.release(self._held.tickets.pop())

    # --- inside the lock ------------------------------------------------------------------------------

    def _typical(self) -> float:
        return statistics.median(self._durations) if self._durations else self.default_run_s

    def _gone(self, ticket: Ticket, now: float) -> bool:
        return ticket.dropped or (ticket.abandonable and now - ticket.seen_at > self.abandon_s)

    def _drop(self, ticket: Ticket) -> None:
        ticket.dropped = True
        if ticket in self._waiting:
            self._waiting.remove(ticket)

    def _grant(self, now: float) -> list[Ticket]:
        granted = []
        while self._waiting and len(self._running) < self.size:
            ticket = self._waiting.popleft()
            if self._gone(ticket, now):
                ticket.dropped = True
                continue
            ticket.granted_at = now
            self._running.append(ticket)
            granted.append(ticket)
        return granted

    def _announce(self, granted: list[Ticket]) -> None:
        """Outside the lock: start each granted ticket's work, then wake its waiters. A callback that fails
        gives the slot back at once (its error is kept as the result)."""
        for ticket in granted:
            try:
                ticket.result = ticket.on_grant(ticket) if ticket.on_grant else None
            except BaseException as exc:  # noqa: BLE001 - the waiter sees it
                ticket.result = exc
                ticket.granted.set()
                self.release(ticket)
                continue
            ticket.granted.set()
