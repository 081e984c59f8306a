"""Without a measurement the model prints no "N x faster" (issue 33, item 4, as issue 34 item 5 asks): a
suggestion says which way to move a setting, the range where the model has one, and the command that measures
it; its JSON keeps ``change`` and ``speedup`` (null: nothing measured) with ``measured`` false. And it never
proposes ``num_workers=0`` where it cannot see what that costs: a loop whose torch threads the trace does not
know (a sample's torch ops run with intra-op threads there), or slow samples that would serialise in the loop.

Synthetic traces (:mod:`tests.helpers.simulated`) and a stated cost model: no timing.
"""

from __future__ import annotations

import re
from dataclasses import replace

from loaderlab.trace.diagnosis.summary import summarise
from loaderlab.trace.diagnosis.bottleneck import in_loop_unseen, Verdict
from loaderlab.trace.diagnosis.suggestions import candidates, Suggestion
from tests.helpers.simulated import BATCH, simulate
from tests.trace.diagnosis.test_predict import costs

CONSUMER = Verdict("consumer", "consumer_shared", {})


def _proposed(run) -> list[dict]:
    return [change for change, _ in candidates(CONSUMER, summarise(run), costs(num_workers=3), run)]


def test_num_workers_0_needs_a_loop_known_to_run_one_torch_thread():
    run = simulate(step_s=0.02)
    assert in_loop_unseen(run, summarise(run)) == "threads"
    assert {"num_workers": 0} not in _proposed(run)
    run = simulate(step_s=0.02)
    run.extra["torch_threads"] = 1
    assert in_loop_unseen(run, summarise(run)) is None
    assert {"num_workers": 0} in _proposed(run)


def test_num_workers_0_is_never_proposed_where_slow_samples_would_serialise_in_the_loop():
    run = simulate(slow_index=5 * BATCH + 3)
    run.extra["torch_threads"] = 1
    assert in_loop_unseen(run, summarise(run)) == "serial"
    assert {"num_workers": 0} not in _proposed(run)


def test_a_suggestion_prints_a_direction_a_range_and_the_command_never_a_speed_up():
    s = Suggestion({"num_workers": 4}, 2.95, 306.0, 904.0, span=(2, 4), direction="more_workers")
    for lang in ("en", "ko"):
        said = s.text(lang)
        assert "run --tune" in said and not re.search(r"\d\.\d\dx|2\.95|904", said)
    assert "num_workers=2, up to num_workers=4" in s.text("en") and "more workers" in s.text("en")
    doc = s.as_dict()
    assert doc["change"] == {"num_workers": 4} and doc["speedup"] is None and doc["measured"] is False
    assert doc["range"] == [2, 4] and "samples_per_s_after" not in doc


def test_no_worker_count_is_proposed_for_an_iterable_dataset():
    # each worker replays the whole stream unless the dataset shards by get_worker_info, and run --tune cannot
    # switch it either: a num_workers change would be a claim about batches the model cannot see
    run = simulate(step_s=0.02)
    run.extra["torch_threads"] = 1
    assert {"num_workers": 0} in _proposed(run)
    iterable = replace(run, loader={**run.loader, "iterable": True})
    assert not [c for c in _proposed(iterable) if "num_workers" in c]
