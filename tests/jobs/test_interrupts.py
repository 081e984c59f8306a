"""A Ctrl-C that lands inside a finalizer: Python swallows it; ``loaderlab run`` raises it at the next batch."""

from __future__ import annotations

from pathlib import Path

import pytest

from loaderlab.jobs.read import load_any
from tests.jobs.runner import run, write

pytestmark = pytest.mark.slow  # starts Python with torch in a subprocess

# The KeyboardInterrupt is raised from a __del__, as Python raises a signal's exception there when the signal
# arrives while a finalizer runs (a DataLoader iterator let go at an epoch's end runs several)
SWALLOWED = '''
import torch
from torch.utils.data import DataLoader

class Interrupts:
    def __del__(self):
        raise KeyboardInterrupt

loader = DataLoader(list(range(32)), batch_size=4)
try:
    for step, batch in enumerate(loader):
        print("step", step, flush=True)
        if step == 2:
            Interrupts()  # let go at once: its __del__ runs here
finally:
    print("finally ran", flush=True)
'''


def test_plain_python_runs_on_after_a_finalizer_swallows_ctrl_c(tmp_path: Path):
    # the oracle: without loaderlab the script runs to its end, which is why run raises it again
    import subprocess
    import sys
    write(tmp_path, "swallowed.py", SWALLOWED)
    done = subprocess.run([sys.executable, "swallowed.py"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0
    assert "step 7" in done.stdout
    assert "Exception ignored" in done.stderr and "KeyboardInterrupt" in done.stderr


def test_a_ctrl_c_swallowed_by_a_finalizer_ends_the_job_at_the_next_batch(tmp_path: Path):
    write(tmp_path, "swallowed.py", SWALLOWED)
    done = run(tmp_path, "-o", "trace", "swallowed.py")
    assert done.returncode == 130, done.stderr
    steps = [line for line in done.stdout.splitlines() if line.startswith("step")]
    assert steps == ["step 0", "step 1", "step 2"]
    assert "finally ran" in done.stdout
    assert "Exception ignored" in done.stderr  # Python's own message still shows
    frame = load_any(str(tmp_path / "trace.lltrace"))
    assert (frame["kind"] == "batch_yield").sum() == 3
    assert frame.attrs["exit_status"] == 130
