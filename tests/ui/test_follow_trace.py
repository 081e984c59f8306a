"""The "Your trace" page following a trace on this machine (AppTest): a file written chunk by chunk between two
runs of the page (no sleeps: each `at.run()` is one look, as the fragment's timer would make), a folder and a
glob of rank files, the end of a job, a killed job, and every bad path as one sentence in each language."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest
from torch.utils.data import DataLoader, TensorDataset

from loaderlab import record
from loaderlab.jobs import stacks
from loaderlab.trace.files.columnar import TraceWriter
from loaderlab.ui.texts import EN, KO

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "7_Your_trace.py")


@pytest.fixture(scope="module")
def events() -> pd.DataFrame:
    """One loader's events as `run` writes them (a loader column), in time order."""
    frame = record(DataLoader(TensorDataset(torch.arange(64)), batch_size=4, num_workers=2))
    return frame.assign(loader="train_loader").reset_index(drop=True)


@pytest.fixture
def page():
    st.cache_resource.clear()  # the followers are kept per path and server
    st.cache_data.clear()
    yield lambda: AppTest.from_file(PAGE, default_timeout=120)
    st.cache_resource.clear()


@pytest.fixture
def running_here():
    """This test process poses as a job's main process on this machine (its stacks folder names it)."""
    folder = stacks.stacks_dir(os.getpid())
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{os.getpid()}.who"), "w") as f:
        json.dump({"role": "main", "pid": os.getpid(), "trace": ""}, f)
    yield os.getpid()
    shutil.rmtree(folder, ignore_errors=True)


def meta(pid: int, rank: int = 0, world: int = 1, settings: dict | None = None) -> dict:
    return {"job": {"pid": pid, "rank": rank, "world_size": world, "argv": ["train.py"]},
            "loaders": {"train_loader": {"site": "train.py:3", "settings": settings, "sampler": {}, "epochs": 1}}}


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def texts(at, kind: str) -> list[str]:
    return [e.value for e in getattr(at, kind)]


def follow(at, path) -> AppTest:
    at.text_input(key="trace_follow").set_value(str(path)).run()
    assert not at.exception, at.exception
    return at


def test_a_trace_being_written_is_followed_chunk_by_chunk_until_the_job_ends(page, events, tmp_path, running_here):
    path = tmp_path / "trace.lltrace"
    writer = TraceWriter(path, meta(running_here, settings=events.attrs["loader"]))
    half = len(events) // 2
    at = follow(page().run(), path)
    assert texts(at, "info")[0].startswith("Live: the job is running but has written no events yet")
    assert not at.sidebar.get("selectbox")  # the run settings do not apply to a followed trace

    writer.write_frame(events.iloc[:half])
    at.run()  # one look, as the fragment's timer would make
    batches = int((events.iloc[:half]["kind"] == "batch_yield").sum())
    assert texts(at, "info")[0].startswith(f"Live: the job is running; {half:,} events and {batches:,} batches so far")
    assert any(c.startswith(f"Showing {path}: {half:,} events") for c in texts(at, "caption"))
    assert any(c.startswith("Reading the new chunks took ") for c in texts(at, "caption"))

    writer.write_frame(events.iloc[half:])
    writer.set_meta("exit_status", 0)
    writer.close()
    at.run()
    batches = int((events["kind"] == "batch_yield").sum())
    assert not at.error, texts(at, "error")
    assert texts(at, "success")[0] == EN["jobs.follow.ended"].format(status=0, events=len(events), batches=batches)
    assert any(c.startswith(f"Showing {path}: {len(events):,} events") for c in texts(at, "caption"))


def test_a_killed_job_is_said_so_and_its_stacks_are_not_asked(page, events, tmp_path):
    path = tmp_path / "killed.lltrace"
    writer = TraceWriter(path, meta(dead_pid()))
    writer.write_frame(events.iloc[:40])  # never closed: as after SIGKILL
    os.utime(path, (os.stat(path).st_atime, os.stat(path).st_mtime - 60))
    at = follow(page().run(), path)
    warning = texts(at, "warning")[0]
    assert warning.startswith("The job no longer runs and never closed its trace") and "40 events" in warning
    at.button(key="follow_stacks_button").click().run()
    assert any(w.startswith("The job (pid ") and "is not running on this machine any more" in w
               for w in texts(at, "warning"))
    writer.close()


def test_a_folder_and_a_glob_of_rank_files_read_as_one_trace(page, events, tmp_path):
    folder = tmp_path / "trace"
    folder.mkdir()
    pid = dead_pid()
    for rank in (0, 1):
        with TraceWriter(folder / f"rank{rank}.lltrace", meta(pid, rank, 2)) as writer:
            writer.write_frame(events)
            writer.set_meta("exit_status", 0)
    at = follow(page().run(), folder)
    assert not at.error, texts(at, "error")
    assert texts(at, "success")[0].startswith(f"The job ended with exit status 0 and closed its trace: "
                                              f"{2 * len(events):,} events")
    at = follow(page().run(), f"{folder}/rank*.lltrace")
    assert texts(at, "success")[0].startswith("The job ended with exit status 0")


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("make, key", [
    (lambda d: d / "nope.lltrace", "jobs.follow.error.missing"),
    (lambda d: (d / "empty").mkdir() or d / "empty", "jobs.follow.error.empty_folder"),
    (lambda d: (d / "notes.txt").write_text("secret") and d / "notes.txt", "jobs.follow.error.suffix"),
    (lambda d: d / "*.lltrace", "jobs.follow.error.no_match"),
    (lambda d: (d / "fake.lltrace").write_bytes(b"PK\x03\x04 a zip") and d / "fake.lltrace",
     "jobs.follow.error.not_trace"),
])
def test_a_bad_path_is_one_sentence(page, tmp_path, make, key, lang):
    path = make(tmp_path)
    at = page()
    at.query_params["lang"] = lang
    at = follow(at.run(), path)
    table = EN if lang == "en" else KO
    assert texts(at, "error") == [table[key].format(path=path, cwd=os.getcwd())]


def test_a_big_live_trace_keeps_its_views_until_asked(page, events, tmp_path, running_here, monkeypatch):
    from loaderlab.ui import follow_trace

    monkeypatch.setattr(follow_trace, "LIVE_VIEW_EVENTS", 10)  # every trace of this test counts as big
    path = tmp_path / "big.lltrace"
    writer = TraceWriter(path, meta(running_here, settings=events.attrs["loader"]))
    writer.write_frame(events.iloc[:100])
    at = follow(page().run(), path)
    assert any(c.startswith(f"Showing {path}: 100 events") for c in texts(at, "caption"))
    writer.write_frame(events.iloc[100:])
    at.run()
    assert texts(at, "info")[0].startswith(f"Live: the job is running; {len(events):,} events")  # the status is now
    assert EN["jobs.follow.snapshot"].format(shown=100, events=len(events)) in texts(at, "caption")
    assert any(c.startswith(f"Showing {path}: 100 events") for c in texts(at, "caption"))  # the views are not
    at.button(key="follow_update_views").click().run()
    assert any(c.startswith(f"Showing {path}: {len(events):,} events") for c in texts(at, "caption"))
    writer.close()
