"""The fair run queue: order, place, estimate, shared tickets, abandonment, and the blocking form.

A fake clock drives time (no sleeps); the blocking form is checked with threads joined on events.
"""

from __future__ import annotations

import threading

import pytest

from loaderlab.scenarios.limits import ServerBusy
from loaderlab.scenarios.queue import FairQueue
from tests.helpers.clock import Clock


@pytest.fixture
def clock():
    return Clock()


def started(log):
    return lambda ticket: log.append(ticket.key) or f"run {ticket.key}"


def test_first_come_first_served_and_a_slot_never_idles(clock):
    log: list = []
    queue = FairQueue(2, clock=clock)
    a, b, c, d = (queue.join(k, started(log)) for k in "abcd")
    assert log == ["a", "b"]  # two slots: granted at once, their work started
    assert a.granted.is_set() and a.result == "run a"
    assert [queue.place(t) for t in (a, b, c, d)] == [0, 0, 1, 2]
    queue.release(b)
    assert log == ["a", "b", "c"] and c.granted.is_set() and queue.place(d) == 1
    queue.release(a)
    assert log == ["a", "b", "c", "d"]
    assert queue.waiting() == 0 and queue.running() == 2


def test_identical_requests_share_one_ticket_and_the_last_leaver_drops_it(clock):
    log: list = []
    queue = FairQueue(1, clock=clock)
    queue.join("busy", started(log))
    first = queue.join("same", started(log))
    assert queue.join("same", started(log)) is first and first.watchers == 2
    other = queue.join("other", started(log))
    queue.leave(first)
    assert queue.place(first) == 1  # one watcher is still waiting
    queue.leave(first)
    assert first.dropped and queue.place(other) == 1
    queue.release(queue._running[0])
    assert log == ["busy", "other"]  # the dropped ticket never ran


def test_a_ticket_nobody_polls_is_skipped_when_its_turn_comes(clock):
    log: list = []
    queue = FairQueue(1, abandon_s=3.0, clock=clock)
    busy = queue.join("busy", started(log))
    gone = queue.join("gone", started(log))
    here = queue.join("here", started(log))
    clock.now += 2.0
    queue.touch(here)
    assert queue.place(here) == 2
    clock.now += 2.0  # "gone" has been silent 4 s, "here" 2 s
    queue.touch(here)
    assert queue.place(here) == 1 and queue.waiting() == 1
    queue.release(busy)
    assert log == ["busy", "here"] and gone.dropped and not gone.granted.is_set()


def test_the_estimate_replays_the_line_with_measured_durations(clock):
    queue = FairQueue(2, default_run_s=1.0, clock=clock)
    a, b = queue.join("a"), queue.join("b")
    c, d, e = queue.join("c"), queue.join("d"), queue.join("e")
    # nothing measured yet: 1 s per run; a and b started now
    assert [queue.estimate_s(t) for t in (c, d, e)] == [1.0, 1.0, 2.0]
    clock.now += 4.0
    for t in (c, d, e):
        queue.touch(t)
    queue.release(a)  # a took 4 s: the median of what was measured is now 4 s
    assert queue.typical_run_s() == 4.0 and c.granted.is_set()
    # b has run 4 s (its typical time is up: its slot counts as free now), c just started
    assert queue.estimate_s(d) == 0.0 and queue.estimate_s(e) == 4.0
    assert queue.estimate_s(c) == 0.0  # granted: no wait


def test_a_failing_grant_gives_the_slot_to_the_next(clock):
    def boom(ticket):
        raise RuntimeError("could not start")

    queue = FairQueue(1, clock=clock)
    busy = queue.join("busy")
    bad = queue.join("bad", boom)
    good = queue.join("good")
    queue.release(busy)
    assert isinstance(bad.result, RuntimeError) and bad.granted.is_set()
    assert good.granted.is_set() and queue.running() == 1


def test_the_blocking_form_waits_its_turn_in_order():
    queue = FairQueue(1)
    order: list[str] = []
    queue.__enter__()  # someone holds the only slot

    def user(name: str) -> None:
        with queue:
            order.append(name)

    first = threading.Thread(target=user, args=("first",))
    first.start()
    while queue.waiting() < 1:  # a bounded hand-off: the thread has joined the line
        threading.Event().wait(0.01)
    second = threading.Thread(target=user, args=("second",))
    second.start()
    while queue.waiting() < 2:
        threading.Event().wait(0.01)
    queue.__exit__(None, None, None)
    first.join(10), second.join(10)
    assert order == ["first", "second"] and queue.running() == 0


def test_the_blocking_form_says_busy_after_its_wait_and_leaves_the_line():
    queue = FairQueue(1, wait_s=0.05)
    with queue:
        with pytest.raises(ServerBusy, match=r"LOADERLAB_MAX_CONCURRENT_RUNS=1"):
            with queue:
                pass
        assert queue.waiting() == 0
    with queue:  # the slot was given back
        assert queue.running() == 1


def test_size_must_be_positive():
    with pytest.raises(ValueError, match="size must be a whole number ≥ 1; got 0"):
        FairQueue(0)


def test_a_ticket_granted_as_its_wait_runs_out_is_a_turn_not_busy():
    """The grant is decided under the lock and announced after it: a waiter whose wait ends in between must
    take its turn (raising ServerBusy there left the ticket holding its slot with nobody to release it)."""
    queue = FairQueue(1, wait_s=0.0)
    hold = queue.join("hold")
    granting, announce = threading.Event(), threading.Event()

    class Granted(threading.Event):
        def wait(self, timeout=None):
            if timeout is None:  # the waiter now waits for the announcement: let it be made
                announce.set()
            return super().wait(timeout)

    ticket = queue.join("mine", lambda t: granting.set() or (announce.wait(10) and "started"))
    ticket.granted = Granted()
    releaser = threading.Thread(target=queue.release, args=(hold,))
    releaser.start()  # grants "mine" under the lock, then blocks announcing it until the waiter waits
    assert granting.wait(10)
    queue.await_turn(ticket)
    releaser.join(10)
    assert ticket.result == "started" and queue.running() == 1
    queue.release(ticket)
    assert queue.running() == 0
