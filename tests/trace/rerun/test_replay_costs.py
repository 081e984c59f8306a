"""What replay takes off the recorded loop body: dropping a batch that came from a worker (shared memory)."""

from __future__ import annotations

import warnings

import pytest
import torch

import loaderlab
from loaderlab.trace.rerun.replayer import replay
from loaderlab.trace.rerun import replayer as replay_module
from loaderlab.trace.rerun.standin import ReplayDataset
from loaderlab.trace.rerun.workload import measured_workload
from loaderlab.trace.rerun.costs import shared_release_s

from tests.helpers.planted import record_cause, Tiny


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
        replay(frame, num_workers=1)
    assert steps and steps[0] == pytest.approx(recorded - 0.004)


def test_without_workers_only_the_work_beyond_the_stand_ins_own_in_a_worker_is_replayed(steps, monkeypatch):
    """Recorded in workers, replayed in the main process: each cost less what the stand-in itself costs in a
    worker (measured by running it there), spent after the stand-in's own payload and collate."""
    from loaderlab.trace.rerun.calibration import beyond

    own = {"sample_s": 0.0005, "collate_s": 0.002, "step_s": 0.003}
    asked, built = [], []
    monkeypatch.setattr(replay_module, "in_worker", lambda dataset, recorded, **shape: asked.append(recorded) or own)
    real_dataset = replay_module.ReplayDataset
    monkeypatch.setattr(replay_module, "ReplayDataset", lambda *a, **k: built.append(real_dataset(*a, **k)) or built[-1])
    frame = record_cause("consumer", dataset=Tiny(64))
    work = measured_workload(frame)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        replay(frame, num_workers=0)
    assert asked and asked[0]["num_workers"] == 2 and asked[0]["batch_size"] == 8  # the recorded settings
    assert steps and steps[0] == pytest.approx(max(0.0, work["consume_s"] - 0.003))
    dataset = built[0]
    assert dataset.on_top and dataset.cost_s == beyond(work["cost_s"], 0.0005)


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
    assert (ends["arg3"] >= 0).all()  # the worker's other threads' CPU time meanwhile
    alone = loaderlab.record(make(data, batch_size=8))  # the main process's own fetching says nothing
    assert (alone[alone["kind"] == "collate_end"][["arg0", "arg3"]] == -1).all().all()


def _batch(pid: int, batch: int, start: int, end: int, cpu: int, voluntary: int, others: int = -1,
           runqueue: int = -1) -> list[dict]:
    base = dict(pid=pid, worker=0, epoch=0, batch=batch, arg1=-1, arg2=-1, arg3=-1)
    return [dict(base, kind="fetch_begin", t_ns=start, index=batch, arg0=1),
            dict(base, kind="fetch_end", t_ns=start + 10, index=batch, arg0=1),
            dict(base, kind="collate_begin", t_ns=end - 100, index=-1, arg0=-1),
            dict(base, kind="collate_end", t_ns=end, index=-1, arg0=cpu, arg1=voluntary, arg2=runqueue,
                 arg3=others)]


def _frame(rows: list[dict]):
    import pandas as pd

    frame = pd.DataFrame(rows)  # with indices: a typed trace (without, its numbers would be read from text)
    return frame.assign(t_s=frame["t_ns"] / 1e9, indices=None, detail="")


def test_replay_reads_a_batchs_own_time_from_the_diagnosis_measurement():
    from loaderlab.trace.diagnosis.costs import batch_costs
    from loaderlab.trace.rerun.costs import collate_costs
    from loaderlab.trace.rerun.workload import own_time

    # batch 0 computed 250 of its 1000 ns and waited 750 runnable for a core; batch 1 slept its 750 ns away
    frame = _frame(_batch(7, 0, 0, 1000, 250, 0, runqueue=750) + _batch(7, 1, 2000, 3000, 250, 1, runqueue=0))
    mine = own_time(frame).set_index("batch")
    theirs = batch_costs(frame).set_index("batch")
    assert list(mine["factor"]) == list(theirs["factor"]) == pytest.approx([0.25, 1.0])  # one measurement
    assert mine.loc[0, "computed"] and not mine.loc[1, "computed"]  # its CPU time's share of its own time
    assert list(collate_costs(frame, own_time(frame))) == pytest.approx([25e-9, 100e-9])


def test_a_batch_without_usage_numbers_keeps_its_wall_time():
    from loaderlab.trace.rerun.workload import collate_s, own_time

    frame = _frame(_batch(7, 0, 0, 1000, -1, -1) + _batch(7, 1, 2000, 3000, -1, -1))
    assert not len(own_time(frame))  # an older trace: nothing to take off
    assert collate_s(frame) == pytest.approx(100e-9)


def _spans(first_batch_first: float, first_batch_other: float, later_first: float, later_other: float,
           lives: int = 2, batches: int = 3, size: int = 4):
    """Per-sample rows (a worker's life is a pid), the cost of each sample by its place in its worker's life."""
    import pandas as pd

    rows, t = [], 0
    for pid in range(lives):
        for b in range(batches):
            for k in range(size):
                cost = ((first_batch_first if k == 0 else first_batch_other) if b == 0
                        else (later_first if k == 0 else later_other))
                rows.append(dict(pid=100 + pid, worker=pid, epoch=0, batch=b * lives + pid, index=t,
                                 t_ns_b=t * 1000, cost_s=cost, computed=True))
                t += 1
    return pd.DataFrame(rows)


def test_a_workers_warm_up_and_wake_up_are_taken_off_its_samples():
    from loaderlab.trace.rerun.costs import worker_overhead_s

    spans = _spans(400e-6, 9e-6, 16e-6, 2e-6)  # the ipc and start-up traces' shape, measured
    spans["cost_s"] -= worker_overhead_s(spans)
    assert spans["cost_s"].to_numpy() == pytest.approx([2e-6] * len(spans))


def test_a_place_seen_in_one_batch_or_a_batch_that_waited_keeps_its_cost():
    from loaderlab.trace.rerun.costs import worker_overhead_s

    one_life = _spans(400e-6, 9e-6, 16e-6, 2e-6, lives=1)  # one first batch: warm-up or a slow first sample?
    taken = worker_overhead_s(one_life)
    assert (taken[one_life["batch"] == 0] == 0).all()
    assert taken[one_life["batch"] == 1].iloc[0] == pytest.approx(14e-6)  # later batches: two of them
    waited = _spans(400e-6, 9e-6, 16e-6, 2e-6).assign(computed=False)  # slept or read: maybe the dataset's
    assert (worker_overhead_s(waited) == 0).all()
    main = _spans(400e-6, 9e-6, 16e-6, 2e-6).assign(worker=-1)  # the main process has no worker's life
    assert (worker_overhead_s(main) == 0).all()


def test_the_stand_in_is_measured_in_real_workers_and_none_is_left_running():
    from loaderlab.trace.rerun.calibration import in_worker

    from tests.helpers.processes import baseline, still_alive

    before = baseline()
    dataset = ReplayDataset({0: 0.0}, {}, {}, 4, tensors=2)
    own = in_worker(dataset, {"num_workers": 2, "batch_size": 8, "prefetch_factor": 2})
    assert set(own) == {"sample_s", "collate_s", "step_s"} and all(v >= 0 for v in own.values())
    assert own["collate_s"] > 0  # a worker's collate did run and was timed
    assert not still_alive(before, 10.0)


def test_the_stand_ins_own_cost_comes_off_the_total_as_one_level():
    from loaderlab.trace.rerun.calibration import beyond

    # 13 in all less 1 a sample: 10 left, taken as one level (1) off each, none below zero
    assert beyond({0: 1.0, 1: 2.0, 2: 10.0}, 1.0) == pytest.approx({0: 0.0, 1: 1.0, 2: 9.0})
    assert beyond({0: 3.0, 1: 3.0}, 1.0) == pytest.approx({0: 2.0, 1: 2.0})
    assert beyond({0: 1.0, 1: 1.0}, 2.0) == {0: 0.0, 1: 0.0}  # nothing beyond the stand-in's own
