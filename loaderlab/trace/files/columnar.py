"""The columnar trace file (``.lltrace``): typed, compressed columns written in chunks as a run goes.

Twin of nothing in torch. Knows pandas and pyarrow's Arrow IPC *stream* format; knows nothing of events'
meaning, of plotly or streamlit, nor of the JSON trace (:mod:`loaderlab.trace.files.io` sniffs and dispatches).
This module writes; :mod:`loaderlab.trace.files.columnar_read` reads (its names are importable from here too).

Layout: the 8 magic bytes ``MAGIC`` then one Arrow IPC stream (zstd-compressed buffers). The stream's
schema metadata holds the meta known at the start (``loaderlab.meta``, JSON) and how each column maps
back to pandas; every :meth:`TraceWriter.write_frame` appends record batches and flushes them, so memory
does not grow with the run and a file cut off mid-write (a crash, a kill) reads up to its last complete
batch. :meth:`TraceWriter.set_meta` appends a zero-row batch whose custom metadata carries the new
key, so meta known only at the end (epochs, warnings, why the run stopped) is on disk as soon as it is
set, and a file that ends before it still loads without it.

Encodings, all undone by :func:`read_columnar` so a round trip is exact (values and dtypes):

- strings and categoricals: dictionary-encoded (``kind``, ``queue`` and ``detail`` repeat a lot);
- ``t_ns``: stored as differences from the previous row (small numbers that compress to ~1 byte);
- ``t_s``: null wherever it equals ``(t_ns - base) / 1e9`` exactly (base = the file's first ``t_ns``);
- object columns (labels: any mix of str, int, float, bool, None, NaN): a dictionary of each distinct
  value's JSON text (``1``, ``1.0``, ``true`` and ``"1"`` stay apart; NaN is ``NaN``, None ``null``);
- an object column of lists of ints: an Arrow list column (lists come back as lists, None as None).
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
from pandas.api.types import infer_dtype

# The layout's constants, the error and the whole reading half live in .columnar_read; they are public here too.
from .columnar_read import BASE_KEY, COLUMNS_KEY, MAGIC, META_KEY

BATCH_ROWS = 1 << 20  # rows per record batch: bounds the memory a write or a cut-off file costs
LIST_COLUMNS = ("indices",)  # object columns of lists of ints, even in a chunk where every cell is None
_OPTIONS = pa.ipc.IpcWriteOptions(compression=pa.Codec("zstd", 3), emit_dictionary_deltas=False)


# --- writing -------------------------------------------------------------------------------------


class TraceWriter:
    """Append event-table chunks to a ``.lltrace`` file; use as ``with TraceWriter(path, meta) as w: ...``.

    ``meta`` is a JSON-able dict stored with the file (not ``frame.attrs``). The first chunk fixes the
    columns and their dtypes; later chunks must have the same columns (any order) and dtypes.
    """

    def __init__(self, path: str | os.PathLike, meta: dict | None = None) -> None:
        self._meta = dict(meta or {})
        json.dumps(self._meta, allow_nan=False)  # fail now, not at the first chunk
        self._file = open(path, "wb")
        self._file.write(MAGIC)
        self._file.flush()
        self._writer: pa.ipc.RecordBatchStreamWriter | None = None
        self._plan: list[dict] = []
        self._base: int | None = None
        self._last = 0  # the last t_ns written: the next batch's t_ns differences start from it
        self.rows = 0

    def __enter__(self) -> "TraceWriter":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def write_frame(self, chunk: pd.DataFrame) -> None:
        """Append ``chunk`` (rows of the event table) and flush it to disk."""
        if self._file is None:
            raise ValueError("write_frame on a closed TraceWriter; open a new one to write more")
        if self._writer is None:
            self._start(chunk)
        else:
            names = [p["name"] for p in self._plan]
            if sorted(chunk.columns) != sorted(names):
                raise ValueError(f"write_frame expects the columns of the first chunk {names}, but this chunk "
                                 f"has {list(chunk.columns)}")
        for start in range(0, max(len(chunk), 1), BATCH_ROWS):
            part = chunk.iloc[start:start + BATCH_ROWS]
            arrays = [_encode(p, part, self._base, self._last) for p in self._plan]
            if "t_ns" in part.columns and len(part):
                self._last = int(part["t_ns"].iloc[-1])
            self._writer.write_batch(pa.RecordBatch.from_arrays(arrays, schema=self._schema))
            self.rows += len(part)
        self._file.flush()

    def set_meta(self, key: str, value: Any) -> None:
        """Store ``key: value`` (JSON-able) now; the reader sees the last value set for each key."""
        json.dumps(value, allow_nan=False)
        if self._file is None:
            raise ValueError("set_meta on a closed TraceWriter")
        if self._writer is None:
            self._meta[key] = value  # not started: travels in the schema with the first chunk
            return
        empty = pa.RecordBatch.from_arrays([pa.array([], f.type) for f in self._schema], schema=self._schema)
        self._writer.write_batch(empty, custom_metadata={META_KEY: json.dumps({key: value}).encode()})
        self._file.flush()

    def close(self) -> None:
        if self._file is None:
            return
        if self._writer is None:
            self._start(pd.DataFrame())
        self._writer.close()
        self._file.close()
        self._file = None

    def _start(self, chunk: pd.DataFrame) -> None:
        self._plan = [_plan(str(name), chunk[name]) for name in chunk.columns]
        if "t_ns" in chunk.columns and len(chunk):
            self._base = int(chunk["t_ns"].iloc[0])
        meta = {META_KEY: json.dumps(self._meta, allow_nan=False).encode(),
                COLUMNS_KEY: json.dumps([{k: v for k, v in p.items() if k != "type"} for p in self._plan]).encode()}
        if self._base is not None:
            meta[BASE_KEY] = str(self._base).encode()
        self._schema = pa.schema([pa.field(p["name"], p["type"]) for p in self._plan], metadata=meta)
        self._writer = pa.ipc.new_stream(self._file, self._schema, options=_OPTIONS)


def _plan(name: str, column: pd.Series) -> dict:
    """How ``column`` is stored: its pandas dtype, its Arrow type and its encoding."""
    dtype = str(column.dtype)
    if dtype == "category":
        values = column.cat.categories
        if infer_dtype(values, skipna=True) not in ("string", "empty"):
            raise ValueError(f"TraceWriter stores categorical column {name!r} only with string categories")
        return {"name": name, "dtype": dtype, "encoding": "dict", "type": pa.dictionary(pa.int32(), pa.string())}
    if dtype in ("str", "string"):
        return {"name": name, "dtype": dtype, "encoding": "dict", "type": pa.dictionary(pa.int32(), pa.string())}
    if dtype == "int64":
        encoding = "delta" if name == "t_ns" else "plain"
        return {"name": name, "dtype": dtype, "encoding": encoding, "type": pa.int64()}
    if dtype == "float64":
        encoding = "t_s" if name == "t_s" else "plain"
        return {"name": name, "dtype": dtype, "encoding": encoding, "type": pa.float64()}
    if dtype in ("bool", "int32", "int16", "int8", "float32", "uint8", "uint16", "uint32", "uint64"):
        return {"name": name, "dtype": dtype, "encoding": "plain", "type": pa.from_numpy_dtype(np.dtype(dtype))}
    if dtype == "object":
        listed = name in LIST_COLUMNS or any(isinstance(v, (list, tuple, np.ndarray)) for v in column.head(10_000))
        if listed:
            return {"name": name, "dtype": dtype, "encoding": "list", "type": pa.list_(pa.int64())}
        return {"name": name, "dtype": dtype, "encoding": "json", "type": pa.dictionary(pa.int32(), pa.string())}
    raise ValueError(f"TraceWriter cannot store column {name!r} of dtype {dtype}; convert it to int64, float64, "
                     f"bool, str, category or object first")


def _encode(plan: dict, part: pd.DataFrame, base: int | None, last: int) -> pa.Array:
    name, encoding, dtype = plan["name"], plan["encoding"], plan["dtype"]
    column = part[name]
    if str(column.dtype) != dtype:
        raise ValueError(f"write_frame: column {name!r} is {column.dtype} in this chunk but {dtype} in the first; "
                         f"convert it with .astype({dtype!r})")
    if encoding == "dict":
        if dtype == "category":
            codes, uniques = column.cat.codes.to_numpy(np.int32), column.cat.categories.astype(str)
        else:
            codes, uniques = pd.factorize(column, use_na_sentinel=True)
        mask = codes < 0
        return pa.DictionaryArray.from_arrays(pa.array(codes.astype(np.int32), mask=mask if mask.any() else None),
                                              pa.array(np.asarray(uniques, dtype=object), pa.string()))
    if encoding == "json":
        return _json_dictionary(column.to_numpy(dtype=object), name)
    if encoding == "list":
        try:
            return pa.array(column.to_numpy(dtype=object), plan["type"], from_pandas=True)
        except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError) as exc:
            raise ValueError(f"write_frame: column {name!r} holds lists, so every cell must be a list of ints "
                             f"or None ({exc})") from None
    values = column.to_numpy()
    if encoding == "delta":
        return pa.array(np.diff(values, prepend=np.int64(last)), pa.int64())
    if encoding == "t_s" and base is not None and "t_ns" in part.columns and str(part["t_ns"].dtype) == "int64":
        derivable = values == (part["t_ns"].to_numpy() - base) / 1e9  # NaN never equals: stored as is
        # zeros under the nulls: a null's slot is still in the buffer, and zeros compress to nothing
        return pa.array(np.where(derivable, 0.0, values), pa.float64(), mask=derivable)
    return pa.array(values, plan["type"])


def _json_dictionary(values: np.ndarray, name: str) -> pa.DictionaryArray:
    """Object cells → a dictionary of each distinct value's JSON text (a mix of types stays apart)."""
    missing = pd.isna(values)
    present = values[~missing]
    kind = infer_dtype(present, skipna=False)
    if kind in ("integer", "string", "floating", "boolean", "empty"):
        codes, uniques = pd.factorize(values, use_na_sentinel=True)  # one type: equal values are equal cells
    else:  # 1, True and 1.0 hash alike: key each cell by its JSON text instead (rare, and slower)
        keys = np.array([_json(v, name) for v in values], dtype=object)
        codes, uniques = pd.factorize(keys, use_na_sentinel=True)
        uniques = [json.loads(u) for u in uniques]
    texts = [_json(v, name) for v in uniques]
    codes = codes.astype(np.int32)
    if missing.any():  # None and NaN (and pd.NA) are all "missing" to factorize: tell them apart again
        where = np.flatnonzero(missing)
        other = values[where] != None  # noqa: E711 (elementwise: None, the common case, in one numpy call)
        if not other.all():
            texts.append("null")
            codes[where[~other]] = len(texts) - 1
        if other.any():
            where = where[other]
            kinds = np.array([_json(values[i], name) for i in where], dtype=object)
            for text in np.unique(kinds):
                texts.append(text)
                codes[where[kinds == text]] = len(texts) - 1
    return pa.DictionaryArray.from_arrays(pa.array(codes), pa.array(texts, pa.string()))


def _json(value: Any, name: str) -> str:
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA:
        return "null"
    if isinstance(value, (str, int, float, bool)):
        return json.dumps(value)  # NaN → NaN, which json.loads reads back as nan
    raise ValueError(f"TraceWriter stores only str, int, float, bool or None in object column {name!r}, but found "
                     f"{type(value).__name__} {value!r}; convert such labels to one of those first")


# --- reading -------------------------------------------------------------------------------------
