"""Workloads with one planted bottleneck each, and their recorded traces (small: each records in about a second).

Top-level classes and functions: workers must be able to import them. Used by the verdict, summary and
suggestion tests and by ``benchmarks/diagnosis.py``.

A run in which the machine stalled says nothing about its planted cause: on a shared CI machine two
microsecond samples of the many-tensors run once took about 0.23 s each (0.467 s together), and the
verdict rightly named those samples, not the planted move. :func:`record_cause` records such a run again
(at most ``tries`` times in all); the straggler run plants slow samples, so it is never recorded again.
"""

from __future__ import annotations

import time

import torch

import loaderlab
from loaderlab import DataLoader
from loaderlab.trace.tables.slow import sample_fetches
from loaderlab.trace.diagnosis.summary import events
from loaderlab.trace.core.lookups import normal


class Tiny(torch.utils.data.Dataset):
    """Microsecond samples: with workers, moving each small batch between processes is the cost."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return torch.full((4,), float(i)), i % 10


class ManyTensors(torch.utils.data.Dataset):
    """Each sample a dict of 64 tiny tensors: every batch crosses the process boundary as 64 tensors."""

    def __init__(self, n: int, keys: int = 64) -> None:
        self.n, self.keys = n, keys

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return {f"k{j}": torch.tensor([i, j]) for j in range(self.keys)}


class Sleepy(torch.utils.data.Dataset):
    """Each sample waits ``cost_s`` (``slow`` indices wait ``slow_s``): latency-bound fetching."""

    def __init__(self, n: int, cost_s: float, slow: tuple = (), slow_s: float = 0.0) -> None:
        self.n, self.cost_s, self.slow, self.slow_s = n, cost_s, slow, slow_s

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        time.sleep(self.slow_s if i in self.slow else self.cost_s)
        return torch.full((4,), float(i))


class Step:
    """The training step: waits ``cost_s`` per batch."""

    def __init__(self, cost_s: float) -> None:
        self.cost_s = cost_s

    def __call__(self, batch) -> None:
        time.sleep(self.cost_s)


def slow_init(worker_id: int) -> None:
    time.sleep(0.3)


def loader_for(cause: str, **overrides):
    """``(loader, record kwargs)`` for a planted cause; ``overrides`` change loader arguments (a suggestion)."""
    if cause == "ipc":
        args = dict(dataset=Tiny(1600), batch_size=8, num_workers=2)
    elif cause == "ipc_torch":
        args = dict(dataset=ManyTensors(256), batch_size=8, num_workers=2)
    elif cause == "workers":
        args = dict(dataset=Sleepy(256, 0.002), batch_size=8, num_workers=1)
    elif cause == "main_process":
        args = dict(dataset=Sleepy(128, 0.003), batch_size=8, num_workers=0)
    elif cause == "consumer":
        args = dict(dataset=Tiny(256), batch_size=8, num_workers=2)
    elif cause == "startup":
        args = dict(dataset=Tiny(64), batch_size=8, num_workers=2, worker_init_fn=slow_init)
    elif cause == "straggler":
        args = dict(dataset=Sleepy(256, 0.0005, slow=(40, 120, 200), slow_s=0.3), batch_size=8, num_workers=2)
    elif cause == "none":
        args = dict(dataset=Tiny(24), batch_size=8, num_workers=0)
    else:
        raise ValueError(cause)
    args.update(overrides)
    if not args.get("num_workers"):
        args.pop("worker_init_fn", None)
        args.pop("persistent_workers", None)
        args.pop("prefetch_factor", None)
    kind = torch.utils.data.DataLoader if cause == "ipc_torch" else DataLoader
    loader = kind(args.pop("dataset"), **args)
    extra = {"consumer": Step(0.01)} if cause == "consumer" else {}
    return loader, {"epochs": 2 if cause == "startup" else 1, **extra}


STALL_S, STALL_RATIO = 0.05, 10.0  # a sample this long and this many × the run's median: not the workload


def stalled(frame) -> bool:
    """Whether a sample of ``frame`` took ``STALL_S`` and ``STALL_RATIO`` × the median sample: the planted
    workloads' slowest samples take a few ms (µs and ms medians), so only the machine makes one that slow."""
    fetch_s = sample_fetches(normal(events(frame)))["fetch_s"]
    return bool(len(fetch_s)) and float(fetch_s.max()) >= max(STALL_S, STALL_RATIO * float(fetch_s.median()))


def record_cause(cause: str, tries: int = 3, **overrides):
    for _ in range(tries):
        loader, kwargs = loader_for(cause, **overrides)
        frame = loaderlab.record(loader, **kwargs)
        if cause == "straggler" or not stalled(frame):
            break
    return frame
