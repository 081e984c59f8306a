"""A process running the app's run function is sent SIGTERM mid-run: every worker process ends.

The run happens in a subprocess (its own process group) that prints one line from inside the training
step once batches flow, so the test knows the workers exist without sleeping; the workers' pids are
taken with psutil before the signal and awaited with ``psutil.wait_procs`` after it (orphans are
re-parented, so they would no longer show as descendants).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import sys
from loaderlab.scenarios import run as scenario

class Announce(scenario.Consumer):
    said = False
    def __call__(self, batch):
        if not Announce.said:
            Announce.said = True
            print("batches flow", flush=True)
        super().__call__(batch)

scenario.Consumer = Announce
config = scenario.RunConfig(n_samples=20000, cost_ms=5.0, consumer_ms=1.0, num_workers=2,
                            fault=sys.argv[1], fault_index=int(sys.argv[2]))
scenario.run(config, max_seconds=300)
"""


def _start(fault: str, index: int) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(REPO))
    return subprocess.Popen([sys.executable, "-c", SCRIPT, fault, str(index)], cwd=REPO, env=env,
                            stdout=subprocess.PIPE, text=True, start_new_session=True)


@pytest.mark.parametrize("fault, index", [("none", 0), ("hang", 40)], ids=["busy workers", "a hung worker"])
def test_sigterm_mid_run_leaves_no_worker(fault, index):
    proc = _start(fault, index)
    try:
        assert proc.stdout.readline().strip() == "batches flow"
        parent = psutil.Process(proc.pid)
        workers = parent.children(recursive=True)
        assert len(workers) >= 2
        os.kill(proc.pid, signal.SIGTERM)
        assert proc.wait(timeout=30) == -signal.SIGTERM
        _, alive = psutil.wait_procs(workers, timeout=10)
        assert not alive, f"workers outlived the killed process: {[p.pid for p in alive]}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
