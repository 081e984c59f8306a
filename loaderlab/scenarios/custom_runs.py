"""Runs and checks beyond what ``RunConfig`` can express (the sampling and padding pages use them).

Twin of nothing in torch. ``weights_run`` records a loader whose ``WeightedRandomSampler`` gets weights
given by hand (per sample, or — the common mistake — one per class); it stands in for a
``RunConfig.class_weights`` field until :mod:`loaderlab.scenarios.run` has one. ``default_collate_error``
runs torch's own ``default_collate`` on one batch of the dataset. Knows nothing of streamlit or plotly.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import replace

import torch

from ..engine.loader import DataLoader
from ..engine.sampler import WeightedRandomSampler
from ..trace.recording.recorder import record
from ..trace.core.run import as_run, Run
from .datasets import Workload, label_and_length
from .run import Consumer, RunConfig, build_loader, labels_and_lengths, stamp_run


def weights_loader(config: RunConfig, weights: Sequence[float]) -> DataLoader:
    """``config``'s map-style loader with ``WeightedRandomSampler(weights, len(dataset), config.replacement)``.

    ``weights`` is passed as given: torch does not check its length against the dataset's, it draws
    indices below ``len(weights)``.
    """
    # The sidebar's loader supplies the dataset, collate_fn and worker settings, so both runs differ only
    # in the sampler.
    base = build_loader(replace(config, kind="map", sampler="default", shuffle=False, batch_sampler="default"))
    generator = torch.Generator().manual_seed(config.seed)
    sampler = WeightedRandomSampler(list(weights), len(base.dataset), config.replacement, generator)
    kwargs = dict(num_workers=base.num_workers, collate_fn=base.collate_fn, pin_memory=base.pin_memory,
                  timeout=base.timeout, in_order=base.in_order, persistent_workers=base.persistent_workers)
    if base.num_workers > 0:
        kwargs.update(prefetch_factor=base.prefetch_factor, multiprocessing_context="fork")
    return DataLoader(base.dataset, batch_size=config.batch_size, sampler=sampler, drop_last=config.drop_last,
                      generator=generator, **kwargs)


def weights_run(config: RunConfig, weights: Sequence[float]) -> Run:
    """Record :func:`weights_loader`'s run like :func:`loaderlab.scenarios.run.run` (a Run, with warnings).

    Raises torch's own RuntimeError when the draw is impossible (e.g. ``replacement=False`` with fewer
    non-zero weights than samples asked for).
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        frame = record(weights_loader(config, weights), epochs=config.epochs,
                       consumer=Consumer(config.consumer_ms / 1000), sample_info=label_and_length)
    return stamp_run(as_run(frame), config, caught)  # record() is the public boundary: its attrs → a Run


def default_collate_error(config: RunConfig, indices: Sequence[int]) -> str | None:
    """Torch's ``default_collate`` on the samples ``indices`` of ``config``'s dataset: its error text, or
    None when the samples stack (all of one length)."""
    labels, lengths = labels_and_lengths(config)
    workload = Workload(labels, lengths)  # no cost: only the samples' shapes matter here
    batch = [workload.make(int(i)) for i in indices]
    try:
        torch.utils.data.default_collate(batch)
    except RuntimeError as exc:
        return str(exc)
    return None
