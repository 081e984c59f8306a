"""A job stopped from outside (Ctrl-C, SIGTERM, SIGKILL) leaves a readable trace and no worker behind.

Synchronised on the job's own output lines (the script's "step N", ``run``'s progress line), never on
sleeps.
"""

from __future__ import annotations

import re
import signal
import subprocess
from pathlib import Path

import psutil
import pytest

from loaderlab.jobs.read import load_any
from tests.jobs import scripts
from tests.jobs.runner import read_until, start, write

pytestmark = [pytest.mark.slow, pytest.mark.timing]  # each test starts Python with torch in a subprocess (seconds of CPU)

WAIT_S = 60


def _workers(job: subprocess.Popen) -> list[psutil.Process]:
    return psutil.Process(job.pid).children(recursive=True)


@pytest.mark.parametrize("signum, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_end_the_script_its_finally_runs_and_the_trace_is_whole(tmp_path: Path, signum, status):
    write(tmp_path, "forever.py", scripts.FOREVER)
    job = start(tmp_path, "-o", "trace", "forever.py")
    try:
        assert read_until(job.stdout, "step 20")
        workers = _workers(job)
        assert workers  # the loader's two workers are running
        job.send_signal(signum)
        out, err = job.communicate(timeout=WAIT_S)
    finally:
        job.kill()
    assert job.returncode == status, err
    assert "finally ran" in out
    if signum == signal.SIGINT:
        assert "KeyboardInterrupt" in err
    gone, alive = psutil.wait_procs(workers, timeout=WAIT_S)
    assert not alive
    frame = load_any(str(tmp_path / "trace.lltrace"))
    assert (frame["kind"] == "batch_yield").sum() >= 20
    assert frame.attrs["exit_status"] == status
    assert (frame["kind"] == "worker_exit").sum() >= 2  # the workers' last words arrived before the file closed


def test_sigkill_loses_at_most_the_last_flush(tmp_path: Path):
    write(tmp_path, "forever.py", scripts.FOREVER)
    job = start(tmp_path, "-o", "trace", "forever.py", LOADERLAB_RUN_PROGRESS_S="0")  # a line after every flush
    try:
        assert read_until(job.stdout, "step 20")
        workers = _workers(job)
        line = read_until(job.stderr, "loaderlab run:")  # a flush after step 20 was printed
        written = int(re.search(r"(\d+) events", line).group(1))
        assert written > 0
        job.send_signal(signal.SIGKILL)
        job.wait(timeout=WAIT_S)
    finally:
        job.kill()
        job.communicate()
    assert job.returncode == -signal.SIGKILL
    frame = load_any(str(tmp_path / "trace.lltrace"))
    assert len(frame) >= written  # everything flushed before the kill is readable
    assert "exit_status" not in frame.attrs and frame.attrs["cut_short"]  # the job never closed it
    # torch's workers notice their parent is gone (they check every 5 s) and exit
    gone, alive = psutil.wait_procs(workers, timeout=WAIT_S)
    assert not alive


def test_sigterm_ends_a_job_blocked_in_c_and_keeps_its_trace(tmp_path: Path):
    write(tmp_path, "blocked.py", scripts.BLOCKED_IN_C)
    job = start(tmp_path, "-o", "trace", "blocked.py")
    try:
        assert read_until(job.stdout, "blocking in C")
        job.send_signal(signal.SIGTERM)
        _, err = job.communicate(timeout=WAIT_S)
    finally:
        job.kill()
    assert job.returncode == 143
    assert "SIGTERM while the script was blocked outside Python" in err
    frame = load_any(str(tmp_path / "trace.lltrace"))
    assert (frame["kind"] == "batch_yield").sum() == 2 and frame.attrs["exit_status"] == 143


KILLED_WHILE_ITS_WORKER_STARTS = '''
import os, sys, time
import torch
from torch.utils.data import DataLoader

def init(worker_id):
    parent = os.getppid()
    print("worker", os.getpid(), "in init", flush=True)
    while os.getppid() == parent:  # the job is SIGKILLed now: this worker's start outlives it
        time.sleep(0.01)

for batch in DataLoader(list(range(8)), batch_size=2, num_workers=1, worker_init_fn=init):
    pass
'''


def test_a_job_killed_while_its_worker_starts_leaves_no_worker(tmp_path: Path):
    """Torch's worker notes its parent only after ``worker_init_fn``; killed before then, the job's worker took
    the process it was reparented to for the job and waited for tasks for good (found beside two CPU burners,
    when SIGKILL came as an epoch's workers started). The recorder's init now ends such a worker."""
    write(tmp_path, "killed_early.py", KILLED_WHILE_ITS_WORKER_STARTS)
    job = start(tmp_path, "-o", "trace", "killed_early.py")
    try:
        line = read_until(job.stdout, "worker")
        worker = psutil.Process(int(line.split()[1]))
        job.send_signal(signal.SIGKILL)
        job.wait(timeout=WAIT_S)
    finally:
        job.kill()
    try:
        worker.wait(timeout=WAIT_S)  # without the check it lives on (its loop polls every 5 s, forever)
    finally:
        if worker.is_running():
            worker.kill()
        job.communicate()
