"""The per-process timeline: one lane per process, capped idle time, and the stall outline.

Lanes and stall marks come from real small runs (``loaderlab.scenarios.run.run``); the capped-idle split is
checked on a hand-made table whose answer can be worked out by hand.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from loaderlab.figures.timeline import CAPPED_IDLE, MARK_COLOUR, split_capped_idle, stall_spans, timeline_figure
from loaderlab.scenarios.run import RunConfig, run
from loaderlab.trace import analysis
from loaderlab.trace.findings import stall_findings

SMALL = dict(n_samples=48, batch_size=4, num_workers=2, cost_ms=1, consumer_ms=2)
STRAGGLER = dict(SMALL, straggler_index=10, straggler_ms=200)  # index 10: task 2, worker 0


@pytest.fixture(scope="module")
def straggler():
    return run(RunConfig(**STRAGGLER))


def _stall_table(frame) -> pd.DataFrame:
    found = [f for f in stall_findings(frame) if f.kind in ("straggler", "head_of_line")]
    return pd.DataFrame([{c: getattr(f, c) for c in ("kind", "epoch", "batch", "worker", "index")} for f in found])


def _lanes(fig) -> set[str]:
    return {y for trace in fig.data for y in trace.y}


def test_one_lane_per_process_main_on_top(straggler):
    fig = timeline_figure(analysis.spans(straggler), x_title="X!", stage_names={"fetch": "F!"})
    assert _lanes(fig) == {"main", "worker 0", "worker 1"}
    assert list(fig.layout.yaxis.categoryarray) == ["worker 1", "worker 0", "main"]  # drawn bottom-up
    assert fig.layout.xaxis.title.text == "X!"
    fetch = next(trace for trace in fig.data if trace.name == "F!")
    assert len(fetch.y) == 48 and set(fetch.y) == {"worker 0", "worker 1"}


def test_three_workers_and_the_pin_thread_get_their_own_lanes():
    frame = run(RunConfig(**dict(SMALL, num_workers=3, pin_memory=True)))
    fig = timeline_figure(analysis.spans(frame))
    assert list(fig.layout.yaxis.categoryarray) == ["worker 2", "worker 1", "worker 0", "pin", "main"]
    pin = next(trace for trace in fig.data if trace.name == "pin")
    assert set(pin.y) == {"pin"}  # the pin thread's spans, not on top of main's waits


def test_the_straggler_and_the_wait_it_causes_are_outlined(straggler):
    spans = analysis.spans(straggler)
    marks = stall_spans(spans, _stall_table(straggler))
    fetch = marks[marks["stage"] == "fetch"]
    assert fetch[["worker", "batch", "index"]].values.tolist() == [[0, 2, 10]]
    wait = marks[marks["stage"] == "wait"]
    assert wait["batch"].tolist() == [2] and (wait["worker"] == -1).all()
    fig = timeline_figure(spans, marks=marks, mark_name="STALL")
    mark = fig.data[-1]
    assert mark.name == "STALL" and mark.marker.line.color == MARK_COLOUR
    assert sorted(mark.y) == ["main", "worker 0"]
    assert list(mark.base) == pytest.approx(marks["start_s"].tolist())
    assert mark.x[list(mark.y).index("worker 0")] >= 0.2  # the 200 ms extra cost is a floor


def test_without_a_sample_the_late_batch_on_its_worker_is_outlined(straggler):
    spans = analysis.spans(straggler)
    stalls = pd.DataFrame([{"kind": "head_of_line", "epoch": 0, "batch": 2, "worker": 0, "index": None}])
    marks = stall_spans(spans, stalls)
    assert sorted(marks[marks["worker"] == 0]["stage"]) == ["collate"] + ["fetch"] * 4
    assert len(marks[marks["worker"] == -1]) == 1
    assert len(stall_spans(spans, stalls.iloc[0:0])) == 0


def _span(worker, stage, start, end):
    return {"track": f"worker {worker}", "pid": 1, "worker": worker, "stage": stage, "epoch": 0, "batch": -1,
            "index": -1, "start_s": start, "end_s": end, "duration_s": end - start, "open": False}


def test_idle_is_split_where_the_prefetch_cap_kept_the_worker_waiting():
    spans = pd.DataFrame([_span(0, "idle", 0.0, 10.0), _span(0, "fetch", 10.0, 11.0), _span(1, "idle", 0.0, 10.0)])
    depths = pd.DataFrame({
        "t_s": [0.0, 2.0, 5.0, 0.0, 3.0, 4.0, 0.0, 2.0],
        "queue": ["outstanding"] * 3 + ["index_queue[0]"] * 3 + ["index_queue[1]"] * 2,
        "depth": [0, 2, 1, 0, 1, 0, 0, 1],  # at the cap (2) over [2, 5]; worker 0's queue holds a task over [3, 4]
    })
    out = split_capped_idle(spans, depths, cap=2.0)
    zero = out[out["worker"] == 0].sort_values("start_s")
    assert zero[["stage", "start_s", "end_s"]].values.tolist() == [
        ["idle", 0.0, 2.0], [CAPPED_IDLE, 2.0, 3.0], ["idle", 3.0, 4.0], [CAPPED_IDLE, 4.0, 5.0],
        ["idle", 5.0, 10.0], ["fetch", 10.0, 11.0]]
    one = out[out["worker"] == 1]
    assert one[["stage", "start_s", "end_s"]].values.tolist() == [["idle", 0.0, 10.0]]  # its queue was never empty
    assert out["duration_s"].sum() == pytest.approx(spans["duration_s"].sum())
    assert split_capped_idle(spans, depths, cap=math.nan).equals(spans)


def test_a_capped_run_shows_capped_idle_in_the_figure():
    # A 20 ms loop body against 2 ms batches: main keeps the cap (2 × 2 tasks) out and the workers wait on it.
    frame = run(RunConfig(**dict(SMALL, consumer_ms=20, cost_ms=0.5)))
    spans = split_capped_idle(analysis.spans(frame), analysis.queue_depths(frame), 4.0)
    assert (spans["stage"] == CAPPED_IDLE).any()
    fig = timeline_figure(spans, stage_names={CAPPED_IDLE: "CAPPED"})
    assert "CAPPED" in {trace.name for trace in fig.data}
