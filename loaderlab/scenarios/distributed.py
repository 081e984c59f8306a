"""The dashboard's distributed workload: a frozen config → N ranks, each a DataLoader over a DistributedSampler.

Twin of the data side of a ``torch.multiprocessing.spawn`` + ``DistributedDataParallel`` script: every
rank builds the same dataset, a ``torch.utils.data.DistributedSampler(dataset, world_size, rank, shuffle,
seed, drop_last)`` and a loaderlab DataLoader with its own workers; the "training step" is a real
``all_reduce`` of a one-element tensor per batch, as DDP all-reduces gradients, so a slow rank holds the
others up. Everything that crosses into a rank (``RankLoader``, ``SyncStep``) is top-level and picklable.
Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace

import pandas as pd
import torch
import torch.distributed as dist

from ..engine.loader import DataLoader
from ..trace.ranks.launch import check_world_size, record_ranks, WORLD_SIZES
from ..trace.core.run import as_run, to_frame
from . import sources
from .datasets import TableDataset, Workload, label_and_length

MAX_SAMPLES = 1000
MAX_WORKERS_PER_RANK = 2
MAX_EPOCHS = 4


@dataclass(frozen=True)
class DistConfig:
    world_size: int = 2
    n_samples: int = 75
    imbalance: float = 0.7  # share of label 0
    batch_size: int = 8
    shuffle: bool = True
    seed: int = 0
    drop_last: bool = False  # DistributedSampler's drop_last (the loaders keep every batch)
    set_epoch: bool = False
    epochs: int = 2
    num_workers: int = 0  # per rank
    cost_ms: float = 1.0  # per sample: 75 samples on 2 ranks is about 40 ms of loading per rank and epoch
    slow_rank: int = -1  # -1: none; else this rank's samples cost slow_factor × cost_ms
    slow_factor: float = 1.0
    step_ms: float = 0.0  # the training step's own time, before its all_reduce

    def __post_init__(self) -> None:
        check_world_size(self.world_size)
        for name, low, high in (("n_samples", 1, MAX_SAMPLES), ("batch_size", 1, MAX_SAMPLES),
                                ("epochs", 1, MAX_EPOCHS), ("num_workers", 0, MAX_WORKERS_PER_RANK)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
                raise ValueError(f"{name} must be {low}–{high}, but got {name}={value!r}")
        if not -1 <= self.slow_rank < self.world_size:
            raise ValueError(f"slow_rank must be -1 (none) or 0–{self.world_size - 1}, but got slow_rank={self.slow_rank!r}")


class RankLoader:
    """``RankLoader(config)(rank, world_size)`` → that rank's DataLoader (called inside the rank process)."""

    def __init__(self, config: DistConfig) -> None:
        self.config = config

    def __call__(self, rank: int, world_size: int) -> DataLoader:
        c = self.config
        labels, lengths = sources.synthetic(c.n_samples, c.imbalance, 4, 0, c.seed)
        cost_s = c.cost_ms / 1000 * (c.slow_factor if rank == c.slow_rank else 1.0)
        dataset = TableDataset(Workload(labels, lengths, cost_s))
        sampler = torch.utils.data.DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=c.shuffle,
                                                      seed=c.seed, drop_last=c.drop_last)
        extra = dict(multiprocessing_context="fork") if c.num_workers else {}
        return DataLoader(dataset, batch_size=c.batch_size, sampler=sampler, num_workers=c.num_workers, **extra)


class SyncStep:
    """The training step of each rank: ``step_s`` of work, then an ``all_reduce`` (DDP's gradient sync)."""

    def __init__(self, step_s: float) -> None:
        self.step_s = step_s

    def __call__(self, batch) -> None:
        if self.step_s > 0:
            time.sleep(self.step_s)  # stands for the forward/backward pass, not for synchronisation
        dist.all_reduce(torch.ones(1))


def run(config: DistConfig, *, timeout_s: float = 60.0) -> pd.DataFrame:
    """Record ``config``'s ranks: the merged trace (``rank`` column) as :func:`record_ranks` returns it, its
    run (:func:`loaderlab.trace.core.run.as_run`) carrying ``config`` too."""
    frame = record_ranks(RankLoader(config), config.world_size, config.epochs, set_epoch=config.set_epoch,
                         consumer=SyncStep(config.step_ms / 1000), sample_info=label_and_length,
                         timeout_s=timeout_s)
    return to_frame(replace(as_run(frame), config=asdict(config)))
