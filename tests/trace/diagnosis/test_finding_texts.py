"""Findings and the report in Korean: the same findings, worded from ``loaderlab.texts.findings.KO``.

English stays exactly what ``Finding.message`` always said; key parity and placeholders are checked in
``tests/ui/test_texts.py`` with the dashboard's texts.
"""

from __future__ import annotations

import re

import pytest

from loaderlab.texts import words
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis import findings as F
from tests.helpers import faulty

HANGUL = re.compile(r"[가-힣]")


@pytest.fixture(scope="module")
def straggler():
    return faulty.straggler_trace(True)


def test_english_text_is_the_message_and_korean_is_korean(straggler):
    found = F.all_findings(straggler)
    assert found
    for f in found:
        assert f.text() == f.text("en") == f.message == words.render(f"finding.{f.key}", f.evidence)
        ko = f.text("ko")
        assert ko == words.render(f"finding.{f.key}", f.evidence, "ko") and HANGUL.search(ko)
        assert f.severity_text("ko") == words.KO[f"severity.{f.severity}"]


def test_a_straggler_lists_its_samples_in_the_language(straggler):
    (slow,) = [f for f in F.all_findings(straggler) if f.kind == "straggler"]
    i, b, w = slow.index, slow.batch, slow.worker
    assert f"Slowest: index {i} (batch {b}, worker {w}, " in slow.text("en") and slow.text("en").endswith(" s).")
    assert f"가장 느린 샘플: 인덱스 {i}(배치 {b}, 워커 {w}, " in slow.text("ko")
    more = words.render("finding.straggler", {**slow.evidence, "more": 7}, "ko")
    assert more.endswith("초) 외 7개.")
    assert words.render("finding.straggler", {**slow.evidence, "more": 7}).endswith(" s), and 7 more.")


def test_an_error_names_its_process_in_the_language():
    found = [f for f in F.all_findings(faulty.failing_trace()) if f.kind == "error"]
    assert found
    f = found[0]
    assert f.message.startswith(f"Error in worker {f.evidence['where_worker']}")
    assert f.text("ko").startswith(f"워커 {f.evidence['where_worker']}의 dataset[5]에서 오류가 났습니다")
    assert "sample 5 is corrupt" in f.text("ko")  # the exception's own text stays as raised
    main = words.render("finding.error", {"where": "the main process", "where_worker": None, "epoch": 0,
                                          "detail": "boom"}, "ko")
    assert main == "메인 프로세스에서 오류가 났습니다(에폭 0): boom"


def test_korean_report_has_every_section_and_finding(straggler):
    text = report_text(straggler, "ko")
    for heading in ("LoaderLab 보고서", "설정:", "처리량:", "메인 프로세스 대기", "워커:", "발견 사항(3개):"):
        assert heading in text
    assert "num_workers=2" in text and "in_order=True" in text
    for f in F.all_findings(straggler):
        assert f"[{f.severity_text('ko')}] {f.kind}: {f.text('ko')}" in text
    assert report_text(straggler) == report_text(straggler, "en")
    assert "발견 사항: 없음" in report_text(straggler.iloc[:0], "ko")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="en, ko"):
        words.text("report.title", "fr")
