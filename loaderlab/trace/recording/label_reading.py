"""What a loader's dataset says its labels are, and what its sampler means to draw: read once, at record time.

Twin of nothing in torch: torch never looks at labels. A trace sees only the labels of the samples the loop
received (:mod:`loaderlab.trace.recording.sample_guess`); to say what the data is and what the sampler intends,
the recorder reads, once per loader, what the objects themselves say:

- the dataset's labels where it says so: a ``targets`` / ``labels`` attribute (torchvision's datasets and many
  others), a pandas DataFrame attribute with a ``label``-like column, a Hugging Face ``ClassLabel`` column, a
  ``Subset`` of any of those;
- the sampler (``loader.batch_sampler.sampler``, else ``loader.sampler``): its type, and for a
  ``WeightedRandomSampler`` its ``num_samples``, ``replacement``, how many weights it has, their sum per class
  (where the labels are known), else the weights themselves in a compact form (distinct values and a
  zlib-packed code per index), from which the analysis estimates the dataset's shares by inverse weight.

:func:`label_sources` returns plain JSON-able values (the trace file's ``label_sources``); labels keep their
type (ints, strings, bools) as ``[label, count]`` pairs. Reading never fails a run: anything unreadable is left
out. Knows nothing of pandas' analysis, plotly or streamlit.
"""

from __future__ import annotations

import base64
import sys
import zlib
from typing import Any

import numpy as np

LABEL_ATTRIBUTES = ("targets", "labels", "target", "y")
LABEL_COLUMNS = ("label", "labels", "target", "targets", "class", "y")
MAX_CLASSES = 1000  # more distinct values are not classes (a regression target, an id)
MAX_CODED = 256  # distinct weight values kept as one byte per index
MAX_RAW = 200_000  # weights with more distinct values are kept as float32 up to this many
MAX_READ = 50_000_000  # labels beyond this many are not counted at record time


def _plain(value: Any) -> Any:
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _as_array(values: Any, n: int) -> np.ndarray | None:
    """``values`` as a 1-D array of ``n`` class-like labels, else None."""
    import torch  # here: reading a saved trace's weights (unpacked_weights) needs no torch

    if isinstance(values, torch.Tensor):
        values = values.detach().cpu().numpy()
    elif hasattr(values, "to_numpy"):  # a pandas Series, a pyarrow column
        values = values.to_numpy()
    elif not isinstance(values, np.ndarray):
        if not hasattr(values, "__len__") or isinstance(values, (str, bytes, dict)):
            return None
        try:
            values = np.asarray(values)  # a list of ints: one C pass
        except (ValueError, TypeError):  # ragged or odd items
            return None
    if values.ndim != 1 or len(values) != n:
        return None
    if values.dtype.kind == "f":
        if not np.all(np.isfinite(values)) or not np.all(values == np.round(values)):
            return None  # a continuous target is not a class
        values = values.astype(np.int64)
    if values.dtype.kind not in "iubUO":
        return None
    return values


def dataset_labels(dataset: Any) -> tuple[str, np.ndarray] | None:
    """(where the labels were read, one label per dataset index), or None where the dataset does not say."""
    import torch.utils.data as tud  # here: reading a saved trace's weights (unpacked_weights) needs no torch

    try:
        n = len(dataset)
    except Exception:  # noqa: BLE001 - an IterableDataset, a dataset without len
        return None
    if not n or n > MAX_READ:
        return None
    if isinstance(dataset, tud.Subset):
        inner = dataset_labels(dataset.dataset)
        if inner is None:
            return None
        return f"Subset of {inner[0]}", inner[1][np.asarray(list(dataset.indices), dtype=np.int64)]
    own = getattr(dataset, "__dict__", {})
    for name in LABEL_ATTRIBUTES:
        try:
            values = own[name] if name in own else getattr(type(dataset), name, None) and getattr(dataset, name)
        except Exception:  # noqa: BLE001 - a property that fails
            continue
        found = _as_array(values, n) if values is not None and not callable(values) else None
        if found is not None:
            return name, found
    features = own.get("_info") and getattr(dataset, "features", None)  # a Hugging Face datasets.Dataset
    if features is not None:
        for name, feature in dict(features).items():
            if type(feature).__name__ == "ClassLabel":
                try:
                    found = _as_array(dataset[name], n)
                except Exception:  # noqa: BLE001
                    found = None
                if found is not None:
                    return f"ClassLabel column {name!r}", found
    for attr, value in own.items():
        columns = getattr(value, "columns", None)
        if columns is None or not hasattr(value, "iloc"):
            continue
        for name in LABEL_COLUMNS:
            if name in columns:
                found = _as_array(value[name], n)
                if found is not None:
                    return f"{attr}[{name!r}]", found
    return None


STOCK_BATCHING = ("torch.utils.data.sampler.BatchSampler", "loaderlab.engine.sampler.BatchSampler")


def _sampler(loader: Any) -> Any:
    """The sampler that decides which indices are drawn: the batch sampler's own where it is a stock one (or
    keeps one), else a custom batch sampler itself (torch's ``loader.sampler`` is then a placeholder)."""
    batches = getattr(loader, "batch_sampler", None)
    if batches is None:
        return getattr(loader, "sampler", None)
    stock = f"{type(batches).__module__}.{type(batches).__qualname__}" in STOCK_BATCHING
    inner = getattr(batches, "sampler", None)
    return inner if stock and inner is not None else batches


def _counted(labels: np.ndarray, weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(distinct labels, their counts, or their summed ``weights``): by bincount for small non-negative ints
    (a million labels in milliseconds), else by sorting."""
    if labels.dtype.kind in "iu" and len(labels) and labels.min() >= 0 and labels.max() < 16 * MAX_CLASSES:
        sums = np.bincount(labels, weights=weights)
        present = np.flatnonzero(np.bincount(labels))
        return present, sums[present]
    keys, codes = np.unique(labels, return_inverse=True)
    return keys, np.bincount(codes, weights=weights, minlength=len(keys))


def _pairs(keys: np.ndarray, values: np.ndarray) -> list[list]:
    return [[_plain(k), _plain(v)] for k, v in zip(keys, values)]


def _packed_weights(weights: np.ndarray) -> dict[str, Any] | None:
    """The weights per index, compact: distinct values and a byte per index, or float32 where too many differ."""
    pd = sys.modules.get("pandas")  # by hashing where the job has pandas (a sort of a million floats takes most
    if pd is not None:  # of a second); `run` does not make a job import it (0.35 s): numpy's sort there
        codes, values = pd.factorize(weights)
    else:
        values, codes = np.unique(weights, return_inverse=True)
    if len(values) <= MAX_CODED:
        raw = codes.astype(np.uint8).tobytes()
        return {"values": [float(v) for v in values], "codes": base64.b64encode(zlib.compress(raw, 1)).decode()}
    if len(weights) <= MAX_RAW:
        return {"float32": base64.b64encode(zlib.compress(weights.astype(np.float32).tobytes(), 1)).decode()}
    return None


def unpacked_weights(packed: dict[str, Any] | None) -> np.ndarray | None:
    """The per-index weights :func:`_packed_weights` kept (float64), or None."""
    if not packed:
        return None
    if "codes" in packed:
        codes = np.frombuffer(zlib.decompress(base64.b64decode(packed["codes"])), dtype=np.uint8)
        return np.asarray(packed["values"], dtype=np.float64)[codes]
    if "float32" in packed:
        return np.frombuffer(zlib.decompress(base64.b64decode(packed["float32"])), dtype=np.float32).astype(np.float64)
    return None


def sampler_entry(sampler: Any, labels: np.ndarray | None) -> dict[str, Any]:
    """The sampler's type and, for a WeightedRandomSampler, its arguments, weights and weight per class."""
    import torch  # here: reading a saved trace's weights (unpacked_weights) needs no torch
    import torch.utils.data as tud

    out: dict[str, Any] = {"type": type(sampler).__name__}
    if isinstance(sampler, tud.SubsetRandomSampler) and labels is not None:
        idx = np.asarray(list(sampler.indices), dtype=np.int64)
        idx = idx[(idx >= 0) & (idx < len(labels))]
        out["class_weight"] = _pairs(*_counted(labels[idx]))
    if not isinstance(sampler, tud.WeightedRandomSampler):
        return out
    weights = torch.as_tensor(sampler.weights, dtype=torch.double).numpy()
    out.update(weighted=True, num_samples=int(sampler.num_samples), replacement=bool(sampler.replacement),
               n_weights=int(len(weights)), nonzero_weights=int(np.count_nonzero(weights > 0)))
    if labels is not None:
        k = min(len(weights), len(labels))
        out["class_weight"] = _pairs(*_counted(labels[:k], weights[:k]))
    else:  # only the estimate of the data's shares needs each index's weight
        packed = _packed_weights(weights)
        if packed is not None:
            out["weights"] = packed
    return out


def label_sources(loader: Any) -> dict[str, Any] | None:
    """The loader's ``label_sources`` metadata (module docstring), or None where there is nothing to say."""
    import torch.utils.data as tud

    try:
        dataset = getattr(loader, "dataset", None)
        if isinstance(dataset, tud.IterableDataset):
            return None
        read = dataset_labels(dataset)
        labels = read[1] if read is not None else None
        out: dict[str, Any] = {}
        if read is not None:
            keys, counts = _counted(labels)
            if len(keys) <= MAX_CLASSES:
                out["dataset"] = {"source": read[0], "n": int(len(labels)), "counts": _pairs(keys, counts)}
            else:
                labels = None
        sampler = _sampler(loader)
        if sampler is not None:
            out["sampler"] = sampler_entry(sampler, labels)
        return out or None
    except Exception:  # noqa: BLE001 - reading what a dataset says must never fail the user's run
        return None
