"""The binned views equal the detailed ones on real small recordings, and a window cut keeps spans whole.

Traces come from ``loaderlab.record`` with a few workers; every comparison is between two tables of the same
trace, so no assertion depends on how fast the machine is.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
import torch

import loaderlab
from loaderlab.trace.tables.audits import samples
from loaderlab.trace.tables.processes import worker_processes
from loaderlab.trace.tables.stays import queue_depths
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.tables import bins, waits
from loaderlab.trace.tables.processes import worker_tasks


class Labelled(torch.utils.data.Dataset):
    def __len__(self):
        return 96

    def __getitem__(self, i):
        return torch.full((4,), float(i)), i % 3 if i % 7 else 9


def label_of(index, sample):  # top-level: it runs in the workers
    return int(sample[1]), 4


@pytest.fixture(scope="module")
def two_epochs():
    """Three workers, restarted each epoch (new pids), labels 0/1/2 and a rarer 9."""
    loader = loaderlab.DataLoader(Labelled(), batch_size=4, num_workers=3, prefetch_factor=2, shuffle=True,
                                  generator=torch.Generator().manual_seed(0))
    return loaderlab.record(loader, epochs=2, sample_info=label_of, consumer=lambda b: sum(range(2000)))


@pytest.fixture(scope="module")
def persistent():
    loader = loaderlab.DataLoader(Labelled(), batch_size=8, num_workers=2, persistent_workers=True)
    return loaderlab.record(loader, epochs=2, sample_info=label_of)


@pytest.fixture(params=["two_epochs", "persistent"])
def trace(request):
    return request.getfixturevalue(request.param)


@pytest.mark.parametrize("n", [1, 7, 300])
def test_busy_and_alive_over_all_bins_are_worker_utilisation(trace, n):
    edges = bins.bin_edges(trace, n)
    binned = bins.worker_busy_bins(trace, edges)
    detailed = worker_utilisation(trace).groupby("worker")[["busy_s", "lifetime_s", "idle_s"]].sum()
    summed = binned.groupby("worker")[["busy_s", "alive_s", "idle_s"]].sum()
    assert list(summed.index) == list(detailed.index) and len(detailed) >= 2
    assert np.allclose(summed["busy_s"], detailed["busy_s"], rtol=1e-9, atol=1e-12)
    assert np.allclose(summed["alive_s"], detailed["lifetime_s"], rtol=1e-9, atol=1e-12)
    assert np.allclose(summed["idle_s"], detailed["idle_s"], rtol=1e-9, atol=1e-9)
    assert binned["busy_share"].dropna().between(0, 1).all()
    assert (binned["busy_s"] > 0).any()


def test_busy_share_of_one_bin_is_the_overlap_of_that_bins_tasks(two_epochs):
    """A bin checked by hand against the task table: busy = the tasks' overlap with the bin."""
    edges = bins.bin_edges(two_epochs, 11)
    binned = bins.worker_busy_bins(two_epochs, edges).set_index(["worker", "bin"])
    tasks = worker_tasks(two_epochs)
    lo, hi = edges[5], edges[6]
    for worker, g in tasks.groupby("worker"):
        overlap = (np.minimum(g["end_s"], hi) - np.maximum(g["start_s"], lo)).clip(lower=0).sum()
        assert binned.loc[(worker, 5), "busy_s"] == pytest.approx(overlap, abs=1e-12)


def _mean_by_hand(series: pd.DataFrame, lo: float, hi: float) -> float:
    """The time-weighted mean of a step series over [lo, hi), one step at a time."""
    t, d = series["t_s"].to_list(), series["depth"].to_list()
    area = 0.0
    for i, depth in enumerate(d):
        a = t[i]
        b = t[i + 1] if i + 1 < len(t) else hi
        area += depth * max(0.0, min(b, hi) - max(a, lo))
    return area / (hi - lo)


def test_depth_per_bin_is_the_time_weighted_mean_of_the_detailed_series(trace):
    edges = bins.bin_edges(trace, 13)
    depths = queue_depths(trace)
    binned = bins.queue_depth_bins(trace, edges)
    assert set(binned["queue"]) == set(depths["queue"]) >= {"index_queue[0]", "result_queue", "outstanding"}
    for name, series in depths.groupby("queue"):
        mine = binned[binned["queue"] == name].sort_values("bin")
        by_hand = [_mean_by_hand(series.sort_values("t_s", kind="stable"), lo, hi)
                   for lo, hi in zip(edges[:-1], edges[1:])]
        assert np.allclose(mine["mean_depth"], by_hand, rtol=1e-9, atol=1e-9), name
        held = [series[series["t_s"] <= lo]["depth"].iloc[-1:].tolist() + series[(series["t_s"] > lo)
                & (series["t_s"] < hi)]["depth"].tolist() for lo, hi in zip(edges[:-1], edges[1:])]
        assert mine["max_depth"].tolist() == [max(h) for h in held], name
        assert mine["min_depth"].tolist() == [min(h) for h in held], name
        assert (mine["min_depth"] <= mine["mean_depth"] + 1e-9).all()
        assert (mine["mean_depth"] <= mine["max_depth"] + 1e-9).all()
    # the time-weighted mean over the whole run, from the bins, equals the detailed series'
    whole = binned[binned["queue"] == "outstanding"]
    assert (whole["mean_depth"] * (whole["end_s"] - whole["start_s"])).sum() / (edges[-1] - edges[0]) == \
        pytest.approx(_mean_by_hand(depths[depths["queue"] == "outstanding"], edges[0], edges[-1]), rel=1e-9)


def test_max_depth_per_bin_is_the_highest_depth_the_series_holds_there():
    series = pd.DataFrame({"t_s": [0.0, 1.0, 1.5, 2.5, 3.0], "queue": "q", "depth": [0, 2, 5, 1, 0]})
    out = bins.depth_bins(series, np.array([0.0, 1.0, 2.0, 3.0, 4.0]))
    assert out["max_depth"].tolist() == [0, 5, 5, 0]
    assert out["min_depth"].tolist() == [0, 2, 1, 0]
    assert out["mean_depth"].tolist() == pytest.approx([0, 0.5 * 2 + 0.5 * 5, 0.5 * 5 + 0.5 * 1, 0])


def test_label_counts_per_window_are_the_sample_tables_counts(trace):
    detailed = samples(trace)
    window = 3
    binned = bins.label_share_bins(trace, window=window)
    by_hand = (detailed.assign(window=detailed["batch"] // window)
               .groupby(["epoch", "window", "label"]).size().rename("count").reset_index())
    merged = binned.merge(by_hand, on=["epoch", "window", "label"], how="outer", suffixes=("", "_detail"))
    assert len(merged) == len(by_hand) and merged["count"].eq(merged["count_detail"]).all()
    assert set(binned["label"]) == {0, 1, 2, 9}
    assert np.allclose(binned.groupby(["epoch", "window"])["share"].sum(), 1.0)
    assert binned["count"].sum() == len(detailed) == 96 * 2


def test_label_windows_say_which_batches_and_when(two_epochs):
    out = bins.label_share_bins(two_epochs, window=5)
    one = out[(out["epoch"] == 1) & (out["window"] == 2)]
    assert set(one["first_batch"]) == {10} and set(one["last_batch"]) == {14}
    fetched = samples(two_epochs)
    mine = fetched[(fetched["epoch"] == 1) & fetched["batch"].between(10, 14)]
    assert set(one["start_s"]) == {mine["t_s"].min()} and set(one["end_s"]) == {mine["t_s"].max()}


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, None])
def test_bad_bin_and_window_sizes_name_the_parameter(two_epochs, bad):
    with pytest.raises(ValueError, match="bins should be a positive integer"):
        bins.bin_edges(two_epochs, bad)
    with pytest.raises(ValueError, match="window should be a positive integer"):
        bins.label_share_bins(two_epochs, window=bad)


def test_a_window_keeps_spans_crossing_its_edges_whole(two_epochs):
    full = waits.stage_spans(two_epochs)
    fetch = full[full["stage"] == "fetch"]
    crossing = fetch.iloc[len(fetch) // 2]  # a sample whose fetch starts before t0 and ends after it
    t0 = (crossing["start_s"] + crossing["end_s"]) / 2
    t1 = t0 + (two_epochs["t_s"].max() - two_epochs["t_s"].min()) / 10
    cut = bins.cut_window(two_epochs, t0, t1)
    assert list(cut.columns) == list(two_epochs.columns) and (cut.dtypes == two_epochs.dtypes).all()
    assert cut.attrs == two_epochs.attrs and cut["t_s"].is_monotonic_increasing
    # every event inside the window is kept; the others all belong to a task that has one inside
    inside = two_epochs[(two_epochs["t_s"] >= t0) & (two_epochs["t_s"] < t1)]
    assert len(cut) > len(inside)
    outside = cut[(cut["t_s"] < t0) | (cut["t_s"] >= t1)]
    keys = set(zip(inside["epoch"], inside["batch"]))
    assert (outside["batch"] >= 0).all() and set(zip(outside["epoch"], outside["batch"])) <= keys
    # the crossing fetch keeps both ends and is not shown as unfinished
    spans = waits.stage_spans(cut)
    same = spans[(spans["stage"] == "fetch") & (spans["index"] == crossing["index"])
                 & (spans["epoch"] == crossing["epoch"])]
    assert same[["start_s", "end_s"]].values.tolist() == [[crossing["start_s"], crossing["end_s"]]]
    assert not spans[spans["stage"].isin(["fetch", "collate"])]["open"].any()


def test_a_window_needs_t0_before_t1(two_epochs):
    with pytest.raises(ValueError, match="t0 < t1"):
        bins.cut_window(two_epochs, 1.0, 1.0)
    assert len(bins.cut_window(two_epochs, -10.0, -5.0)) == 0
    whole = bins.cut_window(two_epochs, -1.0, math.inf)
    assert whole.equals(two_epochs.reset_index(drop=True))


def test_label_counts_per_epoch_from_the_windows_are_label_audits(trace):
    from loaderlab.trace.tables.audits import label_audit
    detailed = label_audit(trace).per_epoch[["epoch", "label", "count", "share"]]
    summed = bins.label_counts(bins.label_share_bins(trace, window=7))
    assert summed["label"].tolist() == detailed["label"].tolist()
    assert summed["count"].tolist() == detailed["count"].tolist()
    assert np.allclose(summed["share"], detailed["share"]) and summed["epoch"].tolist() == detailed["epoch"].tolist()


def test_depths_in_a_window_start_with_the_depth_held_at_its_start(two_epochs):
    depths = queue_depths(two_epochs)
    t0, t1 = depths["t_s"].quantile(0.4), depths["t_s"].quantile(0.6)
    out = bins.depths_in_window(depths, t0, t1)
    assert out["t_s"].between(t0, t1, inclusive="left").all()
    for name, g in out.groupby("queue"):
        full = depths[depths["queue"] == name]
        assert g["t_s"].iloc[0] == t0 and g["depth"].iloc[0] == full[full["t_s"] <= t0]["depth"].iloc[-1]
        assert g["depth"].iloc[1:].tolist() == full[(full["t_s"] > t0) & (full["t_s"] < t1)]["depth"].tolist()
    edges = np.array([t0, (t0 + t1) / 2, t1])  # the window's own bins agree with the whole series'
    assert np.allclose(bins.depth_bins(out, edges)["mean_depth"], bins.depth_bins(depths, edges)["mean_depth"])


def test_the_skeleton_drops_fetches_and_changes_no_table_built_from_it(trace):
    sk = bins.skeleton(trace)
    fetches = trace["kind"].isin(["fetch_begin", "fetch_end"])
    assert len(sk) < len(trace) - fetches.sum() / 2 and sk["kind"].isin(["fetch_begin", "fetch_end"]).sum() <= 1
    assert worker_tasks(sk).equals(worker_tasks(trace))
    assert queue_depths(sk).equals(queue_depths(trace))
    keep = ["pid", "worker", "epoch", "start_s", "ready_s", "exit_s", "main_exit_s", "end_s"]
    assert worker_processes(sk)[keep].equals(worker_processes(trace)[keep])


def test_a_task_without_its_result_put_keeps_its_fetches(two_epochs):
    """A worker that failed mid-task: its fetches decide where the task is seen working."""
    task = two_epochs[(two_epochs["kind"] == "result_put")].iloc[3]
    cut = two_epochs.drop(index=task.name).reset_index(drop=True)
    sk = bins.skeleton(cut)
    mine = (sk["epoch"] == task["epoch"]) & (sk["batch"] == task["batch"])
    assert sk[mine]["kind"].isin(["fetch_begin", "fetch_end"]).sum() == 2 * 4
    assert worker_tasks(sk).equals(worker_tasks(cut))


def test_tables_from_a_skeleton_at_hand_are_the_same(two_epochs):
    sk = bins.skeleton(two_epochs)
    edges = bins.bin_edges(two_epochs, 9)
    assert bins.worker_busy_bins(sk, edges, is_skeleton=True).equals(bins.worker_busy_bins(two_epochs, edges))
    assert bins.queue_depth_bins(sk, edges, is_skeleton=True).equals(bins.queue_depth_bins(two_epochs, edges))
    assert bins.label_share_bins(two_epochs, skeleton_frame=sk).equals(bins.label_share_bins(two_epochs))
