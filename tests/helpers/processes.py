"""Child-process bookkeeping and a hang guard shared by the tests that start workers.

A worker is "left over" when it is a child of the test process that was not there when the test began and
is not one of multiprocessing's own long-lived helpers (resource tracker, forkserver). Checks wait with
``psutil.wait_procs`` (bounded), never with sleeps.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager

import psutil

MP_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def process_key(p: psutil.Process):
    """A process's identity: its pid and start time (a pid alone may be reused)."""
    try:
        return (p.pid, p.create_time())
    except psutil.Error:
        return (p.pid, None)


def is_mp_helper(p: psutil.Process) -> bool:
    """multiprocessing's own long-lived helpers (not DataLoader workers)."""
    try:
        return any(h in " ".join(p.cmdline()) for h in MP_HELPERS)
    except psutil.Error:
        return False


def children() -> list[psutil.Process]:
    return psutil.Process().children(recursive=True)


def baseline() -> set:
    return {process_key(p) for p in children()}


def new_children(before: set) -> list[psutil.Process]:
    return [p for p in children() if process_key(p) not in before and not is_mp_helper(p)]


def still_alive(before: set, timeout: float) -> list[psutil.Process]:
    """The processes started since ``before`` that have not exited within ``timeout`` seconds."""
    _, alive = psutil.wait_procs(new_children(before), timeout=timeout)
    return [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]


@contextmanager
def hang_guard(limit_s: int):
    """A hung loader fails its test (TimeoutError after ``limit_s``) instead of hanging the whole run."""

    def on_alarm(signum, frame):
        raise TimeoutError(f"test did not finish within {limit_s} s (loader hung?)")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(limit_s)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def live_children(parent: psutil.Process | None = None) -> list[psutil.Process]:
    """``parent``'s (default: this process's) living descendants, multiprocessing's own helpers left out:
    a spawn-started resource tracker lives as long as the test process, and is no DataLoader worker."""
    found = []
    for p in (parent or psutil.Process()).children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE and not is_mp_helper(p):
                found.append(p)
        except psutil.NoSuchProcess:
            pass
    return found
