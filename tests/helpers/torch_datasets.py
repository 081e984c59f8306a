"""Top-level datasets for recording stock torch DataLoaders (importable by workers)."""

from __future__ import annotations

import math

import numpy as np
import torch


class Pairs(torch.utils.data.Dataset):
    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return {"x": torch.tensor([float(i)]), "noise": float(np.random.rand()), "label": i % 4}


class RangeStream(torch.utils.data.IterableDataset):
    """torch's documented example: each worker's replica is narrowed through get_worker_info().dataset."""

    def __init__(self, start: int, end: int) -> None:
        self.start, self.end = start, end

    def __iter__(self):
        return iter(range(self.start, self.end))


def split_range(worker_id: int) -> None:
    info = torch.utils.data.get_worker_info()
    dataset = info.dataset
    overall_start, overall_end = dataset.start, dataset.end
    per_worker = int(math.ceil((overall_end - overall_start) / float(info.num_workers)))
    dataset.start = overall_start + worker_id * per_worker
    dataset.end = min(dataset.start + per_worker, overall_end)


def seed_numpy(worker_id: int) -> None:
    np.random.seed(1000 + worker_id)


def sum_collate(samples):
    return sum(float(s["x"]) for s in samples), [s["label"] for s in samples]


def label_of(index, sample):
    return sample["label"], 1
