"""Memory events: sampled from /proc while the app's runs record, as a table, findings, figure, files."""

from __future__ import annotations

import pandas as pd
import pytest

from loaderlab.engine import events as ev
from loaderlab.engine.memory import rss_bytes, shm_usage, uss_bytes
from loaderlab.figures.memory import memory_figure
from loaderlab.scenarios.run import run, RunConfig
from loaderlab.trace.tables.memory import memory_table
from loaderlab.trace.tables import waits
from loaderlab.trace.diagnosis import findings
from loaderlab.trace.export.chrome import to_chrome_trace
from loaderlab.trace.files.io import load_trace, save_trace
from loaderlab.trace.tables.memory import MEMORY_COLUMNS
from loaderlab.trace.core.frame import events_frame

MB = 2**20


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return run(RunConfig(n_samples=400, cost_ms=2.0, consumer_ms=0.0, num_workers=2)).events  # about half a second


def test_runs_sample_each_workers_memory(frame):
    table = memory_table(frame)
    assert list(table.columns) == MEMORY_COLUMNS
    assert set(table["worker"]) == {0, 1} and len(table) >= 4
    started = set(frame.query("kind == 'worker_start'")["arg0"])
    assert set(table["pid"]) == started
    assert (table["rss_bytes"] > 10 * MB).all() and (table["uss_bytes"] > 0).all()
    assert (table["shm_total_bytes"] > 0).all()
    # emitted by the main process about worker k, like worker_start
    rows = frame[frame["kind"] == ev.MEMORY]
    assert set(rows["pid"]) == set(frame.query("worker == -1")["pid"])


def test_memory_events_do_not_disturb_the_analysis(frame):
    assert not waits.stage_spans(frame).empty
    kinds = {f.kind for f in findings.all_findings(frame)}
    assert not {"stalled_worker", "worker_vanished", "copy_on_access", "shm_nearly_full"} & kinds


def test_the_proc_readers():
    import os
    assert rss_bytes(os.getpid()) > 0 and uss_bytes(os.getpid()) > 0
    used, total = shm_usage()
    assert 0 <= used <= total
    assert rss_bytes(2**22 + 12345) is None


def _synthetic(uss_mb: list[float], shm_share: float) -> pd.DataFrame:
    total = 1000 * MB
    events = [ev.Event(ev.MEMORY, 10**9 + i * 10**8, 1, 0, 0, nbytes=500 * MB,
                       arg0=7, arg1=int(u * MB), arg2=int(shm_share * total), arg3=total)
              for i, u in enumerate(uss_mb)]
    return events_frame(events)


def test_copy_on_access_and_full_shm_are_named():
    found = {f.kind: f for f in findings.memory_findings(_synthetic([20, 60, 150, 240], 0.95))}
    assert set(found) == {"copy_on_access", "shm_nearly_full"}
    assert found["copy_on_access"].message.startswith("Worker 0 (pid 7) grew from 20 MB to 240 MB of private memory")
    assert found["shm_nearly_full"].message.startswith("/dev/shm was 95% full (950 of 1000 MB)")
    assert found["shm_nearly_full"].text("ko").startswith("/dev/shm가 95% 찼습니다")
    assert findings.memory_findings(_synthetic([20, 25, 30], 0.2)) == []


def test_figure_has_rss_uss_and_shm_lines(frame):
    fig = memory_figure(memory_table(frame))
    names = [trace.name for trace in fig.data]
    assert names == ["worker 0: RSS", "worker 0: private (USS)", "worker 1: RSS", "worker 1: private (USS)",
                     "/dev/shm in use"]
    assert memory_figure(memory_table(frame.iloc[0:0])).data == ()


def test_memory_events_survive_files_and_become_chrome_counters(frame, tmp_path):
    save_trace(frame, tmp_path / "t.json")
    loaded = load_trace(tmp_path / "t.json")
    pd.testing.assert_frame_equal(memory_table(loaded), memory_table(frame))
    doc = to_chrome_trace(frame)
    counters = [e for e in doc["traceEvents"] if e["ph"] == "C"]
    assert {e["name"] for e in counters} == {"memory", "/dev/shm used (MB)"}
    assert not [e for e in doc["traceEvents"] if e.get("name") == ev.MEMORY and e["ph"] == "i"]
    assert all(e["args"]["rss_MB"] > 10 for e in counters if e["name"] == "memory")
