"""Throughput of loaderlab's DataLoader against torch's, measured in one run on the same workloads.

Run: ``python benchmarks/bench.py`` (``--quick`` for a short run). Prints, per workload and num_workers,
samples/s for torch and for loaderlab with tracing off and on, and the ratios ours/torch. Each
configuration is measured in interleaved rounds (torch, ours, ours traced, torch, …) and the median
round counts, so drift in machine load hits all three alike; ``--best`` takes each side's fastest round
instead (steadier on a machine with other work running). Knows nothing of pandas or streamlit.
"""

from __future__ import annotations

import argparse
import statistics
import time

import torch
import torch.utils.data

from loaderlab import DataLoader
from loaderlab.engine.events import ListTracer


class CheapDataset(torch.utils.data.Dataset):
    """A small float vector and a label per sample: the loader's own overhead dominates."""

    def __init__(self, n: int) -> None:
        self.data = torch.randn(n, 32)

    def __len__(self) -> int:
        return len(self.data)

    def __getitem__(self, i: int):
        return self.data[i], i % 10


class SlowDataset(CheapDataset):
    """Each sample costs ``cost_s`` of waiting (as a disk or network read would)."""

    def __init__(self, n: int, cost_s: float = 0.001) -> None:
        super().__init__(n)
        self.cost_s = cost_s

    def __getitem__(self, i: int):
        time.sleep(self.cost_s)
        return super().__getitem__(i)


def _epoch_seconds(make_loader, tracer=None) -> float:
    loader = make_loader()
    if tracer is not None:
        loader.tracer = tracer
    start = time.perf_counter()
    for _ in loader:
        pass
    return time.perf_counter() - start


def measure(dataset, num_workers: int, batch_size: int, rounds: int, best: bool = False) -> dict[str, float]:
    """Samples/s (median or best of ``rounds`` interleaved rounds) for torch, ours, and ours traced."""
    kwargs = dict(batch_size=batch_size, num_workers=num_workers)
    times: dict[str, list[float]] = {"torch": [], "ours": [], "ours_traced": []}
    for _ in range(rounds):
        times["torch"].append(_epoch_seconds(lambda: torch.utils.data.DataLoader(dataset, **kwargs)))
        times["ours"].append(_epoch_seconds(lambda: DataLoader(dataset, **kwargs)))
        times["ours_traced"].append(_epoch_seconds(lambda: DataLoader(dataset, **kwargs), ListTracer()))
    pick = min if best else statistics.median
    return {name: len(dataset) / pick(ts) for name, ts in times.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python benchmarks/bench.py", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples and rounds (a smoke run)")
    parser.add_argument("--rounds", type=int, default=None, help="interleaved rounds per configuration (default 7)")
    parser.add_argument("--best", action="store_true", help="fastest round instead of the median")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    rounds = args.rounds or (3 if args.quick else 7)
    workloads = [
        ("cheap", CheapDataset(2000 if args.quick else 20000)),
        ("1 ms", SlowDataset(200 if args.quick else 1000)),
    ]
    print("| workload | num_workers | torch samples/s | ours/torch (tracing off) | ours/torch (tracing on) |")
    print("|---|---|---|---|---|")
    for name, dataset in workloads:
        for num_workers in (0, 1, 2):
            r = measure(dataset, num_workers, batch_size=32, rounds=rounds, best=args.best)
            print(f"| {name} | {num_workers} | {r['torch']:.0f} | {r['ours'] / r['torch']:.3f} | "
                  f"{r['ours_traced'] / r['torch']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
