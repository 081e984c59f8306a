"""The columnar trace file (``.lltrace``): typed, compressed columns written in chunks as a run goes.

Twin of nothing in torch. Knows pandas and pyarrow's Arrow IPC *stream* format; knows nothing of events'
meaning, of plotly or streamlit, nor of the JSON trace (:mod:`loaderlab.trace.io` sniffs and dispatches).

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

MAGIC = b"LLTRACE\x01"  # \x01: layout version; a reader refuses a newer one
MAGIC_PREFIX = MAGIC[:7]
BATCH_ROWS = 1 << 20  # rows per record batch: bounds the memory a write or a cut-off file costs
LIST_COLUMNS = ("indices",)  # object columns of lists of ints, even in a chunk where every cell is None
# The schema-metadata keys and the stream's end marker are public: a reader that follows a file as it grows
# (loaderlab.jobs.follow) decodes new record batches itself, with decode_batches.
META_KEY = b"loaderlab.meta"
COLUMNS_KEY = b"loaderlab.columns"
BASE_KEY = b"loaderlab.t_ns_base"
END_OF_STREAM = b"\xff\xff\xff\xff\x00\x00\x00\x00"  # what RecordBatchStreamWriter.close() writes last
_OPTIONS = pa.ipc.IpcWriteOptions(compression=pa.Codec("zstd", 3), emit_dictionary_deltas=False)


class TraceFileError(ValueError):
    """A trace file that LoaderLab cannot read; the message says what is wrong and what to do."""


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


def is_columnar(head: bytes) -> bool:
    """Whether a file starting with ``head`` (its first 8 bytes or more) is a ``.lltrace`` file."""
    return head[:len(MAGIC_PREFIX)] == MAGIC_PREFIX


def read_columnar(path: str | os.PathLike, *, compact: bool = False) -> tuple[pd.DataFrame, dict]:
    """A ``.lltrace`` file → (the event table, its meta); a cut-off file reads up to its last whole batch.

    With ``compact``, the table of :func:`.frame.compact_table` (decoded a batch at a time: a third of the
    memory). A file that was cut off gets ``meta["cut_short"] = True``. Raises :class:`TraceFileError` (one
    sentence) for a file that is not a LoaderLab columnar trace or is damaged.
    """
    name = os.fspath(path)
    with open(path, "rb") as f:
        data = f.read()
    return read_columnar_bytes(data, name, compact=compact)


def read_columnar_bytes(data: bytes, name: str = "the trace", *,
                        compact: bool = False) -> tuple[pd.DataFrame, dict]:
    """:func:`read_columnar` for a file's contents (an upload, say); ``name`` is how messages refer to it."""
    if not is_columnar(data):
        raise TraceFileError(f"{name} is not a LoaderLab columnar trace (it does not start with {MAGIC_PREFIX!r}); "
                             f"load a file that `loaderlab record` or save_trace wrote.")
    if data[len(MAGIC_PREFIX)] > MAGIC[-1]:
        raise TraceFileError(f"{name} was written by a newer LoaderLab (columnar layout {data[len(MAGIC_PREFIX)]}); "
                             f"this LoaderLab reads layout {MAGIC[-1]} — upgrade LoaderLab.")
    buffer = pa.py_buffer(data)[len(MAGIC):]
    try:
        reader = pa.ipc.open_stream(pa.BufferReader(buffer))
    except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError):
        raise TraceFileError(f"{name} ends before its column list, so it holds no events (it was cut off right after "
                             f"it was opened, or damaged); record the trace again.") from None
    schema = reader.schema
    try:
        meta = json.loads((schema.metadata or {})[META_KEY])
        plans = json.loads((schema.metadata or {})[COLUMNS_KEY])
        base = int(schema.metadata[BASE_KEY]) if BASE_KEY in schema.metadata else None
    except (KeyError, ValueError, TypeError):
        raise TraceFileError(f"{name} is an Arrow stream but lacks LoaderLab's column notes, so it was not written "
                             f"by LoaderLab; load a file that `loaderlab record` or save_trace wrote.") from None
    batches, cut_short = [], False
    from .compact import CompactColumns  # here: it knows the events table's columns, this module does not

    try:
        sink = CompactColumns(plans, schema, base) if compact else None
    except (KeyError, ValueError, TypeError):
        raise TraceFileError(f"{name} has columns that do not match its own notes; the file was damaged — "
                             f"record the trace again.") from None
    while True:
        try:
            batch, custom = reader.read_next_batch_with_custom_metadata()
        except StopIteration:
            break
        except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError):
            cut_short = True  # the writer was stopped mid-batch: keep the whole batches before it
            break
        if custom is not None and META_KEY in custom:
            meta.update(json.loads(custom[META_KEY]))
        if batch.num_rows and sink is not None:
            try:
                sink.add(batch)  # decoded now, and the batch let go
            except (KeyError, ValueError, TypeError, IndexError, pa.ArrowException):
                raise TraceFileError(f"{name} has columns that do not match its own notes; the file was damaged — "
                                     f"record the trace again.") from None
        elif batch.num_rows:
            batches.append(batch)
    if cut_short or not data.endswith(END_OF_STREAM):  # a writer that never closed: killed, or crashed
        meta["cut_short"] = True
    try:
        frame = sink.frame() if sink is not None else decode_batches(plans, schema, batches, base)
    except (KeyError, ValueError, TypeError, pa.ArrowException):
        raise TraceFileError(f"{name} has columns that do not match its own notes; the file was damaged — "
                             f"record the trace again.") from None
    return frame, meta


def decode_batches(plans: list[dict], schema: pa.Schema, batches: list[pa.RecordBatch], base: int | None) -> pd.DataFrame:
    """The batches' columns decoded one at a time, each column's Arrow buffers let go once it is decoded
    (a 10 M-event table would otherwise be in memory twice, as Arrow and as pandas)."""
    columns = {}
    for p in plans:
        i = schema.get_field_index(p["name"])
        columns[p["name"]] = pa.chunked_array([b.column(i) for b in batches], type=schema.field(i).type)
    batches.clear()
    derived = _null_mask(columns["t_s"]) if any(p["encoding"] == "t_s" for p in plans) else None
    decoded = {}
    for p in plans:
        decoded[p["name"]] = _decode(p, columns.pop(p["name"]), base)
    frame = pd.DataFrame(decoded, columns=[p["name"] for p in plans], copy=False)
    if derived is not None and base is not None and "t_ns" in frame.columns and derived.any():
        t_s = frame["t_s"].to_numpy(copy=True)
        t_s[derived] = (frame["t_ns"].to_numpy()[derived] - base) / 1e9
        frame["t_s"] = t_s
    return frame


def _null_mask(column: pa.ChunkedArray) -> np.ndarray:
    return column.is_null().to_numpy(zero_copy_only=False)


def _decode(plan: dict, column: pa.ChunkedArray, base: int | None) -> Any:
    encoding, dtype = plan["encoding"], plan["dtype"]
    if encoding == "dict" and dtype == "str" and column.num_chunks:
        return column.cast(pa.string()).to_pandas()  # Arrow-backed str, as pandas reads strings (4x astype's speed)
    if encoding == "dict":
        column = column.unify_dictionaries() if column.num_chunks > 1 else column
        combined = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
        codes = combined.indices.to_numpy(zero_copy_only=False)
        codes = np.where(combined.indices.is_null().to_numpy(zero_copy_only=False), -1, codes).astype(np.int32)
        categories = pd.Index(combined.dictionary.to_pylist(), dtype="str")
        values = pd.Categorical.from_codes(codes, categories=categories)
        return pd.Series(values) if dtype == "category" else pd.Series(values).astype(dtype)
    if encoding == "json":
        combined = column.combine_chunks() if column.num_chunks else pa.array([], column.type)
        if isinstance(combined, pa.ChunkedArray):
            combined = combined.combine_chunks()
        texts = combined.dictionary.to_pylist()
        lookup = np.empty(len(texts), dtype=object)
        lookup[:] = [json.loads(t) for t in texts]
        return pd.Series(lookup[combined.indices.to_numpy(zero_copy_only=False)], dtype=object)
    if encoding == "list":
        return pd.Series(column.to_pylist(), dtype=object)
    if encoding == "delta":
        return pd.Series(np.cumsum(column.to_numpy(), dtype=np.int64), dtype="int64")
    if encoding == "t_s":
        return pd.Series(column.fill_null(np.nan).to_numpy(), dtype="float64")
    return pd.Series(column.to_numpy(), dtype=dtype)
