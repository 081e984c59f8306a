"""What a batch in shared memory costs the loop body with workers — mapping its pages in as the body reads
it, letting it go — and what setting each tensor's shared memory up costs a worker: moves the cost model
takes out of the step and the collate that ``num_workers=0`` would run, and keeps on the main process's path."""

from __future__ import annotations

import weakref
from dataclasses import replace

import pandas as pd
import pytest
import torch

import loaderlab
from loaderlab.engine import events as ev
from loaderlab.trace.diagnosis.costs import Costs, drop_s, measured_costs, SHM_TENSOR_S
from loaderlab.trace.diagnosis.steps import FAULT_AROUND, FAULT_S, step_medians, step_times
from loaderlab.trace.diagnosis.predict import batch_time, changed, pipeline, recorded
from tests.helpers.datasets import InMemory

MB = 1 << 20
ROW = 16 * 1024  # 64 KiB float32 rows


def costs(**over) -> Costs:
    base = dict(batch_size=32, samples=3200.0, epochs=1, num_workers=2, cores=2, pin_memory=False,
                persistent=False, fetch_s=0.004, collate_s=0.004, computing=True, nbytes=float(MB), tensors=2.0,
                recv_s=0.0005, pin_s=0.0, step_s=0.002, first_step_s=0.002, startup_s=0.01)
    return Costs(**{**base, **over})


class Reads:
    """A loop body that reads its batch and notes whether the last one is still alive as it begins."""

    def __init__(self) -> None:
        self.last = None
        self.alive: list[bool] = []

    def __call__(self, batch) -> None:
        self.alive.append(self.last is not None and self.last() is not None)
        self.last = weakref.ref(batch)
        float(batch.sum())


def test_a_body_reading_a_batch_in_shared_memory_maps_its_pages_in():
    loader = torch.utils.data.DataLoader(InMemory(96, ROW), batch_size=16, num_workers=2)
    with_workers = step_times(loaderlab.record(loader, consumer=Reads()))
    in_loop = step_times(loaderlab.record(torch.utils.data.DataLoader(InMemory(96, ROW), batch_size=16), consumer=Reads()))
    # 1 MiB a batch: the kernel maps a shared segment in 64 KiB at a fault; a batch collated in the loop is mapped
    assert with_workers["faults"].median() >= 4
    assert in_loop["faults"].median() < with_workers["faults"].median()


def test_record_lets_the_last_batch_go_inside_the_body_as_a_for_loop_does():
    body = Reads()
    loaderlab.record(torch.utils.data.DataLoader(InMemory(64, ROW), batch_size=16, num_workers=2), consumer=body)
    assert body.alive == [False] * 4  # gone before each body ran: its unmapping was the body's, not the wait's


def test_the_bodys_shared_memory_work_is_a_move_not_the_step():
    frame = loaderlab.record(torch.utils.data.DataLoader(InMemory(96, ROW), batch_size=16, num_workers=2),
                             consumer=Reads())
    held = frame.copy()
    ends = held["kind"] == ev.CONSUMER_END
    begins = held["kind"] == ev.CONSUMER_BEGIN
    held.loc[begins, "arg1"] = 1_000
    held.loc[ends, "arg1"] = 1_000 + 10  # ten faults a body
    nbytes, tensors = 16 * 16 * 1024 * 4, 1
    c = measured_costs(held)
    assert c.nbytes == nbytes and c.touch_s == pytest.approx(10 * FAULT_S)
    unmap = 10 * FAULT_S + drop_s(nbytes, tensors)
    step, _ = step_medians(held)
    assert c.step_s == pytest.approx(max(0.0, step - unmap))
    assert c.step_s + c.body_shm_s(nbytes) == pytest.approx(step)  # the main path keeps what the step lost
    # a body shorter than the modelled work: the step is all of it, and the main path keeps the body, no more
    short = held.copy()
    begin_t = short.loc[begins].set_index(["epoch", "batch"])["t_ns"]
    keys = pd.MultiIndex.from_frame(short.loc[ends, ["epoch", "batch"]])
    short.loc[ends, "t_ns"] = begin_t.reindex(keys).to_numpy() + 50_000  # 50 µs a body
    short.loc[ends, "t_s"] = short.loc[ends, "t_ns"] / 1e9 - (short["t_ns"] / 1e9 - short["t_s"]).iloc[0]
    short.loc[ends, "arg0"] = short.loc[begins, "arg0"].to_numpy()  # (no wait for a core)
    tight = measured_costs(short)
    assert step_medians(short)[0] == pytest.approx(50e-6)
    assert tight.step_s == 0.0 and tight.body_shm_s(nbytes) == pytest.approx(50e-6)
    # more faults than the batch has 64 KiB blocks are the step's own (it pays them without workers too)
    held.loc[ends, "arg1"] = 1_000 + 1_000
    assert measured_costs(held).touch_s == pytest.approx((nbytes / FAULT_AROUND + tensors) * FAULT_S)


def test_unmapping_stays_on_the_main_path_with_workers_and_goes_with_num_workers_0():
    c = costs(touch_s=0.0003)
    assert c.body_shm_s(MB) == pytest.approx(0.0003 + drop_s(MB, 2))
    assert c.body_shm_s(2 * MB) - c.body_shm_s(MB) == pytest.approx(0.0003 + MB / 5.5e9)  # scales with the bytes
    without = replace(c, touch_s=0.0)
    gap = pipeline(c, recorded(c))["main"] - pipeline(without, recorded(without))["main"]
    assert gap == pytest.approx(0.0003)
    in_loop = changed(c, {"num_workers": 0})
    assert batch_time(c, in_loop) == pytest.approx(batch_time(without, in_loop))  # no shared memory in the loop


def test_each_tensors_shared_memory_set_up_is_the_workers_not_the_loops():
    few, many = costs(tensors=2.0), costs(tensors=20.0)
    assert many.shm_s - few.shm_s == pytest.approx(18 * SHM_TENSOR_S)
    assert few.main_collate_s - many.main_collate_s == pytest.approx(18 * SHM_TENSOR_S)
    # twice the bytes per batch: the set-up stays, the bytes' part doubles
    bigger = changed(few, {"bytes_factor": 2.0})
    grown = pipeline(few, bigger)["workers"] - pipeline(few, recorded(few))["workers"]
    assert grown * 2 == pytest.approx(few.shm_s - few.shm_fixed_s)
