"""Turn a list of samples into one batch: the twin of ``torch/utils/data/_utils/collate.py``.

``default_collate(batch)`` and ``default_convert(data)`` return exactly what torch's functions of
the same name return (same types, dtypes, values and errors, word for word), but are written as one
small function per type family so that the rules can be read top to bottom. There is no
``collate_fn_map`` registry: to handle a custom type, wrap ``default_collate`` in your own function.

The only thing this module knows about workers is torch's ``get_worker_info()``: inside a worker,
tensors are stacked straight into shared memory, as torch does. It knows nothing about the workers'
queues, tracing, pandas or streamlit.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterator, Mapping, MutableMapping, MutableSequence, Sequence
from typing import Any

import numpy as np
import torch

__all__ = ["default_collate", "default_convert", "default_collate_err_msg_format"]

default_collate_err_msg_format = (
    "default_collate: batch must contain tensors, numpy arrays, numbers, "
    "dicts or lists; found {}"
)

# numpy ``dtype.str`` kind letters torch cannot hold: bytes (S, a), unicode (U), object (O).
_NP_STR_OBJ_DTYPE = re.compile(r"[SaUO]")

_SPARSE_LAYOUTS = frozenset(
    {torch.sparse_coo, torch.sparse_csr, torch.sparse_bsr, torch.sparse_csc, torch.sparse_bsc}
)

_NESTED_MSG = (
    "Batches of nested tensors are not currently supported by the default collate_fn; "
    "please provide a custom collate_fn to handle them appropriately."
)
_SPARSE_MSG = (
    "Batches of sparse tensors are not currently supported by the default collate_fn; "
    "please provide a custom collate_fn to handle them appropriately."
)
_UNEQUAL_SIZE_MSG = "each element in list of batch should be of equal size"


# --------------------------------------------------------------------------- default_collate


def default_collate(batch: Sequence[Any]) -> Any:
    """Collate ``batch`` (a list of samples) the way ``torch.utils.data.default_collate`` does.

    Only ``batch[0]`` decides how the whole batch is treated. The order of the checks matters
    and is torch's: numpy scalars before ``float`` (``np.float64`` subclasses ``float``), ``int``
    after ``float`` (so ``bool`` lands in ``int``), strings before sequences.
    """
    elem = batch[0]
    if isinstance(elem, torch.Tensor):
        return _collate_tensors(batch)
    if isinstance(elem, np.ndarray):  # np.memmap too
        return _collate_numpy_arrays(batch)
    if isinstance(elem, (np.bool_, np.number, np.object_)):  # numpy's string scalars excluded
        return torch.as_tensor(batch)
    if isinstance(elem, float):
        return torch.tensor(batch, dtype=torch.float64)
    if isinstance(elem, int):
        return torch.tensor(batch)
    if isinstance(elem, (str, bytes)):
        return batch  # the very object received: a tuple stays a tuple
    if isinstance(elem, Mapping):
        return _rebuild_mapping(
            elem, lambda: {key: default_collate([d[key] for d in batch]) for key in elem}
        )
    if _is_namedtuple(elem):
        # No equal-size check: samples of one namedtuple type all have the same fields.
        return type(elem)(*(default_collate(samples) for samples in zip(*batch)))
    if isinstance(elem, Sequence):
        return _collate_sequences(batch)
    raise TypeError(default_collate_err_msg_format.format(type(elem)))


def _collate_tensors(batch: Sequence[torch.Tensor]) -> torch.Tensor:
    elem = batch[0]
    if elem.is_nested:
        raise RuntimeError(_NESTED_MSG)
    if elem.layout in _SPARSE_LAYOUTS:
        raise RuntimeError(_SPARSE_MSG)
    out = None
    if torch.utils.data.get_worker_info() is not None:
        # In a worker the batch is about to be pickled to the main process; stacking straight
        # into shared memory saves the copy that pickling a private tensor would make.
        numel = sum(x.numel() for x in batch)
        storage = elem._typed_storage()._new_shared(numel, device=elem.device)
        out = elem.new(storage).resize_(len(batch), *list(elem.size()))
    return torch.stack(batch, 0, out=out)


def _collate_numpy_arrays(batch: Sequence[np.ndarray]) -> torch.Tensor:
    elem = batch[0]
    if _NP_STR_OBJ_DTYPE.search(elem.dtype.str) is not None:
        # torch reports the dtype here, not the type as in the final TypeError.
        raise TypeError(default_collate_err_msg_format.format(elem.dtype))
    return _collate_tensors([torch.as_tensor(b) for b in batch])


def _collate_sequences(batch: Sequence[Sequence[Any]]) -> Any:
    elem = batch[0]
    it = iter(batch)
    elem_size = len(next(it))
    if not all(len(other) == elem_size for other in it):
        raise RuntimeError(_UNEQUAL_SIZE_MSG)
    transposed = list(zip(*batch))  # a list: it may be walked twice (fallback below)
    if isinstance(elem, tuple):
        return [default_collate(samples) for samples in transposed]  # torch's backwards compat
    return _rebuild_sequence(elem, lambda: (default_collate(samples) for samples in transposed))


# --------------------------------------------------------------------------- default_convert


def default_convert(data: Any) -> Any:
    """Convert numpy arrays (also inside containers) to tensors, as torch's ``default_convert``.

    This is what a DataLoader without batching applies to each sample; anything it does not
    recognise is returned unchanged (the very same object).
    """
    if isinstance(data, torch.Tensor):
        return data
    if _is_numpy_by_torchs_test(type(data)):
        if type(data).__name__ == "ndarray" and _NP_STR_OBJ_DTYPE.search(data.dtype.str):
            return data  # torch cannot hold strings or objects; keep the array
        return torch.as_tensor(data)
    if isinstance(data, Mapping):
        return _rebuild_mapping(data, lambda: {key: default_convert(data[key]) for key in data})
    if _is_namedtuple(data):
        return type(data)(*(default_convert(d) for d in data))
    if isinstance(data, tuple):
        return [default_convert(d) for d in data]  # torch's backwards compat: tuple -> list
    if isinstance(data, Sequence) and not isinstance(data, (str, bytes)):
        return _rebuild_sequence(data, lambda: (default_convert(d) for d in data))
    return data


def _is_numpy_by_torchs_test(cls: type) -> bool:
    # torch tests the defining module's name, not isinstance: so np.ma arrays (numpy.ma.core)
    # pass through unconverted, and np.bytes_ (named "bytes_", not the old "string_") is sent
    # to torch.as_tensor, which raises. We keep both quirks.
    return cls.__module__ == "numpy" and cls.__name__ not in ("str_", "string_")


# --------------------------------------------------------------------------- shared helpers


def _is_namedtuple(obj: Any) -> bool:
    return isinstance(obj, tuple) and hasattr(obj, "_fields")


def _rebuild_mapping(elem: Mapping, make_values: Callable[[], dict]) -> Any:
    """Return ``make_values()`` in ``elem``'s mapping type, falling back to a plain dict.

    A mutable mapping is copied and updated rather than re-constructed, because its type may
    carry state its constructor would not restore (a ``defaultdict``'s factory, extra attributes).
    The ``try`` covers the recursion too, as torch's does: a ``TypeError`` from a nested value is
    retried once on the plain-dict path and then raised from there.
    """
    try:
        if isinstance(elem, MutableMapping):
            clone = copy.copy(elem)
            clone.update(make_values())
            return clone
        return type(elem)(make_values())
    except TypeError:  # no copy(), no update(mapping) or no __init__(mapping)
        return make_values()


def _rebuild_sequence(elem: Sequence, make_items: Callable[[], Iterator[Any]]) -> Any:
    """Return the items in ``elem``'s sequence type, falling back to a list (see the mapping case).

    ``make_items`` is lazy so that, like torch, each item is built just before it is stored.
    """
    try:
        if isinstance(elem, MutableSequence):
            clone = copy.copy(elem)
            for i, item in enumerate(make_items()):
                clone[i] = item
            return clone
        return type(elem)(list(make_items()))
    except TypeError:
        # no copy(), a __setitem__ refusing the item (bytearray) or no __init__(list) (range)
        return list(make_items())
