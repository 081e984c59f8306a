"""The "Your trace" page on a trace of `loaderlab run` with two DataLoaders: one at a time, chosen by name."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest
from torch.utils.data import DataLoader, TensorDataset

from loaderlab import record
from loaderlab.trace.files.columnar import TraceWriter

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "7_Your_trace.py")


@pytest.fixture(scope="module")
def job_trace(tmp_path_factory):
    """A job trace as `run` writes it: events of two loaders, a loader column, the job's metadata."""
    train = record(DataLoader(TensorDataset(torch.arange(32)), batch_size=4, num_workers=2))
    val = record(DataLoader(TensorDataset(torch.arange(10)), batch_size=5))
    parts = [train.assign(loader="train_loader"), val.assign(loader="val_loader")]
    events = pd.concat(parts, ignore_index=True).sort_values("t_ns", kind="stable")
    events["t_s"] = (events["t_ns"] - events["t_ns"].min()) / 1e9
    loaders = {name: {"site": f"train.py:{line}", "settings": f.attrs["loader"], "sampler": {}, "epochs": 1}
               for name, line, f in (("train_loader", 5, train), ("val_loader", 6, val))}
    path = tmp_path_factory.mktemp("dash") / "job.lltrace"
    with TraceWriter(path, {"job": {"rank": 0, "world_size": 1}, "loaders": loaders,
                            "loader": train.attrs["loader"]}) as writer:
        writer.write_frame(events.reset_index(drop=True))
    return path, len(train), len(val)


def test_the_page_shows_one_loader_at_a_time(job_trace):
    path, n_train, n_val = job_trace
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.file_uploader(key="trace_upload").set_value(("job.lltrace", path.read_bytes(), "application/octet-stream")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    choice = at.selectbox(key="trace_loader")
    assert choice.options == ["train_loader (train.py:5)", "val_loader (train.py:6)"]
    assert any(c.value.startswith(f"Showing job.lltrace: {n_train:,} events") for c in at.caption)
    choice.set_value("val_loader").run()
    assert not at.exception and not at.error
    assert any(c.value.startswith(f"Showing job.lltrace: {n_val:,} events") for c in at.caption)


def _slices(rate):
    return [{"round": r, "samples": rate, "seconds": 1.0, "warm": False, "batches": 10} for r in (1, 2, 3)]


def test_a_job_of_one_loader_shows_its_own_tuning_and_threads(tmp_path):
    # the page took a one-loader job's attrs from the trace's top level, where run writes neither the loader's
    # run --tune record nor the loop's torch threads: no "Measured inside your job" section where the report
    # printed one, and the findings' thread count read as unknown
    train = record(DataLoader(TensorDataset(torch.arange(32)), batch_size=4, num_workers=2))
    two, none = ({"num_workers": n, "prefetch_factor": p, "pin_memory": False} for n, p in ((2, 2), (0, None)))
    tuning = {"own": two, "candidates": [{"setting": two, "startup_s": None, "slices": _slices(100)},
                                         {"setting": none, "startup_s": None, "slices": _slices(150)}],
              "budget_s": 1.0, "spent_s": 1.0, "slice_batches": 10, "stopped": "budget", "adopted": 1}
    loaders = {"train_loader": {"site": "train.py:5", "settings": train.attrs["loader"], "sampler": {}, "epochs": 1,
                                "torch_threads": 2, "tuning": tuning}}
    path = tmp_path / "one.lltrace"
    with TraceWriter(path, {"job": {"rank": 0, "world_size": 1}, "loaders": loaders,
                            "loader": train.attrs["loader"]}) as writer:
        writer.write_frame(train.assign(loader="train_loader"))
    st.cache_resource.clear()
    st.cache_data.clear()
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    at.file_uploader(key="trace_upload").set_value(("one.lltrace", path.read_bytes(), "application/octet-stream")).run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert "Measured inside your job (run --tune)" in [s.value for s in at.subheader]
    assert any("num_workers=0: 1.50× the samples per second" in m.value for m in at.markdown)
    from loaderlab.jobs.read import load_one
    from loaderlab.trace.core.run import as_run

    read = as_run(load_one(str(path)))  # what the findings read the loop's threads from
    assert read.extra["torch_threads"] == 2 and read.extra["tuning"]["adopted"] == 1
