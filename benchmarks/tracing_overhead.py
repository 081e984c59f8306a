"""What tracing costs: per-event cost of the recorder, and ``record`` beside torch's untraced DataLoader.

    .venv/bin/python benchmarks/tracing_overhead.py [--samples 40000] [--repeats 5]

Prints (1) the cost of one event in the main process: ``emit`` of a plain event, and a sample's two fetch
events as ``traced_fetch`` records them, each net of the untraced work; (2) for ``num_workers`` 0 and 2, the
time of one epoch of torch's own ``torch.utils.data.DataLoader`` (untraced) and of ``loaderlab.record`` on
the same dataset (LoaderLab's loader, traced, the table built), best of ``--repeats`` interleaved rounds,
and their ratio (torch time / record time: 1.0 = tracing costs nothing). The dataset's ``__getitem__``
busy-waits 3 µs, so per-sample overhead shows; batch_size 32, default collate.
"""

from __future__ import annotations

import argparse
import time

import torch

import loaderlab
from loaderlab import DataLoader
from loaderlab.engine import events as ev
from loaderlab.engine.fetch import traced_fetch
from loaderlab.engine.records import RecordTracer

BUSY_NS = 3_000
BATCH = 32


class Busy(torch.utils.data.Dataset):
    """Sample i is i, after ``BUSY_NS`` of busy-waiting (a cheap decode)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        end = time.perf_counter_ns() + BUSY_NS
        while time.perf_counter_ns() < end:
            pass
        return i


def per_event_ns(n: int = 200_000) -> tuple[float, float]:
    """(ns per plain ``emit``, ns per fetch event of ``traced_fetch``), each best of 5, untraced work subtracted."""
    emits, fetches = [], []
    indices = list(range(BATCH))
    get = indices.__getitem__
    for _ in range(5):
        tracer = RecordTracer()
        t0 = time.perf_counter_ns()
        for i in range(n):
            tracer.emit(ev.COLLATE_BEGIN, -1, 0, i)
        t1 = time.perf_counter_ns()
        for i in range(n):
            ev.NULL_TRACER.emit(ev.COLLATE_BEGIN, -1, 0, i)
        t2 = time.perf_counter_ns()
        emits.append(((t1 - t0) - (t2 - t1)) / n)
        batches = n // BATCH
        t0 = time.perf_counter_ns()
        for b in range(batches):
            traced_fetch(tracer, -1, get, indices, b, 0)
        t1 = time.perf_counter_ns()
        for b in range(batches):
            [get(i) for i in indices]
        t2 = time.perf_counter_ns()
        fetches.append(((t1 - t0) - (t2 - t1)) / (2 * batches * BATCH))  # two events per sample
    return min(emits), min(fetches)


def torch_epoch(n: int, workers: int) -> float:
    loader = torch.utils.data.DataLoader(Busy(n), batch_size=BATCH, num_workers=workers)
    t0 = time.perf_counter()
    for _ in loader:
        pass
    return time.perf_counter() - t0


def record_epoch(n: int, workers: int) -> tuple[float, int]:
    loader = DataLoader(Busy(n), batch_size=BATCH, num_workers=workers)
    t0 = time.perf_counter()
    frame = loaderlab.record(loader)
    return time.perf_counter() - t0, len(frame)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=40_000)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    emit_ns, fetch_ns = per_event_ns()
    print(f"per event, main process: emit {emit_ns:.0f} ns; a sample's fetch events {fetch_ns:.0f} ns each")
    print(f"{args.samples} samples of {BUSY_NS / 1000:.0f} µs, batch_size {BATCH}, best of {args.repeats}")
    print("num_workers | torch untraced (s) | loaderlab record (s) | events | torch/record")
    for workers in (0, 2):
        torch_s, record_s, events = [], [], 0
        for _ in range(args.repeats):
            torch_s.append(torch_epoch(args.samples, workers))
            seconds, events = record_epoch(args.samples, workers)
            record_s.append(seconds)
        best_t, best_r = min(torch_s), min(record_s)
        print(f"{workers:11d} | {best_t:18.3f} | {best_r:20.3f} | {events:6d} | {best_t / best_r:.2f}")


if __name__ == "__main__":
    main()
