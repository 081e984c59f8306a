"""The report does not contradict itself (issue 34, item 5): its tag names the wording below it, the model-bound
finding follows the verdict, a step quoted twice is one number or two named for what they are, and no English
sentence says "1 workers".

Synthetic traces (:mod:`tests.helpers.simulated`): no timing.
"""

from __future__ import annotations

import re

import pytest

from loaderlab.texts import words
from loaderlab.texts.wording import placeholders
from loaderlab.trace.diagnosis.bottleneck import verdict
from loaderlab.trace.diagnosis.document import diagnose
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis.summary import summarise
from loaderlab.trace.diagnosis import bottleneck
from loaderlab.trace.diagnosis.bottleneck import Verdict
from loaderlab.trace.diagnosis.report import diagnosis_lines
from tests.helpers.simulated import simulate

STEP_S, WAITED_S = 0.02, 0.012  # a step of 20 ms on the clock, 12 ms of it waiting for a core


@pytest.fixture(scope="module")
def model_bound():
    return simulate(step_s=STEP_S, waited_s=WAITED_S)


def test_the_tag_names_the_wording_shown_under_it():
    shared = Verdict("consumer", "consumer_shared", {"step_ms": 70.0, "step_wall_ms": 70.0, "share": 0.1,
                                                     "wait_ms": 1.0, "workers": 2, "cores": 2})
    for lang in ("en", "ko"):
        assert diagnosis_lines(None, lang, None, shared)[0].endswith("[consumer_shared]")
    assert shared.as_dict()["key"] == "consumer_shared" and shared.as_dict()["kind"] == "consumer"


@pytest.mark.parametrize("key", ["consumer", "consumer_shared"])
def test_the_model_bound_finding_follows_the_verdict(model_bound, monkeypatch, key):
    # consumer_shared: the cost model says the workers take time the step needs (num_workers=0 is suggested)
    monkeypatch.setattr(bottleneck, "_workers_take_from_step", lambda frame, s: key == "consumer_shared")
    found = verdict(model_bound)
    assert found.key == key
    (bound,) = [f for f in all_findings(model_bound) if f.kind == "model_bound"]
    assert ("would not help" in bound.message) == (key == "consumer")
    report = report_text(model_bound)
    assert f"[{key}]" in report
    assert ("a faster loader would not help" in report) == (key == "consumer")


def test_a_step_quoted_twice_is_named_for_what_each_number_is(model_bound):
    found = verdict(model_bound)
    own, wall = (STEP_S - WAITED_S) * 1e3, summarise(model_bound).stage("step").p50_s * 1e3
    assert found.evidence["step_ms"] == pytest.approx(own)
    assert found.evidence["step_wall_ms"] == pytest.approx(wall) == pytest.approx(STEP_S * 1e3)
    for lang in ("en", "ko"):
        said = found.text(lang)
        assert f"{own:.2f} ms" in said and f"{wall:.2f} ms" in said
    assert "without its waits for a core" in found.text("en")
    doc = diagnose(model_bound, with_suggestions=False)
    assert doc["bottleneck"]["step_wall_ms"] == pytest.approx(doc["summary"]["stages"]["step"]["p50_s"] * 1e3)
    assert doc["bottleneck"]["step_ms"] == pytest.approx(own)


def test_a_step_that_waited_for_nothing_is_quoted_once():
    found = verdict(simulate(step_s=STEP_S))
    assert found.evidence["step_ms"] == pytest.approx(found.evidence["step_wall_ms"])
    assert "on the clock" not in found.text("en")


COUNTS = ("workers", "num_workers", "cores", "tensors", "epochs")
NOUNS = re.compile(r"(?<![\d.])1 (workers|cores|tensors|epochs)\b")


@pytest.mark.parametrize("key", sorted(k for k in words.WORDS if k.startswith(("verdict.", "suggestion."))))
def test_no_english_sentence_counts_one_in_the_plural(key):
    template = words.WORDS[key]["en"]
    names = {name for name, _, _ in placeholders(template)}
    for count in names & set(COUNTS):
        said = template.format(**{name: 1 if name == count else 2 for name in names})
        assert not NOUNS.search(said), said
