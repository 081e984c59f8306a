"""What torch's DataLoader does when the dataset is a (deprecated) DataPipe.

Twin of the "forward compatibilities so classic DataLoader can work with DataPipes" in torch's
``dataloader.py``: the dataset is wrapped in torch's ``_IterDataPipeSerializationWrapper`` /
``_MapDataPipeSerializationWrapper`` (so ``loader.dataset`` is that wrapper, as in torch); ``shuffle=`` is
handed to the pipe's shufflers; each epoch draws a shared seed from ``generator`` (before the workers'
base seed) and seeds every random pipe with it, in the main process and in each worker; the
``sharding_filter`` is sharded over ``world_size * num_workers`` (in the main process over the ranks
only). The graph walks themselves are torch's own ``torch.utils.data.graph_settings`` functions: they
belong to the DataPipe library, not to the loader. Knows nothing of queues, tracing or pandas.
"""

from __future__ import annotations

from typing import Any, Callable

import torch
import torch.distributed as dist
from torch.utils.data import get_worker_info, graph_settings, IterDataPipe, MapDataPipe
from torch.utils.data.datapipes.datapipe import (_IterDataPipeSerializationWrapper,
                                                 _MapDataPipeSerializationWrapper)


def is_datapipe(dataset: Any) -> bool:
    return isinstance(dataset, (IterDataPipe, MapDataPipe))


def wrap(dataset: Any) -> Any:
    """The object ``loader.dataset`` holds: a DataPipe in torch's serialisation wrapper, else the dataset."""
    if isinstance(dataset, IterDataPipe):
        return _IterDataPipeSerializationWrapper(dataset)
    if isinstance(dataset, MapDataPipe):
        return _MapDataPipeSerializationWrapper(dataset)
    return dataset


def apply_shuffle(dataset: IterDataPipe, shuffle: bool | None) -> None:
    """``shuffle=`` switches the pipe's shufflers on or off (in place; the unwrapped pipe, as torch does).

    Without a shuffler torch warns that it adds one, but the pipe it returns is dropped: the loader
    keeps the wrapper of the original pipe. We keep torch's behaviour, warning included.
    """
    if shuffle is not None:
        graph_settings.apply_shuffle_settings(dataset, shuffle=shuffle)


def distributed_settings() -> tuple[int, int]:
    """``(world_size, rank)`` of the default process group, ``(1, 0)`` outside distributed training."""
    if dist.is_available() and dist.is_initialized():
        return dist.get_world_size(), dist.get_rank()
    return 1, 0


def seed_group():
    """Torch makes a gloo group (a collective call: every rank must make it) to share each epoch's seed."""
    if dist.is_available() and dist.is_initialized():
        return dist.new_group(backend="gloo")
    return None


def share_seed(generator: torch.Generator | None, group) -> int:
    """One draw from ``generator`` (rank 0's draw, broadcast to every rank when distributed)."""
    shared = torch.empty((), dtype=torch.int64).random_(generator=generator)
    if isinstance(group, dist.ProcessGroup):
        dist.broadcast(shared, src=0, group=group)
    return shared.item()


def seed_pipes(dataset: IterDataPipe, seed: int) -> IterDataPipe:
    """Seed every random pipe (shufflers…) of the graph from a generator seeded with ``seed``."""
    shared_rng = torch.Generator()
    shared_rng.manual_seed(seed)
    return graph_settings.apply_random_seed(dataset, shared_rng)


def shard(dataset: Any, num_instances: int, instance_id: int) -> None:
    graph_settings.apply_sharding(dataset, num_instances, instance_id)


def sharding_worker_init_fn(worker_init_fn: Callable[[int], None] | None, world_size: int, rank_id: int,
                            worker_id: int) -> None:
    """Torch's ``_sharding_worker_init_fn``: shard over ranks first, then over this rank's workers,
    then run the user's ``worker_init_fn``. Top-level, so spawn workers can unpickle the partial."""
    info = get_worker_info()
    if info is None:
        raise AssertionError("Worker info is None in sharding worker init function")
    datapipe = info.dataset
    if not is_datapipe(datapipe):
        raise AssertionError("datapipe must be an instance of IterDataPipe or MapDataPipe")
    shard(datapipe, info.num_workers * world_size, worker_id * world_size + rank_id)
    if worker_init_fn is not None:
        worker_init_fn(worker_id)
