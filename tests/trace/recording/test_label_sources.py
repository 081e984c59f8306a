"""What the recorder reads off a loader once (issue 35): the dataset's labels where it says them, the sampler's
type, arguments and weights per class; nothing where a dataset does not say, and never an error."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset, Subset, WeightedRandomSampler

from loaderlab.trace.recording.label_reading import dataset_labels, label_sources, unpacked_weights


class WithTargets(Dataset):
    def __init__(self, targets):
        self.targets = targets

    def __len__(self):
        return len(self.targets)

    def __getitem__(self, i):
        return i


class WithFrame(Dataset):
    def __init__(self, labels):
        self.table = pd.DataFrame({"x": range(len(labels)), "class": labels})

    def __len__(self):
        return len(self.table)

    def __getitem__(self, i):
        return i


class ClassLabel:  # Hugging Face's feature type, by name
    names = ["cat", "dog"]


class HFLike(Dataset):
    """A datasets.Dataset's face: ``_info``, ``features`` and a column read by name."""

    def __init__(self, labels):
        self._info, self.features, self._labels = object(), {"image": object(), "label": ClassLabel()}, labels

    def __len__(self):
        return len(self._labels)

    def __getitem__(self, key):
        return list(self._labels) if key == "label" else {"label": self._labels[key]}


class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(3))


def test_targets_as_a_tensor_a_list_or_a_subset_are_read():
    assert dataset_labels(WithTargets(torch.tensor([0, 1, 1])))[0] == "targets"
    source, labels = dataset_labels(Subset(WithTargets([0, 1, 2, 1]), [1, 3]))
    assert source == "Subset of targets" and labels.tolist() == [1, 1]
    meta = label_sources(DataLoader(WithTargets(torch.tensor([0, 0, 0, 1]))))
    assert meta["dataset"] == {"source": "targets", "n": 4, "counts": [[0, 3], [1, 1]]}
    assert meta["sampler"] == {"type": "SequentialSampler"}


def test_a_pandas_column_and_a_class_label_column_are_read():
    assert dataset_labels(WithFrame(["a", "b", "a"]))[0] == "table['class']"
    assert dataset_labels(WithFrame(["a", "b", "a"]))[1].tolist() == ["a", "b", "a"]
    source, labels = dataset_labels(HFLike([1, 0, 1]))
    assert source == "ClassLabel column 'label'" and labels.tolist() == [1, 0, 1]


def test_what_is_not_a_class_is_not_read():
    assert dataset_labels(WithTargets(np.array([0.5, 1.25, 2.0]))) is None  # a regression target
    assert dataset_labels(WithTargets(np.zeros((3, 2)))) is None
    assert dataset_labels(list(range(5))) is None
    assert label_sources(DataLoader(Stream())) is None


def test_a_weighted_sampler_keeps_its_arguments_weight_per_class_and_weights():
    labels = np.array([0] * 95 + [1] * 5)
    weights = 1.0 / np.bincount(labels)[labels]
    sampler = WeightedRandomSampler(weights, 50, replacement=False)
    meta = label_sources(DataLoader(WithTargets(labels), sampler=sampler, batch_size=4))
    entry = meta["sampler"]
    assert (entry["type"], entry["num_samples"], entry["replacement"], entry["n_weights"]) == \
        ("WeightedRandomSampler", 50, False, 100)
    assert [k for k, _ in entry["class_weight"]] == [0, 1]
    assert np.allclose([w for _, w in entry["class_weight"]], [1.0, 1.0])
    assert "weights" not in entry  # the labels are known: no estimate will need each index's weight
    unlabelled = label_sources(DataLoader(list(range(100)), sampler=sampler, batch_size=4))["sampler"]
    assert np.array_equal(unpacked_weights(unlabelled["weights"]), weights)


def test_many_distinct_weights_are_kept_as_floats():
    weights = np.linspace(0.1, 1.0, 1000)
    meta = label_sources(DataLoader(list(range(1000)), sampler=WeightedRandomSampler(weights, 10)))
    assert "float32" in meta["sampler"]["weights"]
    assert np.allclose(unpacked_weights(meta["sampler"]["weights"]), weights, rtol=1e-6)
    assert "dataset" not in meta and "class_weight" not in meta["sampler"]


def test_a_real_hugging_face_class_label_column_is_read():
    datasets = pytest.importorskip("datasets")
    features = datasets.Features({"x": datasets.Value("int64"), "label": datasets.ClassLabel(names=["a", "b"])})
    ds = datasets.Dataset.from_dict({"x": list(range(100)), "label": [0] * 90 + [1] * 10}, features=features)
    meta = label_sources(DataLoader(ds.with_format("torch"), batch_size=8))
    assert meta["dataset"] == {"source": "ClassLabel column 'label'", "n": 100, "counts": [[0, 90], [1, 10]]}


class Buckets(torch.utils.data.Sampler):
    """A custom batch sampler: it, not torch's placeholder ``loader.sampler``, decides what is drawn."""

    def __init__(self, sampler):
        self.sampler = sampler

    def __iter__(self):
        return iter([[0, 0], [1, 1]])

    def __len__(self):
        return 2


def test_a_custom_batch_sampler_is_the_sampler_not_torchs_placeholder():
    data = WithTargets([0, 1, 1])
    assert label_sources(DataLoader(data, batch_sampler=Buckets(None)))["sampler"] == {"type": "Buckets"}
    assert label_sources(DataLoader(data, batch_sampler=Buckets(list(range(3)))))["sampler"] == {"type": "Buckets"}
    assert label_sources(DataLoader(data, batch_size=2, shuffle=True))["sampler"] == {"type": "RandomSampler"}

