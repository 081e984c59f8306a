"""The replay's stand-in for a recorded loader: a dataset, collate and step that cost what the trace measured
and carry the measured payload, visited in the recorded order.

Twin of nothing in torch. Used by :mod:`loaderlab.trace.rerun.replayer` (which builds them from :mod:`loaderlab.trace.rerun.workload`) and
:mod:`loaderlab.trace.rerun.calibration`; knows torch and the engine's collate, nothing of pandas, plotly or streamlit.
Everything here crosses into worker processes: top-level classes only.
"""

from __future__ import annotations

import time
from typing import Any

import torch

from ...engine.collate import default_collate


def spend(cost_s: float, cores=None) -> None:
    """Take ``cost_s`` seconds; with ``cores`` (a shared semaphore), holding one core slot meanwhile."""
    if cost_s <= 0:
        return
    if cores is None:
        _take(cost_s)
        return
    with cores:
        _take(cost_s)


SPIN_BELOW_S = 0.001  # time.sleep cannot take less than ~60 µs: a microsecond sample spins instead


def _take(cost_s: float) -> None:
    if cost_s >= SPIN_BELOW_S:
        time.sleep(cost_s)
        return
    until = time.perf_counter() + cost_s
    while time.perf_counter() < until:
        pass


class ReplayDataset(torch.utils.data.Dataset):
    """Sample ``i`` costs its measured time and has the measured payload's shape: collated, a batch of them
    carries ``tensors`` tensors and ``sample_floats`` floats a sample, as the recorded batches did. Its label
    and length (``labels``, ``lengths``) are not in it: they would be more tensors to move between processes
    than the recorded batch had. :class:`ReplayInfo` reads them by index.

    ``cores``: a semaphore shared by every worker (inherited when they start), or None for no cap.
    ``on_top``: ``cost_s`` is what a sample costs beyond building its payload (see :mod:`loaderlab.trace.rerun.calibration`).
    """

    def __init__(self, cost_s: dict[int, float], labels: dict[int, Any], lengths: dict[int, int],
                 sample_floats: int, cores=None, tensors: int = 1, on_top: bool = False) -> None:
        self.cost_s, self.labels, self.lengths, self.sample_floats = cost_s, labels, lengths, sample_floats
        self.tensors = max(1, tensors)  # the measured payload: a batch of many small tensors moves slowly
        self.cores = cores
        self.on_top = on_top  # cost_s is spent after building the payload, not including it
        self.n = max(cost_s) + 1 if cost_s else 0
        self.each = max(1, (sample_floats - 2) // (self.tensors - 1)) if self.tensors > 1 else sample_floats

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        if self.on_top:  # microsecond samples: no clock read of its own beyond what the measure needs
            payload = self.payload()
            cost = self.cost_s.get(i, 0.0)
            if cost > 0:
                spend(cost, self.cores)
            return payload
        started = time.perf_counter()  # building the payload is part of the measured cost: spend the rest
        payload = self.payload()
        spend(self.cost_s.get(i, 0.0) - (time.perf_counter() - started), self.cores)
        return payload

    def payload(self):
        """One sample, shaped as measured: one vector, or ``tensors - 1`` vectors and a number (collated, a
        tensor too: the cheapest to build, as a label is)."""
        if self.tensors == 1:
            return torch.zeros(self.sample_floats)
        if self.tensors == 2:  # the usual (input, label)
            return torch.zeros(self.each), 0
        return (*[torch.zeros(self.each) for _ in range(self.tensors - 1)], 0)  # the int64 is 2 floats


class ReplayInfo:
    """``sample_info`` of a replay (runs in its workers): each sample's recorded label and length, by index."""

    def __init__(self, labels: dict[int, Any], lengths: dict[int, int]) -> None:
        self.labels, self.lengths = labels, lengths

    def __call__(self, index: int, sample: Any) -> tuple[Any, int]:
        return self.labels.get(index, -1), self.lengths.get(index, -1)


class ReplayCollate:
    """Collates the stand-in's samples (default collate) and spends the rest of ``cost_s`` (all of it after
    collating, ``on_top``)."""

    def __init__(self, cost_s: float, cores=None, on_top: bool = False) -> None:
        self.cost_s, self.cores, self.on_top = cost_s, cores, on_top

    def __call__(self, samples):
        started = time.perf_counter()  # collating the payload is part of the measured cost: spend the rest
        batch = default_collate(samples)
        spend(self.cost_s - (0.0 if self.on_top else time.perf_counter() - started), self.cores)
        return batch


class ReplayConsumer:
    def __init__(self, cost_s: float) -> None:
        self.cost_s = cost_s

    def __call__(self, batch) -> None:
        spend(self.cost_s)


class RecordedOrder(torch.utils.data.Sampler):
    """The recorded epochs' index order, one recorded epoch per pass (cycling if replaying more epochs)."""

    def __init__(self, epochs: list[list[int]]) -> None:
        self.epochs, self.passes = epochs, 0

    def __iter__(self):
        order = self.epochs[self.passes % len(self.epochs)]
        self.passes += 1
        return iter(order)

    def __len__(self) -> int:
        return len(self.epochs[self.passes % len(self.epochs)])
