"""Top-level datasets for the instrumentation tests (importable by spawn/forkserver workers)."""

from __future__ import annotations

import torch


class Squares(torch.utils.data.Dataset):
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return torch.tensor([i * i]), i % 3


class BlockingAt(torch.utils.data.Dataset):
    """Blocks inside ``__getitem__(block_index)`` until ``release`` (a multiprocessing Event) is set."""

    def __init__(self, n: int, block_index: int, release) -> None:
        self.n, self.block_index, self.release = n, block_index, release

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        if i == self.block_index:
            wait_inside_getitem(self.release)
        return torch.tensor([i])


def wait_inside_getitem(release) -> None:
    """A named frame, so a test can find it in the worker's reported stack."""
    release.wait(timeout=60)


def label_and_length(index, sample):
    """A ``sample_info`` hook for Squares: (label, length)."""
    return int(sample[1]), int(sample[0].numel())
