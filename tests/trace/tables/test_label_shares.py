"""The three label distributions per epoch (issue 35) against counts made by hand: the loop's batches
iterated with torch itself, the data's labels counted with numpy."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler

import loaderlab
from loaderlab.trace.tables.label_shares import label_distributions, labels_json

LABELS = np.array([0] * 2850 + [1] * 150)  # 95/5


class Said(Dataset):
    """Says its labels (``targets``)."""

    def __init__(self, labels):
        self.targets = list(labels)

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return torch.tensor([float(i)]), self.targets[i]


class Unsaid(Dataset):
    """Keeps its labels where the recorder cannot read them."""

    def __init__(self, labels):
        self._rows = [(float(i), int(y)) for i, y in enumerate(labels)]

    def __len__(self):
        return len(self._rows)

    def __getitem__(self, i):
        return torch.tensor([self._rows[i][0]]), self._rows[i][1]


def label_of(index, sample):
    return int(sample[1]), -1


def weighted(dataset_type, seed=0, labels=LABELS):
    weights = 1.0 / np.bincount(labels)[labels]
    sampler = WeightedRandomSampler(weights, len(labels), generator=torch.Generator().manual_seed(seed))
    return DataLoader(dataset_type(labels), batch_size=32, sampler=sampler)


def by_hand(loader) -> dict:
    """The labels the loop receives, counted from torch's own batches."""
    got = torch.cat([y for _, y in loader]).numpy()
    return {int(k): int(v) for k, v in zip(*np.unique(got, return_counts=True))}


def part(table, which, epoch=0):
    g = table[(table["epoch"] == epoch) & (table["which"] == which)]
    return g.set_index("label")


def test_a_dataset_that_says_its_labels_gives_exact_data_weights_intended_and_received():
    table = label_distributions(loaderlab.record(weighted(Said), sample_info=label_of))
    data, meant, got = part(table, "dataset"), part(table, "intended"), part(table, "received")
    assert data["count"].to_dict() == {0: 2850, 1: 150} and not data["estimated"].any()
    assert meant["share"].round(9).to_dict() == {0: 0.5, 1: 0.5}
    assert got["count"].astype(int).to_dict() == by_hand(weighted(Said))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_unsaid_dataset_is_estimated_by_inverse_weight_within_two_points(seed):
    table = label_distributions(loaderlab.record(weighted(Unsaid, seed), sample_info=label_of))
    data = part(table, "dataset")
    assert data["estimated"].all() and (data["source"] == "inverse_weight").all()
    assert abs(data.at[1, "share"] - 0.05) < 0.02 and abs(data.at[0, "share"] - 0.95) < 0.02
    assert (data["low"] <= data["share"]).all() and (data["share"] <= data["high"]).all()
    # each weight value was drawn with one label only: the weights' share per label is what they meant
    assert part(table, "intended")["share"].round(9).to_dict() == {0: 0.5, 1: 0.5}
    doc = labels_json(table)
    assert doc[0]["intended"] == {"0": 0.5, "1": 0.5} and doc[0]["dataset_estimated"] is True
    assert set(doc[0]["dataset"]) == {"0", "1"} and set(doc[0]["dataset_interval"]) == {"0", "1"}


def test_a_shuffled_epoch_that_drew_every_sample_counts_the_data_exactly():
    loader = DataLoader(Unsaid(LABELS[::10]), batch_size=16, shuffle=True)
    table = label_distributions(loaderlab.record(loader, sample_info=label_of))
    data = part(table, "dataset")
    assert data["count"].to_dict() == {0: 285, 1: 15} and not data["estimated"].any()
    assert (data["source"] == "whole_epoch").all()


def test_every_epoch_has_its_entry_and_json_keys_are_text():
    frame = loaderlab.record(weighted(Said), epochs=2, sample_info=label_of)
    doc = labels_json(label_distributions(frame))
    assert [e["epoch"] for e in doc] == [0, 1]
    assert doc[0]["dataset"] == {"0": 0.95, "1": 0.05} and doc[0]["intended"] == {"0": 0.5, "1": 0.5}
    assert abs(sum(doc[1]["received"].values()) - 1) < 1e-6


def test_a_loader_of_the_engine_is_read_alike():
    labels = LABELS[::10]
    weights = 1.0 / np.bincount(labels)[labels]
    sampler = loaderlab.WeightedRandomSampler(weights, len(labels), generator=torch.Generator().manual_seed(0))
    frame = loaderlab.record(loaderlab.DataLoader(Said(labels), batch_size=8, sampler=sampler), sample_info=label_of)
    table = label_distributions(frame)
    assert part(table, "dataset")["count"].to_dict() == {0: 285, 1: 15}
    assert part(table, "intended")["share"].round(9).to_dict() == {0: 0.5, 1: 0.5}


def test_weights_that_do_not_follow_the_labels_leave_the_intended_unknown():
    weights = np.linspace(1.0, 2.0, len(LABELS))  # a weight per sample, not per class
    sampler = WeightedRandomSampler(weights, len(LABELS), generator=torch.Generator().manual_seed(0))
    frame = loaderlab.record(DataLoader(Unsaid(LABELS), batch_size=32, sampler=sampler), sample_info=label_of)
    table = label_distributions(frame)
    assert part(table, "intended").empty and part(table, "dataset")["estimated"].all()
