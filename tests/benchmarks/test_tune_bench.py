"""benchmarks/tune_bench.py: how it reads a report's suggestions and hands a change to a script (no runs)."""

import importlib.util
import os
import re
import sys

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _bench():
    spec = importlib.util.spec_from_file_location("tune_bench", os.path.join(REPO, "benchmarks", "tune_bench.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["tune_bench"] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_both_shapes_of_a_change_are_read_and_reach_the_environment():
    bench = _bench()
    assert bench.parse_change("num_workers=4, prefetch_factor=4") == {"num_workers": 4, "prefetch_factor": 4}
    assert bench.parse_change({"num_workers": 0}) == {"num_workers": 0}
    assert bench.parse_change("pin_memory=False") == {"pin_memory": False}
    env = bench.change_env({"num_workers": 2, "pin_memory": True})
    assert (env["LL_NUM_WORKERS"], env["LL_PIN"]) == ("2", "1") and "LL_PREFETCH" not in env


def test_epochs_reaches_every_run_and_is_cleared_without_it(monkeypatch):
    bench = _bench()
    monkeypatch.setenv("LL_EPOCHS", "7")  # the shell's own: not passed on unless --epochs says so
    assert "LL_EPOCHS" not in bench.base_env() and "LL_EPOCHS" not in bench.change_env({"num_workers": 2})
    assert bench.base_env(3)["LL_EPOCHS"] == "3" and bench.change_env({"num_workers": 2}, 3)["LL_EPOCHS"] == "3"


def test_a_script_runs_its_own_epochs_or_ll_epochs(monkeypatch):
    spec = importlib.util.spec_from_file_location(
        "tune_common", os.path.join(REPO, "benchmarks", "tune_scripts", "_common.py"))
    common = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(common)
    monkeypatch.delenv("LL_EPOCHS", raising=False)
    assert common.epochs(3) == 3
    monkeypatch.setenv("LL_EPOCHS", "5")
    assert common.epochs(3) == 5
    for bad in ("0", "x"):
        monkeypatch.setenv("LL_EPOCHS", bad)
        with pytest.raises(ValueError, match="LL_EPOCHS"):
            common.epochs(3)


def test_the_measured_suggestion_and_the_models_first_are_told_apart():
    bench = _bench()
    row = bench.Row("s", "quiet")
    bench.read_tuning({"tuning": {"keep": False, "stopped": "rounds"}, "suggestions": [
        {"change": {"batch_size": 8}, "speedup": 2.0, "measured": True},  # the harness cannot re-run this one
        {"change": {"num_workers": 2}, "speedup": 1.4, "measured": True},
        {"change": {"num_workers": 0}, "speedup": None, "measured": False}]}, row)
    assert row.measured_change == {"num_workers": 2} and row.measured_speedup == 1.4
    assert row.other_measured == [{"batch_size": 8}] and row.model_change == {"num_workers": 0}
    # reports written before the measured change was a dict gave it as text
    old = bench.Row("s", "quiet")
    bench.read_tuning({"tuning": {"keep": False, "stopped": "rounds"}, "suggestions": [
        {"change": "num_workers=2, prefetch_factor=4", "speedup": 1.4, "measured": True}]}, old)
    assert old.measured_change == {"num_workers": 2, "prefetch_factor": 4}


def test_every_script_takes_its_settings_from_the_environment_and_prints_its_loop_time():
    folder = os.path.join(REPO, "benchmarks", "tune_scripts")
    scripts = [f for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_")]
    assert len(scripts) >= 20
    for name in scripts:
        text = open(os.path.join(folder, name)).read()
        assert "= settings(" in text and "done(start)" in text, name
        assert re.search(r"for epoch in range\(epochs\(\d+\)\):", text), name  # LL_EPOCHS sets the epochs
        assert re.search(r"num_workers=NW,\s*prefetch_factor=PF,\s*pin_memory=PIN", text), name
