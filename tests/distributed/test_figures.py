"""The partition, label and timeline figures as objects, built from one real 3-rank run."""

from __future__ import annotations

import pytest

from loaderlab.figures.partitions import partition_figure, rank_label_figure, rank_lanes, rank_timeline_figure
from loaderlab.scenarios.distributed import DistConfig, run
from loaderlab.trace.ranks import analysis as dd

CONFIG = DistConfig(world_size=3, n_samples=50, epochs=3, set_epoch=True, num_workers=1, cost_ms=0.0, batch_size=4)
WORDS = dict(rank_name="rank {rank}", padded_name="padding copy", x_title="index", strip_title="who",
             order_title="when", hover="h", epoch_prefix="epoch ", play="Play", pause="Pause")


@pytest.fixture(scope="module")
def frame():
    return run(CONFIG)


@pytest.fixture(scope="module")
def assigned(frame):
    return dd.assignments(frame)


def test_partition_figure_has_a_strip_and_an_order_trace_per_rank_and_one_for_padding(assigned):
    fig = partition_figure(assigned, dataset_len=50, **WORDS)
    assert [tr.name for tr in fig.data] == ["rank 0", "rank 1", "rank 2"] * 2 + ["padding copy"]
    first = assigned[assigned["epoch"] == 0]
    for rank in range(3):
        assert list(fig.data[rank].x) == first.loc[first["rank"] == rank, "index"].tolist()
        assert set(fig.data[rank].y) == {f"rank {rank}"}
        assert list(fig.data[3 + rank].y) == list(range(17))  # 50 samples over 3 ranks: 17 each, padded
    assert list(fig.data[-1].x) == first.loc[first["padded"], "index"].tolist() and len(fig.data[-1].x) == 1


def test_partition_figure_animates_one_frame_per_epoch_with_play_and_a_slider(assigned):
    fig = partition_figure(assigned, dataset_len=50, **WORDS)
    assert [f.name for f in fig.frames] == ["0", "1", "2"]
    assert [s.label for s in fig.layout.sliders[0].steps] == ["0", "1", "2"]
    assert [b.label for b in fig.layout.updatemenus[0].buttons] == ["Play", "Pause"]
    for epoch, f in enumerate(fig.frames):
        mine = assigned[(assigned["epoch"] == epoch) & (assigned["rank"] == 1)]
        assert len(f.data) == 7 and list(f.data[1].x) == mine["index"].tolist()
    assert list(fig.frames[0].data[0].x) != list(fig.frames[1].data[0].x)  # set_epoch: a new partition


def test_label_figure_stacks_each_ranks_labels_per_epoch(frame):
    counts = dd.label_counts(frame)
    fig = rank_label_figure(counts, label_names={0: "cat", 1: "dog"}, rank_name="rank {rank}",
                            epoch_name="epoch {epoch}", y_title="samples")
    assert [tr.name for tr in fig.data] == ["cat", "dog"] and fig.layout.barmode == "stack"
    ranks, epochs = fig.data[0].x
    assert list(ranks) == [f"rank {r}" for r in range(3) for _ in range(3)]
    assert list(epochs) == [f"epoch {e}" for _ in range(3) for e in range(3)]
    assert [a + b for a, b in zip(fig.data[0].y, fig.data[1].y)] == [17] * 9


def test_timeline_has_a_lane_per_rank_and_worker_in_rank_order(frame):
    spans = dd.rank_spans(frame)
    fig = rank_timeline_figure(spans, lane="r{rank} {lane}", lane_names={"worker": "w{k}"}, x_title="s")
    lanes = list(reversed(fig.layout.yaxis.categoryarray))
    assert lanes == ["r0 main", "r0 w0", "r1 main", "r1 w0", "r2 main", "r2 w0"]
    assert {y for tr in fig.data for y in tr.y} == set(lanes)
    fetch = next(tr for tr in fig.data if tr.name == "fetch")
    assert len(fetch.y) == 17 * 3 * 3


def test_rank_lanes_keep_english_process_names_by_default(frame):
    lanes = rank_lanes(dd.rank_spans(frame), "rank {rank} · {lane}")
    assert set(lanes["track"]) == {f"rank {r} · {p}" for r in range(3) for p in ("main", "worker 0")}
