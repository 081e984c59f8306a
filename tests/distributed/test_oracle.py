"""The partitions LoaderLab recorded across real ranks equal torch's own DistributedSampler lists.

torch is the oracle: for every config, ``DistributedSampler(range(n), world_size, rank, shuffle, seed,
drop_last)`` with ``set_epoch(epoch)`` (or without, as the run did) gives each rank's list, which must equal
the indices that rank's recorded sampler yielded, in order. Each run is a real multi-rank run (shared per module).
"""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from loaderlab.scenarios.distributed import DistConfig, run
from loaderlab.trace.ranks import analysis as dd

FAST = DistConfig(cost_ms=0.0, batch_size=4)
CONFIGS = {
    "2 ranks, shuffled, padded": replace(FAST, world_size=2, n_samples=75, set_epoch=True),
    "3 ranks, shuffled, set_epoch forgotten": replace(FAST, world_size=3, n_samples=50, seed=7, set_epoch=False),
    "4 ranks, in order, drop_last": replace(FAST, world_size=4, n_samples=30, shuffle=False, drop_last=True,
                                            set_epoch=True),
    "3 ranks, shuffled, drop_last, a worker each": replace(FAST, world_size=3, n_samples=61, seed=3, drop_last=True,
                                                          set_epoch=True, num_workers=1),
    "4 ranks, 2 samples: padded twice over": replace(FAST, world_size=4, n_samples=2, set_epoch=True),
}


def torch_lists(config: DistConfig, epoch: int) -> dict[int, list[int]]:
    out = {}
    for rank in range(config.world_size):
        sampler = torch.utils.data.DistributedSampler(range(config.n_samples), num_replicas=config.world_size,
                                                      rank=rank, shuffle=config.shuffle, seed=config.seed,
                                                      drop_last=config.drop_last)
        if config.set_epoch:
            sampler.set_epoch(epoch)
        out[rank] = list(sampler)
    return out


def global_list(config: DistConfig, epoch: int) -> list[int]:
    """The sampler's shared list (padded or cut), rebuilt from torch's per-rank lists: place r + k·world_size."""
    lists = torch_lists(config, epoch)
    flat = [None] * sum(len(v) for v in lists.values())
    for rank, indices in lists.items():
        flat[rank::config.world_size] = indices
    return flat


@pytest.fixture(scope="module")
def runs():
    return {name: run(config) for name, config in CONFIGS.items()}


@pytest.mark.parametrize("name", CONFIGS)
def test_each_rank_got_exactly_torchs_list_every_epoch(runs, name):
    config = CONFIGS[name]
    recorded = dd.rank_indices(runs[name])
    expected = {(epoch, rank): indices for epoch in range(config.epochs)
                for rank, indices in torch_lists(config, epoch).items()}
    assert recorded == expected


@pytest.mark.parametrize("name", CONFIGS)
def test_padding_copies_are_the_head_of_the_list_placed_past_the_dataset(runs, name):
    config, n = CONFIGS[name], CONFIGS[name].n_samples
    padded = dd.padded_indices(runs[name])
    for epoch in range(config.epochs):
        shared = global_list(config, epoch)
        expected = [(p % config.world_size, p // config.world_size, shared[p]) for p in range(n, len(shared))]
        mine = padded[padded["epoch"] == epoch]
        got = sorted(zip(mine["rank"], mine["position"], mine["index"]), key=lambda r: r[1] * 10 + r[0])
        assert got == sorted(expected, key=lambda r: r[1] * 10 + r[0])
        assert [i for _, _, i in expected] == [shared[p % n] for p in range(n, len(shared))]  # the head, repeated


@pytest.mark.parametrize("name", CONFIGS)
def test_coverage_counts_padding_and_dropped_samples(runs, name):
    config, n = CONFIGS[name], CONFIGS[name].n_samples
    w = config.world_size
    per_rank = n // w if config.drop_last else -(-n // w)
    cov = dd.coverage(runs[name])
    assert cov["handed_out"].tolist() == [per_rank * w] * config.epochs
    assert cov["dropped"].tolist() == [n - per_rank * w if config.drop_last else 0] * config.epochs
    assert cov["padded"].tolist() == [0 if config.drop_last else per_rank * w - n] * config.epochs
    summary = dd.rank_summary(runs[name])
    assert summary["samples"].tolist() == [per_rank] * (w * config.epochs)


@pytest.mark.parametrize("name", CONFIGS)
def test_ranks_share_no_sample_except_padding_copies(runs, name):
    ov = dd.overlap(runs[name])
    assert len(ov) == CONFIGS[name].epochs * CONFIGS[name].world_size * (CONFIGS[name].world_size - 1) // 2
    assert (ov["shared"] == ov["padded"]).all()
    assert "overlap" not in {f.kind for f in dd.rank_findings(runs[name])}


def test_a_forgotten_set_epoch_is_flagged_and_a_called_one_is_not(runs):
    forgot = runs["3 ranks, shuffled, set_epoch forgotten"]
    assert dd.set_epoch_forgotten(forgot)
    assert dd.order_repeats(forgot)["same_as_previous"].all()
    finding = [f for f in dd.rank_findings(forgot) if f.kind == "same_order_every_epoch"]
    assert finding and finding[0].severity == "warning" and finding[0].evidence == {"epochs": 2}
    called = runs["2 ranks, shuffled, padded"]
    assert not dd.set_epoch_forgotten(called)
    assert not dd.order_repeats(called)["same_as_previous"].any()
    assert "same_order_every_epoch" not in {f.kind for f in dd.rank_findings(called)}


def test_an_unshuffled_sampler_repeats_its_order_without_being_flagged(runs):
    in_order = runs["4 ranks, in order, drop_last"]
    assert dd.order_repeats(in_order)["same_as_previous"].all()  # shuffle=False: the same order is expected
    assert not dd.set_epoch_forgotten(in_order)


def test_padding_and_drop_last_findings_name_the_counts(runs):
    padded = {f.kind: f for f in dd.rank_findings(runs["2 ranks, shuffled, padded"])}["padded"]
    assert padded.evidence["count"] == 1
    assert padded.evidence["indices"] == str(global_list(CONFIGS["2 ranks, shuffled, padded"], 1)[0])
    dropped = {f.kind: f for f in dd.rank_findings(runs["4 ranks, in order, drop_last"])}["dropped"]
    assert dropped.evidence == {"count": 2}


def test_label_counts_add_up_to_each_ranks_samples(runs):
    frame = runs["3 ranks, shuffled, drop_last, a worker each"]
    counts = dd.label_counts(frame)
    per_rank = counts.groupby(["epoch", "rank"])["count"].sum()
    assert per_rank.tolist() == [61 // 3] * 6
    assert counts.groupby(["epoch", "rank"])["share"].sum().round(9).eq(1).all()
    assert set(counts["label"]) <= {0, 1}


def test_merged_trace_has_a_rank_column_and_one_clock(runs):
    frame = runs["3 ranks, shuffled, drop_last, a worker each"]
    assert frame["rank"].dtype == "int64" and sorted(frame["rank"].unique()) == [0, 1, 2]
    assert frame["t_ns"].is_monotonic_increasing and frame["t_s"].iloc[0] == 0
    assert frame.attrs["world_size"] == 3
    assert [s["rank"] for s in frame.attrs["samplers"]] == [0, 1, 2]
    assert {s["num_samples"] for s in frame.attrs["samplers"]} == {20}
    workers = frame[frame["kind"] == "worker_ready"].groupby("rank")["pid"].nunique()
    assert workers.tolist() == [2, 2, 2]  # one worker per rank per epoch (not persistent)


def test_throughput_has_one_row_per_rank_and_names_a_slowest(runs):
    tp = dd.rank_throughput(runs["4 ranks, in order, drop_last"])
    assert tp["rank"].tolist() == [0, 1, 2, 3]
    assert tp["samples"].tolist() == [7 * 2] * 4 and tp["batches"].tolist() == [2 * 2] * 4
    assert tp["slowest"].sum() >= 1 and (tp["seconds"] > 0).all()
    assert (tp["wait_s"] > 0).all() and (tp["step_s"] >= 0).all()  # every rank waited for its first batch


def test_rank_spans_cover_every_rank_and_its_workers(runs):
    spans = dd.rank_spans(runs["3 ranks, shuffled, drop_last, a worker each"])
    lanes = set(zip(spans["rank"], spans["worker"]))
    assert lanes == {(r, w) for r in range(3) for w in (-1, 0)}
    fetches = spans[spans["stage"] == "fetch"].groupby("rank").size()
    assert fetches.tolist() == [20 * 2] * 3
