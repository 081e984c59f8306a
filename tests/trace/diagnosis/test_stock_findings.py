"""Correctness findings on traces of stock torch DataLoaders recorded from the command line: a planted cause per
finding kind, workers included, reported by ``report --json`` with the batch, worker and index it names."""

from __future__ import annotations

import json
import sys

import pytest

from loaderlab.cli import main
from loaderlab.trace.diagnosis.findings import bucketed_cells

from tests.helpers.stock_causes import EPOCHS, EXPECTED, LABEL_KEYS, SCRIPT, check


@pytest.fixture
def causes(tmp_path, monkeypatch):
    (tmp_path / "causes.py").write_text(SCRIPT)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path
    sys.modules.pop("causes", None)


@pytest.mark.parametrize("cause", sorted(EXPECTED))
def test_record_of_a_stock_loader_reports_the_planted_cause(cause, causes, capsys):
    args = ["record", f"causes.py:make_{cause}", "-o", f"{cause}.lltrace", "--epochs", str(EPOCHS.get(cause, 1))]
    if cause in LABEL_KEYS:
        args += ["--label", LABEL_KEYS[cause]]
    assert main(args) == 0
    capsys.readouterr()
    assert main(["report", f"{cause}.lltrace", "--json", "--no-suggestions"]) == 0
    check(cause, json.loads(capsys.readouterr().out)["findings"])


def test_bucketing_sorts_the_epoch_into_batches_of_the_same_sizes():
    # lengths 1, 9, 2, 8 in batches of 2: 2*9 + 2*8 = 34 cells as they came; sorted, 2*2 + 2*9 = 22
    assert bucketed_cells([1, 9, 2, 8], [2, 2]) == 22
    assert bucketed_cells([5, 1, 3], [2, 1]) == 1 * 1 + 2 * 5  # a short last batch takes the shortest
