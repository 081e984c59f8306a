"""The ``main_process`` verdict of a ``run --tune`` trace reads the measurement: where the tuning measured settings
with workers inside the job and none was faster than ``num_workers=0``, the verdict says so instead of "workers
would load while your step runs" (the report and the page said both of one job)."""

from __future__ import annotations

import time

import pytest
import torch
from torch.utils.data import Dataset

import loaderlab
from loaderlab.trace.diagnosis.bottleneck import MAIN_PROCESS, verdict
from loaderlab.trace.diagnosis.tuning import workers_measured_slower

from .test_tuning import cand, OWN, record, TWO


@pytest.mark.parametrize("rec, told", [
    (record(cand(TWO, [100, 110, 90]), cand(OWN, [190, 210, 200])), True),  # none adopted over the job's two
    (record(cand(OWN, [200, 200, 200]), cand(TWO, [150, 160, 140])), True),  # the job's none kept, measured
    (record(cand(OWN, [100, 100, 100]), cand(TWO, [103, 102, 104])), True),  # a gain too small to tell
    (record(cand(OWN, [100, 110, 90]), cand(TWO, [190, 210, 200])), False),  # workers measured faster
    (record(cand(OWN, [100, 100, 100]), cand(TWO, [])), False),  # too few rounds: nothing to say
    (record(cand(TWO, [200, 200, 200]), cand(OWN, [150, 160, 140])), False),  # the job's workers kept
    (None, False),
])
def test_workers_are_told_slower_only_where_the_tuning_measured_them_so(rec, told):
    assert workers_measured_slower(rec) is told


class Spins(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        end = time.perf_counter() + 0.0005
        while time.perf_counter() < end:
            pass
        return torch.tensor([float(i)])


def test_the_verdict_of_a_loop_that_loads_says_what_the_tuning_measured():
    trace = loaderlab.record(torch.utils.data.DataLoader(Spins(), batch_size=4), epochs=2)
    plain = verdict(trace)
    assert (plain.kind, plain.key) == (MAIN_PROCESS, MAIN_PROCESS), plain.as_dict()
    assert "Workers would load while your step runs" in plain.text()
    trace.attrs["tuning"] = record(cand(OWN, [200, 200, 200]), cand(TWO, [150, 160, 140]), adopted=0)
    told = verdict(trace)
    assert (told.kind, told.key) == (MAIN_PROCESS, "main_process_measured"), told.as_dict()
    assert "none was measurably faster than num_workers=0" in told.text()
    assert "Workers would load" not in told.text()
    assert "num_workers=0보다 눈에 띄게 빠른 것이" in told.text("ko")
