"""The transfer figures as objects: panels, lanes, one bar per batch and stage, totals that add up."""

from __future__ import annotations

import pytest

from loaderlab.figures.transfer import (TRANSFER_COLOURS, breakdown, transfer_timeline_figure,
                                        transfer_totals_figure)
from loaderlab.scenarios.transfer import model_transfers, summarise

MB = 1_000_000
TITLES = {"pageable": "PAGEABLE", "pinned": "PINNED"}
STAGE_NAMES = {"pin": "Pin", "copy": "Copy", "compute": "Compute"}
PARTS = {"compute": "C", "exposed_copy": "X", "idle": "I"}


def _timeline(table):
    return transfer_timeline_figure(table, mode_titles=TITLES, stage_names=STAGE_NAMES, x_title="ms!",
                                    batch_word="b")


def test_timeline_has_a_panel_per_mode_and_a_bar_per_batch_and_stage():
    table = model_transfers(50 * MB, 6, 8.0)
    fig = _timeline(table)
    panels = [(tr.xaxis, tr.name) for tr in fig.data]
    assert panels == [("x", "Copy"), ("x", "Compute"), ("x2", "Pin"), ("x2", "Copy"), ("x2", "Compute")]
    assert all(len(tr.x) == 6 for tr in fig.data)
    assert [a.text for a in fig.layout.annotations] == ["PAGEABLE", "PINNED"]
    assert fig.layout.xaxis2.title.text == "ms!"  # the shared time axis is titled under the bottom panel
    assert [tr.showlegend for tr in fig.data] == [True, True, True, False, False]  # each stage named once
    assert {tr.name: tr.marker.color for tr in fig.data} == {STAGE_NAMES[s]: c for s, c in TRANSFER_COLOURS.items()}


def test_timeline_bars_sit_where_the_table_says():
    table = model_transfers(100 * MB, 3, 30.0, pinned_gbps=10.0, pin_gbps=10.0)
    fig = _timeline(table)
    copy = next(tr for tr in fig.data if tr.xaxis == "x2" and tr.name == "Copy")
    assert list(copy.base) == [10.0, 20.0, 50.0]
    assert list(copy.x) == [10.0, 10.0, 10.0]
    assert list(copy.text) == ["0", "1", "2"]
    assert set(copy.y) == {"Copy"}
    assert list(fig.layout.yaxis2.categoryarray) == ["Compute", "Copy", "Pin"]  # pin on top


def test_timeline_with_one_mode_draws_one_panel():
    table = model_transfers(10 * MB, 2, 1.0)
    fig = _timeline(table[table["mode"] == "pinned"])
    assert {tr.xaxis for tr in fig.data} == {"x"}
    assert [a.text for a in fig.layout.annotations] == ["PINNED"]


def test_breakdown_adds_up_to_the_epoch():
    summary = summarise(model_transfers(100 * MB, 3, 30.0, pinned_gbps=10.0, pin_gbps=10.0))
    parts = breakdown(summary).set_index("mode")
    assert parts.loc["pinned", "compute_ms"] == 90.0
    assert parts.loc["pinned", "exposed_copy_ms"] == 10.0  # only the first copy runs alone
    assert parts.loc["pinned", "idle_ms"] == 10.0  # waiting for the first pin
    assert parts.loc["pageable", "idle_ms"] == 0.0
    total = parts["compute_ms"] + parts["exposed_copy_ms"] + parts["idle_ms"]
    assert total.tolist() == pytest.approx(parts["total_ms"].tolist())


def test_totals_figure_stacks_three_parts_per_mode_and_labels_each_total():
    summary = summarise(model_transfers(100 * MB, 3, 30.0, pinned_gbps=10.0, pin_gbps=10.0))
    fig = transfer_totals_figure(summary, mode_names={"pageable": "P", "pinned": "N"}, part_names=PARTS,
                                 x_title="ms per epoch", total_text="{total_ms:.0f} ms / {overlap:.0%}")
    assert fig.layout.barmode == "stack"
    assert [tr.name for tr in fig.data] == ["C", "X", "I"]
    assert all(list(tr.y) == ["N", "P"] for tr in fig.data)  # the first mode is drawn on top
    stacked = [sum(tr.x[i] for tr in fig.data) for i in range(2)]
    by_mode = summary.set_index("mode")["total_ms"]
    assert stacked == pytest.approx([by_mode["pinned"], by_mode["pageable"]])
    assert sorted(a.text for a in fig.layout.annotations) == ["110 ms / 67%", "140 ms / 0%"]  # pageable: 3 × (16.7 + 30)
    assert fig.layout.xaxis.title.text == "ms per epoch"


def test_each_totals_label_can_name_the_copying_its_share_is_of():
    """Issue 34: "87% of copying hidden" beside two equal bars did not say the copying was 0.0015 ms."""
    summary = summarise(model_transfers(1152, 8, 10.0), 1152)
    fig = transfer_totals_figure(summary, mode_names={"pageable": "P", "pinned": "N"}, part_names=PARTS,
                                 x_title="ms", total_text="{total} ms, {overlap:.0%} of {copy} ms",
                                 duration=lambda ms: f"{ms:.2g}")
    assert sorted(a.text for a in fig.layout.annotations) == ["80 ms, 0% of 0.0015 ms", "80 ms, 87% of 0.00077 ms"]
    assert breakdown(summary).set_index("mode")["copy_ms"].tolist() == summary["copy_ms"].tolist()
