"""The iterator's and loader's public hooks a recorder uses (``loaderlab.trace.recording.session``) instead of privates."""

from __future__ import annotations

from loaderlab import DataLoader, ListTracer
from loaderlab.engine import events as ev
from tests.engine.traced_datasets import Squares
from tests.helpers.processes import baseline, still_alive


def test_a_loop_that_stops_early_gets_its_consumer_span_closed_once():
    loader = DataLoader(Squares(6), batch_size=2)
    loader.tracer = tracer = ListTracer()
    it = iter(loader)
    next(it)
    it.end_consumer_span()
    it.end_consumer_span()  # idempotent: a recorder may close it, then close the epoch
    ends = [e for e in tracer.snapshot() if e.kind == ev.CONSUMER_END]
    assert [(e.epoch, e.batch) for e in ends] == [(0, 0)]
    assert it.live_workers == set()
    it.stop_workers()  # nothing to stop in one process


def test_live_workers_and_release_of_persistent_workers():
    before = baseline()
    loader = DataLoader(Squares(8), batch_size=2, num_workers=2, persistent_workers=True)
    it = iter(loader)
    next(it)
    assert it.live_workers == {0, 1}
    loader.release_persistent_workers()
    assert it.live_workers == set()
    assert still_alive(before, timeout=10) == []
    assert iter(loader) is not it  # forgotten: the next epoch starts fresh workers
    loader.release_persistent_workers()
