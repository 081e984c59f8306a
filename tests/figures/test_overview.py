"""The overview figure of a whole run, built from the binned tables of real small recordings, as a plotly object."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch

import loaderlab
from loaderlab.figures.overview import MAX_LABELS, overview_figure
from loaderlab.trace.tables import bins

WORDS = dict(x_title="SECONDS", busy_title="BUSY", depth_title="DEPTH", label_title="LABELS", worker_name="W{k}",
             label_name="L{label}", other_name="OTHER")


class Labelled(torch.utils.data.Dataset):
    def __len__(self):
        return 120

    def __getitem__(self, i):
        return torch.zeros(2), i % 12


def label_of(index, sample):
    return int(sample[1]), 2


@pytest.fixture(scope="module")
def tables():
    loader = loaderlab.DataLoader(Labelled(), batch_size=6, num_workers=2)
    frame = loaderlab.record(loader, sample_info=label_of)
    edges = bins.bin_edges(frame, 40)
    return (bins.worker_busy_bins(frame, edges), bins.queue_depth_bins(frame, edges),
            bins.label_share_bins(frame, window=4))


def test_one_heatmap_row_per_worker_with_the_busy_shares(tables):
    busy, depths, labels = tables
    fig = overview_figure(busy, depths, labels, **WORDS)
    heat = [tr for tr in fig.data if tr.type == "heatmap"]
    assert len(heat) == 1 and list(heat[0].y) == ["W0", "W1"]
    z = np.array(heat[0].z, dtype=float)
    assert z.shape == (2, 40)
    expected = busy.pivot(index="worker", columns="bin", values="busy_share").to_numpy()
    assert np.allclose(z, expected, equal_nan=True)
    assert [a.text for a in fig.layout.annotations] == ["BUSY", "DEPTH", "LABELS"]
    assert fig.layout.xaxis3.title.text == "SECONDS"


def test_each_queue_is_a_band_around_its_mean(tables):
    busy, depths, labels = tables
    fig = overview_figure(busy, depths, labels, **WORDS, queue_names={"outstanding": "OUT"},
                          queues_shown={"outstanding"})
    mean = [tr for tr in fig.data if tr.type == "scatter" and tr.name == "OUT" and tr.showlegend is not False]
    assert len(mean) == 1
    mine = depths[depths["queue"] == "outstanding"].sort_values("bin")
    assert np.allclose(mean[0].y, mine["mean_depth"])
    band = [tr for tr in fig.data if tr.name == "OUT" and tr.fill == "tonexty"]
    assert len(band) == 1 and np.allclose(band[0].y, mine["min_depth"])
    hidden = {tr.name for tr in fig.data if tr.visible == "legendonly"}
    assert "index_queue[0]" in hidden and "OUT" not in hidden


def test_label_shares_stack_to_one_with_the_smallest_labels_folded(tables):
    busy, depths, labels = tables
    fig = overview_figure(busy, depths, labels, **WORDS)
    areas = [tr for tr in fig.data if tr.type == "scatter" and tr.stackgroup == "labels"]
    assert len(areas) == MAX_LABELS + 1 and areas[-1].name == "OTHER"  # 12 labels: 9 and the rest
    total = np.sum([np.asarray(a.y, dtype=float) for a in areas], axis=0)
    assert np.allclose(total, 1.0)
    few = overview_figure(busy, depths, labels, **WORDS, max_labels=20)
    assert sorted(tr.name for tr in few.data if tr.type == "scatter" and tr.stackgroup == "labels") == sorted(f"L{k}" for k in range(12))


def test_the_window_is_shaded_and_an_empty_table_drops_its_row(tables):
    busy, depths, labels = tables
    fig = overview_figure(busy, depths, labels.iloc[0:0], **WORDS, window=(0.01, 0.02))
    assert [a.text for a in fig.layout.annotations] == ["BUSY", "DEPTH"]
    assert [(s.x0, s.x1, s.yref) for s in fig.layout.shapes] == [(0.01, 0.02, "paper")]
    empty = overview_figure(busy.iloc[0:0], depths.iloc[0:0], labels.iloc[0:0], **WORDS)
    assert len(empty.data) == 0 and empty.layout.xaxis.title.text == "SECONDS"


def test_the_figure_grows_with_bins_not_with_events(tables):
    busy, depths, labels = tables
    fig = overview_figure(busy, depths, labels, **WORDS)
    points = sum(len(tr.x) * (len(tr.y) if tr.type == "heatmap" else 1) for tr in fig.data)
    assert points <= 2 * 40 + 3 * 40 * depths["queue"].nunique() + 10 * labels["window"].nunique() * 1
