"""Reading from a ``.lltrace`` file only the rows an export's cut needs (``export --epoch/--from/--to``).

Twin of nothing in torch. :func:`loaderlab.trace.export.chrome.write_chrome` cuts a whole table in memory; here the same rows are
picked while the file is read, a record batch at a time, so that one epoch or a few seconds of a 10 M-event
trace never needs the whole table in memory. Two passes over the file: :func:`survey` finds what a cut is
checked against and decided by (each loader's first and last time and its epochs, each task's first and last
time), then :func:`read_cut` keeps the rows (:func:`loaderlab.trace.files.cuts.window_keeps`) and decodes only them, as the compact
table (:mod:`loaderlab.trace.files.compact`). The rows kept are those the whole table's cut keeps, in the same order, so the export
of them (with ``origin_ns``) is the same text. Knows pyarrow, the file's encodings and the job trace's
``loader`` column; nothing of plotly or streamlit.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .columnar_read import DAMAGED, open_columnar, Stream
from .compact import CompactColumns, give_back_freed
from .cuts import LOOP_KINDS, task_ranges, window_keeps

LOADER = "loader"  # a job trace's column naming each event's DataLoader (loaderlab.jobs.read.LOADER)
_EPOCH_BITS, _BATCH_BITS, _LOADER_LIMIT = 20, 33, 1 << 9  # a task's key: loader, epoch + 1, batch + 2**32


@dataclass
class Part:
    """One loader's rows in the file (the whole file's where it names no loaders)."""

    t_min: int = np.iinfo(np.int64).max
    t_max: int = np.iinfo(np.int64).min
    epochs: set = field(default_factory=set)

    @property
    def length_s(self) -> float:
        return (self.t_max - self.t_min) / 1e9 if self.t_max >= self.t_min else 0.0


@dataclass
class Survey:
    """What :func:`survey` found: the file's ``meta``, each loader's :class:`Part` (key None: the file has no
    ``loader`` column) and every task's key with its first and last ``t_ns`` (keys sorted)."""

    meta: dict
    parts: dict
    names: list  # loaders in the order their first row comes in the file
    task_keys: np.ndarray
    task_first: np.ndarray
    task_last: np.ndarray


class _Batch:
    """One record batch's columns that a cut reads: ``t_ns`` as times, ``epoch``, ``batch``, ``kind`` and the
    loader of each row (an index into the names met so far, -1 for none)."""

    def __init__(self, stream: Stream, batch: pa.RecordBatch, carry: int, names: list) -> None:
        plans = {p["name"]: p for p in stream.plans}
        t = _ints(batch, stream, "t_ns")
        if plans["t_ns"]["encoding"] == "delta":
            t = np.cumsum(t, dtype=np.int64) + carry
        self.t = t
        self.epoch = _ints(batch, stream, "epoch")
        self.batch = _ints(batch, stream, "batch")
        kinds, kind_names = _strings(batch, stream, plans["kind"])
        self.loop = np.isin(kinds, [k for k, name in enumerate(kind_names) if name in LOOP_KINDS])
        if LOADER in plans:
            codes, found = _strings(batch, stream, plans[LOADER])
            ids = np.array([_index(names, n) for n in found] + [-1], dtype=np.int64)
            self.loader = ids[codes]  # a code -1 (no loader) takes the last entry: -1
        else:
            self.loader = np.zeros(len(t), np.int64)

    def keys(self) -> np.ndarray | None:
        """Each row's task as one int64 (None if a value lies outside what the key holds)."""
        e, b, g = self.epoch, self.batch, self.loader
        if len(e) and (e.min() < -1 or e.max() >= (1 << _EPOCH_BITS) - 1 or b.min() < -(1 << 32)
                       or b.max() >= 1 << 32 or g.max() >= _LOADER_LIMIT):
            return None
        return ((g + 1) << (_EPOCH_BITS + _BATCH_BITS)) | ((e + 1) << _BATCH_BITS) | (b + (1 << 32))


def _index(names: list, name: Any) -> int:
    if name is None:
        return -1
    if name not in names:
        names.append(name)
    return names.index(name)


def _ints(batch: pa.RecordBatch, stream: Stream, name: str) -> np.ndarray:
    column = batch.column(stream.schema.get_field_index(name))
    if column.null_count or not pa.types.is_integer(column.type):
        raise ValueError(f"{name}: not ints")  # a damaged file (the whole table's reading names it)
    return column.to_numpy().astype(np.int64)


def _strings(batch: pa.RecordBatch, stream: Stream, plan: dict) -> tuple[np.ndarray, list]:
    """A dictionary-encoded column's codes (-1: missing) and its values (a ``json`` column's decoded)."""
    column = batch.column(stream.schema.get_field_index(plan["name"]))
    values = column.dictionary.to_pylist()
    if plan["encoding"] == "json":
        values = [json.loads(v) for v in values]
    codes = column.indices.fill_null(-1).to_numpy(zero_copy_only=False).astype(np.int64)
    return codes, values


def survey(path: str | os.PathLike) -> Survey | None:
    """The first pass over the file; None where a cut cannot be read this way (a task id too big for the key,
    more loaders than it holds, no rows): the caller reads the whole table instead."""
    with open_columnar(path) as stream:
        try:
            return _survey(stream)
        except DAMAGED:
            return None  # columns that do not match their notes: the whole table's reading says so


def _survey(stream: Stream) -> Survey | None:
    if "t_ns" not in stream.schema.names or "kind" not in stream.schema.names:
        return None
    names: list = []
    parts: dict = {}
    keys, firsts, lasts = [], [], []
    carry, pool = 0, pa.default_memory_pool()
    for batch in stream.batches():
        b = _Batch(stream, batch, carry, names)
        carry = int(b.t[-1])
        key = b.keys()
        if key is None:
            return None
        for g in np.unique(b.loader):
            if g < 0:  # rows of no loader: no loader's export has them
                continue
            rows = b.loader == g
            part = parts.setdefault(names[g] if LOADER in stream.schema.names else None, Part())
            part.t_min, part.t_max = min(part.t_min, int(b.t[rows].min())), max(part.t_max, int(b.t[rows].max()))
            part.epochs.update(int(e) for e in np.unique(b.epoch[rows]))
        unique, codes = np.unique(key, return_inverse=True)
        first, last = task_ranges(codes, b.t, len(unique))
        keys.append(unique), firsts.append(first), lasts.append(last)
        del batch, b, key, codes
        pool.release_unused()  # the batch's decompressed buffers go back to the system, not to a cache
    give_back_freed()
    if not parts:
        return None
    # a task's rows may lie in several batches: its first and last over them all
    unique, codes = np.unique(np.concatenate(keys), return_inverse=True)
    first = np.full(len(unique), np.iinfo(np.int64).max, np.int64)
    last = np.full(len(unique), np.iinfo(np.int64).min, np.int64)
    np.minimum.at(first, codes, np.concatenate(firsts))
    np.maximum.at(last, codes, np.concatenate(lasts))
    return Survey(stream.meta, parts, names, unique, first, last)


def read_cut(path: str | os.PathLike, found: Survey, loader: str | None, *, start_s: float | None = None,
             end_s: float | None = None, epoch: int | None = None) -> tuple[pd.DataFrame, dict]:
    """The second pass: (the compact table of only the rows that the cut of ``loader``'s rows keeps, the meta),
    as :func:`loaderlab.trace.files.columnar_read.read_columnar` gives them for the whole file."""
    with open_columnar(path) as stream:
        try:
            return _read_cut(stream, found, loader, start_s, end_s, epoch)
        except DAMAGED:
            raise stream.damaged() from None


def _read_cut(stream: Stream, found: Survey, loader: str | None, start_s: float | None, end_s: float | None,
              epoch: int | None) -> tuple[pd.DataFrame, dict]:
    plans = [dict(p, encoding="plain") if p["name"] == "t_ns" else p for p in stream.plans]  # times as decoded
    sink = CompactColumns(plans, stream.schema, stream.base)
    t_index = stream.schema.get_field_index("t_ns")
    names = list(found.names)
    selected = -1 if loader is None else names.index(loader)
    origin = found.parts[loader].t_min
    pool = pa.default_memory_pool()
    carry = 0
    for batch in stream.batches():
        b = _Batch(stream, batch, carry, names)
        carry = int(b.t[-1])
        keep = b.loader == selected if loader is not None else np.ones(len(b.t), bool)
        if epoch is not None:
            keep &= b.epoch == epoch
        if start_s is not None or end_s is not None:
            at = np.searchsorted(found.task_keys, b.keys())
            keep &= window_keeps(b.t - origin, found.task_first[at] - origin, found.task_last[at] - origin, b.loop,
                                 b.batch, start_s, end_s)
        if keep.any():
            columns = [pa.array(b.t, pa.int64()) if i == t_index else batch.column(i) for i in range(batch.num_columns)]
            sink.add(pa.RecordBatch.from_arrays(columns, schema=stream.schema).filter(pa.array(keep)))
        del batch, b
        pool.release_unused()
    frame = sink.frame()
    pool.release_unused()
    give_back_freed()
    return frame, stream.meta
