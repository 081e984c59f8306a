"""A run watched live: background runs by config, the live snapshot of a stalled worker, Stop, orphans.

The registry and the snapshot are tested without streamlit (``loaderlab.scenarios.background``); the page
is tested with AppTest, which cannot click while its script runs: a helper thread waits (on the registry's
condition, then for the stall) and presses Stop through the button's own callback. Processes are checked
with psutil (``no_leftover_workers``), never with sleeps; no timing is asserted.
"""

from __future__ import annotations

import threading
from dataclasses import replace
from pathlib import Path

import pytest

from loaderlab.engine import events as ev
from loaderlab.engine.interrupt import Abandoned, StopAsked
from loaderlab.scenarios.background import RunRegistry
from loaderlab.scenarios.limits import ServerBusy
from loaderlab.scenarios.queue import FairQueue
from loaderlab.scenarios.run import RunConfig
from loaderlab.trace.core.run import UserStopped

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)

ROOT = Path(__file__).resolve().parents[2]
HUNG = RunConfig(n_samples=200, cost_ms=0.2, consumer_ms=0.0, num_workers=2, fault="hang", fault_index=37)
STALL_S = 1.5
WAIT_S = 60  # bounds for waits on the run; none is expected to take long


def test_the_live_snapshot_names_the_stuck_worker_and_stop_ends_the_run(no_leftover_workers):
    registry = RunRegistry(FairQueue(1))
    handle = registry.start(HUNG, seconds=120)
    assert registry.start(HUNG, seconds=120) is handle  # a rerun of the page re-attaches, no second run
    handle.attach()
    snap = handle.wait_stalled(STALL_S, timeout=WAIT_S)
    assert snap is not None, "the hung run never stalled"
    assert snap.batches == 2 and snap.events > 0  # batches 0 and 1 came; batch 2 holds index 37
    stuck = snap.quiet_workers()[0]
    assert (stuck.worker, stuck.kind, stuck.index, stuck.batch) == (0, ev.FETCH_BEGIN, 37, 2)
    assert snap.ago_s(stuck) >= STALL_S - 0.5  # its fetch began before the stall (the loop's own slack)
    assert registry.stop(HUNG, UserStopped())  # what the page's Stop button gives the run
    assert handle.wait(WAIT_S)
    handle.detach()
    stopped = handle.outcome.stop
    assert isinstance(stopped, UserStopped)
    [worker] = stopped.stuck
    assert (worker.worker, worker.index) == (0, 37) and "inject_fault" in worker.stack
    assert registry.collect(HUNG) is handle and registry.get(HUNG) is None
    no_leftover_workers("after the user stopped a hung run")
    assert registry.queue.running() == 0  # the run gave its slot back


def test_a_run_no_page_waits_for_is_stopped_and_forgotten(no_leftover_workers):
    registry = RunRegistry(FairQueue(1))
    handle = registry.start(HUNG, seconds=120)
    handle.attach()
    handle.detach()  # the tab closed (or its settings changed) and nobody re-attached
    assert handle.wait(WAIT_S)
    assert handle.abandoned and isinstance(handle.guard.reason, Abandoned)
    assert registry.get(HUNG) is None and registry.collect(HUNG) is None  # a later visit runs afresh
    no_leftover_workers("after an abandoned run")


def test_a_rerun_that_re_attaches_keeps_the_run_going(no_leftover_workers):
    registry = RunRegistry(FairQueue(1))
    config = replace(HUNG, fault="none", n_samples=400, cost_ms=2.0)
    handle = registry.start(config, seconds=120)
    handle.attach()
    handle.detach()  # the old script run was interrupted…
    registry.start(config, seconds=120).attach()  # …and the new one re-attached within the grace
    assert handle.wait(WAIT_S)
    assert not handle.abandoned and handle.outcome.stop is None
    assert int((handle.outcome.events["kind"] == ev.BATCH_YIELD).sum()) == 25
    no_leftover_workers("after a re-attached run")


def test_a_second_config_waits_in_line_and_starts_when_the_slot_frees(no_leftover_workers):
    registry = RunRegistry(FairQueue(1))
    handle = registry.start(HUNG, seconds=120)
    handle.attach()
    quick = replace(HUNG, fault="none", n_samples=32)
    ticket = registry.request(quick, seconds=120)
    assert registry.request(quick, seconds=120) is ticket  # the same settings share the place in line
    assert registry.queue.place(ticket) == 1 and not ticket.granted.is_set()
    handle.stop(StopAsked("test over"))
    assert handle.wait(WAIT_S)
    handle.detach()
    assert ticket.granted.wait(WAIT_S)  # its turn came when the hung run ended: the run started by itself
    queued = ticket.result
    queued.attach()
    assert queued.wait(WAIT_S) and queued.config == quick and queued.outcome.stop is None
    queued.detach()
    no_leftover_workers("after the queued run")


def test_the_blocking_start_says_busy_after_the_queues_wait(no_leftover_workers):
    registry = RunRegistry(FairQueue(1, wait_s=0.2))
    handle = registry.start(HUNG, seconds=120)
    handle.attach()
    with pytest.raises(ServerBusy):
        registry.start(replace(HUNG, seed=1), seconds=120)
    assert registry.queue.waiting() == 0  # it left the line
    handle.stop(StopAsked("test over"))
    assert handle.wait(WAIT_S)
    handle.detach()
    no_leftover_workers("after the busy check")


# --- the page --------------------------------------------------------------------------------------


@pytest.fixture
def fresh_cache():
    import streamlit as st

    st.cache_data.clear()
    yield
    st.cache_data.clear()


def _press_stop_when_stalled(seen: dict) -> None:
    """The helper thread: what a user does — wait for the stall, read the status, press Stop."""
    from loaderlab.ui.live_run import live_registry, status_text, stop_run

    handle = live_registry().wait_for_run(WAIT_S)
    if handle is None:
        return
    snap = handle.wait_stalled(STALL_S, timeout=WAIT_S)
    if snap is not None:
        seen["status"] = status_text(snap)
    stop_run(handle.config)


def test_the_page_names_the_stalled_worker_and_stop_shows_its_stack(fresh_cache, no_leftover_workers):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=120)
    for key, value in {"fault": "hang", "fault_index": 37, "n_samples": 200, "cost_ms": 0.2}.items():
        at.session_state[key] = value
    seen: dict = {}
    helper = threading.Thread(target=_press_stop_when_stalled, args=(seen,), daemon=True)
    helper.start()
    at.run()
    helper.join(WAIT_S)
    assert not at.exception
    lines = seen["status"].split("  \n")
    assert lines[0].startswith("Run in progress: ") and lines[1].startswith("**No batch for ")
    assert lines[2].startswith("worker 0: last event fetch_begin (index 37) ") and lines[2].endswith(" s ago")
    assert at.warning[0].value == "You stopped this run: below is the trace up to then."
    assert at.error[0].value.startswith("Worker 0 (pid ") and "stuck inside dataset[37]" in at.error[0].value
    stack = next(e for e in at.expander if e.label.startswith("Where worker 0 was stuck"))
    assert "inject_fault" in stack.code[0].value
    assert not [b for b in at.button if b.label == "Stop this run"]  # the status and button are gone
    no_leftover_workers("after the page's run was stopped")
    at.run()  # a rerun is served from the cache: the same report, no new run
    assert at.warning[0].value == "You stopped this run: below is the trace up to then."


class _Quick:
    """A run watched by a page: it ends after ``looks`` polls, ``elapsed`` seconds into it at each."""

    def __init__(self, elapsed: list[float]) -> None:
        from loaderlab.engine.interrupt import RunGuard

        self.elapsed, self.guard = list(elapsed), RunGuard(30)

    def attach(self) -> None:
        pass

    def detach(self) -> None:
        pass

    def wait(self, timeout: float) -> bool:
        return not self.elapsed  # done once every look is taken

    def snapshot(self):
        from loaderlab.trace.recording.live import LiveSnapshot

        now = int(self.elapsed.pop(0) * 1e9)
        return LiveSnapshot(events=10, batches=2, started_ns=0, last_batch_ns=now, now_ns=now, workers=())


@pytest.mark.parametrize("elapsed, boxes", [([0.5], 0), ([0.5, 1.0, 1.5], 2)])
def test_a_quick_run_sends_no_live_status(monkeypatch, elapsed, boxes):
    """A run shorter than QUIET_S shows only the spinner: its status would have been drawn and removed, each a
    render of the attendee's page. A longer one gets its status (and the Stop button's place) from QUIET_S."""
    from loaderlab.ui import live_run

    made, checkpoints = [], []

    class Box:
        def __init__(self) -> None:
            made.append(self)

        def info(self, text: str) -> None:
            pass

        warning = info

        def empty(self) -> None:
            pass

    monkeypatch.setattr(live_run.st, "empty", Box)
    monkeypatch.setattr(live_run, "checkpoint", lambda: checkpoints.append(1))
    live_run._watch(_Quick(elapsed), RunConfig())
    assert len(made) == boxes
    assert len(checkpoints) == sum(e < live_run.QUIET_S for e in elapsed)
