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
