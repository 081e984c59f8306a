"""Reading the columnar trace file (``.lltrace``) back: whole, from bytes, or batch by batch as it grows.

Twin of nothing in torch. The other half of :mod:`loaderlab.trace.files.columnar` (its layout and encodings are described there):
undoes every encoding so a round trip is exact, reads a file cut off mid-write up to its last whole batch,
and turns every problem into one :class:`~loaderlab.trace.files.columnar.TraceFileError` sentence. Knows pandas and pyarrow;
nothing of events' meaning, plotly or streamlit.
"""

from __future__ import annotations

import json
import os
from typing import Any, Iterator

import numpy as np
import pandas as pd
import pyarrow as pa

MAGIC = b"LLTRACE\x01"  # \x01: layout version; a reader refuses a newer one
MAGIC_PREFIX = MAGIC[:7]
# The schema-metadata keys and the stream's end marker are public: a reader that follows a file as it grows
# (loaderlab.jobs.follow) decodes new record batches itself, with decode_batches.
META_KEY = b"loaderlab.meta"
COLUMNS_KEY = b"loaderlab.columns"
BASE_KEY = b"loaderlab.t_ns_base"
END_OF_STREAM = b"\xff\xff\xff\xff\x00\x00\x00\x00"  # what RecordBatchStreamWriter.close() writes last


# what decoding a batch whose columns do not match the file's notes raises (a damaged file): said as one sentence
DAMAGED = (KeyError, ValueError, TypeError, IndexError, AttributeError, pa.ArrowException)


class TraceFileError(ValueError):
    """A trace file that LoaderLab cannot read; the message says what is wrong and what to do."""


def is_columnar(head: bytes) -> bool:
    """Whether a file starting with ``head`` (its first 8 bytes or more) is a ``.lltrace`` file."""
    return head[:len(MAGIC_PREFIX)] == MAGIC_PREFIX


def read_columnar(path: str | os.PathLike, *, compact: bool = False) -> tuple[pd.DataFrame, dict]:
    """A ``.lltrace`` file → (the event table, its meta); a cut-off file reads up to its last whole batch.

    With ``compact``, the table of :func:`loaderlab.trace.core.frame.compact_table` (decoded a batch at a time: a third of the
    memory). A file that was cut off gets ``meta["cut_short"] = True``. Raises :class:`TraceFileError` (one
    sentence) for a file that is not a LoaderLab columnar trace or is damaged. The file is read one record
    batch at a time (never whole into memory: a 10 M-event file is 110 MB).
    """
    with open_columnar(path) as stream:
        return _read(stream, compact)


def read_columnar_bytes(data: bytes, name: str = "the trace", *,
                        compact: bool = False) -> tuple[pd.DataFrame, dict]:
    """:func:`read_columnar` for a file's contents (an upload, say); ``name`` is how messages refer to it."""
    _check_head(data, name)
    stream = Stream(pa.BufferReader(pa.py_buffer(data)[len(MAGIC):]), name, data.endswith(END_OF_STREAM))
    return _read(stream, compact)


def _check_head(data: bytes, name: str) -> None:
    if not is_columnar(data):
        raise TraceFileError(f"{name} is not a LoaderLab columnar trace (it does not start with {MAGIC_PREFIX!r}); "
                             f"load a file that `loaderlab record` or save_trace wrote.")
    if len(data) <= len(MAGIC_PREFIX):
        raise TraceFileError(f"{name} ends before its column list, so it holds no events (it was cut off right after "
                             f"it was opened, or damaged); record the trace again.")
    if data[len(MAGIC_PREFIX)] > MAGIC[-1]:
        raise TraceFileError(f"{name} was written by a newer LoaderLab (columnar layout {data[len(MAGIC_PREFIX)]}); "
                             f"this LoaderLab reads layout {MAGIC[-1]} — upgrade LoaderLab.")


def _read(stream: "Stream", compact: bool) -> tuple[pd.DataFrame, dict]:
    """The file's stream → (table, meta)."""
    batches, pool = [], pa.default_memory_pool()
    from .compact import CompactColumns  # here: it knows the events table's columns, this module does not

    try:
        sink = CompactColumns(stream.plans, stream.schema, stream.base) if compact else None
    except (KeyError, ValueError, TypeError):
        raise stream.damaged() from None
    for batch in stream.batches():
        if sink is not None:
            try:
                sink.add(batch)  # decoded now, and the batch let go
            except DAMAGED:
                raise stream.damaged() from None
        else:
            batches.append(batch)
        del batch
        if sink is not None:
            pool.release_unused()  # the batch's decompressed buffers go back to the system, not to a cache
    try:
        frame = sink.frame() if sink is not None else decode_batches(stream.plans, stream.schema, batches, stream.base)
    except DAMAGED:
        raise stream.damaged() from None
    # Arrow's allocator keeps pages it no longer uses for its next allocation; the analysis after a load
    # allocates through numpy, never through it, so they would sit idle (180 MB after a 10 M-event load)
    pool.release_unused()
    return frame, stream.meta


def open_columnar(path: str | os.PathLike) -> "Stream":
    """A ``.lltrace`` file's stream, to read a record batch at a time (:meth:`Stream.batches`); the file stays
    open until they are all read or its ``with`` block ends. Raises :class:`TraceFileError` as
    :func:`read_columnar` does."""
    name = os.fspath(path)
    size = os.path.getsize(path)
    with open(path, "rb") as f:
        head = f.read(len(MAGIC))
        f.seek(max(size - len(END_OF_STREAM), 0))
        closed = size >= len(MAGIC) + len(END_OF_STREAM) and f.read() == END_OF_STREAM
    _check_head(head, name)
    source = pa.OSFile(name, "rb")
    try:
        source.seek(len(MAGIC))
        return Stream(source, name, closed)
    except BaseException:
        source.close()
        raise


class Stream:
    """The Arrow stream of a ``.lltrace`` file: its column notes (``plans``, ``schema``, ``base``), its
    ``meta`` (updated as batches carry more; ``cut_short`` once a cut-off end is met) and its batches."""

    def __init__(self, source: pa.NativeFile, name: str, closed: bool) -> None:
        self.name, self._source, self._closed = name, source, closed
        try:
            self._reader = pa.ipc.open_stream(source)
        except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError):
            raise TraceFileError(f"{name} ends before its column list, so it holds no events (it was cut off "
                                 f"right after it was opened, or damaged); record the trace again.") from None
        self.schema = schema = self._reader.schema
        try:
            self.meta = json.loads((schema.metadata or {})[META_KEY])
            self.plans = json.loads((schema.metadata or {})[COLUMNS_KEY])
            self.base = int(schema.metadata[BASE_KEY]) if BASE_KEY in schema.metadata else None
        except (KeyError, ValueError, TypeError):
            raise TraceFileError(f"{name} is an Arrow stream but lacks LoaderLab's column notes, so it was not "
                                 f"written by LoaderLab; load a file that `loaderlab record` or save_trace "
                                 f"wrote.") from None

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *_: Any) -> None:
        self._source.close()

    def damaged(self) -> TraceFileError:
        return TraceFileError(f"{self.name} has columns that do not match its own notes; the file was damaged — "
                              f"record the trace again.")

    def batches(self) -> Iterator[pa.RecordBatch]:
        """The batches that hold rows, in file order; a cut-off file's whole ones (then ``meta["cut_short"]``)."""
        cut_short = False
        while True:
            try:
                batch, custom = self._reader.read_next_batch_with_custom_metadata()
            except StopIteration:
                break
            except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError):
                cut_short = True  # the writer was stopped mid-batch: keep the whole batches before it
                break
            if custom is not None and META_KEY in custom:
                self.meta.update(json.loads(custom[META_KEY]))
            if batch.num_rows:
                yield batch
            del batch
        if cut_short or not self._closed:  # a writer that never closed: killed, or crashed
            self.meta["cut_short"] = True
        self._source.close()


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
