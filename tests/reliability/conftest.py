"""Shared fixtures for the reliability tests: no worker may outlive a test, and a hung test fails."""

from __future__ import annotations

import pytest

from tests.helpers.processes import baseline, hang_guard, still_alive

HANG_LIMIT_S = 240


@pytest.fixture
def no_leftover_workers():
    """``check(what)``: every child process started since the test began has exited (bounded wait)."""
    before = baseline()

    def check(what: str, timeout: float = 10.0) -> None:
        alive = still_alive(before, timeout)
        assert not alive, f"{what}: processes still alive after {timeout} s: {[p.pid for p in alive]}"

    yield check
    check("at the end of the test")


@pytest.fixture(autouse=True)
def _hang_guard():
    with hang_guard(HANG_LIMIT_S):
        yield
