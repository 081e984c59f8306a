"""One Finding type for every producer: a Severity enum, the same fields, and words in every language."""

from __future__ import annotations

import json

import pytest

from loaderlab.texts import text
from loaderlab.trace.core.findings import Finding, Severity, finding
from loaderlab.trace.core import kinds


def test_a_severity_is_the_enum_whatever_the_producer_wrote():
    made = Finding(kinds.HEAD_OF_LINE, "warning", "", batch=2)
    assert made.severity is Severity.WARNING and f"{made.severity}" == "warning"
    assert json.dumps({"severity": made.severity}) == '{"severity": "warning"}'
    with pytest.raises(ValueError, match="'warnnig' is not a valid Severity"):
        Finding(kinds.HEAD_OF_LINE, "warnnig", "")


def test_a_rank_finding_is_worded_from_its_own_texts():
    found = finding(kinds.DROPPED, Severity.INFO, words="rank", count=2)
    assert (found.kind, found.key, found.evidence) == (kinds.DROPPED, kinds.DROPPED, {"count": 2})
    assert found.message == found.text("en") == text(f"rank.{kinds.DROPPED}", "en", count=2)
    assert found.text("ko") == text(f"rank.{kinds.DROPPED}", "ko", count=2) != found.message
    assert found.severity_text("ko") == text("severity.info", "ko")


def test_evidence_that_names_a_place_fills_the_fields():
    found = finding(kinds.STALLED_WORKER, "error", worker=1, pid=4242, index=37, batch=4, epoch=0, silent_s=2.5)
    assert (found.worker, found.index, found.batch, found.epoch) == (1, 37, 4, 0)
    assert "37" in found.message and found.severity is Severity.ERROR


def test_a_finding_made_without_words_says_its_message_in_every_language():
    made = Finding(kinds.HEAD_OF_LINE, "warning", "held 2 batches", batch=2)
    assert made.text() == made.text("ko") == "held 2 batches"
