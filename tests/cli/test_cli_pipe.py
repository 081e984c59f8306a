"""``python -m loaderlab report t.lltrace | head``: a reader that goes away ends the command quietly.

The reader is a real pipe, shrunk to its smallest size (one page), read for a few bytes and closed while the
command still has most of its output to write, as ``head`` does; every command prints through the one exit
of :func:`loaderlab.cli.main`, so report (text and ``--json``) stand for all of them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from loaderlab.cli import EXIT_READER_GONE
from tests.jobs.runner import TIMEOUT_S, env, run, write

fcntl = pytest.importorskip("fcntl")
if not hasattr(fcntl, "F_SETPIPE_SZ"):  # Linux only: elsewhere the pipe's size cannot be made small
    pytest.skip("no F_SETPIPE_SZ on this system", allow_module_level=True)

PIPE_BYTES = 4096  # the smallest pipe Linux makes (a page)
HEAD_BYTES = 64

THREE_LOADERS = '''
import torch
from torch.utils.data import DataLoader, TensorDataset

train_loader = DataLoader(TensorDataset(torch.arange(32)), batch_size=4)
val_loader = DataLoader(TensorDataset(torch.arange(16)), batch_size=2)
test_loader = DataLoader(TensorDataset(torch.arange(12)), batch_size=3)
for loader in (train_loader, val_loader, test_loader):
    for batch in loader:
        pass
'''

REPORTS = {"text": ["report", "t.lltrace"], "json": ["report", "t.lltrace", "--json"]}


def _users_env() -> dict[str, str]:
    out = env()
    out.pop("PYTHONUNBUFFERED")  # as in a user's shell: stdout to a pipe is block-buffered
    return out


def _whole(folder: Path, args: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loaderlab", *args], cwd=folder, env=_users_env(),
                          capture_output=True, timeout=TIMEOUT_S)


def _cut_short(folder: Path, args: list[str]) -> tuple[int, str, bytes]:
    """(exit status, stderr, what the reader got) of a command whose reader reads a few bytes and goes."""
    read_end, write_end = os.pipe()
    fcntl.fcntl(read_end, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
    with subprocess.Popen([sys.executable, "-m", "loaderlab", *args], cwd=folder, env=_users_env(),
                          stdout=write_end, stderr=subprocess.PIPE) as proc:
        os.close(write_end)
        try:
            got = os.read(read_end, HEAD_BYTES)
        finally:
            os.close(read_end)
        _, err = proc.communicate(timeout=TIMEOUT_S)
    return proc.returncode, err.decode(), got


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """Each report of a three-loader `run` trace: (whole, cut short), by key."""
    folder = tmp_path_factory.mktemp("pipe")
    write(folder, "three.py", THREE_LOADERS)
    done = run(folder, "-o", "t", "three.py")
    assert done.returncode == 0, done.stderr[-3000:]

    def one(key):
        return key, (_whole(folder, REPORTS[key]), _cut_short(folder, REPORTS[key]))

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, REPORTS))


@pytest.mark.slow
@pytest.mark.parametrize("key", list(REPORTS))
def test_a_report_whose_reader_goes_away_ends_quietly(reports, key):
    whole, (status, stderr, got) = reports[key]
    assert whole.returncode == 0 and not whole.stderr, whole.stderr
    # more than the pipe holds: the command was still writing when the reader went away
    assert len(whole.stdout) > PIPE_BYTES + HEAD_BYTES
    assert got and whole.stdout.startswith(got)
    assert stderr == ""  # no BrokenPipeError traceback, no "Exception ignored" at exit
    assert status == EXIT_READER_GONE == 141


def test_the_exit_works_without_a_file_behind_stdout(monkeypatch, tmp_path):
    """In-process callers (tests, notebooks) have a stdout with no file: the reader's end is still quiet."""
    from loaderlab import DataLoader, cli, record
    from loaderlab.trace.files.io import save_trace
    from tests.helpers.datasets import MapDataset

    save_trace(record(DataLoader(MapDataset(6), batch_size=2)), tmp_path / "t.json")

    class Gone:
        def write(self, text):
            raise BrokenPipeError(32, "Broken pipe")

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stdout", Gone())
    assert cli.main(["report", str(tmp_path / "t.json")]) == EXIT_READER_GONE
