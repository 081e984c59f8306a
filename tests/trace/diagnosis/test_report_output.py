"""The report's output: a start-up the trace measured is in seconds, a stock torch worker's too (the worker notes
its own start); one no event measures (a trace without ``worker_start``) is said to be not traced (it printed
"start-up n/a s"); counts are integers in --json."""

from __future__ import annotations

import re

import pytest

from loaderlab.trace.diagnosis.report import report_text
from tests.helpers import faulty


def _worker_rows(text: str) -> list[str]:
    # a worker's own row ("worker 0 (pid …", "워커 0(pid …"), not a verdict that starts with the word
    return [line for line in text.splitlines() if re.match(r"\s*(worker|워커) \d+", line)]


@pytest.mark.parametrize("lang, unknown", [("en", "start-up not traced,"), ("ko", "시작 기록되지 않음,")])
def test_a_start_up_no_event_measures_is_said_to_be_not_traced(lang, unknown):
    trace = faulty.stock_torch_trace()
    unstarted = trace[trace["kind"] != "worker_start"].reset_index(drop=True)  # as stock traces were before
    unstarted.attrs = dict(trace.attrs)
    rows = _worker_rows(report_text(unstarted, lang))
    assert len(rows) == 2 and all(unknown in row for row in rows), rows
    assert not any("n/a" in row or "해당 없음" in row for row in rows)


@pytest.mark.parametrize("lang, measured", [("en", r"start-up \d+\.\d{3} s,"), ("ko", r"시작 \d+\.\d{3}초,")])
@pytest.mark.parametrize("trace", [faulty.clean_trace, faulty.stock_torch_trace], ids=["loaderlab", "torch"])
def test_workers_start_up_is_in_seconds(lang, measured, trace):
    rows = _worker_rows(report_text(trace(), lang))
    assert rows and all(re.search(measured, row) for row in rows), rows


def test_the_json_summary_counts_samples_as_an_integer():
    from loaderlab.trace.diagnosis.summary import summarise
    out = summarise(faulty.clean_trace()).as_dict()
    assert out["samples"] == 64 and type(out["samples"]) is int  # 32 samples × 2 epochs (it printed 64.0)
