"""A ``.lltrace`` file's record batches → the compact events table, one batch at a time.

Twin of nothing in torch. Knows pyarrow, pandas and the column encodings of :mod:`loaderlab.trace.files.columnar` (which calls it
for ``read_columnar(..., compact=True)``) and which columns :func:`loaderlab.trace.core.frame.compact_table` narrows; knows
nothing of events' meaning, of plotly or streamlit.

Each batch is decoded into the compact dtypes as soon as it is read and then let go, so a 10 M-event file
never sits in memory as Arrow (~1.3 GB decompressed) beside the table it becomes: strings of
``CATEGORY_COLUMNS`` become category codes against one list of categories, ``NARROW_COLUMNS`` int32 (int64
again for the whole column if any batch does not fit), ``t_ns`` stays int64. Three things keep the load's
peak near the table's own size (at 10 M events 0.99 GB for a 0.77 GB process, where it was 1.17 GB):

- a column that holds one value throughout is kept as that value and a count, never as pieces;
- each column's pieces are joined into one array a piece at a time, each let go once copied (with
  ``np.concatenate`` every piece lives until the whole column is made), and the C heap's freed pages are
  handed back after each join (:func:`give_back_freed`);
- ``t_ns`` and ``t_s`` stay Arrow's own numbers (in Arrow's pool, not the C heap) until they are joined:
  the running sum of the delta encoding and the ``t_s`` the file left to ``t_ns`` are worked out then.
"""

from __future__ import annotations

import ctypes
import json
from typing import Any, Callable

import numpy as np
import pandas as pd
import pyarrow as pa

from ..core.frame import CATEGORY_COLUMNS, fits_int32, NARROW_COLUMNS


TRIM_BYTES = 8 << 20  # a join this big is worth a trim (a small table's load makes no such calls)
_trim: list = []  # glibc's malloc_trim, looked up once (None where there is none)


def give_back_freed() -> None:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``; elsewhere nothing). A batch's
    pieces are a few MB each, so glibc keeps them in its heap when they are freed, while a joined column is
    big enough to get pages of its own: without this, the freed pieces stay in the process's memory beside
    the table."""
    if not _trim:
        try:  # the process's own symbols (dlopen(NULL)) hold libc's: no search of the library path
            _trim.append(ctypes.CDLL(None).malloc_trim)
        except (OSError, AttributeError, TypeError):  # not glibc (macOS, musl, Windows): nothing to give back
            _trim.append(None)
    if _trim[0] is not None:
        _trim[0](0)


class _Pieces:
    """A column's decoded batches, joined at the end into one array of their total length, each piece let go as
    soon as it is copied (``np.concatenate`` would hold every piece until the join is done: the column twice)."""

    def __init__(self) -> None:
        self.parts: list[np.ndarray] = []

    def append(self, piece: np.ndarray) -> None:
        self.parts.append(piece)

    def join(self, dtype: Any = None, write: Callable[[np.ndarray, Any, int], None] | None = None) -> np.ndarray:
        """One array of ``dtype`` (default: the pieces' common type). ``write(here, piece, at)`` puts a piece
        into its slice ``here`` (which starts at row ``at``); by default a plain copy."""
        parts, self.parts = self.parts, []
        if dtype is None:  # the distinct dtypes only: result_type takes a few dozen arguments at most
            dtype = np.result_type(*{p.dtype for p in parts}) if parts else np.float64
        out = np.empty(sum(len(p) for p in parts), dtype=dtype)
        at = 0
        for k in range(len(parts)):
            piece, parts[k] = parts[k], None
            here = out[at:at + len(piece)]
            if write is None:
                here[:] = piece
            else:
                write(here, piece, at)
            at += len(here)
            piece = None
        if out.nbytes >= TRIM_BYTES:
            give_back_freed()
        return out


def _mapped(mapping: np.ndarray) -> Callable[[np.ndarray, np.ndarray, int], None]:
    def write(here: np.ndarray, piece: np.ndarray, at: int) -> None:
        here[:] = mapping[piece]

    return write


class _Narrow:
    """An int column of ``NARROW_COLUMNS``: int32 while every value fits, and while one value repeats (``arg1``–
    ``arg3`` of most traces: -1 throughout) only that value and a count, no array at all."""

    def __init__(self) -> None:
        self.same: np.ndarray | None = None  # the one value so far (shape (1,)), while there is one
        self.rows = 0
        self.pieces: _Pieces | None = None

    def append(self, values: np.ndarray) -> None:
        if not len(values):
            return
        if self.pieces is None:
            if self.same is None:
                self.same = values[:1].copy()
            if values.min() == self.same[0] == values.max():
                self.rows += len(values)
                return
            self.pieces = _Pieces()
            if self.rows:
                self.pieces.append(self._narrowed(np.broadcast_to(self.same, (self.rows,))))
        self.pieces.append(self._narrowed(values))

    @staticmethod
    def _narrowed(values: np.ndarray) -> np.ndarray:
        return values.astype(np.int32) if values.dtype == np.int64 and fits_int32(values) else values

    def column(self, dtype: str) -> pd.Series:
        if self.pieces is not None:  # int32 if every piece fits, else as stored throughout
            return pd.Series(self.pieces.join(), copy=False)
        if self.same is None:
            return pd.Series(np.zeros(0), dtype=dtype)
        if self.same.dtype in (np.int32, np.int64) and fits_int32(self.same):  # one value: a read-only view of it
            return pd.Series(np.broadcast_to(self.same.astype(np.int32), (self.rows,)), copy=False)
        return pd.Series(np.full(self.rows, self.same[0]), dtype=dtype)


class _Stored:
    """A batch's ``t_ns`` (delta-encoded) or ``t_s`` as the file has them, and where ``t_s`` was left out."""

    __slots__ = ("values", "derived")

    def __init__(self, values: np.ndarray, derived: np.ndarray | None) -> None:
        self.values, self.derived = values, derived

    def __len__(self) -> int:
        return len(self.values)


def _running_sum(pieces: _Pieces) -> np.ndarray:
    """The delta encoding's pieces → the values: one running sum over all of them."""
    carry = [np.int64(0)]

    def write(here: np.ndarray, piece: _Stored, at: int) -> None:
        np.cumsum(piece.values, dtype=np.int64, out=here)
        here += carry[0]
        if len(here):
            carry[0] = here[-1]

    return pieces.join(np.int64, write)


def _seconds(pieces: _Pieces, t_ns: np.ndarray | None, base: int | None) -> np.ndarray:
    """The t_s pieces → the column, each value the file left out (null) worked out from ``t_ns``."""

    def write(here: np.ndarray, piece: _Stored, at: int) -> None:
        here[:] = piece.values
        if piece.derived is not None and t_ns is not None:
            here[piece.derived] = (t_ns[at:at + len(here)][piece.derived] - base) / 1e9

    return pieces.join(np.float64, write)


class CompactColumns:
    """Collects batches (:meth:`add`) of a file whose columns are ``plans``; :meth:`frame` builds the table."""

    def __init__(self, plans: list[dict], schema: pa.Schema, base: int | None) -> None:
        # t_ns first: the t_s the file left out are worked out from them
        self._plans = sorted(plans, key=lambda p: p["name"] != "t_ns")
        self._order = [p["name"] for p in plans]
        self._schema, self._base = schema, base
        # where each column's batches go: an int column of the events' a _Narrow, any other a _Pieces
        self._sinks: dict[str, Any] = {
            p["name"]: _Narrow() if p["encoding"] == "plain" and p["name"] in NARROW_COLUMNS
            and pa.types.is_integer(schema.field(p["name"]).type) else _Pieces() for p in plans}
        self._categories: dict[str, dict[str, int]] = {p["name"]: {} for p in plans if p["encoding"] == "dict"}

    def add(self, batch: pa.RecordBatch) -> None:
        for p in self._plans:
            self._add(p, batch.column(self._schema.get_field_index(p["name"])))

    def _add(self, plan: dict, column: pa.Array) -> None:
        """Decode one batch's ``column`` into its sink."""
        encoding, name = plan["encoding"], plan["name"]
        if encoding == "dict":
            known = self._categories[name]
            remap = np.array([known.setdefault(v, len(known)) for v in column.dictionary.to_pylist()] or [0],
                             dtype=np.int32)
            codes = column.indices.fill_null(0).to_numpy(zero_copy_only=False)
            codes = remap[codes] if len(codes) else codes.astype(np.int32)
            if column.null_count:
                codes[column.is_null().to_numpy(zero_copy_only=False)] = -1
            self._sinks[name].append(codes)
        elif encoding == "json":
            texts = column.dictionary.to_pylist()
            lookup = np.empty(len(texts), dtype=object)
            lookup[:] = [json.loads(t) for t in texts]
            self._sinks[name].append(lookup[column.indices.to_numpy(zero_copy_only=False)])
        elif encoding == "list":  # kept as Arrow (Python lists of ints would take ~5 times the memory)
            self._sinks[name].append(column)
        elif encoding in ("delta", "t_s"):
            # kept as Arrow's own numbers (its pool, which hands pages back as soon as they are let go) and
            # worked out as the column is joined: a running sum, and t_s where the file left it to t_ns
            values = column.fill_null(np.nan) if encoding == "t_s" else column
            derived = column.is_null().to_numpy(zero_copy_only=False) if column.null_count else None
            self._sinks[name].append(_Stored(values.to_numpy(zero_copy_only=False), derived))
        else:  # as stored (a _Narrow one int32 where it fits; int64 throughout if a batch does not fit)
            self._sinks[name].append(column.to_numpy(zero_copy_only=False))

    def frame(self) -> pd.DataFrame:
        columns: dict[str, Any] = {}
        for p in self._plans:
            columns[p["name"]] = self._column(p, self._sinks.pop(p["name"]), columns.get("t_ns"))
        return pd.DataFrame(columns, columns=self._order, copy=False)

    def _column(self, plan: dict, sink: Any, t_ns: pd.Series | None) -> pd.Series:
        encoding, dtype, name = plan["encoding"], plan["dtype"], plan["name"]
        if isinstance(sink, _Narrow):
            return sink.column(dtype)
        if encoding == "dict":
            found = np.array(list(self._categories[name]), dtype=object)
            # a category column keeps its categories' order; strings get them sorted, as astype("category") does
            order = np.arange(len(found)) if dtype == "category" else np.argsort(found, kind="stable")
            rank = np.empty(len(found) + 1, dtype=np.int32)
            rank[order], rank[-1] = np.arange(len(found), dtype=np.int32), -1  # a code -1 (missing) stays -1
            # codes of the fewest bytes that hold them, as pandas keeps them (it would copy wider ones)
            narrow = np.int8 if len(found) < 127 else np.int16 if len(found) < 32767 else np.int32
            codes = sink.join(narrow, _mapped(rank))
            categories = pd.Index(found[order].tolist(), dtype="str")
            values = pd.Series(pd.Categorical.from_codes(codes, categories=categories))
            keep = dtype == "category" or (name in CATEGORY_COLUMNS and not (codes < 0).any())
            return values if keep else values.astype(dtype)
        if encoding == "list":
            return pd.Series(pd.arrays.ArrowExtensionArray(pa.chunked_array(sink.parts, type=pa.list_(pa.int64()))))
        if encoding == "json":
            return pd.Series(sink.join(object), dtype=object)
        if encoding == "delta":
            return pd.Series(_running_sum(sink), copy=False)
        if encoding == "t_s":
            known = t_ns.to_numpy() if t_ns is not None and t_ns.dtype == np.int64 and self._base is not None else None
            return pd.Series(_seconds(sink, known, self._base), copy=False)
        return pd.Series(sink.join(), dtype=dtype)
