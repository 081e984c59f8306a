"""The one place where a frozen configuration becomes a recorded run.

Twin of nothing in torch. ``RunConfig`` holds every DataLoader argument the dashboard offers plus the
workload (where labels and lengths come from, per-sample cost, a straggler, a slow worker, the training
step's time). It is frozen and hashable, so a UI can cache runs by it. ``build_loader`` raises torch's
own errors for invalid combinations; ``run`` records the run. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import asdict, dataclass, replace
from typing import Any

import pandas as pd
import torch

from ..engine.loader import DataLoader
from ..engine.sampler import WeightedRandomSampler
from ..trace.recorder import record
from . import sources
from .datasets import (BucketBatchSampler, TableDataset, TableStream, Workload, inverse_frequency_weights,
                       label_and_length, pad_collate)

SOURCES = ("synthetic", "stdlib_files", "stdlib_docstrings", "uploaded")
KINDS = ("map", "iterable_unsharded", "iterable_sharded")
SAMPLERS = ("default", "weighted")
BATCH_SAMPLERS = ("default", "bucket")
COLLATES = ("default", "pad")


@dataclass(frozen=True)
class RunConfig:
    # workload
    source: str = "synthetic"
    n_samples: int = 2000  # synthetic only; files have their own size
    imbalance: float = 0.5  # synthetic: share of label 0 (the rest is label 1)
    length: int = 8  # synthetic: every sample's length
    length_spread: int = 0  # synthetic: lengths vary uniformly in length ± spread
    uploaded_labels: tuple = ()
    uploaded_lengths: tuple = ()
    cost_ms: float = 0.5
    straggler_index: int = -1  # -1: none
    straggler_ms: float = 0.0
    slow_worker: int = -1  # -1: none
    slow_factor: float = 1.0
    consumer_ms: float = 1.0
    kind: str = "map"
    # DataLoader
    batch_size: int = 16
    shuffle: bool = False
    sampler: str = "default"
    replacement: bool = True
    batch_sampler: str = "default"
    collate: str = "default"
    drop_last: bool = False
    num_workers: int = 2
    prefetch_factor: int = 2
    in_order: bool = True
    persistent_workers: bool = False
    pin_memory: bool = False
    timeout: float = 0.0
    seed: int = 0
    epochs: int = 1

    def __post_init__(self) -> None:
        for name, allowed in (("source", SOURCES), ("kind", KINDS), ("sampler", SAMPLERS),
                              ("batch_sampler", BATCH_SAMPLERS), ("collate", COLLATES)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")


PRESETS: dict[str, dict[str, Any]] = {
    "one slow worker": dict(num_workers=2, slow_worker=1, slow_factor=6.0, cost_ms=1.0, n_samples=600),
    "prefetch starved": dict(num_workers=1, prefetch_factor=1, cost_ms=2.0, consumer_ms=0.0, n_samples=400),
    "95/5 imbalance": dict(imbalance=0.95, shuffle=True, n_samples=1000, cost_ms=0.1),
    "unsharded IterableDataset": dict(kind="iterable_unsharded", num_workers=2, n_samples=200, cost_ms=0.5),
    "padding waste": dict(source="stdlib_docstrings", collate="pad", shuffle=True, batch_size=8, cost_ms=0.2),
}


def preset(name: str, base: RunConfig | None = None) -> RunConfig:
    if name not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(PRESETS)}; got {name!r}")
    return replace(base or RunConfig(), **PRESETS[name])


def labels_and_lengths(config: RunConfig) -> tuple[list[int], list[int]]:
    if config.source == "synthetic":
        return sources.synthetic(config.n_samples, config.imbalance, config.length, config.length_spread, config.seed)
    if config.source == "uploaded":
        return list(config.uploaded_labels), list(config.uploaded_lengths)
    return sources.sample_file(config.source)


def build_loader(config: RunConfig) -> DataLoader:
    """The loader for ``config``; torch's own ValueError/TypeError for invalid combinations."""
    labels, lengths = labels_and_lengths(config)
    n = len(labels)
    workload = Workload(labels, lengths, config.cost_ms / 1000,
                        config.straggler_index if 0 <= config.straggler_index < n else None,
                        config.straggler_ms / 1000,
                        config.slow_worker if config.slow_worker >= 0 else None, config.slow_factor)
    kwargs: dict[str, Any] = dict(num_workers=config.num_workers, pin_memory=config.pin_memory,
                                  timeout=config.timeout, in_order=config.in_order,
                                  persistent_workers=config.persistent_workers)
    if config.num_workers > 0:
        # fork: ~0.1 s per worker, and a Streamlit page script is never re-run in the child.
        kwargs.update(prefetch_factor=config.prefetch_factor, multiprocessing_context="fork")
    if config.collate == "pad":
        kwargs["collate_fn"] = pad_collate
    if config.kind != "map":
        return DataLoader(TableStream(workload, shard=config.kind == "iterable_sharded"),
                          batch_size=config.batch_size, drop_last=config.drop_last, shuffle=config.shuffle or None,
                          **kwargs)
    dataset = TableDataset(workload)
    generator = torch.Generator().manual_seed(config.seed)
    if config.batch_sampler == "bucket":
        bucket = BucketBatchSampler(lengths, config.batch_size, config.drop_last, config.seed)
        return DataLoader(dataset, batch_sampler=bucket, shuffle=config.shuffle, **kwargs)
    sampler = None
    if config.sampler == "weighted":
        sampler = WeightedRandomSampler(inverse_frequency_weights(labels), n, config.replacement, generator)
    return DataLoader(dataset, batch_size=config.batch_size, shuffle=config.shuffle, sampler=sampler,
                      drop_last=config.drop_last, generator=generator, **kwargs)


class Consumer:
    """Stands in for the training step: holds the main process for ``seconds`` per batch."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self, batch) -> None:
        if self.seconds > 0:
            time.sleep(self.seconds)


def run(config: RunConfig) -> pd.DataFrame:
    """Record ``config``'s run; torch's warnings (text, in order) are kept in ``frame.attrs["warnings"]``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = record(build_loader(config), epochs=config.epochs, consumer=Consumer(config.consumer_ms / 1000),
                       sample_info=label_and_length)
    frame.attrs["config"] = {k: v for k, v in asdict(config).items() if not k.startswith("uploaded_")}
    frame.attrs["warnings"] = list(dict.fromkeys(str(w.message) for w in caught))
    return frame
