"""Datasets, samplers and collate functions the dashboard's runs are built from.

Twin of nothing in torch: these stand in for a user's pipeline so that a run shows a chosen behaviour (a
straggler, a slow worker, an imbalance, ragged lengths). Everything here is top-level and picklable,
because workers (fork, spawn or forkserver) receive it. Knows nothing of pandas, plotly or streamlit.

A sample is ``(tokens, label)``: ``tokens`` is an int64 tensor whose length is the sample's length, so
equal lengths collate with the default collate and ragged lengths need padding — as with real text.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Sequence

import torch
from torch.nn.utils.rnn import pad_sequence


class Workload:
    """Per-sample labels, lengths and fetch cost, shared by the map-style and iterable datasets."""

    def __init__(self, labels: Sequence[int], lengths: Sequence[int], cost_s: float = 0.0,
                 straggler_index: int | None = None, straggler_s: float = 0.0,
                 slow_worker: int | None = None, slow_factor: float = 1.0, fault: str = "none",
                 fault_index: int = -1) -> None:
        if len(labels) != len(lengths):
            raise ValueError(f"labels and lengths must be equally long, got {len(labels)} and {len(lengths)}")
        self.labels, self.lengths = list(labels), list(lengths)
        self.cost_s, self.straggler_index, self.straggler_s = cost_s, straggler_index, straggler_s
        self.slow_worker, self.slow_factor = slow_worker, slow_factor
        self.fault, self.fault_index = fault, fault_index

    def make(self, i: int):
        """Pay sample ``i``'s cost, then build it. Waiting stands for I/O and keeps 2 cores responsive."""
        delay = self.straggler_s if i == self.straggler_index else self.cost_s
        if self.slow_worker is not None:
            info = torch.utils.data.get_worker_info()
            if info is not None and info.id == self.slow_worker:
                delay *= self.slow_factor
        if delay > 0:
            time.sleep(delay)
        tokens = torch.arange(self.lengths[i], dtype=torch.int64)
        if i == self.fault_index and self.fault != "none":
            inject_fault(self.fault, i, tokens)
        return tokens, self.labels[i]


FAULTS = ("none", "raise", "kill", "hang", "unpicklable")
IN_WORKERS_ONLY = ("kill", "hang")  # in the main process these would kill or hang the server itself


def inject_fault(fault: str, index: int, tokens: torch.Tensor) -> None:
    """Make sample ``index`` fail as ``fault`` says (a workshop demo of what goes wrong in real pipelines).

    ``raise``: ``__getitem__`` raises. ``kill``: the worker process dies (SIGKILL, as the OOM killer
    does). ``hang``: ``__getitem__`` never returns (a dead network mount). ``unpicklable``: the sample's
    batch leaves ``collate_fn`` attached to an autograd graph (see ``FaultCollate``), which a worker
    cannot send: torch refuses to pickle it.
    """
    in_worker = torch.utils.data.get_worker_info() is not None
    if fault == "raise":
        raise ValueError(f"sample {index} is corrupt (a fault injected by LoaderLab)")
    if fault in IN_WORKERS_ONLY and not in_worker:
        raise RuntimeError(f"fault {fault!r} refused in the main process: it would {fault} the server")
    if fault == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if fault == "hang":
        while True:
            time.sleep(3600)
    if fault == "unpicklable":
        tokens.loaderlab_fault = True  # FaultCollate sees this mark


class FaultCollate:
    """``collate_fn`` that, for a batch holding a marked sample, returns its tokens still attached to an
    autograd graph — like a collate that runs a learnable module without ``.detach()``."""

    def __init__(self, inner) -> None:
        self.inner = inner

    def __call__(self, samples):
        out = self.inner(samples)
        if any(getattr(s[0], "loaderlab_fault", False) for s in samples):
            out = list(out)
            out[0] = out[0].float().requires_grad_() * 1.0  # a non-leaf tensor that requires grad
        return out


class TableDataset(torch.utils.data.Dataset):
    """Map-style: ``dataset[i]`` is sample ``i`` of the workload."""

    def __init__(self, workload: Workload) -> None:
        self.workload = workload

    def __len__(self) -> int:
        return len(self.workload.labels)

    def __getitem__(self, i: int):
        return self.workload.make(i)


class TableStream(torch.utils.data.IterableDataset):
    """Iterable-style. Unsharded, every worker's replica yields every sample (torch's duplicate trap);
    sharded, worker k of n yields samples k, k+n, … as ``get_worker_info()`` documents."""

    def __init__(self, workload: Workload, shard: bool) -> None:
        self.workload, self.shard = workload, shard

    def __len__(self) -> int:
        return len(self.workload.labels)

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        start, step = (info.id, info.num_workers) if (self.shard and info is not None) else (0, 1)
        for i in range(start, len(self.workload.labels), step):
            yield self.workload.make(i)


class BucketBatchSampler(torch.utils.data.Sampler):
    """Batches of similar length: shuffle, sort within pools of ``pool`` batches, then shuffle the batches.

    The usual cure for padding waste; each epoch draws from its own generator seeded ``seed + epoch``.
    """

    def __init__(self, lengths: Sequence[int], batch_size: int, drop_last: bool = False, seed: int = 0,
                 pool: int = 50) -> None:
        self.lengths, self.batch_size, self.drop_last = list(lengths), batch_size, drop_last
        self.seed, self.pool, self.epoch = seed, pool, 0

    def __len__(self) -> int:
        n = len(self.lengths)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self):
        g = torch.Generator().manual_seed(self.seed + self.epoch)
        self.epoch += 1
        order = torch.randperm(len(self.lengths), generator=g).tolist()
        size = self.batch_size * self.pool
        batches = []
        for start in range(0, len(order), size):
            pooled = sorted(order[start:start + size], key=self.lengths.__getitem__)
            batches += [pooled[i:i + self.batch_size] for i in range(0, len(pooled), self.batch_size)]
        if self.drop_last:
            batches = [b for b in batches if len(b) == self.batch_size]
        for i in torch.randperm(len(batches), generator=g).tolist():
            yield batches[i]


def pad_collate(samples):
    """``(tokens, label)`` samples → (padded tokens [batch, longest], labels, lengths), padding with 0."""
    tokens = [s[0] for s in samples]
    return (pad_sequence(tokens, batch_first=True, padding_value=0),
            torch.tensor([s[1] for s in samples]), torch.tensor([len(t) for t in tokens]))


def label_and_length(index, sample) -> tuple[int, int]:
    """``sample_info`` hook: the sample's label and its length (for the label and padding audits)."""
    return int(sample[1]), int(sample[0].numel())


def inverse_frequency_weights(labels: Sequence[int]) -> list[float]:
    """One weight per *sample*: 1 / (count of its class) — the weights WeightedRandomSampler expects."""
    counts: dict[int, int] = {}
    for label in labels:
        counts[label] = counts.get(label, 0) + 1
    return [1.0 / counts[label] for label in labels]
