"""Without a measurement the model prints no "N x faster" (issue 33, item 4, as issue 34 item 5 asks): a
suggestion says which way to move a setting, the range where the model has one, and the command that measures
it; its JSON keeps ``change`` and ``speedup`` (null: nothing measured) with ``measured`` false. And it never
proposes ``num_workers=0`` where it cannot see what that costs: a loop whose torch threads the trace does not
know (a sample's torch ops run with intra-op threads there), or slow samples that would serialise in the loop;
nor more workers beside a step whose torch threads hold the cores, or from a run that moved no batch.

Synthetic traces (:mod:`tests.helpers.simulated`) and a stated cost model, and recordings of a sleeping
dataset (the verdict holds whatever the machine's load): no timing asserts.
"""

from __future__ import annotations

import re
import time
from dataclasses import replace

import pytest
import torch

import loaderlab

from loaderlab.trace.diagnosis.summary import summarise
from loaderlab.trace.diagnosis.bottleneck import Verdict, verdict
from loaderlab.trace.diagnosis.unseen import in_loop_unseen
from loaderlab.trace.diagnosis.suggestions import candidates, Suggestion
from tests.helpers.simulated import BATCH, simulate
from tests.trace.diagnosis.test_predict import costs

CONSUMER = Verdict("consumer", "consumer", {})


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


WORKERS_BOUND = Verdict("workers", "workers_cpu", {})


def _more_workers(run) -> list[dict]:
    # the run's 3 workers computing 64 ms a batch against a 2 ms step, cores to spare: more workers keep up
    slow = costs(num_workers=3, fetch_s=0.064, computing=True, cores=16)
    return [c for c, _ in candidates(WORKERS_BOUND, summarise(run), slow, run) if c.get("num_workers", 0) > 3]


def test_more_workers_are_not_proposed_beside_a_step_whose_torch_threads_hold_the_cores(monkeypatch):
    """A Hugging Face job whose step ran on 2 threads (1.9 cores busy): 2 workers made its step 0.77 -> 1.61 ms
    and the job 0.5x as fast; the model's cores bound cannot price a parallel op waiting for a thread that
    shares its core with a worker, so it does not propose them."""
    from loaderlab.trace.diagnosis import unseen

    monkeypatch.setattr(unseen, "cpu_count", lambda: 2)
    threaded, single, unclocked = simulate(step_cores=1.9), simulate(step_cores=1.0), simulate(step_cores=None)
    assert unseen.step_cores(threaded) == pytest.approx(1.9, rel=0.01)
    assert unseen.workers_unseen(threaded, 4, 3) == "step_threads" and not _more_workers(threaded)
    assert unseen.workers_unseen(single, 4, 3) is None and _more_workers(single)
    assert unseen.workers_unseen(unclocked, 4, 3) == "step_unclocked" and not _more_workers(unclocked)
    # workers that wait (a store's round trip) leave the step's threads their cores: a latency-bound job with
    # a 2-thread step ran 8 workers 2.6x as fast as its 3
    assert unseen.workers_unseen(threaded, 4, 3, computing=False) is None
    monkeypatch.setattr(unseen, "cpu_count", lambda: 16)  # cores to spare beside the step's two threads
    assert unseen.workers_unseen(threaded, 4, 3) is None


def test_more_workers_are_not_proposed_from_a_run_without_workers():
    """No batch was moved between processes: pickling, shared memory and the worker's GIL are unmeasured (a
    Hugging Face job: assumed 0.1 ms a move, 0.8 ms more a batch with 2 workers, 0.7x as fast)."""
    from loaderlab.trace.diagnosis import unseen

    run = simulate(step_cores=1.0)
    assert unseen.workers_unseen(run, 1, 0) == "no_move" and unseen.workers_unseen(run, 4, 3) is None


class _Sleepy(torch.utils.data.Dataset):
    def __len__(self) -> int:
        return 96

    def __getitem__(self, i: int):
        time.sleep(0.001)  # waiting, not computing: a worker count beyond the cores would help
        return torch.full((4,), float(i)), i % 3


def test_a_run_without_workers_says_which_counts_run_tune_would_measure_and_claims_none():
    """The loop mostly fetched: the report names the worker counts to measure, in English and Korean, and
    proposes no change; its JSON says the same."""
    from loaderlab.trace.diagnosis.document import diagnose
    from loaderlab.trace.diagnosis.suggestions import suggest, why_none, why_none_text

    frame = loaderlab.record(torch.utils.data.DataLoader(_Sleepy(), batch_size=8), epochs=1)
    found = verdict(frame)
    assert found.kind == "main_process" and suggest(frame) == []
    assert why_none(found, frame) == "suggestion.why.unseen_no_move"
    said = why_none_text(found, frame, "en")
    assert re.search(r"measures num_workers=1 up to num_workers=\d+ in your job", said)
    assert "num_workers=1부터" in why_none_text(found, frame, "ko")
    doc = diagnose(frame)
    assert doc["suggestions"] == [] and doc["no_suggestion"] == said

    # a trace run --tune made holds what it measured: its words point there, not at running --tune again
    frame.attrs["tuning"] = {"candidates": [{"setting": {"num_workers": 0}, "slices": []}]}
    tuned = why_none_text(found, frame, "en")
    assert "run --tune <script>" not in tuned
    assert tuned == said.replace(re.search(r"`python -m loaderlab run --tune <script>` measures .*? in your job\.",
                                           said).group(0),
                                 "This trace comes from run --tune: what it measured in your job is in its table.")
    assert "run --tune <script>" not in why_none_text(found, frame, "ko")
    frame.attrs["tuning"] = {"skipped": "iterable"}  # nothing measured: the command again
    assert why_none_text(found, frame, "en") == said


def test_a_loop_body_carries_its_process_cpu_clock():
    """consumer_begin/consumer_end keep the process's CPU clock beside the main thread's: all its threads, so
    never less than the thread's own."""
    from loaderlab.engine import events as ev
    from loaderlab.trace.core.lookups import named_rows, normal
    from loaderlab.trace.diagnosis.summary import events

    frame = loaderlab.record(torch.utils.data.DataLoader(_Sleepy(), batch_size=8), epochs=1)
    for kind in (ev.CONSUMER_BEGIN, ev.CONSUMER_END):
        clocks = named_rows(normal(events(frame)), kind, ["cpu_ns", "process_cpu_ns"])
        assert len(clocks) == 12 and (clocks["process_cpu_ns"] >= clocks["cpu_ns"]).all()
        assert clocks["process_cpu_ns"].is_monotonic_increasing


def test_a_step_bound_run_names_num_workers_0_where_its_costs_are_unseen():
    """The loader keeps up; num_workers=0 might still be faster (no moves), but the trace does not say the
    loop runs one torch thread, or slow samples would serialise: no claim either way, and the command that
    measures it. A loop known to run one thread gets the plain words."""
    from loaderlab.trace.diagnosis.suggestions import suggest, why_none, why_none_text

    run = simulate(step_s=0.02)
    found = verdict(run)
    assert found.kind == "consumer" and suggest(run, found) == []
    assert why_none(found, run) == "suggestion.why.unseen_in_loop_threads"
    for lang in ("en", "ko"):
        assert "num_workers=0" in why_none_text(found, run, lang) and "run --tune" in why_none_text(found, run, lang)
    run.extra["torch_threads"] = 1
    assert why_none(found, run) == "suggestion.why.consumer"
    slow = simulate(step_s=0.02, slow_index=5 * BATCH + 3)
    slow.extra["torch_threads"] = 1
    assert why_none(found, slow) == "suggestion.why.unseen_in_loop_serial"
