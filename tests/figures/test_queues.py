"""The queue snapshots (``loaderlab.trace.tables.stays``) and the two queue figures that draw them, on real small runs.

Every trace comes from ``loaderlab.scenarios.run.run``. No assertion depends on how fast the machine is:
a straggler of 200 ms against 1 ms samples decides which batches park, and everything else is counted.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from loaderlab.figures.queues import queue_animation_figure, queue_depth_figure, row_label, WORKER_COLOURS
from loaderlab.scenarios.run import run, RunConfig
from loaderlab.trace.tables.stays import queue_depths, queue_snapshots, queue_stays
from loaderlab.trace.tables import waits
from loaderlab.trace.tables.stays import MAX_FRAMES, queue_rows

SMALL = dict(n_samples=48, batch_size=4, num_workers=2, cost_ms=1, consumer_ms=2)
# Dataset index 10 sits in task 2, which round robin gives to worker 0: worker 1's tasks 3 and 5 are ready first.
STRAGGLER = dict(SMALL, straggler_index=10, straggler_ms=200)
ROW_NAMES = {"index_queue": "IQ{k}", "worker": "W{k}", "result_queue": "RQ", "pin": "PIN", "data_queue": "DQ",
             "reorder": "RB", "loop": "LOOP"}
IN_FLIGHT = ("index_queue", "worker", "result_queue", "pin", "data_queue", "reorder")


def _snap(frame, **kw):
    return queue_snapshots(frame, queue_depths(frame), **kw)


def _animation(snap):
    return queue_animation_figure(snap, row_names=ROW_NAMES, worker_name="from W{k}", main_name="main",
                                  counter="out {outstanding}/{cap}, handed {handed}", x_title="place",
                                  hover="task %{text}", play="PLAY", pause="PAUSE", time_prefix="t=",
                                  time_suffix="s")


@pytest.fixture(scope="module")
def in_order():
    return run(RunConfig(**STRAGGLER))


@pytest.fixture(scope="module")
def out_of_order():
    return run(RunConfig(**STRAGGLER, in_order=False))


@pytest.fixture(scope="module")
def three_workers():
    return run(RunConfig(**dict(SMALL, num_workers=3, prefetch_factor=3)))


def test_rows_are_index_queues_workers_result_reorder_loop():
    assert queue_rows(2) == [("index_queue", 0), ("index_queue", 1), ("worker", 0), ("worker", 1),
                             ("result_queue", -1), ("reorder", -1), ("loop", -1)]
    assert len(queue_rows(3, pin=True)) == 2 * 3 + 5
    assert row_label(("worker", 2), ROW_NAMES) == "W2"


@pytest.mark.parametrize("workers", [2, 3])
def test_one_row_per_queue_and_worker(workers, in_order, three_workers):
    frame = in_order if workers == 2 else three_workers
    snap = _snap(frame)
    assert len(snap.rows) == 2 * workers + 3
    fig = _animation(snap)
    assert len(fig.layout.yaxis.categoryarray) == 2 * workers + 3
    assert [f"IQ{k}" for k in range(workers)] == [y for y in fig.layout.yaxis.categoryarray if y.startswith("IQ")][::-1]
    assert set(fig.data[0].y) == set(fig.layout.yaxis.categoryarray)  # every row stays even when empty


def test_frames_are_bounded_and_spread_over_the_run(in_order):
    few = _snap(in_order, max_frames=20)
    assert len(few.times) == 20
    steps = np.diff(few.times)
    assert np.allclose(steps, steps[0])  # evenly spread when there are more changes than frames
    assert few.times[0] == 0.0 and few.times[-1] == pytest.approx(float(in_order.events["t_s"].max()))
    snap = _snap(in_order)
    assert 20 < len(snap.times) <= MAX_FRAMES
    assert len(_animation(snap).frames) == len(snap.times)


def test_one_frame_per_change_when_few_show_every_change(in_order):
    snap = _snap(in_order, max_frames=10_000)
    puts = in_order.events[in_order.events["kind"] == "index_put"]["t_s"]
    assert set(puts) <= set(snap.times)  # each dispatch is a moment of its own
    assert len(snap.times) == len(set(snap.times))


def test_outstanding_never_passes_the_cap_and_bounds_what_is_in_flight(in_order, three_workers):
    for frame, cap in ((in_order, 4), (three_workers, 9)):
        snap = _snap(frame)
        assert snap.cap == cap
        assert snap.counters["outstanding"].max() == cap  # the cap is reached …
        assert (snap.counters["outstanding"] <= cap).all()  # … and never passed
        in_flight = snap.contents[snap.contents["row"].isin(IN_FLIGHT)].groupby("frame").size()
        outstanding = snap.counters.set_index("frame")["outstanding"]
        assert (in_flight <= outstanding.loc[in_flight.index]).all()


def test_contents_agree_with_queue_depths(in_order):
    depths = queue_depths(in_order)
    snap = queue_snapshots(in_order, depths)
    counted = snap.contents.groupby(["frame", "row", "k"]).size()
    for queue, row, k in [("index_queue[0]", "index_queue", 0), ("index_queue[1]", "index_queue", 1),
                          ("result_queue", "result_queue", -1), ("reorder", "reorder", -1)]:
        d = depths[depths["queue"] == queue].sort_values("t_s")
        pos = d["t_s"].to_numpy().searchsorted(snap.times, side="right") - 1
        expected = [int(d["depth"].iloc[p]) if p >= 0 else 0 for p in pos]
        got = [int(counted.get((i, row, k), 0)) for i in range(len(snap.times))]
        assert got == expected, queue


def test_in_order_parks_behind_the_straggler_out_of_order_never_does(in_order, out_of_order):
    contents = _snap(in_order).contents
    handed_2 = contents.query("row == 'loop' and batch == 2")["t_s"].min()
    # While the straggler's task 2 is out, only the fast worker's batches wait (the straggler's worker is 0).
    # Later a 1 ms sample that a busy machine stretched can park a batch of either worker: not asserted.
    parked = contents.query("row == 'reorder' and t_s < @handed_2")
    assert set(parked["batch"]) >= {3}  # worker 1's next task waited for task 2
    assert (parked["worker"] == 1).all()
    snap = _snap(out_of_order)
    assert snap.contents.query("row == 'reorder'").empty
    handed = snap.contents.query("row == 'loop'").drop_duplicates("batch")["batch"].tolist()
    assert handed.index(3) < handed.index(2)  # … because task 3 goes to the loop before task 2


def test_queues_are_first_in_first_out_and_the_reorder_buffer_releases_lowest_first(in_order):
    c = _snap(in_order).contents
    for (_, row, _), g in c.groupby(["frame", "row", "k"]):
        assert g["slot"].tolist() == list(range(len(g)))
        if row in ("index_queue", "reorder"):  # round robin sends tasks in order; the buffer waits for the lowest
            assert g.sort_values("slot")["batch"].is_monotonic_increasing


def test_each_batch_is_drawn_in_its_workers_colour_and_rows(in_order):
    snap = _snap(in_order)
    fig = _animation(snap)
    names = [t.name for t in fig.data[1:]]
    assert names == ["from W0", "from W1"]
    assert [t.marker.color for t in fig.data[1:]] == list(WORKER_COLOURS[:2])
    for frame in fig.frames:
        assert list(frame.traces) == [1, 2]
        for w, trace in enumerate(frame.data):
            assert not {y for y in trace.y if y[:2] in ("IQ", "W0", "W1")} - {f"IQ{w}", f"W{w}"}
    total = sum(len(t.x) for f in fig.frames for t in f.data)
    assert total == len(snap.contents)


def test_animation_has_play_pause_a_time_slider_and_a_counter_per_frame(in_order):
    snap = _snap(in_order)
    fig = _animation(snap)
    buttons = fig.layout.updatemenus[0].buttons
    assert [b.label for b in buttons] == ["PLAY", "PAUSE"]
    assert buttons[0].args[0] is None and list(buttons[1].args[0]) == [None]
    steps = fig.layout.sliders[0].steps
    assert [list(s.args[0]) for s in steps] == [[f.name] for f in fig.frames]
    assert [float(s.label) for s in steps] == pytest.approx(snap.times, abs=1e-3)
    assert fig.layout.sliders[0].currentvalue.prefix == "t="
    assert fig.layout.xaxis.title.text == "place"
    texts = [f.layout.annotations[0].text for f in fig.frames]
    assert "out 4/4, handed 0" in texts
    last = snap.counters.iloc[-1]
    assert texts[-1] == f"out {int(last['outstanding'])}/4, handed 12"  # 48 samples / 4 per batch
    at_cap = [f.layout.annotations[0].font.color for f, n in zip(fig.frames, snap.counters["outstanding"]) if n == 4]
    below = [f.layout.annotations[0].font.color for f, n in zip(fig.frames, snap.counters["outstanding"]) if n < 4]
    assert set(at_cap) == {"#d62728"} and "#d62728" not in below


def test_depth_figure_steps_every_queue_with_the_cap_dashed(in_order):
    depths = queue_depths(in_order)
    end = float(in_order.events["t_s"].max())
    fig = queue_depth_figure(depths, cap=4.0, end_s=end, names={"outstanding": "OUT", "reorder": "RB"},
                             panel_titles={"outstanding": "a", "index": "b", "result": "c", "reorder": "d"},
                             cap_name="CAP", x_title="sec", y_title="n")
    lines = {t.name: t for t in fig.data if t.name != "CAP"}
    assert set(lines) == {"OUT", "index_queue[0]", "index_queue[1]", "result_queue", "RB"}
    assert all(t.line.shape == "hv" and t.x[-1] == end for t in lines.values())
    assert max(lines["RB"].y) >= 1 and max(lines["OUT"].y) == 4
    assert lines["index_queue[1]"].line.color == WORKER_COLOURS[1]  # worker 1's queue in worker 1's colour
    caps = [t for t in fig.data if t.name == "CAP"]
    assert len(caps) == 4 and all(t.line.dash == "dash" and set(t.y) == {4.0} for t in caps)
    assert sum(bool(t.showlegend) for t in caps) == 1
    assert [a.text for a in fig.layout.annotations] == ["a", "b", "c", "d"]
    assert fig.layout.xaxis4.title.text == "sec"


def test_without_workers_there_is_nothing_queued_and_nothing_breaks():
    frame = run(RunConfig(n_samples=16, batch_size=4, num_workers=0, cost_ms=0, consumer_ms=0))
    snap = _snap(frame)
    assert snap.rows == [("result_queue", -1), ("reorder", -1), ("loop", -1)]
    assert math.isnan(snap.cap)
    assert set(snap.contents["row"]) <= {"loop"} and (snap.counters["outstanding"] == 0).all()
    fig = _animation(snap)
    assert len(fig.frames) == len(snap.times)
    assert "–" in fig.layout.annotations[0].text


def test_depths_are_computed_when_not_given(in_order):
    alone = queue_snapshots(in_order)
    assert alone.counters.equals(_snap(in_order).counters)
    assert alone.counters["outstanding"].max() == 4


def test_the_figures_draw_the_trace_tables_numbers(in_order):
    depths = queue_depths(in_order)
    snap = queue_snapshots(in_order, depths)
    fig = _animation(snap)
    drawn = [(f.name, sum(len(t.x) for t in f.data)) for f in fig.frames]
    assert drawn == [(str(i), n) for i, n in snap.contents.groupby("frame").size().reindex(
        range(len(snap.times)), fill_value=0).items()]
    end = float(in_order.events["t_s"].max())
    lines = queue_depth_figure(depths, cap=snap.cap, end_s=end, names={}, cap_name="CAP", x_title="", y_title="",
                               panel_titles={"outstanding": "", "index": "", "result": "", "reorder": ""}).data
    peak = {t.name: max(t.y) for t in lines if t.name != "CAP"}
    assert peak == depths.groupby("queue")["depth"].max().to_dict()
    stays = queue_stays(in_order)  # the one table both are counted from: every task passes the outstanding count
    assert peak["outstanding"] == snap.counters["outstanding"].max() == snap.cap
    assert len(stays[stays["place"] == "outstanding"]) == len(in_order.events[in_order.events["kind"] == "index_put"])
