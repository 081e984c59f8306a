"""The per-process timeline: one lane per process, capped idle time, and the stall outline.

The figure draws ``loaderlab.trace.tables.timeline.timeline_spans`` as it is: lanes and stall marks come from real
small runs (``loaderlab.scenarios.run.run``), the capped-idle split is checked on a hand-made table whose
answer can be worked out by hand, and the figure's capped seconds are ``worker_utilisation``'s.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from loaderlab.figures.timeline import MARK_COLOUR, timeline_figure
from loaderlab.scenarios.run import run, RunConfig
from loaderlab.trace.tables.timeline import CAPPED_IDLE, MARK, timeline_spans
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.tables import waits
from loaderlab.trace.core import kinds
from loaderlab.trace.core.findings import Finding
from loaderlab.trace.diagnosis.findings import stall_findings
from loaderlab.trace.tables.timeline import split_idle

SMALL = dict(n_samples=48, batch_size=4, num_workers=2, cost_ms=1, consumer_ms=2)
STRAGGLER = dict(SMALL, straggler_index=10, straggler_ms=200)  # index 10: task 2, worker 0


@pytest.fixture(scope="module")
def straggler():
    return run(RunConfig(**STRAGGLER))


def _stalls(frame) -> list[Finding]:
    return [f for f in stall_findings(frame) if f.kind in (kinds.STRAGGLER, kinds.HEAD_OF_LINE)]


def _marks(spans: pd.DataFrame) -> pd.DataFrame:
    return spans[spans[MARK].notna()].sort_values(MARK)


def _lanes(fig) -> set[str]:
    return {y for trace in fig.data for y in trace.y}


def test_one_lane_per_process_main_on_top(straggler):
    fig = timeline_figure(waits.stage_spans(straggler), x_title="X!", stage_names={"fetch": "F!"})
    assert _lanes(fig) == {"main", "worker 0", "worker 1"}
    assert list(fig.layout.yaxis.categoryarray) == ["worker 1", "worker 0", "main"]  # drawn bottom-up
    assert fig.layout.xaxis.title.text == "X!"
    fetch = next(trace for trace in fig.data if trace.name == "F!")
    assert len(fetch.y) == 48 and set(fetch.y) == {"worker 0", "worker 1"}


def test_three_workers_and_the_pin_thread_get_their_own_lanes():
    frame = run(RunConfig(**dict(SMALL, num_workers=3, pin_memory=True)))
    fig = timeline_figure(waits.stage_spans(frame))
    assert list(fig.layout.yaxis.categoryarray) == ["worker 2", "worker 1", "worker 0", "pin", "main"]
    pin = next(trace for trace in fig.data if trace.name == "pin")
    assert set(pin.y) == {"pin"}  # the pin thread's spans, not on top of main's waits


def test_the_straggler_and_the_wait_it_causes_are_outlined(straggler):
    spans = timeline_spans(straggler, _stalls(straggler))
    marks = _marks(spans)
    fetch = marks[marks["stage"] == "fetch"]
    assert fetch[["worker", "batch", "index"]].values.tolist()[0] == [0, 2, 10]  # the finding's own sample first
    worst = [[w["worker"], w["batch"], w["index"]] for f in _stalls(straggler) for w in f.evidence.get("worst", [])]
    assert sorted(fetch[["worker", "batch", "index"]].values.tolist()) == sorted(worst)  # and its other slow ones
    wait = marks[marks["stage"] == "wait"]
    assert wait["batch"].tolist() == [2] and (wait["worker"] == -1).all()
    fig = timeline_figure(spans, mark_name="STALL")
    mark = fig.data[-1]
    assert mark.name == "STALL" and mark.marker.line.color == MARK_COLOUR
    assert set(mark.y) == {"main"} | {f"worker {w}" for w, _, _ in worst}
    assert list(mark.base) == pytest.approx(marks["start_s"].tolist())
    assert mark.x[list(mark.y).index("worker 0")] >= 0.2  # the 200 ms extra cost is a floor


def test_without_a_sample_the_late_batch_on_its_worker_is_outlined(straggler):
    late = Finding(kinds.HEAD_OF_LINE, "warning", "", epoch=0, batch=2, worker=0, index=None)
    marks = _marks(timeline_spans(straggler, [late]))
    assert sorted(marks[marks["worker"] == 0]["stage"]) == ["collate"] + ["fetch"] * 4
    assert len(marks[marks["worker"] == -1]) == 1
    assert timeline_spans(straggler, [])[MARK].isna().all()
    data = Finding(kinds.PADDING_WASTE, "warning", "", epoch=0, batch=2, worker=0)
    assert timeline_spans(straggler, [data])[MARK].isna().all()  # a finding about data blames no span


def _span(worker, stage, start, end):
    return {"track": f"worker {worker}", "pid": 1, "worker": worker, "stage": stage, "epoch": 0, "batch": -1,
            "index": -1, "start_s": start, "end_s": end, "duration_s": end - start, "open": False}


def test_idle_is_split_where_the_prefetch_cap_kept_the_worker_waiting():
    spans = pd.DataFrame([_span(0, "idle", 0.0, 10.0), _span(0, "fetch", 10.0, 11.0),
                          {**_span(1, "idle", 0.0, 10.0), "pid": 2}])
    # At the cap over [2, 5]; worker 0's queue held a task over [3, 4]; worker 1's was never empty.
    capped = pd.DataFrame({"pid": [1, 1], "worker": [0, 0], "epoch": [0, 0], "start_s": [2.0, 4.0],
                           "end_s": [3.0, 5.0]})
    out = split_idle(spans, capped)
    zero = out[out["worker"] == 0].sort_values("start_s")
    assert zero[["stage", "start_s", "end_s"]].values.tolist() == [
        ["idle", 0.0, 2.0], [CAPPED_IDLE, 2.0, 3.0], ["idle", 3.0, 4.0], [CAPPED_IDLE, 4.0, 5.0],
        ["idle", 5.0, 10.0], ["fetch", 10.0, 11.0]]
    one = out[out["worker"] == 1]
    assert one[["stage", "start_s", "end_s"]].values.tolist() == [["idle", 0.0, 10.0]]  # its queue was never empty
    assert out["duration_s"].sum() == pytest.approx(spans["duration_s"].sum())
    assert split_idle(spans, capped.iloc[0:0])[["stage", "start_s", "end_s"]].equals(spans[["stage", "start_s", "end_s"]])


def test_a_capped_run_shows_capped_idle_in_the_figure_as_many_seconds_as_worker_utilisation_counts():
    # A 20 ms loop body against 2 ms batches: main keeps the cap (2 × 2 tasks) out and the workers wait on it.
    frame = run(RunConfig(**dict(SMALL, consumer_ms=20, cost_ms=0.5)))
    spans = timeline_spans(frame)
    assert (spans["stage"] == CAPPED_IDLE).any()
    fig = timeline_figure(spans, stage_names={CAPPED_IDLE: "CAPPED"})
    bars = next(trace for trace in fig.data if trace.name == "CAPPED")
    drawn: dict[str, float] = {}
    for lane, width in zip(bars.y, bars.x):
        drawn[lane] = drawn.get(lane, 0.0) + width
    util = worker_utilisation(frame).groupby("worker")["capped_idle_s"].sum()
    assert drawn == pytest.approx({f"worker {w}": s for w, s in util.items() if s > 0})
    idle = sum(sum(t.x) for t in fig.data if t.name in ("idle", "CAPPED"))  # split, not lost or doubled
    assert idle == pytest.approx(worker_utilisation(frame)["idle_s"].sum())


def test_without_the_cap_idle_stays_whole():
    frame = replace(run(RunConfig(**dict(SMALL, consumer_ms=20, cost_ms=0.5))), loader={})  # settings unknown
    assert not (timeline_spans(frame)["stage"] == CAPPED_IDLE).any()
