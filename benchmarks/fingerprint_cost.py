"""What identifying an IterableDataset sample costs: :func:`loaderlab.engine.fingerprint.fingerprint` per sample.

The fetch path fingerprints every sample of an IterableDataset (the engine's and a stock loader's), once,
after the sample's fetch span has closed: the cost lands in the worker's busy time, not in the fetch time.
Samples are ``(tensor, label)`` pairs of float32 tensors of 1 KB, 600 KB and 10 MB (a tensor above 16 KiB is
hashed at 16 evenly spaced 1 KiB pieces), and a dict of the 600 KB one.

Run: ``python benchmarks/fingerprint_cost.py`` (``--repeat N``, default 2000). Prints the median and p90
microseconds per sample, and the load average (the numbers in the README came from that command).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402

from loaderlab.engine.fingerprint import fingerprint  # noqa: E402

SIZES = {"1 KB": 1_000, "600 KB": 600_000, "10 MB": 10_000_000}


def cost_us(sample, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fingerprint(sample)
        times.append((time.perf_counter_ns() - t0) / 1e3)
    times.sort()
    return statistics.median(times), times[int(0.9 * len(times))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    for name, nbytes in SIZES.items():
        x = torch.randn(nbytes // 4)
        for shape, sample in ((f"(tensor {name}, label)", (x, 3)),
                              (f"{{'x': tensor {name}, 'label'}}", {"x": x, "label": 3})):
            p50, p90 = cost_us(sample, args.repeat)
            print(f"{shape:32s} median {p50:7.1f} µs   p90 {p90:7.1f} µs")
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
