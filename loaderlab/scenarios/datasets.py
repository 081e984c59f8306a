"""Synthetic datasets whose per-sample cost, labels and lengths the user chooses.

Twin of nothing in torch: these stand in for a user's dataset so that a run shows a chosen behaviour
(a straggler, an imbalance). Top-level classes, so spawn and forkserver workers can unpickle them.
Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import time

import torch


class SyntheticDataset(torch.utils.data.Dataset):
    """Sample ``i`` is ``(features, label)``; fetching it waits ``cost_s`` (``straggler_s`` at one index).

    Waiting, not computing, stands for the I/O that usually dominates ``__getitem__``; it also keeps a
    2-core machine responsive while several workers "work".
    """

    def __init__(self, n: int, cost_s: float = 0.0, straggler_index: int | None = None, straggler_s: float = 0.0,
                 labels: list[int] | None = None, features: int = 8) -> None:
        self.n = n
        self.cost_s = cost_s
        self.straggler_index = straggler_index
        self.straggler_s = straggler_s
        self.labels = labels if labels is not None else [i % 2 for i in range(n)]
        self.features = features

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        delay = self.straggler_s if i == self.straggler_index else self.cost_s
        if delay > 0:
            time.sleep(delay)
        return torch.full((self.features,), float(i)), self.labels[i]


def label_of(index, sample) -> tuple[int, int]:
    """``sample_info`` hook for SyntheticDataset: the label, and the feature length."""
    return int(sample[1]), int(sample[0].numel())
