"""Which dataset indices to load, in which order, in which batches.

Twin of :mod:`torch.utils.data.sampler` (plus the private ``_InfiniteConstantSampler`` from
``torch/utils/data/dataloader.py``). Each class here subclasses torch's class of the same name, so
``isinstance(loader.sampler, torch.utils.data.RandomSampler)`` keeps working, but implements
``__init__``, ``__iter__`` and ``__len__`` itself, in the open, without calling torch's versions.

The contract is bit-for-bit equivalence with torch: same arguments and defaults, same exceptions with
the same messages, and the same random numbers drawn from the same generator in the same order and at
the same moment (random draws happen at the first ``next()``, not at ``iter()``). Given the same
``torch.manual_seed`` or generator state, a sampler here and its torch twin yield the same indices and
leave the RNG in the same state, so swapping one for the other changes nothing downstream.

This module knows nothing about queues, workers or tracing: it only produces indices. The loader
decides who fetches them, and reports ``sampler_yield`` events itself.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence, Sized

import torch
import torch.utils.data as tud

__all__ = [
    "BatchSampler",
    "InfiniteConstantSampler",
    "RandomSampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "WeightedRandomSampler",
]

# RandomSampler(replacement=True) draws its indices this many at a time, so a consumer that stops
# early has only advanced the generator by whole chunks -- part of the RNG contract, not a tuning knob.
_CHUNK = 32


class SequentialSampler(tud.SequentialSampler):
    """0, 1, ..., len(data_source) - 1."""

    def __init__(self, data_source: Sized) -> None:
        self.data_source = data_source

    def __iter__(self) -> Iterator[int]:
        # Not a generator function: like torch, the length is read when iter() is called.
        return iter(range(len(self.data_source)))

    def __len__(self) -> int:
        return len(self.data_source)


class RandomSampler(tud.RandomSampler):
    """A random permutation per pass (or independent draws with ``replacement=True``)."""

    def __init__(
        self,
        data_source: Sized,
        replacement: bool = False,
        num_samples: int | None = None,
        generator: torch.Generator | None = None,
    ) -> None:
        self.data_source = data_source
        self.replacement = replacement
        self._num_samples = num_samples
        self.generator = generator

        if not isinstance(self.replacement, bool):
            raise TypeError(
                f"replacement should be a boolean value, but got replacement={self.replacement}"
            )
        # Torch checks the property (so an empty dataset reports num_samples=0), and does not
        # exclude bool here -- unlike WeightedRandomSampler, num_samples=True is accepted as 1.
        if not isinstance(self.num_samples, int) or self.num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={self.num_samples}"
            )

    @property
    def num_samples(self) -> int:
        # Re-read on every access: the dataset may grow or shrink between epochs.
        if self._num_samples is None:
            return len(self.data_source)
        return self._num_samples

    def __iter__(self) -> Iterator[int]:
        n = len(self.data_source)
        generator = self.generator
        if generator is None:
            # One draw from the global RNG seeds a private generator, so the global stream advances
            # by exactly one number per epoch however many indices are drawn.
            seed = int(torch.empty((), dtype=torch.int64).random_().item())
            generator = torch.Generator()
            generator.manual_seed(seed)

        if self.replacement:
            for _ in range(self.num_samples // _CHUNK):
                chunk = torch.randint(high=n, size=(_CHUNK,), dtype=torch.int64, generator=generator)
                yield from chunk.tolist()
            yield from torch.randint(
                high=n, size=(self.num_samples % _CHUNK,), dtype=torch.int64, generator=generator
            ).tolist()
        else:
            # Whole permutations first, then a prefix of one more. Torch draws that last permutation
            # even when the prefix is empty (num_samples a multiple of n), so we must too.
            for _ in range(self.num_samples // n):
                yield from torch.randperm(n, generator=generator).tolist()
            yield from torch.randperm(n, generator=generator).tolist()[: self.num_samples % n]

    def __len__(self) -> int:
        return self.num_samples


class SubsetRandomSampler(tud.SubsetRandomSampler):
    """The given indices, in a random order."""

    def __init__(self, indices: Sequence[int], generator: torch.Generator | None = None) -> None:
        self.indices = indices
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        # No private generator here (unlike RandomSampler): with generator=None the permutation
        # comes straight from the global RNG.
        for i in torch.randperm(len(self.indices), generator=self.generator).tolist():
            yield self.indices[i]

    def __len__(self) -> int:
        return len(self.indices)


class WeightedRandomSampler(tud.WeightedRandomSampler):
    """``num_samples`` indices into ``weights``, each drawn with probability proportional to its weight."""

    def __init__(
        self,
        weights: Sequence[float],
        num_samples: int,
        replacement: bool = True,
        generator: torch.Generator | None = None,
    ) -> None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool) or num_samples <= 0:
            raise ValueError(
                f"num_samples should be a positive integer value, but got num_samples={num_samples}"
            )
        # ValueError, where RandomSampler raises TypeError for the same mistake: torch's choice.
        if not isinstance(replacement, bool):
            raise ValueError(f"replacement should be a boolean value, but got replacement={replacement}")

        weights_tensor = torch.as_tensor(weights, dtype=torch.double)
        if len(weights_tensor.shape) != 1:
            raise ValueError(
                "weights should be a 1d sequence but given "
                f"weights have shape {tuple(weights_tensor.shape)}"
            )

        self.weights = weights_tensor
        self.num_samples = num_samples
        self.replacement = replacement
        self.generator = generator

    def __iter__(self) -> Iterator[int]:
        # All num_samples drawn in one call at the first next(); impossible requests (more samples
        # than non-zero weights without replacement) only fail here, not in __init__.
        drawn = torch.multinomial(self.weights, self.num_samples, self.replacement, generator=self.generator)
        yield from drawn.tolist()

    def __len__(self) -> int:
        return self.num_samples


class BatchSampler(tud.BatchSampler):
    """Groups the indices of ``sampler`` (any iterable) into lists of ``batch_size``."""

    def __init__(self, sampler: tud.Sampler[int] | Iterable[int], batch_size: int, drop_last: bool) -> None:
        # No isinstance(sampler, Iterable) check: objects iterable through __getitem__ would fail it.
        if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size <= 0:
            raise ValueError(
                f"batch_size should be a positive integer value, but got batch_size={batch_size}"
            )
        if not isinstance(drop_last, bool):
            raise ValueError(f"drop_last should be a boolean value, but got drop_last={drop_last}")
        self.sampler = sampler
        self.batch_size = batch_size
        self.drop_last = drop_last

    def __iter__(self) -> Iterator[list[int]]:
        # Pull one batch at a time so an infinite sampler works, and so the inner sampler (and its
        # RNG) is advanced no further than the batches actually asked for. This makes the same
        # next() calls on the inner iterator as torch's zip-based drop_last path and islice path.
        indices = iter(self.sampler)
        while True:
            batch = list(itertools.islice(indices, self.batch_size))
            if not batch or (self.drop_last and len(batch) < self.batch_size):
                return
            yield batch

    def __len__(self) -> int:
        # Only valid when the inner sampler has a length; like torch, let len() raise otherwise.
        if self.drop_last:
            return len(self.sampler) // self.batch_size  # type: ignore[arg-type]
        return (len(self.sampler) + self.batch_size - 1) // self.batch_size  # type: ignore[arg-type]


class InfiniteConstantSampler(tud.Sampler):
    """``None`` forever: the sampler of an IterableDataset, which picks its own items.

    The loader still needs one index per sample to count batches, so each "index" is a placeholder.
    No ``__len__``, as in torch: ``len()`` raises TypeError, which tells the loader the length is unknown.
    """

    def __init__(self) -> None:
        pass

    def __iter__(self) -> Iterator[None]:
        while True:
            yield None
