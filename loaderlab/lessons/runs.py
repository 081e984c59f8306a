"""The lesson runs ``RunConfig`` cannot express: worker seeding, ``DistributedSampler`` ranks, a timeout.

Each records a real run of the loaderlab engine and returns the trace (or an :class:`Outcome` when the
run ends in torch's error). Datasets, ``worker_init_fn`` and ``sample_info`` hooks are top-level, so
workers can receive them. Every run leaves no process behind: workers are shut down before it returns.
Knows the engine and the recorder; nothing of plotly or streamlit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import torch
from torch.utils.data.distributed import DistributedSampler

from ..engine import events as ev
from ..engine.loader import DataLoader
from ..engine.shutdown import shutdown_workers
from ..scenarios.datasets import label_and_length
from ..scenarios.run import build_loader, Consumer, RunConfig
from ..trace.core.frame import events_frame, time_sorted
from ..trace.core.settings import loader_settings
from ..trace.core.lookups import sampler_order
from ..trace.core.run import as_run, Run
from ..trace.recording.recorder import record
from .lesson import Outcome

WORKER_INITS = ("none", "fixed", "initial_seed")


# 10 worker seeding and get_worker_info ----------------------------------------------------------------

class RandomStream(torch.utils.data.IterableDataset):
    """An IterableDataset sharded with ``get_worker_info()``: worker k of n yields samples k, k+n, …; each
    sample is one ``np.random.random()`` draw, as a random augmentation would make."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        start, step = (info.id, info.num_workers) if info is not None else (0, 1)
        for _ in range(start, self.n, step):
            yield torch.tensor([np.random.random()], dtype=torch.float64)


def rng_info(index, sample) -> tuple[str, int]:
    """``sample_info``: the draw as an ``rng:`` label (the identical-RNG check reads it)."""
    return f"rng:{float(sample[0])!r}", 1


def seed_numpy_fixed(worker_id: int) -> None:
    """The classic mistake: every worker seeds numpy with the same constant."""
    np.random.seed(42)


def seed_numpy_from_torch(worker_id: int) -> None:
    """The documented fix: derive numpy's seed from the seed torch gave this worker."""
    np.random.seed(torch.initial_seed() % 2**32)


def seeding_run(n_samples: int = 16, batch_size: int = 2, num_workers: int = 2, worker_init: str = "none",
                seed: int = 0) -> pd.DataFrame:
    if worker_init not in WORKER_INITS:
        raise ValueError(f"worker_init must be one of {', '.join(WORKER_INITS)}; got {worker_init!r}")
    init = {"none": None, "fixed": seed_numpy_fixed, "initial_seed": seed_numpy_from_torch}[worker_init]
    kwargs = {"multiprocessing_context": "fork"} if num_workers else {}
    loader = DataLoader(RandomStream(n_samples), batch_size=batch_size, num_workers=num_workers,
                        worker_init_fn=init, generator=torch.Generator().manual_seed(seed), **kwargs)
    return record(loader, sample_info=rng_info)


# 13 DistributedSampler and set_epoch -------------------------------------------------------------------

def distributed_run(n_samples: int = 16, num_replicas: int = 2, epochs: int = 2, set_epoch: bool = False,
                    batch_size: int = 4, seed: int = 0) -> Outcome:
    """Each rank's loader in this one process (``num_replicas``/``rank`` given, so no process group is
    needed), ``epochs`` epochs each, calling ``sampler.set_epoch(epoch)`` first if ``set_epoch``.

    ``frame``: rank 0's epochs in one trace; ``table``: ``rank, epoch, indices`` (a tuple) per rank and epoch.
    """
    config = RunConfig(n_samples=n_samples, batch_size=batch_size, cost_ms=0.0, consumer_ms=0.0, num_workers=0)
    dataset = build_loader(config).dataset
    rows, rank0 = [], []
    for rank in range(num_replicas):
        sampler = DistributedSampler(dataset, num_replicas=num_replicas, rank=rank, shuffle=True, seed=seed)
        loader = DataLoader(dataset, batch_size=batch_size, sampler=sampler)
        for epoch in range(epochs):
            if set_epoch:
                sampler.set_epoch(epoch)
            frame = record(loader, sample_info=label_and_length)
            order = [i for idx in sampler_order(frame)["indices"] for i in (idx or [])]
            rows.append({"rank": rank, "epoch": epoch, "indices": tuple(order)})
            if rank == 0:
                rank0.append((epoch, frame))
    joined = pd.concat([f.assign(epoch=e) for e, f in rank0], ignore_index=True)
    joined = time_sorted(joined)
    joined["t_s"] = (joined["t_ns"] - joined["t_ns"].min()) / 1e9
    return Outcome(Run(joined, loader=as_run(rank0[0][1]).loader),
                   table=pd.DataFrame(rows, columns=["rank", "epoch", "indices"]))


# 14 timeout and a stuck worker ---------------------------------------------------------------------------

def timeout_run(**fields) -> Outcome:
    """Run ``RunConfig(**fields)`` until the loop gets every batch or the loader raises (``timeout``);
    the workers, a stuck one included, are shut down before this returns."""
    config = RunConfig(**fields)
    loader = build_loader(config)
    tracer = ev.ListTracer(label_and_length)
    loader.tracer = tracer
    consumer, error, it = Consumer(config.consumer_ms / 1000), "", None
    try:
        it = iter(loader)
        for batch in it:
            consumer(batch)
    except RuntimeError as exc:
        error = str(exc)
    finally:
        if it is not None:
            shutdown_workers(it)  # joins the workers that answer, terminates a stuck one
    return Outcome(Run(events_frame(tracer.snapshot()), loader=loader_settings(loader)), error)
