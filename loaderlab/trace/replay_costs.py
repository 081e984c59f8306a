"""What a replay adds to the measured per-sample costs so that the stand-in costs what the recorded run did
beyond fetching: a worker's start-up, and the shared memory a worker's collate pays for.

Twin of nothing in torch. Used by :mod:`.replay`; knows the event vocabulary's names, pandas and torch,
nothing of plotly or streamlit.
"""

from __future__ import annotations

import time

import pandas as pd
import torch

from ..engine.collate import default_collate


def shared_collate_s(dataset, batch_size: int, repeats: int = 5) -> float:
    """What a worker's collate spends beyond the main process's on this payload: inside a worker, every
    batch tensor is allocated in shared memory (one segment per tensor), which collating in the main
    process skips. Measured here by moving a collated batch's tensors to shared memory (median of
    ``repeats``)."""
    samples = [(dataset.payload(), 0, 0) for _ in range(max(1, batch_size))]
    times = []
    for _ in range(repeats):
        batch = default_collate(samples)
        started = time.perf_counter()
        _share(batch)
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def _share(data) -> None:
    if isinstance(data, torch.Tensor):
        data.share_memory_()
    elif isinstance(data, dict):
        for value in data.values():
            _share(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            _share(value)


class ReplayStartup:
    """``worker_init_fn``: a worker's measured start-up beyond what starting a bare worker costs."""

    def __init__(self, extra_s: float) -> None:
        self.extra_s = extra_s

    def __call__(self, worker_id: int) -> None:
        time.sleep(self.extra_s)


BARE_STARTUP_S = 0.015  # starting a worker that imports nothing new (fork, 2 busy cores: 9-15 ms)


def startup_extra(frame: pd.DataFrame) -> float:
    """Median worker start-up (``worker_start`` → its ``worker_ready``) beyond :data:`BARE_STARTUP_S`."""
    starts = frame[frame["kind"] == "worker_start"][["arg0", "t_ns"]].rename(columns={"arg0": "pid"})
    ready = frame[frame["kind"] == "worker_ready"][["pid", "t_ns"]]
    both = starts.merge(ready, on="pid", suffixes=("_s", "_r"))
    if not len(both):
        return 0.0
    return max(0.0, float((both["t_ns_r"] - both["t_ns_s"]).median()) / 1e9 - BARE_STARTUP_S)
