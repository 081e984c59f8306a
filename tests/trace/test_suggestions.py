"""Suggestions are measured by replay, and the best one really speeds the planted workload up when re-run."""

from __future__ import annotations

import pytest

from loaderlab.trace.suggestions import candidates, suggest
from loaderlab.trace.summary import summarise
from loaderlab.trace.verdict import verdict
from tests.trace.planted import record_cause

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)

# Planted causes whose fix is large (2x and more on 2 busy cores), so that a real re-run shows it.
FIXABLE = ("ipc", "ipc_torch", "startup", "straggler", "workers", "main_process")


@pytest.mark.slow
@pytest.mark.parametrize("cause", FIXABLE)
def test_the_best_suggestion_speeds_the_real_workload_up(cause):
    frame = record_cause(cause)
    found = verdict(frame)
    best = suggest(frame, found)
    assert best, f"no suggestion for {found.kind}"
    assert best[0].change in [c for c, _ in candidates(found, summarise(frame))]
    assert best[0].speedup >= 1.2  # the replay says it is worth doing
    before = summarise(frame).samples_per_s
    after = summarise(record_cause(cause, **best[0].change)).samples_per_s
    assert after > 1.2 * before, (best[0].change, before, after)


def test_nothing_is_suggested_when_the_step_is_the_bottleneck():
    frame = record_cause("consumer")
    assert verdict(frame).kind == "consumer" and suggest(frame) == []


def test_suggestions_are_best_first_with_their_words():
    frame = record_cause("ipc")
    found = suggest(frame)
    assert [s.speedup for s in found] == sorted((s.speedup for s in found), reverse=True)
    for s in found:
        key, value = next(iter(s.change.items()))
        assert f"{key}={value}" in s.text("en") and f"{key}={value}" in s.text("ko")
