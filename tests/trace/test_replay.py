"""replay(): the measured workload re-run on the engine with new settings."""

from __future__ import annotations

import pytest

import loaderlab
from loaderlab import DataLoader
from loaderlab.scenarios.datasets import TableDataset, Workload, label_and_length


def _fetch_costs(frame):
    b = frame[frame.kind == "fetch_begin"].set_index(["epoch", "index"])["t_ns"]
    e = frame[frame.kind == "fetch_end"].set_index(["epoch", "index"])["t_ns"]
    return ((e - b) / 1e9).groupby(level="index").median()


@pytest.fixture(scope="module")
def straggler_trace():
    workload = Workload([i % 3 for i in range(24)], [4] * 24, cost_s=0.002, straggler_index=9, straggler_s=0.15)
    return loaderlab.record(DataLoader(TableDataset(workload), batch_size=4, num_workers=1), epochs=1,
                            sample_info=label_and_length)


def test_replay_keeps_the_workload_and_applies_new_settings(straggler_trace):
    out = loaderlab.replay(straggler_trace, num_workers=2, in_order=False)
    assert out.attrs["loader"]["num_workers"] == 2 and out.attrs["loader"]["in_order"] is False
    assert out.attrs["replay_of"]["num_workers"] == 1
    assert set(out.loc[out.kind == "worker_ready", "worker"]) == {0, 1}
    # Same samples, same order, same slowest sample, same labels.
    order = lambda f: list(f[f.kind == "fetch_end"].sort_values(["batch", "t_ns"])["index"])
    assert order(out) == order(straggler_trace) == list(range(24))
    assert _fetch_costs(out).idxmax() == _fetch_costs(straggler_trace).idxmax() == 9
    labels = out[out.kind == "fetch_end"].set_index("index")["label"]
    assert [int(labels[i]) for i in range(24)] == [i % 3 for i in range(24)]


def test_replay_rejects_unknown_arguments_by_name(straggler_trace):
    with pytest.raises(TypeError, match=r"unexpected loader arguments \['num_wrokers'\]"):
        loaderlab.replay(straggler_trace, num_wrokers=2)


def test_replay_passes_torchs_own_validation(straggler_trace):
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        loaderlab.replay(straggler_trace, num_workers=-1)
