"""Correctness findings on traces of ``python -m loaderlab run``: a planted cause per finding kind in an unchanged
script's stock DataLoader (workers included), labels and lengths read from what the dataset returns (or
``run --label``), reported by ``report --json`` with the batch, worker and index it names."""

from __future__ import annotations

import json

import pytest

from tests.helpers.stock_causes import EXPECTED, LABEL_KEYS, SCRIPT, check

from loaderlab.cli.job_commands import split_run

from . import runner

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)


def test_label_is_runs_own_option_before_the_script():
    assert split_run(["--label", "cls", "train.py", "--label", "x"]) == (["--label", "cls"], ["train.py", "--label", "x"])
    assert split_run(["--label=cls", "-o", "t", "train.py"]) == (["--label=cls", "-o", "t"], ["train.py"])


@pytest.mark.slow
@pytest.mark.parametrize("cause", sorted(EXPECTED))
def test_run_reports_the_planted_cause(cause, tmp_path):
    runner.write(tmp_path, "causes.py", SCRIPT)
    label = ["--label", LABEL_KEYS[cause]] if cause in LABEL_KEYS else []
    done = runner.run(tmp_path, "-o", "trace", *label, "causes.py", cause)
    assert done.returncode == 0, done.stderr
    report = runner.cli(tmp_path, "report", "trace.lltrace", "--json", "--no-replay")
    assert report.returncode == 0, report.stderr
    findings = json.loads(report.stdout)["findings"]
    check(cause, findings)
    if cause == "same_order":  # run sees the script's epochs and the sampler's own: set_epoch was forgotten
        (same,) = [f for f in findings if f["kind"] == "same_order"]
        assert "the sampler's epoch stayed 0, so set_epoch was never called" in same["text"]
