"""``python -m loaderlab stacks PID``: a stuck worker's stack, fetched from outside the running job."""

from __future__ import annotations

import signal
from pathlib import Path

import psutil
import pytest

from tests.jobs import scripts
from tests.jobs.runner import cli, read_until, start, write


pytestmark = pytest.mark.slow  # each test starts Python with torch in a subprocess (seconds of CPU)


def test_stacks_names_the_stuck_worker_and_the_line_of_getitem(tmp_path: Path):
    write(tmp_path, "stuck.py", scripts.STUCK)
    job = start(tmp_path, "-o", "trace", "stuck.py", LOADERLAB_RUN_PROGRESS_S="0")  # a line after each flush
    try:
        line = read_until(job.stdout, "stuck in")
        stuck_pid = int(line.split()[-1])
        for _ in range(3):  # flushes 0.5 s apart: the worker's report of its slow sample (within 0.04 s) is in
            assert read_until(job.stderr, "loaderlab run:")
        workers = psutil.Process(job.pid).children(recursive=True)
        answer = cli(tmp_path, "stacks", str(job.pid))
        by_worker = cli(tmp_path, "stacks", str(stuck_pid))  # a worker's pid finds its job too
    finally:
        job.send_signal(signal.SIGTERM)
        job.communicate(timeout=60)
        job.kill()
    assert answer.returncode == 0, answer.stderr
    wait_line = next(n for n, text in enumerate(scripts.STUCK.splitlines(), 1) if "threading.Event().wait()" in text)
    sections = [s for s in answer.stdout.split("\n\n") if s.strip()]
    assert sections[0].startswith(f"main process (pid {job.pid}), last event ")
    stuck = [s for s in sections if f"(pid {stuck_pid})" in s.splitlines()[0]]
    assert len(stuck) == 1 and stuck[0].startswith("worker ") and " of loader (pid" in stuck[0]
    assert f'stuck.py", line {wait_line} in __getitem__' in stuck[0]
    assert ", last event fetch_begin (batch 5, index 5) " in stuck[0].splitlines()[0]
    assert by_worker.returncode == 0 and f'line {wait_line} in __getitem__' in by_worker.stdout
    assert job.returncode == 143
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert not alive


def test_stacks_of_a_process_that_is_no_job_is_one_line(tmp_path: Path):
    answer = cli(tmp_path, "stacks", "1")
    assert answer.returncode == 2
    assert answer.stderr.startswith("loaderlab: error: process 1 is not a job started with `python -m loaderlab run`")
