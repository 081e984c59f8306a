"""The cost of ``python -m loaderlab run`` on a training script, against the same script run plainly.

Run: ``python benchmarks/run_overhead.py`` (``--rounds 5``, ``--samples 2048``…). Writes a small training
script (a map-style dataset whose samples cost ``--sample-ms`` each, ``--workers`` workers, a short loop
body per batch) to a temporary folder and runs it in interleaved rounds: ``python train.py`` then
``python -m loaderlab run train.py``, again and again, so drift in machine load hits both alike. The script
times its own training loop (every epoch, from the first ``iter()`` to the last batch's loop body), which
is what tracing can slow; the process's whole wall time (interpreter and torch start-up, writing the
trace) is printed too. The median round counts; the best round of each is printed too (on a machine with
other work running, the steadier of the two). Knows nothing of pandas or streamlit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

SCRIPT = '''
import sys, time
import torch
from torch.utils.data import DataLoader, Dataset

SAMPLE_S, SAMPLES, WORKERS, EPOCHS = {sample_s}, {samples}, {workers}, {epochs}

class OneMsSamples(Dataset):
    def __len__(self):
        return SAMPLES
    def __getitem__(self, i):
        time.sleep(SAMPLE_S)
        return torch.full((16,), float(i)), i % 10

if __name__ == "__main__":
    loader = DataLoader(OneMsSamples(), batch_size=16, shuffle=True, num_workers=WORKERS)
    start = time.perf_counter()
    for epoch in range(EPOCHS):
        for x, y in loader:
            (x * 2).sum()  # the loop body: a short step
    print("loop_s", time.perf_counter() - start)
'''


def one(command: list[str], folder: str) -> tuple[float, float]:
    """(the script's own loop seconds, the process's wall seconds)."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    loop = next(float(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("loop_s"))
    return loop, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--samples", type=int, default=2048)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--sample-ms", type=float, default=1.0)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="loaderlab-run-overhead-")
    with open(os.path.join(folder, "train.py"), "w") as f:
        f.write(SCRIPT.format(sample_s=args.sample_ms / 1000, samples=args.samples, workers=args.workers,
                              epochs=args.epochs))
    plain_cmd = [sys.executable, "train.py"]
    run_cmd = [sys.executable, "-m", "loaderlab", "run", "-o", "trace", "train.py"]
    plain, traced = [], []
    for _ in range(args.rounds):
        plain.append(one(plain_cmd, folder))
        traced.append(one(run_cmd, folder))
    from loaderlab.jobs.read import load_any

    events = len(load_any(os.path.join(folder, "trace.lltrace")))
    size = os.path.getsize(os.path.join(folder, "trace.lltrace"))
    loop_a, loop_b = (statistics.median(r[0] for r in rows) for rows in (plain, traced))
    wall_a, wall_b = (statistics.median(r[1] for r in rows) for rows in (plain, traced))
    print(f"workload: {args.samples} samples x {args.epochs} epochs, {args.sample_ms:g} ms each, batch_size=16, "
          f"num_workers={args.workers}; {args.rounds} interleaved rounds, medians")
    print(f"training loop  plain {loop_a:7.3f} s   run {loop_b:7.3f} s   overhead {100 * (loop_b / loop_a - 1):+5.1f} %")
    print(f"whole process  plain {wall_a:7.3f} s   run {wall_b:7.3f} s   overhead {100 * (wall_b / wall_a - 1):+5.1f} %")
    best_a, best_b = min(r[0] for r in plain), min(r[0] for r in traced)
    print(f"training loop, best round  plain {best_a:7.3f} s   run {best_b:7.3f} s   overhead "
          f"{100 * (best_b / best_a - 1):+5.1f} %  (steadier on a busy machine)")
    print(f"trace: {events} events, {size / 1e6:.2f} MB ({folder}/trace.lltrace)")
    print("rounds (loop s, plain/run): " + "  ".join(f"{a[0]:.3f}/{b[0]:.3f}" for a, b in zip(plain, traced)))


if __name__ == "__main__":
    main()
