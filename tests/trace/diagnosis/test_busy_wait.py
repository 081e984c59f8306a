"""The loop's other threads at work while it waits for its workers' batches (issue 33): the cores the trace
measures, the finding that names them, and a real run whose torch threads spin (OpenMP's wait policy)."""

from __future__ import annotations

import dataclasses
import math

import pytest
import torch
from torch import nn

import loaderlab
from loaderlab.trace.core.run import as_run
from loaderlab.trace.diagnosis.busy_wait import BUSY_CORES, busy_wait_findings, wait_cores
from loaderlab.trace.diagnosis.findings import all_findings
from tests.helpers.simulated import simulate


def test_the_waits_cores_are_the_other_threads_cpu_over_the_waits_wall_time():
    cores, cpu_s, wait_s = wait_cores(simulate(wait_cores=0.9))
    assert cores == pytest.approx(0.9, rel=1e-3)
    assert cpu_s == pytest.approx(0.9 * wait_s, rel=1e-3) and wait_s > 0
    assert wait_cores(simulate(wait_cores=0.0))[0] == 0.0


def test_a_trace_without_the_loops_thread_clock_has_no_reading_and_no_finding():
    run = simulate(wait_cores=None)
    assert math.isnan(wait_cores(run)[0])
    assert busy_wait_findings(run) == []


def test_busy_waits_are_a_finding_quiet_ones_are_not():
    (found,) = busy_wait_findings(simulate(wait_cores=0.9))
    assert (found.kind, found.key, found.severity) == ("busy_wait", "busy_wait_other", "warning")
    assert found.evidence["cores"] == pytest.approx(0.9, rel=1e-3)
    assert "0.9 cores busy" in found.message and "OMP_WAIT_POLICY=PASSIVE" in found.message
    assert busy_wait_findings(simulate(wait_cores=BUSY_CORES / 2)) == []
    assert "busy_wait" in {f.kind for f in all_findings(simulate(wait_cores=0.9))}


def test_a_run_without_workers_is_never_a_busy_wait():
    # without workers the loop fetches its samples itself: the "wait" is work, on torch's threads too
    run = simulate(wait_cores=0.9)
    alone = dataclasses.replace(run, loader={**run.loader, "num_workers": 0})
    assert busy_wait_findings(alone) == []


def test_the_finding_names_torch_threads_where_the_trace_counted_them():
    run = dataclasses.replace(simulate(wait_cores=0.9), extra={"torch_threads": 2})
    (found,) = busy_wait_findings(run)
    assert found.key == "busy_wait"
    assert "on 2 threads" in found.text("en")
    assert "스레드 2개" in found.text("ko") and "OMP_WAIT_POLICY=PASSIVE" in found.text("ko")


class Rows(torch.utils.data.Dataset):
    def __len__(self):
        return 3072

    def __getitem__(self, i):  # some Python work a sample, so that the loop waits for its worker
        return torch.full((64,), float(sum(range(i % 7, 20_000, 7)) % 7)), i % 4


def _record(threads: int):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)

    def step(batch):
        x, y = batch
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()

    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        return loaderlab.record(torch.utils.data.DataLoader(Rows(), batch_size=64, num_workers=1), consumer=step)
    finally:
        torch.set_num_threads(before)


@pytest.mark.timing
@pytest.mark.skipif(torch.get_num_threads() < 2, reason="torch runs one intra-op thread here: nothing can spin")
def test_a_step_on_two_openmp_threads_keeps_a_core_busy_while_the_loop_waits():
    # OpenMP leaves the step's second thread spinning after each op: the trace sees it between the steps;
    # with one thread nothing of the process but the loop's own thread (and the recorder's) runs then
    spinning, single = _record(2), _record(1)
    assert wait_cores(single)[0] < BUSY_CORES < wait_cores(spinning)[0]
    assert [f.key for f in busy_wait_findings(spinning)] == ["busy_wait"]
    assert as_run(spinning).extra["torch_threads"] == 2
    assert busy_wait_findings(single) == []
