"""The one place where a frozen configuration becomes a recorded run.

Twin of nothing in torch. ``run(config)`` builds a SyntheticDataset and a loaderlab DataLoader from a
``RunConfig`` (frozen and hashable, so a UI can cache by it) and returns the recorded events table.
Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import pandas as pd
import torch

from ..engine.loader import DataLoader
from ..trace.recorder import record
from .datasets import SyntheticDataset, label_of


@dataclass(frozen=True)
class RunConfig:
    n_samples: int = 200
    cost_ms: float = 2.0
    straggler_index: int = -1  # -1: no straggler
    straggler_ms: float = 0.0
    consumer_ms: float = 5.0
    batch_size: int = 8
    shuffle: bool = False
    num_workers: int = 2
    prefetch_factor: int = 2
    in_order: bool = True
    persistent_workers: bool = False
    seed: int = 0
    epochs: int = 1

    def loader_kwargs(self) -> dict:
        kwargs = dict(batch_size=self.batch_size, shuffle=self.shuffle, num_workers=self.num_workers,
                      in_order=self.in_order, persistent_workers=self.persistent_workers,
                      generator=torch.Generator().manual_seed(self.seed))
        if self.num_workers > 0:
            # fork: ~0.1 s to start a worker, and a Streamlit script is not re-imported in the child.
            kwargs.update(prefetch_factor=self.prefetch_factor, multiprocessing_context="fork")
        return kwargs


class _Consumer:
    """Stands in for the training step: holds the main process for ``seconds`` per batch."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self, batch) -> None:
        if self.seconds > 0:
            time.sleep(self.seconds)


def build_loader(config: RunConfig) -> DataLoader:
    """The loader for ``config``; raises torch's own ValueError for invalid combinations."""
    straggler = config.straggler_index if 0 <= config.straggler_index < config.n_samples else None
    dataset = SyntheticDataset(config.n_samples, config.cost_ms / 1000, straggler, config.straggler_ms / 1000)
    return DataLoader(dataset, **config.loader_kwargs())


def run(config: RunConfig) -> pd.DataFrame:
    frame = record(build_loader(config), epochs=config.epochs, consumer=_Consumer(config.consumer_ms / 1000),
                   sample_info=label_of)
    frame.attrs["config"] = asdict(config)
    return frame
