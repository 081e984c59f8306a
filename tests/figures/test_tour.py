"""The pipeline tour: one batch's journey from a real small run, its notes, and the figure that draws it.

Every trace comes from ``loaderlab.scenarios.run.run``. Nothing depends on how fast the machine is: round
robin decides which worker makes a batch, and a 200 ms straggler against 1 ms samples decides which batch
parks in the reorder buffer and which one it waits for.
"""

from __future__ import annotations

import json

import plotly.graph_objects as go
import plotly.io as pio
import pytest

from loaderlab.figures.tour import (BOX_NAME_KEYS, BOXES, HIGHLIGHT, journey_notes, NOTE_KEYS, SEGMENTS,
                                    tour_figure)
from loaderlab.trace.tables.journey import batch_journey, handed_batches
from loaderlab.trace.tables.waits import main_wait
from loaderlab.scenarios.run import run, RunConfig
from loaderlab.trace.core.lookups import hand_overs, normal

SMALL = dict(n_samples=48, batch_size=4, num_workers=2, cost_ms=1, consumer_ms=2)
# Dataset index 10 sits in task 2 (worker 0): worker 1's task 3 arrives first and parks until task 2 is in.
STRAGGLER = dict(SMALL, straggler_index=10, straggler_ms=200)
NOTES = {k: f"<{k}>" for k in NOTE_KEYS} | {
    "index_queue": "put {t:.3f} waited {ms:.1f} for W{worker}",
    "worker": "fetch {samples} in {fetch_ms:.1f}; slowest {index} {slowest_ms:.1f}; collate {collate_ms:.1f}",
    "reorder_parked": "parked {ms:.1f} for B{waiting_for}",
    "batch_sampler": "B{batch}/{n_batches} n={samples} t={t:.3f}",
    "sampler": "I[{indices}]",
}
NAMES = {k: f"N:{k}" + ("[{k}]" if k in ("index_queue", "worker") else "") for k in BOX_NAME_KEYS}
SEG_NAMES = {s: f"S:{s}" for s in SEGMENTS}


@pytest.fixture(scope="module")
def straggler():
    """The least-disturbed of up to three runs: beside a busy suite, worker 1 can start ~200 ms late and its
    batch 3 then arrives as the straggler's batch 2 is done (one CI run: parked 4 ms); a disturbance only
    shortens the park, so a run whose batch 3 parked over 0.1 s is the undisturbed one."""
    best = None
    for _ in range(3):
        frame = run(RunConfig(**STRAGGLER))
        parked = batch_journey(frame, 0, 3).seconds("reorder")
        if best is None or parked > best[0]:
            best = (parked, frame)
        if parked > 0.1:
            break
    return best[1]


@pytest.fixture(scope="module")
def no_workers():
    return run(RunConfig(**dict(SMALL, num_workers=0, pin_memory=True)))


def _figure(journey):
    return tour_figure(journey, box_names=NAMES, notes=journey_notes(journey, NOTES), segment_names=SEG_NAMES,
                       title=f"batch {journey.batch}", x_title="X!")


def _shape(fig, name):
    (shape,) = [s for s in fig.layout.shapes if s.name == name]
    return shape


def _highlighted(fig) -> set[str]:
    return {s.name for s in fig.layout.shapes if s.type == "rect" and s.line.width == 3}


def test_the_tour_offers_every_batch_handed_to_the_loop(straggler):
    handed = handed_batches(straggler)
    assert handed["batch"].tolist() == list(range(12))  # 48 samples / 4
    assert set(handed["epoch"]) == {0}


def test_round_robin_decides_the_worker_and_the_figure_highlights_its_boxes(straggler):
    for batch in range(4):
        journey = batch_journey(straggler, 0, batch)
        assert journey.worker == batch % 2
        assert journey.indices == list(range(4 * batch, 4 * batch + 4))
        fig = _figure(journey)
        k, other = batch % 2, 1 - batch % 2
        assert {f"index_queue[{k}]", f"worker[{k}]"} <= _highlighted(fig)
        assert not {f"index_queue[{other}]", f"worker[{other}]"} & _highlighted(fig)
        assert _shape(fig, f"worker[{k}]").line.color == HIGHLIGHT
        assert fig.layout.title.text == f"batch {batch}"


def test_the_straggler_batch_and_the_batch_it_holds_up(straggler):
    slow, held = batch_journey(straggler, 0, 2), batch_journey(straggler, 0, 3)
    assert slow.slowest_index == 10 and slow.slowest_s >= 0.2  # the 200 ms extra cost is a floor
    assert "reorder" not in set(slow.segments["segment"])
    assert held.waiting_for == 2
    assert held.seconds("reorder") > 0.1  # parked for most of the straggler's 200 ms
    notes = journey_notes(held, NOTES)
    assert notes["reorder"].startswith("parked ") and notes["reorder"].endswith(" for B2")
    assert notes["worker"].startswith("fetch 4 in ")
    assert notes["sampler"] == "I[12, 13, 14, 15]"
    assert notes["pin"] == "<pin_off>"  # pin_memory=False
    assert notes["batch_sampler"].startswith("B3/12 n=4 t=")
    assert journey_notes(slow, NOTES)["reorder"] == "<reorder_direct>"


def test_the_lower_panel_shows_where_the_batch_spent_its_time(straggler):
    journey = batch_journey(straggler, 0, 3)
    segs = journey.segments
    assert (segs["end_s"] >= segs["start_s"]).all()
    fig = _figure(journey)
    drawn = [trace.y[0] for trace in fig.data]
    assert drawn == [f"S:{s}" for s in ("index_queue", "fetch", "collate", "result_queue", "reorder", "loop")]
    assert fig.layout.xaxis2.title.text == "X!"
    parked = next(trace for trace in fig.data if trace.y[0] == "S:reorder")
    assert parked.x[0] == pytest.approx(journey.seconds("reorder"))


def test_every_stage_box_is_drawn_with_its_name(straggler):
    fig = _figure(batch_journey(straggler, 0, 0))
    rects = [s.name for s in fig.layout.shapes if s.type == "rect"]
    assert sorted(rects) == sorted(["sampler", "batch_sampler", "index_queue[0]", "index_queue[1]", "worker[0]",
                                    "worker[1]", "result_queue", "pin", "reorder", "loop"])
    texts = [a.text for a in fig.layout.annotations]
    assert any(text.startswith("<b>N:worker[0]</b><br>fetch 4 in") for text in texts)
    assert any(text == "<b>N:worker[1]</b>" for text in texts)  # off the path: its name only
    arrows = [a for a in fig.layout.annotations if a.showarrow]
    assert len(arrows) == len(BOXES) - 1  # one arrow between each pair of boxes on the path
    assert _shape(fig, "pin").line.dash == "dash"  # pin_memory=False: a stage this run skips


def test_without_workers_the_main_process_makes_the_batch(no_workers):
    journey = batch_journey(no_workers, 0, 2)
    assert journey.worker is None and journey.num_workers == 0
    assert {"fetch", "collate", "pin", "loop"} <= set(journey.segments["segment"])
    assert "index_queue" not in set(journey.segments["segment"])
    notes = journey_notes(journey, NOTES)
    assert notes["index_queue"] == notes["result_queue"] == "<no_workers>"
    assert notes["reorder"] == "<reorder_off>"
    assert notes["pin"] != "<pin_off>"
    fig = _figure(journey)
    texts = [a.text for a in fig.layout.annotations]
    texts = [text.replace("</b><br><b>", "") for text in texts]  # a name wider than its box is cut into lines
    assert any(text.startswith("<b>N:worker_main</b>") for text in texts)
    assert any(text.startswith("<b>N:index_queue_none</b>") for text in texts)
    assert _shape(fig, "index_queue").line.dash == "dash" and _shape(fig, "pin").line.dash == "solid"
    assert "worker" in _highlighted(fig)


def test_out_of_order_has_no_reorder_stage():
    frame = run(RunConfig(**STRAGGLER, in_order=False))
    journey = batch_journey(frame, 0, 3)
    assert journey.position is not None and journey.position < 3  # handed over before the straggler's batch
    assert journey_notes(journey, NOTES)["reorder"] == "<reorder_off>"
    assert _shape(_figure(journey), "reorder").line.dash == "dash"


def test_the_journey_reads_the_same_wait_and_hand_over_as_the_whole_table(straggler):
    """batch_journey reads only the rows a batch needs; its numbers are main_wait's and hand_overs' of the
    whole table (the timelines and the verdict show those: a number shown twice must be the same)."""
    waits = main_wait(straggler)
    handed = hand_overs(normal(straggler))
    for batch in range(12):
        journey = batch_journey(straggler, 0, batch)
        row = handed[handed["batch"] == batch].iloc[0]
        assert journey.position == row["position"] and journey.moments["yield_s"] == row["t_s"]
        assert journey.wait_s == waits[waits["position"] == journey.position]["wait_s"].iloc[0]
        assert journey.n_batches == 12


def test_the_figure_is_one_valid_spec_with_its_own_margins(straggler):
    """Built without plotly's per-call validation, so the whole spec must validate; only the lower panel's
    labels automargin (the time axis's numbers widened the margin and the browser drew the figure twice), and
    no default template (Streamlit's 3.4 KB, plotly's 7 KB) rides along."""
    fig = _figure(batch_journey(straggler, 0, 3))
    go.Figure(fig.to_dict())  # plotly's validation: raises on any property it does not know
    layout = fig.layout
    assert layout.template.layout.xaxis.automargin is False and layout.template.layout.yaxis.automargin is False
    assert [layout[axis].automargin for axis in ("xaxis", "yaxis", "xaxis2", "yaxis2")] == [None, None, None, True]
    assert layout.xaxis2.domain[1] < 1  # room for half the time axis's last number inside the figure
    assert len(json.dumps(layout.template.to_plotly_json())) < 1_000
    assert len(pio.to_json(fig)) < 10_000  # sent on every page change (it was 15 KB with the default template)
    assert layout.xaxis2.domain[0] > 0  # the lower panel's labels have their own strip inside the figure
