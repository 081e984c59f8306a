"""Picklable test datasets and callables for the differential DataLoader tests.

Everything here is defined at module top level so that ``spawn`` / ``forkserver`` workers can unpickle
it. All datasets are small (a few dozen samples at most) and deterministic: a sample depends only on
its index (and, for the RNG probes, on the worker's seeded RNG state), so torch's DataLoader and
LoaderLab's can be fed the *same* dataset object and their batches compared value for value.

Nothing here imports loaderlab: the same datasets are used for both loaders, and they reach the
current worker through ``torch.utils.data.get_worker_info()`` exactly as user code does. (A LoaderLab
worker is expected to make that function answer too, as torch's workers do.)
"""

from __future__ import annotations

import math
import os
import random
import signal
from collections import namedtuple

import numpy as np
import torch
from torch.utils.data import Dataset, IterableDataset, get_worker_info

Point = namedtuple("Point", ["x", "y"])


def _worker_id() -> int:
    info = get_worker_info()
    return -1 if info is None else info.id


# --------------------------------------------------------------------------------------------------
# map-style datasets
# --------------------------------------------------------------------------------------------------


class MapDataset(Dataset):
    """``(float32 tensor of shape (dim,), int label)`` pairs; the tensor encodes the index."""

    def __init__(self, n: int = 13, dim: int = 3) -> None:
        self.n = n
        self.dim = dim

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(f"index {i} out of range for MapDataset of length {self.n}")
        x = torch.arange(self.dim, dtype=torch.float32) + 10.0 * i
        return x, int(i)


class InMemory(Dataset):
    """float32 samples already in memory (600 KB unless ``floats`` says): fetching costs nothing, moving the
    batches is the cost."""

    def __init__(self, n: int, floats: int = 150 * 1024) -> None:
        self.x = torch.randn(n, floats)

    def __len__(self) -> int:
        return len(self.x)

    def __getitem__(self, i: int):
        return self.x[i]


class StructuredDataset(Dataset):
    """Samples of many shapes: dicts, namedtuples, tuples, lists, numpy arrays and scalars, strings, bytes.

    ``kind`` picks the top-level shape: ``"dict"`` (a nested dict holding everything),
    ``"namedtuple"``, ``"numpy"`` (a bare ndarray), ``"string"`` (a bare str) or ``"tuple"``.
    """

    KINDS = ("dict", "namedtuple", "numpy", "string", "tuple")

    def __init__(self, n: int = 10, kind: str = "dict") -> None:
        if kind not in self.KINDS:
            raise ValueError(kind)
        self.n = n
        self.kind = kind

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if not 0 <= i < self.n:
            raise IndexError(i)
        if self.kind == "namedtuple":
            return Point(x=torch.tensor([i, -i], dtype=torch.int16), y=float(i) / 4)
        if self.kind == "numpy":
            return np.arange(4, dtype=np.float64).reshape(2, 2) * i
        if self.kind == "string":
            return f"sample-{i}"
        if self.kind == "tuple":
            return (torch.full((2,), i, dtype=torch.int64), f"s{i}", np.int32(i))
        return {
            "x": torch.full((2,), float(i), dtype=torch.float64),
            "idx": i,
            "score": i / 2,
            "flag": bool(i % 2),
            "name": f"s{i}",
            "raw": bytes([65 + i % 26]),
            "arr": np.arange(3, dtype=np.int32) + i,
            "np_scalar": np.float32(i) / 2,
            "point": Point(x=i, y=torch.tensor([i, -i], dtype=torch.int16)),
            "pair": (i, float(i)),
            "seq": [i, i + 1],
            "nested": {"a": torch.tensor(i, dtype=torch.uint8), "b": [f"t{i}"]},
        }


class GetItemsDataset(Dataset):
    """Has ``__getitems__``; each sample says which of the two methods produced it."""

    def __init__(self, n: int = 11) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def _sample(self, i, via):
        if not 0 <= i < self.n:
            raise IndexError(i)
        return {"x": torch.tensor([i, 2 * i], dtype=torch.int32), "via": via, "i": i}

    def __getitem__(self, i):
        return self._sample(i, "getitem")

    def __getitems__(self, indices):
        return [self._sample(i, f"getitems[{len(indices)}]") for i in indices]


class SeedDataset(Dataset):
    """Per-sample RNG probe: ``(index, worker_id, numpy.random.rand(), random.random(), torch.rand(1).item(), seed)``.

    ``seed`` is ``get_worker_info().seed`` (``None`` in the main process). The three draws come from
    the worker's process-global RNGs, which the DataLoader seeds from its base seed.
    """

    def __init__(self, n: int = 12) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        info = get_worker_info()
        return (
            int(i),
            -1 if info is None else info.id,
            float(np.random.rand()),
            random.random(),
            torch.rand(1).item(),
            None if info is None else info.seed,
        )


class WorkerInfoDataset(Dataset):
    """Reports what ``get_worker_info()`` says in the process that fetches each sample."""

    def __init__(self, n: int = 9) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        info = get_worker_info()
        if info is None:
            return (int(i), None, None, None, None, None, torch.initial_seed())
        return (
            int(i),
            info.id,
            info.num_workers,
            info.seed,
            info.dataset is self,  # the worker's copy of the dataset is the object being indexed
            type(info.dataset).__name__,
            torch.initial_seed(),
        )


class TwoArgError(Exception):
    """An exception that cannot be rebuilt from a single message string."""

    def __init__(self, a, b) -> None:
        super().__init__(f"two-arg error {a} {b}")
        self.a = a
        self.b = b


class FailingDataset(Dataset):
    """``MapDataset`` that raises at index ``fail_at`` (``ValueError`` / ``KeyError`` / ``TwoArgError``)."""

    def __init__(self, n: int = 12, fail_at: int = 5, exc: str = "value") -> None:
        self.n = n
        self.fail_at = fail_at
        self.exc = exc
        self._inner = MapDataset(n)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if i == self.fail_at:
            if self.exc == "key":
                raise KeyError(f"missing key {i}")
            if self.exc == "twoarg":
                raise TwoArgError(i, "x")
            raise ValueError(f"bad index {i}")
        return self._inner[i]


class KillingDataset(Dataset):
    """Kills its own *worker* process with SIGKILL when asked for index ``kill_at``.

    Before dying it writes its pid to ``pid_file`` (if given) so the test knows which pid the
    DataLoader should report. Never kills the main process (there it returns the sample).
    """

    def __init__(self, n: int = 20, kill_at: int = 6, pid_file: str | None = None) -> None:
        self.n = n
        self.kill_at = kill_at
        self.pid_file = pid_file
        self._inner = MapDataset(n)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if i == self.kill_at and get_worker_info() is not None:
            if self.pid_file is not None:
                with open(self.pid_file, "w") as f:
                    f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return self._inner[i]


class BlockingDataset(Dataset):
    """Blocks in ``__getitem__(block_at)`` until ``event`` is set (bounded by ``bound`` seconds).

    ``event`` must be a multiprocessing Event shared with the test, which sets it once it has seen the
    DataLoader time out, so the blocked worker can finish and shut down promptly.
    """

    def __init__(self, event, n: int = 8, block_at: int = 0, bound: float = 60.0) -> None:
        self.event = event
        self.n = n
        self.block_at = block_at
        self.bound = bound
        self._inner = MapDataset(n)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        if i == self.block_at:
            self.event.wait(self.bound)
        return self._inner[i]


# --------------------------------------------------------------------------------------------------
# iterable-style datasets
# --------------------------------------------------------------------------------------------------


class RangeIterable(IterableDataset):
    """Does NOT shard: every worker yields all ``n`` items (torch's documented duplicate behaviour).

    Items are ``(tensor([i, i*i]), i, worker_id)`` so duplicates can be told apart by worker.
    """

    def __init__(self, n: int = 7) -> None:
        self.n = n

    def __iter__(self):
        wid = _worker_id()
        for i in range(self.n):
            yield torch.tensor([i, i * i]), i, wid


class SizedRangeIterable(RangeIterable):
    """``RangeIterable`` with ``__len__`` (and a stable repr, which torch's length warning prints)."""

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return f"SizedRangeIterable(n={self.n})"


class ShardedIterable(IterableDataset):
    """Shards ``range(n)`` across workers via ``get_worker_info()``.

    ``mode="stride"``: worker k yields ``k, k+W, k+2W, ...`` (shards differ in length by at most one);
    ``mode="block"``: contiguous blocks of ``ceil(n / W)`` as in torch's documentation example (the
    last worker's block may be much shorter, or empty).
    """

    def __init__(self, n: int = 14, mode: str = "stride") -> None:
        self.n = n
        self.mode = mode

    def __iter__(self):
        info = get_worker_info()
        if info is None:
            ids = range(self.n)
        elif self.mode == "stride":
            ids = range(info.id, self.n, info.num_workers)
        else:
            per = int(math.ceil(self.n / float(info.num_workers)))
            start = info.id * per
            ids = range(start, min(start + per, self.n))
        for i in ids:
            yield {"i": i, "x": torch.tensor([float(i)]), "w": _worker_id()}


class SeedIterable(IterableDataset):
    """Iterable RNG probe: each worker yields ``n`` tuples like ``SeedDataset``'s (not sharded)."""

    def __init__(self, n: int = 4) -> None:
        self.n = n

    def __iter__(self):
        info = get_worker_info()
        for i in range(self.n):
            yield (
                i,
                -1 if info is None else info.id,
                float(np.random.rand()),
                random.random(),
                torch.rand(1).item(),
                None if info is None else info.seed,
            )


class FailingIterable(IterableDataset):
    """Not sharded; each replica yields ``0 .. fail_at-1`` and then raises ``ValueError``."""

    def __init__(self, n: int = 6, fail_at: int = 3) -> None:
        self.n = n
        self.fail_at = fail_at

    def __iter__(self):
        for i in range(self.n):
            if i == self.fail_at:
                raise ValueError(f"iterable failed at {i}")
            yield i


# --------------------------------------------------------------------------------------------------
# callables
# --------------------------------------------------------------------------------------------------


def seed_numpy_worker_init_fn(worker_id: int) -> None:
    """The common recipe: reseed numpy from torch's per-worker seed (``base_seed + worker_id``)."""
    np.random.seed(torch.initial_seed() % 2**32)


def failing_worker_init_fn(worker_id: int) -> None:
    """Raises in worker 1 only."""
    if worker_id == 1:
        raise ValueError(f"worker_init_fn failed in worker {worker_id}")


def sum_collate(batch):
    """A custom collate for ``MapDataset`` batches: a dict with a stacked sum, a label list and a count."""
    xs = [b[0] for b in batch]
    return {"sum": torch.stack(xs).sum(0), "labels": [b[1] for b in batch], "n": len(batch)}


def identity_collate(batch):
    """Returns what it gets, wrapped in a tuple with a tag (no conversion, no stacking)."""
    return ("custom", batch)


def failing_collate(batch):
    """A collate_fn that raises for any batch containing label 4 (of ``MapDataset``)."""
    if any(b[1] == 4 for b in batch):
        raise ValueError("collate refused label 4")
    return batch


def labels_collate(batch):
    """Collates ``MapDataset`` samples to a plain list of int labels (no tensors cross the queue)."""
    return [int(b[1]) for b in batch]
