"""A pytest plugin for the torch-suite check: one outcome per test, and a per-test time limit.

Loaded with ``-p suite_plugin`` (this directory is on ``PYTHONPATH``). Writes one JSON line per test to
``LOADERLAB_SUITE_RESULTS``: ``{"test": node id, "outcome": "passed" | "failed" | "skipped", "phase": ...}``.
``LOADERLAB_SUITE_TEST_TIMEOUT`` (seconds, default 300) interrupts a test that hangs with ``TimeoutError``
(SIGALRM in the main thread), so that one hang does not stop the whole run.
"""

from __future__ import annotations

import json
import os
import signal

import pytest

_RESULTS = os.environ.get("LOADERLAB_SUITE_RESULTS")
_TIMEOUT_S = int(os.environ.get("LOADERLAB_SUITE_TEST_TIMEOUT", "300"))


def _on_alarm(signum, frame):
    raise TimeoutError(f"test ran past LOADERLAB_SUITE_TEST_TIMEOUT={_TIMEOUT_S} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    previous = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(_TIMEOUT_S)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def pytest_runtest_logreport(report):
    # One line per test: the call phase, or the setup phase when the test never got to run.
    if not _RESULTS or not (report.when == "call" or (report.when == "setup" and not report.passed)):
        return
    outcome = report.outcome
    if hasattr(report, "wasxfail"):
        outcome = "xfailed" if report.skipped else "xpassed"
    with open(_RESULTS, "a") as out:
        out.write(json.dumps({"test": report.nodeid, "outcome": outcome, "phase": report.when,
                              "duration_s": round(report.duration, 2),
                              "message": str(report.longrepr.reprcrash.message)[:500]
                              if report.failed and hasattr(report.longrepr, "reprcrash") else ""}) + "\n")
