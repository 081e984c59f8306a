"""Ranks as real processes: clean shutdown, a failing rank reported by number, the others stopped, nothing left.

Every test counts the test process's children (psutil) before and after, and checks that each process a
run had to kill (ranks and their workers) is gone. No test waits on a clock except the timeout test,
whose ranks block on an event nothing sets.
"""

from __future__ import annotations

import glob
import os
import tempfile

import psutil
import pytest

from loaderlab.scenarios.distributed import DistConfig, RankLoader
from loaderlab.trace.ranks.launch import DistributedRunError, record_ranks

from .factories import FailingRank, all_reduce_step, die_on_rank_1, hang, raise_in_factory, seed_per_rank


def children() -> set[int]:
    """The test process's descendants, less multiprocessing's resource tracker (it lives as long as we do)."""
    return {p.pid for p in psutil.Process().children(recursive=True)
            if "resource_tracker" not in " ".join(_cmdline(p))}


def _cmdline(p: psutil.Process) -> list[str]:
    try:
        return p.cmdline()
    except psutil.Error:
        return []


def gone(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() == psutil.STATUS_ZOMBIE  # dead, waiting for init to reap it
    except psutil.NoSuchProcess:
        return True


def leftovers() -> set[str]:
    """This process's rank folders (a test file run beside this one, by another pytest worker, makes its own)."""
    return set(glob.glob(os.path.join(tempfile.gettempdir(), f"loaderlab-ranks-{os.getpid()}-*")))


@pytest.fixture
def no_survivors():
    """The test's processes and temporary folders before == after."""
    before, folders = children(), leftovers()
    yield
    assert children() - before == set()
    assert leftovers() - folders == set()


def test_a_run_with_workers_leaves_no_process_behind(no_survivors):
    frame = record_ranks(RankLoader(DistConfig(n_samples=24, cost_ms=0.0, num_workers=2)), 2, 2)
    pids = set(frame["pid"])
    assert len(pids) == 2 + 2 * 2 * 2  # 2 ranks, each with 2 workers per epoch for 2 epochs
    assert all(gone(pid) for pid in pids)


def test_a_rank_that_raises_is_named_and_the_others_are_stopped(no_survivors):
    with pytest.raises(DistributedRunError) as caught:
        record_ranks(FailingRank(fail_rank=1), 3, 1, consumer=all_reduce_step)
    error = caught.value
    assert (error.failure.rank, error.failure.kind) == (1, "ValueError")
    assert "is broken on this rank" in error.failure.message
    assert "__getitem__" in error.failure.traceback  # the worker's traceback, re-raised in rank 1
    assert str(error).startswith("rank 1 failed: ValueError:")
    assert error.killed_pids and all(gone(pid) for pid in error.killed_pids)


def test_a_factory_that_raises_names_its_rank(no_survivors):
    with pytest.raises(DistributedRunError, match=r"^rank 2 failed: KeyError: 'no shard for rank 2'") as caught:
        record_ranks(raise_in_factory, 3)
    assert "raise_in_factory" in caught.value.failure.traceback


def test_a_rank_killed_by_a_signal_is_named(no_survivors):
    with pytest.raises(DistributedRunError, match=r"^rank 1 failed: ProcessExited: .*signal 9") as caught:
        record_ranks(die_on_rank_1, 3)
    assert caught.value.failure.traceback == ""


def test_ranks_that_hang_are_stopped_at_the_timeout(no_survivors):
    with pytest.raises(DistributedRunError, match=r"ranks \[0, 1\] were still running after 1.5 s") as caught:
        record_ranks(hang, 2, timeout_s=1.5)
    assert caught.value.failure.kind == "Timeout"
    assert len(caught.value.killed_pids) == 2 and all(gone(pid) for pid in caught.value.killed_pids)


def test_ranks_seeded_differently_overlap_and_the_analysis_says_so(no_survivors):
    from loaderlab.trace.ranks import analysis as dd

    frame = record_ranks(seed_per_rank, 2)
    overlap = {f.kind: f for f in dd.rank_findings(frame)}["overlap"]
    assert overlap.severity == "error" and overlap.evidence["count"] > 0


@pytest.mark.parametrize("bad, message", [
    (dict(world_size=1), r"world_size must be 2–4, but got world_size=1"),
    (dict(world_size=5), r"world_size must be 2–4, but got world_size=5"),
    (dict(world_size=True), r"world_size must be 2–4"),
    (dict(epochs=0), r"epochs should be a positive integer"),
    (dict(start_method="thread"), r"start_method must be one of fork, spawn"),
    (dict(timeout_s=0), r"timeout_s must be positive"),
])
def test_bad_arguments_name_the_parameter_and_start_nothing(no_survivors, bad, message):
    kwargs = dict(world_size=2, **{k: v for k, v in bad.items() if k != "world_size"})
    kwargs["world_size"] = bad.get("world_size", 2)
    with pytest.raises(ValueError, match=message):
        record_ranks(raise_in_factory, **kwargs)


def test_a_factory_of_another_shape_is_refused_naming_both_forms(no_survivors):
    # factory(rank, world_size) and factory() (DistributedSampler asks the process group) are the two forms
    with pytest.raises(TypeError, match=r"factory\(rank, world_size\), or none, factory\(\), but _cmdline\(p"):
        record_ranks(_cmdline, 2)


@pytest.mark.parametrize("field, value, message", [
    ("world_size", 8, "world_size must be 2–4"), ("num_workers", 3, "num_workers must be 0–2"),
    ("epochs", 0, "epochs must be 1–4"), ("slow_rank", 2, "slow_rank must be -1 .none. or 0–1"),
])
def test_the_dashboard_config_names_the_bad_field(field, value, message):
    with pytest.raises(ValueError, match=message):
        DistConfig(**{field: value})


@pytest.mark.slow
def test_spawned_ranks_record_the_same_partition_as_forked_ones(no_survivors):
    from loaderlab.trace.ranks import analysis as dd

    config = DistConfig(n_samples=20, cost_ms=0.0, set_epoch=True)
    forked = record_ranks(RankLoader(config), 2, 2, set_epoch=True)
    spawned = record_ranks(RankLoader(config), 2, 2, set_epoch=True, start_method="spawn")
    assert dd.rank_indices(spawned) == dd.rank_indices(forked)
