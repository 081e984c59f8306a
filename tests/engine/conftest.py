"""Shared fixtures for the engine tests."""

from __future__ import annotations

import signal

import pytest

HANG_LIMIT_S = 90


@pytest.fixture(autouse=True)
def _hang_guard():
    """A hung loader fails its test instead of hanging the whole run."""

    def on_alarm(signum, frame):
        raise TimeoutError(f"test did not finish within {HANG_LIMIT_S} s (loader hung?)")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(HANG_LIMIT_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
