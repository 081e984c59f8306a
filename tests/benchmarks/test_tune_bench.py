"""benchmarks/tune_bench.py: how it reads a report's suggestions and hands a change to a script (no runs)."""

import importlib.util
import os
import re
import sys

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


def test_the_measured_suggestion_and_the_models_first_are_told_apart():
    bench = _bench()
    row = bench.Row("s", "quiet")
    bench.read_tuning({"tuning": {"keep": False, "stopped": "rounds"}, "suggestions": [
        {"change": "batch_size=8", "speedup": 2.0, "measured": True},  # the harness cannot re-run this one
        {"change": "num_workers=2", "speedup": 1.4, "measured": True},
        {"change": {"num_workers": 0}, "speedup": None, "measured": False}]}, row)
    assert row.measured_change == {"num_workers": 2} and row.measured_speedup == 1.4
    assert row.other_measured == ["batch_size=8"] and row.model_change == {"num_workers": 0}


def test_every_script_takes_its_settings_from_the_environment_and_prints_its_loop_time():
    folder = os.path.join(REPO, "benchmarks", "tune_scripts")
    scripts = [f for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_")]
    assert len(scripts) >= 20
    for name in scripts:
        text = open(os.path.join(folder, name)).read()
        assert "= settings(" in text and "done(start)" in text, name
        assert re.search(r"num_workers=NW,\s*prefetch_factor=PF,\s*pin_memory=PIN", text), name
