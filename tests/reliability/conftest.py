"""Shared fixtures for the reliability tests: no worker may outlive a test, and a hung test fails."""

from __future__ import annotations

import signal

import psutil
import pytest

HANG_LIMIT_S = 240
_MP_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def _key(p: psutil.Process):
    try:
        return (p.pid, p.create_time())
    except psutil.Error:
        return (p.pid, None)


def _is_mp_helper(p: psutil.Process) -> bool:
    try:
        return any(h in " ".join(p.cmdline()) for h in _MP_HELPERS)
    except psutil.Error:
        return False


def new_children(baseline: set) -> list[psutil.Process]:
    return [p for p in psutil.Process().children(recursive=True) if _key(p) not in baseline and not _is_mp_helper(p)]


@pytest.fixture
def no_leftover_workers():
    """``check(what)``: every child process started since the test began has exited (bounded wait)."""
    baseline = {_key(p) for p in psutil.Process().children(recursive=True)}

    def check(what: str, timeout: float = 10.0) -> None:
        _, alive = psutil.wait_procs(new_children(baseline), timeout=timeout)
        alive = [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        assert not alive, f"{what}: processes still alive after {timeout} s: {[p.pid for p in alive]}"

    yield check
    check("at the end of the test")


@pytest.fixture(autouse=True)
def _hang_guard():
    def on_alarm(signum, frame):
        raise TimeoutError(f"test did not finish within {HANG_LIMIT_S} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HANG_LIMIT_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
