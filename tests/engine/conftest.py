"""Shared fixtures for the engine tests."""

from __future__ import annotations

import pytest

from tests.helpers.processes import hang_guard

HANG_LIMIT_S = 90


@pytest.fixture(autouse=True)
def _hang_guard():
    with hang_guard(HANG_LIMIT_S):
        yield
