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
    contended = Verdict("workers", "workers_contended", {"step_ms": 7.0, "step_wall_ms": 7.0, "share": 0.8,
                                                         "busy": 0.9, "workers": 2, "cores": 2, "work_ms": 9.0,
                                                         "got": 1.2})
    for lang in ("en", "ko"):
        assert diagnosis_lines(None, lang, None, contended)[0].endswith("[workers_contended]")
    assert contended.as_dict()["key"] == "workers_contended" and contended.as_dict()["kind"] == "workers"


def test_the_model_bound_finding_follows_the_verdict_and_claims_only_what_more_loading_cannot_do(model_bound):
    """One source: the verdict, its finding and the suggestions agree. The step is the slow part, so more
    loading power would not help (the finding and the verdict say so); whether fewer workers would is the
    suggestions' to say, and no second wording of the verdict says it again."""
    found = verdict(model_bound)
    assert found.key == "consumer"
    (bound,) = [f for f in all_findings(model_bound) if f.kind == "model_bound"]
    assert "would not help" in bound.message
    report = report_text(model_bound)
    assert "[consumer]" in report and "a faster loader would not help" in report
    assert "more loading power (more workers, deeper prefetching) will not make this run faster" in report
    assert "loader settings will not make this run faster" not in report  # fewer workers may: not its call


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
