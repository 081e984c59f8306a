"""Scripts a user would write to re-balance classes, each with one common mistake (and one without), for
``python -m loaderlab run``: ``SCRIPT`` takes the case's name as its argument. The numbers their findings must
say are counted by hand in the tests (issue 35)."""

SCRIPT = r'''
import sys

import numpy as np
import pandas as pd
import torch
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler


class Rows(Dataset):
    """A CSV file read into pandas: the label is a column (the dataset says its labels)."""

    def __init__(self, labels, by_position=True):
        self.df = pd.DataFrame({"x": np.arange(len(labels), dtype=np.float32), "label": labels})
        self.by_position = by_position

    def __len__(self):
        return len(self.df)

    def __getitem__(self, i):
        row = self.df.iloc[i] if self.by_position else self.df.loc[i]
        return torch.tensor([row["x"]]), int(row["label"])


class Pairs(Dataset):
    """(x, label) pairs in a plain list: the dataset does not say its labels."""

    def __init__(self, labels):
        self.rows = [(float(i), int(y)) for i, y in enumerate(labels)]

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        x, y = self.rows[i]
        return torch.tensor([x]), y


def labels_of(n, minority_share):
    k = int(round(n * minority_share))
    return np.array([0] * (n - k) + [1] * k)


def make_loader(case):
    g = torch.Generator().manual_seed(0)
    if case == "balanced_ok":  # 70/30, per-sample inverse-frequency weights: what was meant happens
        labels = labels_of(3000, 0.30)
        weights = 1.0 / np.bincount(labels)[labels]
        loader = DataLoader(Rows(labels), batch_size=32, sampler=WeightedRandomSampler(weights, len(labels), generator=g))
    elif case == "oversampled":  # 95/5, the classic recipe: balanced, but most of the majority never seen
        labels = labels_of(3000, 0.05)
        weights = 1.0 / np.bincount(labels)[labels]
        loader = DataLoader(Rows(labels), batch_size=32, sampler=WeightedRandomSampler(weights, len(labels), generator=g))
    elif case == "estimated":  # 95/5 in a plain list: the dataset's shares are estimated from the draws
        labels = labels_of(3000, 0.05)
        weights = 1.0 / np.bincount(labels)[labels]
        loader = DataLoader(Pairs(labels), batch_size=32, sampler=WeightedRandomSampler(weights, len(labels), generator=g))
    elif case == "class_weights":  # one weight per class where one per sample belongs
        labels = labels_of(3000, 0.05)
        class_weights = 1.0 / np.bincount(labels)
        loader = DataLoader(Rows(labels), batch_size=32,
                            sampler=WeightedRandomSampler(class_weights, len(labels), generator=g))
    elif case == "misaligned":  # weights made in one order, rows read in another (a shuffled frame read by .loc)
        labels = labels_of(3000, 0.05)
        ds = Rows(labels, by_position=False)
        ds.df = ds.df.sample(frac=1.0, random_state=0)
        column = ds.df["label"].to_numpy()
        weights = 1.0 / np.bincount(column)[column]
        loader = DataLoader(ds, batch_size=32, sampler=WeightedRandomSampler(weights, len(column), generator=g))
    elif case == "minority_missing":  # 95/5 shuffled plainly in small batches: most batches have no label 1
        labels = labels_of(2000, 0.05)
        loader = DataLoader(Rows(labels), batch_size=8, shuffle=True, generator=g)
    elif case == "no_replacement":  # without replacement, more draws than weights
        labels = labels_of(3000, 0.05)
        weights = 1.0 / np.bincount(labels)[labels]
        loader = DataLoader(Rows(labels), batch_size=32,
                            sampler=WeightedRandomSampler(weights, 2 * len(labels), replacement=False, generator=g))
    else:
        raise SystemExit(f"unknown case {case}")
    return loader


if __name__ == "__main__":
    loader = make_loader(sys.argv[1])
    for epoch in range(int(sys.argv[2]) if len(sys.argv) > 2 else 1):
        for x, y in loader:
            pass
'''

CASES = ("balanced_ok", "oversampled", "estimated", "class_weights", "misaligned", "minority_missing",
         "no_replacement")
