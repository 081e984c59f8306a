"""``run``'s trace file is written by a process of its own (the rows are built away from the loop's GIL):
the file holds what the in-thread writer writes, a job killed outright keeps what reached the writer, a
failing writer is said and never hangs the job, a path that cannot be written fails at once, and no
process outlives the writer."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from types import SimpleNamespace

import pandas as pd
import psutil
import pytest

from loaderlab.engine import events as ev
from loaderlab.engine.records import RecordTracer
from loaderlab.jobs import stream, trace_process
from loaderlab.jobs.read import load_any


def _records() -> list:
    tracer = RecordTracer()
    tracer.emit(ev.EPOCH_BEGIN, ev.MAIN_PROCESS, 0, arg0=0)
    for batch in range(5):
        tracer.emit_fetches(ev.MAIN_PROCESS, 0, batch, [batch, 10 + batch, 11 + batch], labels=["cat"], lengths=[3])
        tracer.emit(ev.COLLATE_END, ev.MAIN_PROCESS, 0, batch, nbytes=24, length=1)
        tracer.emit(ev.BATCH_YIELD, ev.MAIN_PROCESS, 0, batch, arg0=batch)
    return tracer.drain()


class _Drained:
    """A tracer that holds the same records for every writer that drains it."""

    def __init__(self, chunks: list) -> None:
        self.chunks = chunks

    def drain(self) -> list:
        chunks, self.chunks = self.chunks, []
        return chunks


def _source(name: str = "train_loader", chunks: list | None = None) -> SimpleNamespace:
    return SimpleNamespace(name=name, tracer=_Drained(_records() if chunks is None else chunks))


def _write(path, chunks: list | None = None) -> stream.StreamWriter:
    writer = stream.StreamWriter(str(path), {"job": {"argv": ["x.py"]}}, every_s=3600)
    writer.add(_source(chunks=chunks))
    writer.flush()
    return writer


def _children() -> set[int]:
    """This test process's live descendants (others' too: a suite's earlier tests may leave a resource tracker)."""
    return {p.pid for p in psutil.Process().children(recursive=True)
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE}


def test_a_process_of_its_own_writes_what_the_thread_writes(tmp_path, monkeypatch):
    chunks = _records()
    writer = _write(tmp_path / "proc.lltrace", list(chunks))
    assert writer._process is not None and writer._process.pid != os.getpid()
    writer.set_meta("exit_status", 0)
    writer.close()
    assert not writer._process.is_alive() and writer._process.pid not in _children()

    monkeypatch.setattr(trace_process, "start", lambda path, meta, make_rows: None)  # a platform that cannot fork
    here = _write(tmp_path / "thread.lltrace", list(chunks))
    assert here._process is None
    here.set_meta("exit_status", 0)
    here.close()

    proc, thread = load_any(str(tmp_path / "proc.lltrace")), load_any(str(tmp_path / "thread.lltrace"))
    assert len(proc) == 1 + 5 * 4 and writer.events == here.events == len(proc)  # the number run prints
    assert list(proc.loc[proc["kind"] == "fetch_end", "label"]) == ["cat"] * 5
    pd.testing.assert_frame_equal(proc, thread)
    assert proc.attrs["exit_status"] == 0 and not proc.attrs.get("cut_short")


def test_a_job_killed_outright_keeps_what_reached_the_writer(tmp_path):
    writer = _write(tmp_path / "killed.lltrace")
    writer._stop.set()
    writer._outbox.close()  # the job's end of the pipe closes without a Finish, as when it is killed
    writer._process.join(30)
    assert writer._process.exitcode == 0
    frame = load_any(str(tmp_path / "killed.lltrace"))
    assert (frame["kind"] == "batch_yield").sum() == 5
    assert frame.attrs["cut_short"] and "exit_status" not in frame.attrs  # nobody ended the file


def test_a_failing_writer_is_said_and_does_not_hang_the_job(tmp_path, capsys):
    writer = _write(tmp_path / "failing.lltrace")
    writer.set_meta("elapsed_s", float("nan"))  # the file's metadata is JSON: the writing process fails on it
    writer.add(_source("val_loader"))
    writer.flush()
    writer.close(timeout_s=30)
    assert not writer._process.is_alive()
    err = capsys.readouterr().err
    assert f"loaderlab: the trace {tmp_path / 'failing.lltrace'} stopped growing: ValueError" in err


def test_a_path_that_cannot_be_written_fails_before_the_script_runs(tmp_path):
    before = _children()
    with pytest.raises(FileNotFoundError):
        stream.StreamWriter(str(tmp_path / "no" / "such" / "folder.lltrace"), {})
    assert _children() - before == set()


KILLED_WITH_A_FORKED_CHILD = textwrap.dedent('''
    import os, signal, sys, time
    from loaderlab.jobs import trace_process
    trace_process.start_early("loaderlab.jobs.rows:RowWriter")  # as run starts it
    from loaderlab.jobs.stream import StreamWriter
    writer = StreamWriter(sys.argv[1], {}, every_s=3600)
    assert writer._process is not None
    sleeper = os.fork()
    if sleeper == 0:  # a process the script forked: it holds the pipe to the writer open
        os.close(1)
        time.sleep(60)
        os._exit(0)
    print(writer._process.pid, sleeper, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
''')


def test_the_writer_ends_when_the_job_is_gone_though_a_forked_child_holds_its_pipe(tmp_path):
    job = subprocess.Popen([sys.executable, "-c", KILLED_WITH_A_FORKED_CHILD, str(tmp_path / "t.lltrace")],
                           stdout=subprocess.PIPE, text=True)
    writer, sleeper = (psutil.Process(int(pid)) for pid in job.stdout.readline().split())
    try:
        assert job.wait(timeout=30) == -9
        writer.wait(timeout=10 * trace_process.PARENT_CHECK_S)  # not the sleeper's 60 s
    finally:
        sleeper.kill()
        job.stdout.close()



def test_a_writer_started_early_writes_what_the_thread_writes(tmp_path, monkeypatch):
    """``run`` forks its writer before the job imports torch (:func:`trace_process.start_early`): the first
    writer made takes it, and the file is the in-thread writer's."""
    chunks = _records()
    assert trace_process.start_early("loaderlab.jobs.rows:RowWriter")
    early_pid = trace_process._early[0].pid
    writer = _write(tmp_path / "early.lltrace", list(chunks))
    assert writer._process.pid == early_pid and trace_process._early is None
    writer.set_meta("exit_status", 0)
    writer.close()
    assert not writer._process.is_alive() and early_pid not in _children()

    monkeypatch.setattr(trace_process, "start", lambda path, meta, make_rows: None)
    here = _write(tmp_path / "thread.lltrace", list(chunks))
    here.set_meta("exit_status", 0)
    here.close()
    early, thread = load_any(str(tmp_path / "early.lltrace")), load_any(str(tmp_path / "thread.lltrace"))
    assert writer.events == here.events == len(early) == 1 + 5 * 4
    pd.testing.assert_frame_equal(early, thread)


def test_a_writer_started_early_that_no_job_took_ends_with_no_process_left(tmp_path):
    before = _children()
    assert trace_process.start_early("loaderlab.jobs.rows:RowWriter")
    pid = trace_process._early[0].pid
    assert pid in _children()
    with pytest.raises(FileNotFoundError):  # run's job failed before its trace began: nobody takes the writer
        stream.StreamWriter(str(tmp_path / "no" / "such" / "folder.lltrace"), {})
    trace_process.release_early()
    assert trace_process._early is None and _children() - before == set()
    trace_process.release_early()  # twice is nothing


def test_a_writer_started_early_that_cannot_import_its_rows_is_said(tmp_path, capsys):
    assert trace_process.start_early("loaderlab.jobs.no_such_module:RowWriter")
    writer = _write(tmp_path / "early.lltrace")
    writer.close(timeout_s=30)
    assert not writer._process.is_alive()
    err = capsys.readouterr().err
    assert f"the trace {tmp_path / 'early.lltrace'} stopped growing: ModuleNotFoundError" in err


def test_the_jobs_own_process_never_imports_pandas(tmp_path):
    """pandas (0.35 s to import) is the writing process's: a job that does not use it is not made to load it,
    and its trace is whole all the same (issue 37: a tenth of a short job's wall time)."""
    from .runner import run, write

    script = write(tmp_path, "no_pandas.py", """
import sys
import torch
from torch.utils.data import DataLoader, WeightedRandomSampler
loader = DataLoader(list(range(40)), batch_size=4, num_workers=1,
                    sampler=WeightedRandomSampler([1.0, 3.0] * 20, 40, generator=torch.Generator().manual_seed(0)))
for epoch in range(2):
    for batch in loader:
        pass
print("pandas in the job:", "pandas" in sys.modules)
""")
    done = run(tmp_path, "-o", "t", script.name)
    assert done.returncode == 0, done.stderr
    assert "pandas in the job: False" in done.stdout
    frame = load_any(str(tmp_path / "t.lltrace"))
    assert (frame["kind"] == "batch_yield").sum() == 20
    assert frame.attrs["loaders"]["loader"]["label_sources"]["sampler"]["weights"]["values"] == [1.0, 3.0]  # no pandas
