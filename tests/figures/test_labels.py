"""The label figures as objects: stacked bars that add up to the batches, bounded frames, shares from real runs."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from loaderlab.figures.labels import (MAX_FRAMES, batch_counts, coverage_figure, data_shares, intended_shares,
                                      label_batches_figure, share_figure)
from loaderlab.scenarios.datasets import inverse_frequency_weights
from loaderlab.scenarios.run import RunConfig, labels_and_lengths, run
from loaderlab.trace.tables.audits import label_audit
from loaderlab.scenarios.custom_runs import weights_run

WORDS = dict(x_title="batch", y_title="samples", y_title_grouped="samples per {g} batches", hover="h",
             hover_grouped="hg", play="Play", pause="Pause", slider_prefix="batches: ")
NINETY_TEN = RunConfig(n_samples=800, imbalance=0.9, cost_ms=0.0, consumer_ms=0.0, num_workers=0, batch_size=16)


def _per_batch(sizes: list[tuple[int, int]], epochs: int = 1) -> pd.DataFrame:
    """Batches with ``(label-0 count, label-1 count)``; a zero count has no row, as in label_audit."""
    rows = [(e, b, lab, n) for e in range(epochs) for b, pair in enumerate(sizes) for lab, n in enumerate(pair) if n]
    return pd.DataFrame(rows, columns=["epoch", "batch", "label", "count"])


@pytest.fixture(scope="module")
def runs():
    """A 90/10 dataset through RandomSampler and through WeightedRandomSampler with inverse frequency."""
    return {"random": run(replace(NINETY_TEN, shuffle=True)), "weighted": run(replace(NINETY_TEN, sampler="weighted"))}


def test_stacked_bars_add_up_to_each_batch_size_and_keep_missing_labels_at_zero():
    per_batch = _per_batch([(14, 2), (16, 0), (9, 7), (3, 0)])
    fig = label_batches_figure({"run": per_batch}, label_names={0: "cat", 1: "dog"}, **WORDS)
    assert [tr.name for tr in fig.data] == ["cat", "dog"]
    assert fig.layout.barmode == "stack"
    totals = [a + b for a, b in zip(fig.data[0].y, fig.data[1].y)]
    assert totals == [16, 16, 16, 3]
    assert list(fig.data[1].y) == [2, 0, 7, 0]
    assert fig.layout.yaxis.title.text == "samples"


def test_frames_grow_batch_by_batch_and_the_still_picture_is_the_whole_run():
    per_batch = _per_batch([(10, 6)] * 12)
    fig = label_batches_figure({"a": per_batch, "b": per_batch}, label_names={}, **WORDS)
    assert len(fig.frames) == 12
    assert len(fig.layout.sliders[0].steps) == 12
    assert fig.layout.sliders[0].active == 11
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["Play", "Pause"]
    third = fig.frames[2]
    assert list(third.traces) == [0, 1, 2, 3]  # two runs × two labels
    assert list(third.data[0].y) == [10, 10, 10] + [0] * 9
    assert list(fig.frames[-1].data[3].y) == [6] * 12
    assert fig.layout.sliders[0].steps[2].label == "3"  # batches received by frame 2


def test_many_batches_stay_within_the_frame_and_bar_limits():
    per_batch = _per_batch([(12, 4)] * 1000, epochs=2)  # 2,000 batches × 2 labels × 3 runs
    fig = label_batches_figure({k: per_batch for k in "abc"}, label_names={}, **WORDS)
    assert len(fig.frames) <= MAX_FRAMES
    bars_per_frame = sum(len(tr.y) for tr in fig.frames[-1].data)
    assert bars_per_frame <= 1500
    g = 2000 // len(fig.data[0].y)
    assert g > 1 and fig.layout.yaxis.title.text == f"samples per {g} batches"
    assert sum(fig.data[0].y) == 12 * 2000 and sum(fig.data[1].y) == 4 * 2000  # grouping keeps every sample


def test_batch_counts_run_on_across_epochs():
    counts = batch_counts(_per_batch([(1, 1), (2, 0)], epochs=2), [0, 1])
    assert counts["position"].tolist() == [0, 1, 2, 3]
    assert counts[["epoch", "batch"]].values.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert counts[1].tolist() == [1, 0, 1, 0]


def test_intended_shares_follow_per_sample_weights_and_only_the_first_len_weights_samples():
    labels = [0, 0, 0, 1]
    assert intended_shares(labels, inverse_frequency_weights(labels)) == pytest.approx({0: 0.5, 1: 0.5})
    assert data_shares(labels) == pytest.approx({0: 0.75, 1: 0.25})
    assert intended_shares(labels, [1.0, 9.0]) == {0: 1.0}  # per-class weights: only samples 0 and 1 can come


def test_random_sampler_realises_the_data_ratio_and_the_weighted_one_balances_it(runs):
    labels, _ = labels_and_lengths(NINETY_TEN)
    data = data_shares(labels)
    assert data[1] == pytest.approx(0.1, abs=0.03)
    random = label_audit(runs["random"], intended=data).per_epoch.set_index("label")
    assert random["share"].to_dict() == pytest.approx(data, abs=1e-9)  # every sample once: exactly the data
    balanced = intended_shares(labels, inverse_frequency_weights(labels))
    weighted = label_audit(runs["weighted"], intended=balanced).per_epoch.set_index("label")
    assert weighted.loc[1, "share"] == pytest.approx(0.5, abs=0.07)  # 800 draws: 4.5 sigma
    assert weighted.loc[1, "intended_share"] == pytest.approx(0.5)


def test_share_figure_puts_data_intended_and_realised_side_by_side(runs):
    labels, _ = labels_and_lengths(NINETY_TEN)
    balanced = intended_shares(labels, inverse_frequency_weights(labels))
    per_epoch = {"random": label_audit(runs["random"], intended=data_shares(labels)).per_epoch,
                 "weighted": label_audit(runs["weighted"], intended=balanced).per_epoch}
    fig = share_figure(per_epoch, label_names={0: "zero", 1: "one"}, data=data_shares(labels), data_name="data",
                       intended_name="intended", epoch_name="epoch {epoch}", x_title="class", y_title="share")
    assert [tr.name for tr in fig.data] == ["data", "intended", "epoch 0"] * 2
    assert [tr.showlegend for tr in fig.data] == [True] * 3 + [False] * 3
    weighted_realised = fig.data[5]
    assert list(weighted_realised.x) == ["zero", "one"]
    assert weighted_realised.y[1] == pytest.approx(0.5, abs=0.07)
    assert list(fig.data[4].y) == pytest.approx([0.5, 0.5])
    assert fig.data[2].y[1] == pytest.approx(data_shares(labels)[1])
    assert [a.text for a in fig.layout.annotations] == ["random", "weighted"]


def test_coverage_counts_distinct_samples_and_the_per_class_weights_mistake_sees_two():
    mistake = weights_run(replace(NINETY_TEN, n_samples=200), [1.0, 9.0])  # one weight per class: torch says nothing
    coverage = label_audit(mistake).coverage
    assert coverage[["drawn", "distinct", "unseen"]].values.tolist() == [[200, 2, 198]]
    fig = coverage_figure({"mistake": coverage}, names={"drawn": "drawn", "distinct": "distinct", "unseen": "unseen"},
                          epoch_name="{run} {epoch}", y_title="samples")
    assert [(tr.name, list(tr.y)) for tr in fig.data] == [("drawn", [200]), ("distinct", [2]), ("unseen", [198])]


def test_per_class_weights_without_replacement_fail_with_torchs_multinomial_error():
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        weights_run(replace(NINETY_TEN, n_samples=64, replacement=False), [1.0, 9.0])
