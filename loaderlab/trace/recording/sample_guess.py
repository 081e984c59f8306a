"""Reading a sample's label and length from what a dataset returns, for loaders LoaderLab did not build.

Twin of nothing in torch. The label and padding audits (:mod:`loaderlab.trace.tables.audits`) need each sample's class and
length; LoaderLab's own workloads say them through ``record(..., sample_info=)``, a stock loader cannot. A
:class:`SampleGuess` is that ``sample_info`` for any dataset of the common shapes:

- the label: an ``(input, label, ...)`` tuple or list's second item, or a dict's ``label``, ``labels``,
  ``target`` or ``y`` entry (the first present) — when it is one value (an int, a string, a 0-d tensor or
  a one-element tensor); ``label_key`` names it instead (a dict key, or a position as digits);
- the length: the first tensor with at least one dimension (other than the label): its first dimension,
  the one a padding collate pads;
- for an IterableDataset (``iterable=True``), a sample that is one value (an int, a string, a 0-d or
  one-element tensor) is its own label: a stream's values are its identities, so values that two workers
  both yield show up as duplicates (:func:`loaderlab.trace.diagnosis.findings.correctness_findings`).

A dataset's own ``__getitems__`` (Hugging Face's ``Dataset`` has one) returns a whole batch: :func:`rows` reads its
samples from it (a list of samples, a dict of columns, or a tuple of columns) so that each gets its label and
length as a sample of ``__getitem__`` would.

None / -1 when the sample has no such part. It runs in the workers, so it is a top-level class; it never
raises (a guess that fails is no label). Knows torch's tensors, nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter, itemgetter
from typing import Any

import torch
import torch.utils.data

_item, _dim = torch.Tensor.item, torch.Tensor.dim
_shape, _first = attrgetter("shape"), itemgetter(0)

LABEL_KEYS = ("label", "labels", "target", "y")


def _one_value(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        return value.item() if value.numel() == 1 else None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, str)):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if hasattr(value, "item") and getattr(value, "size", 0) == 1:  # a numpy scalar
        return value.item()
    return None


def _first_length(parts: Sequence[Any]) -> int:
    for part in parts:
        if isinstance(part, torch.Tensor) and part.dim() >= 1:
            return int(part.shape[0])
    return -1


_PAIRS = (tuple, list)


def _pair(sample: Any) -> tuple[Any, int]:
    """``SampleGuess()(i, sample)`` of an ``(input, label)`` pair, read without the general path's helper calls
    and list of the rest: the commonest sample (a TensorDataset's, an image folder's) cost 2.5 µs a sample
    there (1.0 µs here), in a traced epoch of 16-sample batches of µs samples 40-60 µs a batch of the 117 µs
    that tracing added (traced and plain epochs in turn in one process). Plain tensors and ints only; any other
    type takes the general path."""
    data, label = sample
    if type(label) is torch.Tensor:
        label = label.item() if label.numel() == 1 else None
    elif type(label) is not int:
        label = _one_value(label)
    if type(data) is torch.Tensor:
        return label, (data.shape[0] if data.dim() >= 1 else -1)
    return label, _first_length((data,))


def _column(value: Any, n: int) -> bool:
    try:
        return not isinstance(value, (str, bytes)) and len(value) == n
    except TypeError:  # a 0-d tensor, a plain value
        return False


def rows(batch: Any, n: int) -> list | None:
    """The ``n`` samples of what a dataset's ``__getitems__`` returned, one per index it was asked for: the
    list itself (of dicts, tuples…), a dict of columns split into one dict per row, or a tuple of columns
    zipped. None where ``batch`` has no such shape (the samples then get no label). Never raises."""
    try:
        if isinstance(batch, list):
            return batch if len(batch) == n else None
        if isinstance(batch, (dict, Mapping)):
            if batch and all(_column(v, n) for v in batch.values()):
                columns = list(batch.items())
                return [{k: v[i] for k, v in columns} for i in range(n)]
            return None
        if isinstance(batch, tuple):
            if len(batch) == n and not (batch and all(_column(v, n) for v in batch)):
                return list(batch)
            if batch and all(_column(v, n) for v in batch):
                return list(zip(*batch))
    except Exception:  # a batch of a shape we cannot split: no labels, never a failure of the run
        return None
    return None


class SampleGuess:
    """``sample_info(index, sample) -> (label, length)`` read from the sample (see the module docstring)."""

    def __init__(self, label_key: str | None = None, iterable: bool = False) -> None:
        self.label_key, self.iterable = label_key, iterable

    @classmethod
    def for_loader(cls, loader: Any, label_key: str | None = None) -> "SampleGuess":
        """The guess for ``loader``'s dataset (an IterableDataset's bare values are identities)."""
        return cls(label_key, isinstance(getattr(loader, "dataset", None), torch.utils.data.IterableDataset))

    def _label_place(self, sample: Any, mapping: bool) -> Any:
        """The key (or position) of the label in ``sample``, None if it has none."""
        if mapping:
            if self.label_key is not None:
                return self.label_key if self.label_key in sample else None
            for key in LABEL_KEYS:  # a loop, not a generator: this runs once per sample
                if key in sample:
                    return key
            return None
        if self.label_key is not None:
            return int(self.label_key) if self.label_key.isdigit() and int(self.label_key) < len(sample) else None
        return 1 if len(sample) >= 2 else None

    def __call__(self, index: Any, sample: Any) -> tuple[Any, int]:
        # runs once per sample in every worker of a traced job: concrete types first (an ABC check is slow)
        try:
            if type(sample) in _PAIRS and len(sample) == 2 and self.label_key is None:
                return _pair(sample)
            if isinstance(sample, (tuple, list)):
                place = self._label_place(sample, False)
                rest = sample if place is None else [v for i, v in enumerate(sample) if i != place]
            elif type(sample) is dict:  # the common mapping: its length read without a list of the rest
                place = self._label_place(sample, True)
                label = None if place is None else _one_value(sample[place])
                for key, value in sample.items():
                    if key != place and isinstance(value, torch.Tensor) and value.dim() >= 1:
                        return label, int(value.shape[0])
                return label, -1
            elif isinstance(sample, Mapping):
                place = self._label_place(sample, True)
                rest = [v for k, v in sample.items() if k != place]
            else:
                label = _one_value(sample) if self.iterable and self.label_key is None else None
                return label, _first_length((sample,))
            return (None if place is None else _one_value(sample[place])), _first_length(rest)
        except Exception:  # a guess, never a failure of the user's run
            return None, -1

    def batch(self, indices: Any, samples: list) -> list[tuple[Any, int]]:
        """``[self(i, s) for i, s in zip(indices, samples)]`` for a batch a dataset's ``__getitems__`` returned
        (see :meth:`columns`)."""
        labels, lengths = self.columns(indices, samples)
        return list(zip(labels, lengths))

    def columns(self, indices: Any, samples: list) -> tuple[list, list]:
        """The batch's labels and lengths, as :meth:`__call__` reads each sample, read a column at a time where
        every sample is a plain dict with the first one's keys in its order (a Hugging Face batch): the label's
        and the length's places are found once and each column is read by C-level ``map`` calls (issue 37: this
        runs in the loop, on its time). Any other batch, or a column these calls cannot read exactly as
        ``__call__`` would, is read a sample at a time."""
        try:
            out = self._columns(samples)
        except Exception:  # noqa: BLE001 - the sample-at-a-time read below decides
            out = None
        if out is None:
            guessed = [self(i, s) for i, s in zip(indices, samples)]
            out = ([g[0] for g in guessed], [g[1] for g in guessed])
        return out

    def _columns(self, samples: list) -> tuple[list, list] | None:
        first, n = samples[0], len(samples)
        if type(first) is not dict:
            return None
        keys = tuple(first)
        if set(map(type, samples)) != {dict} or set(map(len, samples)) != {len(keys)}:
            return None  # (a sample without one of the first one's keys fails its column's itemgetter below)
        place = self._label_place(first, True)
        if len(keys) - (place is not None) > 1 and list(map(tuple, samples)).count(keys) != n:
            return None  # two columns could hold the length: __call__ takes the first in each sample's own order
        labels: list = [None] * n
        if place is not None:
            column = list(map(itemgetter(place), samples))
            kinds = set(map(type, column))
            if kinds == {torch.Tensor}:
                try:
                    labels = list(map(_item, column))
                except RuntimeError:  # a tensor of several elements is no label: __call__ says so sample by sample
                    return None
            elif kinds in ({int}, {str}, {int, str}):
                labels = column
            else:  # a float, a numpy scalar, a tensor subclass…: __call__ reads each
                return None
        for key in keys:  # the first column of tensors with a dimension, in the samples' key order
            if key == place:
                continue
            column = list(map(itemgetter(key), samples))
            kinds = set(map(type, column))
            if kinds == {torch.Tensor}:
                try:
                    return labels, list(map(_first, map(_shape, column)))
                except IndexError:  # a 0-d tensor: the column holds no length unless none has a dimension
                    if set(map(_dim, column)) != {0}:
                        return None  # the samples disagree on which column holds their length
            elif any(issubclass(kind, torch.Tensor) for kind in kinds):
                return None  # a tensor subclass, or tensors beside other values: __call__ decides
        return labels, [-1] * n
