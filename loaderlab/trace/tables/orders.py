"""The sampler's order per epoch as arrays: every index drawn, in order, and where a None stands.

Twin of nothing in torch. What ``[i for idx in sampler_order(frame)["indices"] for i in (idx or [None])]``
gives per epoch (the order the same-order finding compares), without a Python list per batch: a compact
table's ``indices`` are one Arrow list column (:func:`loaderlab.trace.core.frame.compact_table`) and are flattened at once; a
table with Python lists goes through :func:`loaderlab.trace.core.lookups.sampler_order` as before. Knows numpy, pandas and
pyarrow; nothing of plotly or streamlit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.lookups import named_rows, normal, sampler_order


def epoch_orders(frame: pd.DataFrame) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """Per epoch: ``(values, none)``, int64 indices in the order drawn and a mask of the Nones among them
    (their value is 0). A batch without indices stands as ``samples`` Nones (an IterableDataset's), or one None
    if that is unknown or zero, as in :func:`loaderlab.trace.core.lookups.batch_indices` and the finding's ``idx or [None]``."""
    f = normal(frame)
    if not isinstance(f["indices"].dtype, pd.ArrowDtype):
        return {int(e): _arrays([i for idx in g["indices"] for i in (idx or [None])])
                for e, g in sampler_order(f).groupby("epoch")}
    import pyarrow as pa
    import pyarrow.compute as pc

    y = named_rows(f, ev.SAMPLER_YIELD, ["epoch", "batch", "indices", "samples"]).drop_duplicates(["epoch", "batch"])
    y = y.sort_values(["epoch", "batch"]).reset_index(drop=True)
    lists = y["indices"].array._pa_array
    lists = lists.combine_chunks() if isinstance(lists, pa.ChunkedArray) else lists
    missing = lists.is_null().to_numpy(zero_copy_only=False)
    length = pc.list_value_length(lists).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
    samples = y["samples"].to_numpy().astype(np.int64)
    real = ~missing & (length > 0)  # a list with indices in it; anything else stands as Nones
    width = np.where(real, length, np.where(missing & (samples > 0), samples, 1))
    flat = pc.list_flatten(lists)  # the real lists' elements, in order (null and empty lists add none)
    values = np.zeros(int(width.sum()), np.int64)
    none = np.ones(len(values), bool)
    start = np.cumsum(width) - width
    n_real = int(length[real].sum())
    inner = np.arange(n_real) - np.repeat(np.cumsum(length[real]) - length[real], length[real])
    at = np.repeat(start[real], length[real]) + inner
    values[at] = flat.fill_null(0).to_numpy(zero_copy_only=False)
    none[at] = flat.is_null().to_numpy(zero_copy_only=False)
    epochs = np.repeat(y["epoch"].to_numpy(), width)
    out = {}
    for e in pd.unique(y["epoch"].to_numpy()).tolist():
        mine = epochs == e
        out[int(e)] = (values[mine], none[mine])
    return out


def _arrays(seq: list) -> tuple[np.ndarray, np.ndarray]:
    none = np.array([i is None for i in seq], dtype=bool)
    values = np.array([0 if i is None else i for i in seq], dtype=np.int64)
    return values, none
