"""A bare worker's start-up on this machine: ``worker_start`` → ``worker_ready`` of LoaderLab's loader on a dataset
that imports and initialises nothing (replay's ``replay_costs.BARE_STARTUP_S``: what a replayed worker pays
anyway, so a recorded start-up beyond it is what the recorded loader's own start-up added).

Run: ``python benchmarks/worker_startup.py`` (``--loaders N``, default 20; ``--workers K``, default 2). Prints
the median, p10 and p90 over every worker started, the start method, and the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402

import loaderlab  # noqa: E402
from loaderlab import DataLoader  # noqa: E402
from loaderlab.trace.core.run import events_of  # noqa: E402


def startups(loaders: int, workers: int) -> list[float]:
    out = []
    data = torch.utils.data.TensorDataset(torch.zeros(8 * workers))
    for _ in range(loaders):
        f = events_of(loaderlab.record(DataLoader(data, batch_size=8, num_workers=workers)))
        starts = f[f["kind"] == "worker_start"][["arg0", "t_ns"]].rename(columns={"arg0": "pid"})
        ready = f[f["kind"] == "worker_ready"][["pid", "t_ns"]]
        both = starts.merge(ready, on="pid", suffixes=("_s", "_r"))
        out += list((both["t_ns_r"] - both["t_ns_s"]) / 1e9)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loaders", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    found = sorted(startups(args.loaders, args.workers))
    ms = lambda q: 1e3 * found[min(len(found) - 1, int(q * len(found)))]  # noqa: E731
    print(f"{len(found)} workers ({torch.multiprocessing.get_start_method()}): median "
          f"{1e3 * statistics.median(found):.1f} ms, p10 {ms(0.1):.1f} ms, p90 {ms(0.9):.1f} ms; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
