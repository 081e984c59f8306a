"""Datasets with known faults, and the real traces the analysis and findings tests read.

Everything a worker needs is defined at module top level (picklable under spawn and forkserver).
Sleeps here are the *workload* (a slow sample, a slow ``worker_init_fn``, a slow training step), never
synchronisation. Each ``*_trace`` builder records a real run once per test session (``lru_cache``), so
both test modules share the recordings; tests must not modify the frames they get.
"""

from __future__ import annotations

import functools
import time
import warnings

import numpy as np
import torch
from torch.utils.data import Dataset, DistributedSampler, IterableDataset, get_worker_info

import loaderlab
from loaderlab.engine.events import ListTracer
from loaderlab.engine.shutdown import shutdown_workers
from loaderlab.trace.core.frame import events_frame
from loaderlab.trace.core.settings import loader_settings

# --------------------------------------------------------------------------------------------------
# datasets and the callables workers run
# --------------------------------------------------------------------------------------------------


class SlowAt(Dataset):
    """Sample ``i`` is ``tensor([i])``; fetching ``slow_index`` sleeps ``delay`` s, every sample ``cost`` s."""

    def __init__(self, n: int, slow_index: int = -1, delay: float = 0.0, cost: float = 0.0) -> None:
        self.n, self.slow_index, self.delay, self.cost = n, slow_index, delay, cost

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        if i == self.slow_index:
            time.sleep(self.delay)
        elif self.cost:
            time.sleep(self.cost)
        return torch.tensor([i])


class FailsAt(SlowAt):
    """Raises ``ValueError`` when asked for ``slow_index`` (here: the bad one)."""

    def __getitem__(self, i: int):
        if i == self.slow_index:
            raise ValueError(f"sample {i} is corrupt")
        return torch.tensor([i])


class UnshardedStream(IterableDataset):
    """Yields ``0 … n-1`` in every worker: the classic IterableDataset duplication."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __iter__(self):
        return iter(range(self.n))


class ShardedStream(UnshardedStream):
    """The fix: each worker yields only its own share of ``0 … n-1``."""

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            return iter(range(self.n))
        return iter(range(info.id, self.n, info.num_workers))


class NoisyDataset(Dataset):
    """Sample ``i`` is a number from numpy's global RNG (think: a random crop's offset)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return float(np.random.random())


def reseed_numpy(worker_id: int) -> None:
    """The bug: every worker seeds numpy with the same constant, so every worker draws the same numbers."""
    np.random.seed(0)


class Balanced(Dataset):
    """``(features, label)`` with labels 0, 1, 0, 1, …"""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return torch.tensor([float(i)]), i % 2


class Imbalanced(Dataset):
    """``(features, label)`` with label 1 for every 20th sample: 95 % class 0, 5 % class 1."""

    def __init__(self, n: int = 200) -> None:
        self.labels = [1 if i % 20 == 0 else 0 for i in range(n)]

    def __len__(self) -> int:
        return len(self.labels)

    def __getitem__(self, i: int):
        return torch.tensor([float(i)]), self.labels[i]


def inverse_frequency_weights(labels: list[int]) -> list[float]:
    counts = {lab: labels.count(lab) for lab in set(labels)}
    return [1.0 / counts[lab] for lab in labels]


class VariableLength(Dataset):
    """Sample ``i`` is a token sequence of ``length_of(i)`` tokens (1 … 50)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return torch.arange(length_of(i))


def length_of(i: int) -> int:
    return 1 + (i * 37) % 50


def pad_collate(batch: list) -> torch.Tensor:
    return torch.nn.utils.rnn.pad_sequence(batch, batch_first=True)


def slow_init(worker_id: int) -> None:
    """A worker_init_fn with real start-up work to do (opening a large file, say)."""
    time.sleep(1.2)


def slow_step(batch) -> None:
    """A training step that takes longer than loading a batch."""
    time.sleep(0.02)


# sample_info hooks: (index, sample) -> (label, length); they run in the workers.


def class_info(index, sample):
    return int(sample[1]), -1


def identity_info(index, sample):
    return int(sample), -1


def rng_info(index, sample):
    return f"rng:{sample!r}", -1


def length_info(index, sample):
    return None, int(sample.shape[0])


# --------------------------------------------------------------------------------------------------
# recorded traces (each recorded once per session)
# --------------------------------------------------------------------------------------------------

STRAGGLER_INDEX, STRAGGLER_BATCH, STRAGGLER_WORKER = 5, 2, 0  # batch [4, 5] goes to worker 0 (round robin)
HANG_INDEX, HANG_BATCH, HANG_WORKER = 7, 3, 1  # batch [6, 7] goes to worker 1


@functools.lru_cache(maxsize=None)
def straggler_trace(in_order: bool = True):
    loader = loaderlab.DataLoader(SlowAt(16, STRAGGLER_INDEX, 0.3), batch_size=2, num_workers=2, in_order=in_order)
    return loaderlab.record(loader)


def record_until_it_fails(loader, error: type[Exception]):
    """Iterate until ``error`` is raised, then shut down; ``record`` would re-raise and return no table."""
    tracer = ListTracer()
    loader.tracer = tracer
    it = iter(loader)
    try:
        for _ in it:
            pass
    except error:
        pass
    else:
        raise AssertionError(f"the loader did not raise {error.__name__}")
    finally:
        shutdown_workers(it)  # joins the workers that answer, terminates the others
    frame = events_frame(tracer.snapshot())
    frame.attrs["loader"] = loader_settings(loader)
    return frame


@functools.lru_cache(maxsize=None)
def hang_trace():
    """Worker 1 hangs inside ``dataset[7]``; the loop gives up after ``timeout`` and the workers are shut down."""
    loader = loaderlab.DataLoader(SlowAt(16, HANG_INDEX, 60.0), batch_size=2, num_workers=2, timeout=0.5)
    return record_until_it_fails(loader, RuntimeError)


FAIL_INDEX, FAIL_BATCH, FAIL_WORKER = 5, 2, 0


@functools.lru_cache(maxsize=None)
def failing_trace():
    loader = loaderlab.DataLoader(FailsAt(16, FAIL_INDEX), batch_size=2, num_workers=2)
    return record_until_it_fails(loader, ValueError)


@functools.lru_cache(maxsize=None)
def stream_trace(sharded: bool):
    dataset = ShardedStream(8) if sharded else UnshardedStream(8)
    return loaderlab.record(loaderlab.DataLoader(dataset, batch_size=2, num_workers=2), sample_info=identity_info)


@functools.lru_cache(maxsize=None)
def rng_trace(reseed: bool):
    loader = loaderlab.DataLoader(NoisyDataset(16), batch_size=2, num_workers=2,
                                  worker_init_fn=reseed_numpy if reseed else None)
    return loaderlab.record(loader, sample_info=rng_info)


@functools.lru_cache(maxsize=None)
def imbalance_trace(weighted: bool):
    dataset = Imbalanced(200)
    generator = torch.Generator().manual_seed(0)
    if weighted:
        sampler = loaderlab.WeightedRandomSampler(inverse_frequency_weights(dataset.labels), num_samples=200,
                                                  replacement=True, generator=generator)
    else:
        sampler = loaderlab.RandomSampler(dataset, generator=generator)
    loader = loaderlab.DataLoader(dataset, batch_size=20, sampler=sampler, num_workers=2)
    return loaderlab.record(loader, sample_info=class_info)


BUCKETS = [sorted(range(64), key=length_of)[i:i + 8] for i in range(0, 64, 8)]  # batches of similar length


@functools.lru_cache(maxsize=None)
def padding_trace(bucketed: bool):
    dataset = VariableLength(64)
    if bucketed:
        loader = loaderlab.DataLoader(dataset, batch_sampler=BUCKETS, collate_fn=pad_collate)
    else:
        loader = loaderlab.DataLoader(dataset, batch_size=8, shuffle=True, collate_fn=pad_collate,
                                      generator=torch.Generator().manual_seed(0))
    return loaderlab.record(loader, sample_info=length_info)


@functools.lru_cache(maxsize=None)
def order_trace(kind: str):
    """Two epochs under a DistributedSampler whose ``set_epoch`` is never called (or a control)."""
    dataset = SlowAt(16)
    if kind == "distributed":
        sampler = DistributedSampler(dataset, num_replicas=1, rank=0, shuffle=True, seed=0)
    elif kind == "random":
        sampler = loaderlab.RandomSampler(dataset, generator=torch.Generator().manual_seed(0))
    else:
        sampler = loaderlab.SequentialSampler(dataset)
    return loaderlab.record(loaderlab.DataLoader(dataset, batch_size=4, sampler=sampler), epochs=2)


@functools.lru_cache(maxsize=None)
def slow_start_trace(persistent: bool):
    loader = loaderlab.DataLoader(SlowAt(16), batch_size=2, num_workers=2, worker_init_fn=slow_init,
                                  persistent_workers=persistent)
    return loaderlab.record(loader, epochs=2)


@functools.lru_cache(maxsize=None)
def bound_trace(model_bound: bool):
    """Model-bound: instant samples, a 20 ms step. Loader-bound: 10 ms samples, an instant step."""
    if model_bound:
        loader = loaderlab.DataLoader(SlowAt(64), batch_size=4, num_workers=2)
        return loaderlab.record(loader, consumer=slow_step)
    loader = loaderlab.DataLoader(SlowAt(32, cost=0.01), batch_size=4, num_workers=2)
    return loaderlab.record(loader, consumer=lambda batch: None)


@functools.lru_cache(maxsize=None)
def early_stop_trace():
    """Persistent workers, each epoch left after 2 batches: results of the first epoch are drained in the second."""
    loader = loaderlab.DataLoader(SlowAt(16, cost=0.005), batch_size=2, num_workers=2, persistent_workers=True)
    return loaderlab.record(loader, epochs=2, max_batches=2)


@functools.lru_cache(maxsize=None)
def pin_trace():
    with warnings.catch_warnings():  # "pin_memory ... no accelerator": expected on a CPU-only machine
        warnings.simplefilter("ignore", UserWarning)
        loader = loaderlab.DataLoader(SlowAt(16), batch_size=2, num_workers=2, pin_memory=True)
        return loaderlab.record(loader)


@functools.lru_cache(maxsize=None)
def single_process_trace():
    return loaderlab.record(loaderlab.DataLoader(SlowAt(16), batch_size=4), consumer=lambda batch: None)


@functools.lru_cache(maxsize=None)
def stock_torch_trace():
    """A clean run of torch's own DataLoader: no dispatch, arrival or reorder events in the trace."""
    loader = torch.utils.data.DataLoader(Balanced(16), batch_size=2, num_workers=2)
    return loaderlab.record(loader, sample_info=class_info, consumer=lambda batch: None)


@functools.lru_cache(maxsize=None)
def clean_trace():
    """Nothing wrong: balanced labels, no slow samples, two epochs in sequential order."""
    loader = loaderlab.DataLoader(Balanced(32), batch_size=4, num_workers=2)
    return loaderlab.record(loader, epochs=2, sample_info=class_info, consumer=lambda batch: None)
