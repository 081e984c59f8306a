"""A trace says how many torch threads the loop's process ran: the cost model proposes num_workers=0 only
where that is 1, as in a worker (samples' torch ops run on the loop's threads without workers)."""

from __future__ import annotations

import pytest
import torch

import loaderlab
from loaderlab.trace.core.run import as_run
from tests.jobs.runner import run, write


@pytest.mark.parametrize("threads", [1, 2])
def test_record_keeps_the_loops_torch_threads(threads):
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        frame = loaderlab.record(torch.utils.data.DataLoader(torch.arange(40.0), batch_size=4))
    finally:
        torch.set_num_threads(before)
    assert as_run(frame).extra["torch_threads"] == threads


@pytest.mark.slow
def test_run_keeps_each_loaders_torch_threads(tmp_path):
    write(tmp_path, "job.py", "import torch\ntorch.set_num_threads(1)\n"
                              "for x in torch.utils.data.DataLoader(torch.arange(40.0), batch_size=4):\n    pass\n")
    assert run(tmp_path, "-o", "t", "job.py").returncode == 0
    from loaderlab.jobs.read import select_loader
    from loaderlab.trace import load_trace
    part = select_loader(load_trace(str(tmp_path / "t.lltrace")), "loader0")
    assert as_run(part).extra["torch_threads"] == 1
