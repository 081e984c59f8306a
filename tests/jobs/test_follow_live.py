"""End to end: the dashboard follows a real `python -m loaderlab run` job whose worker is stuck, asks it for its
stacks through the page's button, and sees the job end once it is stopped."""

from __future__ import annotations

import signal
from pathlib import Path

import psutil
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from tests.helpers.processes import live_children
from tests.jobs import scripts
from tests.jobs.runner import read_until, start, write

pytestmark = pytest.mark.slow  # starts Python with torch in a subprocess (seconds of CPU)

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "7_Your_trace.py")


def test_the_page_follows_a_stuck_job_and_shows_the_stuck_workers_line(tmp_path: Path):
    write(tmp_path, "stuck.py", scripts.STUCK)
    job = start(tmp_path, "-o", "trace", "stuck.py", LOADERLAB_RUN_PROGRESS_S="0")  # a line after each flush
    st.cache_resource.clear()
    st.cache_data.clear()
    try:
        stuck_pid = int(read_until(job.stdout, "stuck in").split()[-1])
        for _ in range(3):  # flushes 0.5 s apart: the worker's report of its slow sample is in the trace
            assert read_until(job.stderr, "loaderlab run:")
        workers = psutil.Process(job.pid).children(recursive=True)
        at = AppTest.from_file(PAGE, default_timeout=120).run()
        at.text_input(key="trace_follow").set_value(str(tmp_path / "trace.lltrace")).run()
        assert not at.exception and not at.error, [e.value for e in at.error]
        assert at.info[0].value.startswith("Live: the job is running; ")
        at.button(key="follow_stacks_button").click().run()
        stuck = [e.value for e in at.error]
    finally:
        job.send_signal(signal.SIGTERM)
        job.communicate(timeout=60)
        job.kill()
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert not alive and not live_children()
    assert job.returncode == 143
    assert len(stuck) == 1 and stuck[0].startswith("worker ") and f" of loader (pid {stuck_pid}) has been inside " \
        "dataset[5] (batch 5)" in stuck[0]
    wait_line = next(n for n, text in enumerate(scripts.STUCK.splitlines(), 1) if "threading.Event().wait()" in text)
    assert any(f'stuck.py", line {wait_line} in __getitem__' in c.value for c in at.code)
    at.run()  # the job has ended: the view says so and stops refreshing
    assert at.success[0].value.startswith("The job ended with exit status 143 and closed its trace")
    st.cache_resource.clear()
