"""``report`` (without the suggestions) and ``export`` read a
``.lltrace`` as the compact table (a 10 M-event trace fits in memory that way): what they print and write must
be what the exact table gave (the old path, ``COMPACT_LOAD = False``)."""

from __future__ import annotations

import json
import warnings

import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.cli import commands, main
from loaderlab.jobs.read import load_any
from loaderlab.trace.files.columnar import TraceWriter
from loaderlab.trace.files.io import load_trace, save_trace
from tests.helpers.datasets import MapDataset
from tests.helpers.planted import record_cause


def _job_trace(frame: pd.DataFrame, path) -> None:
    """``frame`` as ``python -m loaderlab run`` writes a job trace: a ``loader`` column and the job's meta."""
    table = frame.assign(loader="train")
    meta = {"job": {"rank": 0, "world_size": 1, "pid": 1},
            "loaders": {"train": {"settings": frame.attrs["loader"], "epochs": frame.attrs.get("epochs"),
                                  "site": "train.py:3", "sampler": {}}}}
    with TraceWriter(path, meta) as writer:
        half = len(table) // 2  # written in two chunks, as a job flushes them
        writer.write_frame(table.iloc[:half])
        writer.write_frame(table.iloc[half:])


@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> dict:
    folder = tmp_path_factory.mktemp("compact_cli")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = {
            "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
            "labels": record(DataLoader(MapDataset(12), batch_size=3), epochs=2,
                             sample_info=lambda i, s: (int(i) % 3, int(i) + 1)),
            "persistent": record(DataLoader(MapDataset(16), batch_size=2, num_workers=2, in_order=False,
                                            persistent_workers=True), epochs=2,
                                 sample_info=lambda i, s: (["cat", 1, None][int(i) % 3], 1)),
            "straggler": record_cause("straggler"),
        }
    paths = {}
    for name, frame in frames.items():
        paths[name] = folder / f"{name}.lltrace"
        save_trace(frame, paths[name])
    paths["job"] = folder / "job.lltrace"
    _job_trace(frames["workers"], paths["job"])
    return paths


def _outputs(path, tmp_path, capsys, tag: str) -> dict:
    out = {}
    for lang in ("en", "ko"):
        assert main(["report", str(path), "--lang", lang, "--no-suggestions"]) == 0
        out[f"report {lang}"] = capsys.readouterr().out
    assert main(["report", str(path), "--json", "--no-suggestions"]) == 0
    out["json"] = json.loads(capsys.readouterr().out)
    chrome = tmp_path / f"{tag}.json"
    assert main(["export", str(path), "--chrome", str(chrome)]) == 0
    capsys.readouterr()
    out["chrome"] = chrome.read_text()
    t_ns = load_trace(path)["t_ns"]
    middle = f"{(t_ns.max() - t_ns.min()) / 2e9:.6f}"  # a window: the trace's second half, epoch 0's part of it
    assert main(["export", str(path), "--chrome", str(chrome), "--epoch", "0", "--from", middle]) == 0
    capsys.readouterr()
    out["chrome cut"] = chrome.read_text()
    return out


@pytest.mark.parametrize("name", ["workers", "labels", "persistent", "straggler", "job"])
def test_report_and_export_print_what_the_exact_table_gave(traces, name, tmp_path, capsys, monkeypatch):
    new = _outputs(traces[name], tmp_path, capsys, "new")
    monkeypatch.setattr(commands, "COMPACT_LOAD", False)
    old = _outputs(traces[name], tmp_path, capsys, "old")
    for key, value in old.items():
        assert new[key] == value, key
    assert new["report en"].count("\n") > 10 and '"traceEvents"' in new["chrome"]


def test_the_command_line_reads_a_single_lltrace_compact(traces):
    frame = load_any(str(traces["workers"]), compact=True)
    assert frame["kind"].dtype == "category" and frame["batch"].dtype == "int32"
    job = load_any(str(traces["job"]), compact=True)
    assert job["kind"].dtype == "category" and job.attrs["loaders"]["train"]["site"] == "train.py:3"
    assert load_any(str(traces["workers"]))["batch"].dtype == "int64"  # not asked: the exact table


def test_no_replay_is_a_hidden_old_name_of_no_suggestions(traces, capsys):
    """Old scripts pass ``--no-replay``: it still leaves the suggestions out, and the help names only
    ``--no-suggestions``."""
    outputs = {}
    for flag in ("--no-suggestions", "--no-replay"):
        assert main(["report", str(traces["straggler"]), "--json", flag]) == 0
        outputs[flag] = json.loads(capsys.readouterr().out)
    assert outputs["--no-replay"] == outputs["--no-suggestions"] and outputs["--no-replay"]["suggestions"] == []
    assert "no_suggestion" not in outputs["--no-replay"]
    with pytest.raises(SystemExit):
        main(["report", "--help"])
    text = capsys.readouterr().out
    assert "--no-suggestions" in text and "--no-replay" not in text
