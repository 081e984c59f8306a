"""Per-rank loader factories for the multi-rank tests: top-level and picklable, as ranks need them."""

from __future__ import annotations

import os

import torch
import torch.distributed as dist

from loaderlab import DataLoader


class Numbers(torch.utils.data.Dataset):
    """``dataset[i] = i``; raises in the process of rank ``fail_rank`` (if any) at index ``fail_index``."""

    def __init__(self, n: int, fail_rank: int = -1, fail_index: int = -1) -> None:
        self.n, self.fail_rank, self.fail_index = n, fail_rank, fail_index

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        if i == self.fail_index and os.environ.get("LOADERLAB_TEST_RANK") == str(self.fail_rank):
            raise ValueError(f"index {i} is broken on this rank")
        return i


class FailingRank:
    """Rank ``fail_rank``'s dataset raises inside its worker; every rank has one worker and all-reduces
    after each batch (so the other ranks are blocked, workers alive, when it fails)."""

    def __init__(self, fail_rank: int) -> None:
        self.fail_rank = fail_rank

    def __call__(self, rank: int, world_size: int) -> DataLoader:
        os.environ["LOADERLAB_TEST_RANK"] = str(rank)  # inherited by this rank's forked workers
        dataset = Numbers(40, self.fail_rank, fail_index=-1)
        sampler = torch.utils.data.DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=False)
        dataset.fail_index = next(iter(sampler)) if rank == self.fail_rank else -1
        return DataLoader(dataset, batch_size=4, sampler=sampler, num_workers=1, multiprocessing_context="fork")


def all_reduce_step(batch) -> None:
    """A training step's gradient sync: every rank must reach it for any to pass."""
    dist.all_reduce(torch.ones(1))


def raise_in_factory(rank: int, world_size: int) -> DataLoader:
    if rank == world_size - 1:
        raise KeyError(f"no shard for rank {rank}")
    return DataLoader(Numbers(8), batch_size=2)


def seed_per_rank(rank: int, world_size: int) -> DataLoader:
    """The classic bug: each rank seeds its own DistributedSampler differently, so the slices overlap."""
    dataset = Numbers(24)
    sampler = torch.utils.data.DistributedSampler(dataset, num_replicas=world_size, rank=rank, seed=rank)
    return DataLoader(dataset, batch_size=4, sampler=sampler)


def hang(rank: int, world_size: int) -> DataLoader:
    """A rank stuck for good (a deadlock stand-in): waits on an event that nothing sets."""
    import threading

    threading.Event().wait()
    raise AssertionError("unreachable")


def die_on_rank_1(rank: int, world_size: int) -> DataLoader:
    """Rank 1 is killed by a signal (an out-of-memory kill, a segfault): no exception, no traceback."""
    import signal

    if rank == 1:
        os.kill(os.getpid(), signal.SIGKILL)
    return DataLoader(Numbers(8), batch_size=2)
