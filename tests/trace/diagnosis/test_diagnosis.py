"""``report --json``: summary, bottleneck, findings (with batch/worker/index) and replayed suggestions."""

from __future__ import annotations

import json

import pytest

from loaderlab.cli import main as cli_main
from loaderlab.trace.files.io import save_trace
from tests.helpers.planted import record_cause

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)


def test_the_json_report_of_a_straggler_run(tmp_path, capsys):
    path = tmp_path / "straggler.json"
    save_trace(record_cause("straggler"), str(path))
    cli_main(["report", str(path), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert set(doc) >= {"summary", "bottleneck", "findings", "suggestions"}
    assert {"batches", "samples", "wall_s", "wait_share"} <= set(doc["summary"])
    assert doc["summary"]["batches"] == 32 and doc["summary"]["samples"] == 256
    bottleneck = doc["bottleneck"]
    assert bottleneck["kind"] == "straggler" and bottleneck["index"] in (40, 120, 200)
    assert bottleneck["lost_s"] > 0.3 and "slow samples" in bottleneck["text"]
    slow = [f for f in doc["findings"] if f["kind"] == "straggler"]
    assert slow and slow[0]["severity"] == "warning"
    assert slow[0]["index"] in (40, 120, 200) and slow[0]["batch"] == slow[0]["index"] // 8 and "worker" in slow[0]
    # The cost model knows no sample order, so it claims nothing for a straggler and says which changes
    # it could not weigh (replaying measures them).
    assert doc["suggestions"] == []
    assert "in_order=False" in doc["no_suggestion"] and "does not know the order" in doc["no_suggestion"]


def test_the_json_suggestions_of_an_ipc_run_are_predicted_best_first(tmp_path, capsys):
    path = tmp_path / "ipc.json"
    save_trace(record_cause("ipc"), str(path))
    cli_main(["report", str(path), "--json"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["bottleneck"]["kind"] == "ipc" and doc["suggestions"], doc["bottleneck"]
    for s in doc["suggestions"]:  # ranked by the model, which measures nothing: no speed-up, the command instead
        assert set(s) >= {"change", "speedup", "measured", "text"} and s["speedup"] is None and not s["measured"]
        assert "x the samples" not in s["text"] and "run --tune" in s["text"]


def test_the_text_report_leads_with_the_verdict(tmp_path, capsys):
    path = tmp_path / "ipc.json"
    save_trace(record_cause("ipc"), str(path))
    cli_main(["report", str(path), "--no-suggestions", "--lang", "ko"])
    out = capsys.readouterr().out
    assert out.index("[ipc]") < out.index("처리량:")  # the verdict before the numbers
    assert "프로세스 사이에 배치를 옮기는 일이 느린 부분입니다" in out
