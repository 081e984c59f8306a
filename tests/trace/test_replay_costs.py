"""What replay takes off the recorded loop body: dropping a batch that came from a worker (shared memory)."""

from __future__ import annotations

import warnings

import pytest
import torch

import loaderlab
from loaderlab.trace import replay as replay_module
from loaderlab.trace.replay import ReplayDataset, measured_workload, replay
from loaderlab.trace.replay_costs import shared_release_s

from .planted import Tiny, record_cause


def test_dropping_a_shared_batch_costs_per_tensor():
    one = ReplayDataset({0: 0.0}, {}, {}, 64, tensors=1)
    many = ReplayDataset({0: 0.0}, {}, {}, 64, tensors=64)
    # each tensor of a batch in shared memory is its own mapping to undo: 66 tensors cost more than 3
    assert shared_release_s(many, 8) > shared_release_s(one, 8) > 0


@pytest.fixture
def steps(monkeypatch):
    """The loop-body cost each replay is given, and a fixed cost of dropping a shared batch."""
    given: list[float] = []

    class Capture(replay_module.ReplayConsumer):
        def __call__(self, batch) -> None:
            given.append(self.cost_s)

    monkeypatch.setattr(replay_module, "ReplayConsumer", Capture)
    monkeypatch.setattr(replay_module, "shared_release_s", lambda dataset, batch_size: 0.004)
    return given


def test_a_step_recorded_beside_workers_is_replayed_without_dropping_the_shared_batch(steps):
    frame = record_cause("consumer", dataset=Tiny(64))
    recorded = measured_workload(frame)["consume_s"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        replay(frame, num_workers=0)
    assert steps and steps[0] == pytest.approx(recorded - 0.004)


def test_a_stock_loader_recording_keeps_its_step(steps):
    # record()'s stock loop drops the previous batch before batch_yield: its step span never held it
    loader = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.arange(64.0)), batch_size=8,
                                         num_workers=2)
    frame = loaderlab.record(loader)
    recorded = measured_workload(frame)["consume_s"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        replay(frame, num_workers=0)
    assert steps and steps[0] == pytest.approx(recorded)


@pytest.mark.parametrize("kind", ["loaderlab", "torch"])
def test_a_workers_collate_end_says_its_cpu_time_and_context_switches(kind):
    make = loaderlab.DataLoader if kind == "loaderlab" else torch.utils.data.DataLoader
    data = torch.utils.data.TensorDataset(torch.arange(32.0))
    frame = loaderlab.record(make(data, batch_size=8, num_workers=2))
    ends = frame[frame["kind"] == "collate_end"]
    assert len(ends) == 4 and (ends["arg0"] > 0).all() and (ends["arg1"] >= 0).all() and (ends["arg2"] >= 0).all()
    alone = loaderlab.record(make(data, batch_size=8))  # the main process's own fetching says nothing
    assert (alone[alone["kind"] == "collate_end"]["arg0"] == -1).all()


def _batch(pid: int, batch: int, start: int, end: int, cpu: int, voluntary: int) -> list[dict]:
    base = dict(pid=pid, worker=0, epoch=0, batch=batch, arg1=-1)
    return [dict(base, kind="fetch_begin", t_ns=start, index=batch, arg0=1),
            dict(base, kind="fetch_end", t_ns=start + 10, index=batch, arg0=1),
            dict(base, kind="collate_begin", t_ns=end - 100, index=-1, arg0=-1),
            dict(base, kind="collate_end", t_ns=end, index=-1, arg0=cpu, arg1=voluntary)]


def test_only_a_batch_that_never_gave_its_core_up_is_deflated_to_its_cpu_time():
    import pandas as pd

    from loaderlab.trace.replay_costs import collate_costs, core_wait_factors

    frame = pd.DataFrame(_batch(7, 0, 0, 1000, 250, 0) + _batch(7, 1, 2000, 3000, 250, 1))
    factors = core_wait_factors(frame).set_index("batch")["factor"]
    assert factors[0] == pytest.approx(0.25)  # pre-empted: 750 of its 1000 ns waited for a core
    assert factors[1] == 1.0  # it slept or read a file: its wait may be the dataset's own
    assert list(collate_costs(frame, core_wait_factors(frame))) == pytest.approx([25e-9, 100e-9])
