"""A ``.lltrace`` file's record batches → the compact events table, one batch at a time.

Twin of nothing in torch. Knows pyarrow, pandas and the column encodings of :mod:`.columnar` (which calls it
for ``read_columnar(..., compact=True)``) and which columns :func:`.frame.compact_table` narrows; knows
nothing of events' meaning, of plotly or streamlit.

Each batch is decoded into numpy pieces of the compact dtypes as soon as it is read and then let go, so a
10 M-event file never sits in memory as Arrow (~1.3 GB decompressed) beside the table it becomes: strings of
``CATEGORY_COLUMNS`` become category codes against one list of categories, ``NARROW_COLUMNS`` int32 pieces
(int64 again for the whole column if any batch does not fit), ``t_ns`` stays int64.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .frame import CATEGORY_COLUMNS, NARROW_COLUMNS, fits_int32


class CompactColumns:
    """Collects batches (:meth:`add`) of a file whose columns are ``plans``; :meth:`frame` builds the table."""

    def __init__(self, plans: list[dict], schema: pa.Schema, base: int | None) -> None:
        self._plans, self._schema, self._base = plans, schema, base
        self._parts: dict[str, list] = {p["name"]: [] for p in plans}
        self._categories: dict[str, dict[str, int]] = {p["name"]: {} for p in plans if p["encoding"] == "dict"}
        self._derived: list[np.ndarray] = []  # t_s: where it is (t_ns - base) / 1e9

    def add(self, batch: pa.RecordBatch) -> None:
        for p in self._plans:
            column = batch.column(self._schema.get_field_index(p["name"]))
            self._parts[p["name"]].append(self._piece(p, column))

    def _piece(self, plan: dict, column: pa.Array) -> Any:
        encoding, name = plan["encoding"], plan["name"]
        if encoding == "dict":
            known = self._categories[name]
            remap = np.array([known.setdefault(v, len(known)) for v in column.dictionary.to_pylist()] or [0],
                             dtype=np.int32)
            codes = column.indices.fill_null(0).to_numpy(zero_copy_only=False)
            codes = remap[codes] if len(codes) else codes.astype(np.int32)
            if column.null_count:
                codes[column.is_null().to_numpy(zero_copy_only=False)] = -1
            return codes
        if encoding == "json":
            texts = column.dictionary.to_pylist()
            lookup = np.empty(len(texts), dtype=object)
            lookup[:] = [json.loads(t) for t in texts]
            return lookup[column.indices.to_numpy(zero_copy_only=False)]
        if encoding == "list":  # kept as Arrow (Python lists of ints would take ~5 times the memory)
            return column
        if encoding == "t_s":
            self._derived.append(column.is_null().to_numpy(zero_copy_only=False))
            return column.fill_null(np.nan).to_numpy()
        values = column.to_numpy(zero_copy_only=False)
        if name in NARROW_COLUMNS and values.dtype == np.int64 and fits_int32(values):
            return values.astype(np.int32)
        return values

    def frame(self) -> pd.DataFrame:
        columns = {}
        for p in self._plans:
            name, parts = p["name"], self._parts.pop(p["name"])
            columns[name] = self._column(p, parts)
        if self._derived and self._base is not None and "t_ns" in columns:
            derived = np.concatenate(self._derived)
            t_s, t_ns = columns["t_s"], columns["t_ns"].to_numpy()
            step = 1 << 20  # a million rows at a time: temporaries of 8 MB, not of the whole column
            for lo in range(0, len(derived), step):
                here = derived[lo:lo + step]
                if here.any():
                    t_s[lo:lo + step][here] = (t_ns[lo:lo + step][here] - self._base) / 1e9
        if "t_s" in columns and isinstance(columns["t_s"], np.ndarray):
            columns["t_s"] = pd.Series(columns["t_s"], dtype="float64", copy=False)
        return pd.DataFrame(columns, columns=[p["name"] for p in self._plans], copy=False)

    def _column(self, plan: dict, parts: list) -> pd.Series:
        encoding, dtype, name = plan["encoding"], plan["dtype"], plan["name"]
        if encoding == "dict":
            codes = np.concatenate(parts) if parts else np.zeros(0, np.int32)
            found = np.array(list(self._categories[name]), dtype=object)
            # a category column keeps its categories' order; strings get them sorted, as astype("category") does
            order = np.arange(len(found)) if dtype == "category" else np.argsort(found, kind="stable")
            rank = np.empty(len(found) + 1, dtype=np.int32)
            rank[order], rank[-1] = np.arange(len(found), dtype=np.int32), -1  # a code -1 (missing) stays -1
            codes = rank[codes]
            categories = pd.Index(found[order].tolist(), dtype="str")
            values = pd.Series(pd.Categorical.from_codes(codes, categories=categories))
            keep = dtype == "category" or (name in CATEGORY_COLUMNS and not (codes < 0).any())
            return values if keep else values.astype(dtype)
        if encoding == "list":
            return pd.Series(pd.arrays.ArrowExtensionArray(pa.chunked_array(parts, type=pa.list_(pa.int64()))))
        if encoding == "json":
            return pd.Series(np.concatenate(parts) if parts else np.empty(0, object), dtype=object)
        if encoding == "delta":
            values = np.concatenate(parts) if parts else np.zeros(0, np.int64)
            return pd.Series(np.cumsum(values, out=values), dtype="int64")
        if encoding == "t_s":  # an array of its own (not yet a Series, which would be read-only): frame() fills it
            return np.concatenate(parts).astype(np.float64, copy=False) if parts else np.zeros(0)
        if parts and name in NARROW_COLUMNS and all(part.dtype == np.int32 for part in parts):
            same = _constant(parts)
            return pd.Series(same if same is not None else np.concatenate(parts), copy=False)
        # as stored (a column with a batch that did not fit int32 is int64 throughout)
        return pd.Series(np.concatenate(parts) if parts else np.zeros(0), dtype=dtype)


def _constant(parts: list[np.ndarray]) -> np.ndarray | None:
    """One value repeated (``arg1..arg3`` of most traces: -1 throughout) as a read-only view of that one value
    (no memory per row; pandas copies it only where it is written to); None if the parts hold two values."""
    first = parts[0][:1]
    if not len(first) or any(len(p) and (p.min() != first[0] or p.max() != first[0]) for p in parts):
        return None
    return np.broadcast_to(first, (sum(len(p) for p in parts),))
