"""Shared lookups on an events table (see :func:`loaderlab.record`): the pieces the analysis tables are built from.

Twin of nothing in torch. Knows the event vocabulary of :mod:`loaderlab.engine.events` and pandas; knows
nothing of plotly or streamlit. Conventions (``batch`` = task id, ``position`` = hand-over order, times in
seconds on ``t_s``, missing event kinds → empty tables or NaN) are described in :mod:`loaderlab.trace.tables.waits`.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping

import numpy as np
import pandas as pd
import pyarrow as pa

from ...engine import events as ev
from .run import as_run, events_of, Run
from .frame import arg_column, INT_COLUMNS as _INT_COLUMNS
from .groups import Gathered, Joined, key_ids, rank_in_group
from .cache import shared

_DEFAULTS = {"kind": "", "t_ns": 0, "pid": 0, "worker": ev.MAIN_PROCESS, "epoch": 0, "batch": ev.NO_BATCH,
             "index": ev.NO_BATCH, "queue": "", "nbytes": 0, "label": None, "length": -1, "detail": "",
             "arg0": ev.NO_ARG, "arg1": ev.NO_ARG, "arg2": ev.NO_ARG, "arg3": ev.NO_ARG, "indices": None}


_NORMAL_INTS = (np.dtype("int64"), np.dtype("int32"))  # int32: a compact table (frame.compact_table)


def normal(frame: pd.DataFrame | Run) -> pd.DataFrame:
    """The frame (or a :class:`~loaderlab.trace.core.run.Run`'s events) with every event column present (defaults for absent
    ones), ``t_s`` filled in, sorted by time.

    The result has no ``attrs``: pandas deep-copies ``attrs`` on every operation, which would dominate the
    cost of the analysis; read settings from the run (:func:`settings`) before normalising.
    A frame that is already normal is returned as it is (nothing here modifies a frame in place).
    """
    frame = events_of(frame)
    if (set(_DEFAULTS).issubset(frame.columns) and "t_s" in frame.columns
            and all(frame[c].dtype in _NORMAL_INTS for c in _INT_COLUMNS) and frame["t_s"].is_monotonic_increasing
            and frame.index.equals(pd.RangeIndex(len(frame)))):
        if not frame.attrs:
            return frame
        f = frame.copy(deep=False)  # the same columns without the attrs: no copy of a big table per call
        f.attrs = {}
        return f
    f = frame.copy()
    f.attrs = {}
    for column, default in _DEFAULTS.items():  # an old file's detail text was read as it loaded (files.old_details)
        if column not in f.columns:
            f[column] = default
    if "t_s" not in f.columns:
        start = f["t_ns"].min() if len(f) else 0
        f["t_s"] = (f["t_ns"] - start) / 1e9
    for column in _INT_COLUMNS:
        f[column] = f[column].fillna(_DEFAULTS[column]).astype("int64")
    f["t_s"] = f["t_s"].astype(float)
    f["detail"] = f["detail"].fillna("").astype(str)
    f["queue"] = f["queue"].fillna("").astype(str)
    return f.sort_values("t_s", kind="stable").reset_index(drop=True)


INDEX_MIN_ROWS = 50_000  # a table this long gets its rows per kind found once (see kind_positions)
_KIND_INDEX: dict[int, tuple[weakref.ref, dict[str, np.ndarray]]] = {}


def _kind_index(f: pd.DataFrame) -> dict[str, np.ndarray] | None:
    """Each kind's row positions (ascending) in ``f``, worked out once per ``kind`` column and kept while
    that column lives; None for a short table or a ``kind`` column that is not Arrow-backed.

    A report filters the same table by kind ~130 times (each a scan of every row's kind): on a big trace
    that scan was a third of the report. The key is the column's Arrow array, which is immutable — writing
    to the column gives it a new array (a new key) — so an index never describes other values."""
    if len(f) < INDEX_MIN_ROWS:
        return None
    data = getattr(f["kind"].array, "_pa_array", None)
    if not isinstance(data, pa.ChunkedArray):
        return None
    key = id(data)
    hit = _KIND_INDEX.get(key)
    if hit is not None and hit[0]() is data:
        return hit[1]
    codes, uniques = pd.factorize(f["kind"].array, use_na_sentinel=True)
    order = np.argsort(codes, kind="stable").astype(np.int32 if len(f) < 2**31 else np.int64)
    bounds = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
    index = {str(u): order[bounds[i]:bounds[i + 1]] for i, u in enumerate(uniques)}
    _KIND_INDEX[key] = (weakref.ref(data, lambda _, key=key: _KIND_INDEX.pop(key, None)), index)
    return index


def kind_positions(f: pd.DataFrame, *kinds: str) -> np.ndarray | None:
    """The positions (ascending) of ``f``'s rows of these kinds, from the table's kind index; None when the
    table has none (then filter with ``f["kind"].isin(kinds)``)."""
    if len(f) >= INDEX_MIN_ROWS and isinstance(f["kind"].dtype, pd.CategoricalDtype):
        # A compact table's kinds are small codes: a scan of them is cheap (and they may be written in place)
        kind = f["kind"].array
        wanted = [kind.categories.get_loc(k) for k in dict.fromkeys(kinds) if k in kind.categories]
        codes = kind.codes
        mask = codes == wanted[0] if len(wanted) == 1 else np.isin(codes, wanted)
        return np.flatnonzero(mask)
    index = _kind_index(f)
    if index is None:
        return None
    parts = [index[k] for k in dict.fromkeys(kinds) if k in index]
    if len(parts) == 1:
        return parts[0]
    return np.sort(np.concatenate(parts)) if parts else np.zeros(0, dtype=np.int64)


def rows(f: pd.DataFrame, *kinds: str, columns: list[str] | None = None) -> pd.DataFrame:
    """``f``'s rows of these kinds (its index kept): ``f[f["kind"].isin(kinds)]``; with ``columns``, only
    those columns (``[...][columns]``), and only they are copied — a big trace's fetch rows are most of it."""
    at = kind_positions(f, *kinds)
    if at is None:
        picked = f[f["kind"].isin(kinds)]
        return picked if columns is None else picked[columns]
    return (f if columns is None else f[columns]).take(at)


def named_rows(f: pd.DataFrame, kind: str, columns: list[str]) -> pd.DataFrame:
    """``f``'s rows of ``kind`` with ``columns`` (its index kept), where a column that is not the table's is one
    of the kind's named numbers (:func:`~loaderlab.trace.core.frame.arg_column`: ``collate_end``'s ``cpu_ns``,
    ``runqueue_ns``…), read from its ``argN`` under its name."""
    names = {c: arg_column(kind, c) for c in columns if c not in f.columns}
    out = rows(f, kind, columns=[names.get(c, c) for c in columns])
    return out.rename(columns={a: c for c, a in names.items()}) if names else out


def has_kind(f: pd.DataFrame, kind: str) -> bool:
    at = kind_positions(f, kind)
    return bool(len(at)) if at is not None else bool((f["kind"] == kind).any())


@shared
def main_pid(frame: pd.DataFrame) -> int | None:
    """The main process's pid: whoever began the epochs (or, failing that, emitted events as worker -1)."""
    f = rows(frame, ev.EPOCH_BEGIN, ev.BATCH_YIELD, ev.SAMPLER_YIELD)
    if not len(f):
        f = frame[frame["worker"] == ev.MAIN_PROCESS]
    return int(f["pid"].mode().iloc[0]) if len(f) else None


def settings(trace: pd.DataFrame | Run) -> dict:
    """The loader's settings of a :class:`~loaderlab.trace.core.run.Run` (or of a bare table's, see :func:`~loaderlab.trace.core.run.as_run`)."""
    return dict(as_run(trace).loader)


def prefetch_cap(frame: pd.DataFrame) -> float:
    """``prefetch_factor * num_workers``: the most tasks the main process lets out at once (NaN if unknown)."""
    s = settings(frame)
    if s.get("num_workers") and s.get("prefetch_factor") is not None:
        return float(s["num_workers"] * s["prefetch_factor"])
    return math.nan


def trace_end(f: pd.DataFrame) -> float:
    return float(f["t_s"].max()) if len(f) else 0.0


def batch_indices(indices: list | None, samples: int) -> list | None:
    """A ``sampler_yield``'s ``indices`` and ``samples`` → its indices as a list; an IterableDataset's batch
    (no indices, ``samples`` of them) → that many Nones; None if the batch is unknown."""
    if indices is not None and indices is not pd.NA:  # NA: a compact table's missing list (an Arrow column)
        return list(indices)
    return [None] * int(samples) if samples >= 0 else None


@shared
def sampler_order(frame: pd.DataFrame) -> pd.DataFrame:
    """Per task: ``epoch, batch, indices`` (a list; None entries for an IterableDataset), from ``sampler_yield``."""
    f = named_rows(normal(frame), ev.SAMPLER_YIELD, ["epoch", "batch", "indices", "samples"])
    f = f.drop_duplicates(["epoch", "batch"])
    out = f[["epoch", "batch"]].copy()
    out["indices"] = [batch_indices(i, n) for i, n in zip(f["indices"], f["samples"])]
    return out.sort_values(["epoch", "batch"]).reset_index(drop=True)


@shared
def drawn_per_task(frame: pd.DataFrame) -> pd.Series:
    """Per task (index ``epoch, batch``, in order), how many samples the sampler drew for it: the length of
    :func:`sampler_order`'s ``indices`` (NaN where unknown), without making those lists."""
    f = named_rows(normal(frame), ev.SAMPLER_YIELD, ["epoch", "batch", "indices", "samples"])
    f = f.drop_duplicates(["epoch", "batch"])
    indices, samples = f["indices"], f["samples"].to_numpy()
    if isinstance(indices.dtype, pd.ArrowDtype):  # a compact table's Arrow lists: their lengths at once
        import pyarrow.compute as pc

        lengths = pc.list_value_length(indices.array._pa_array).to_numpy(zero_copy_only=False)
        missing = indices.isna().to_numpy()
    else:
        values = indices.to_numpy(dtype=object)
        missing = np.array([i is None for i in values], dtype=bool)
        lengths = np.array([len(i) if i is not None else 0 for i in values], dtype=float)
    drawn = np.where(missing, np.where(samples >= 0, samples, np.nan), lengths).astype(float)
    out = pd.Series(drawn, index=pd.MultiIndex.from_arrays([f["epoch"].to_numpy(), f["batch"].to_numpy()],
                                                           names=["epoch", "batch"]), name="indices")
    return out.sort_index()


@shared
def hand_overs(f: pd.DataFrame) -> pd.DataFrame:
    """Hand-overs: ``epoch, position, batch (task id), t_s``; the task id is the ``batch_yield``'s ``task``
    (a recorder that does not know it, as for a stock torch loader, leaves it NO_ARG: the position then)."""
    y = named_rows(f, ev.BATCH_YIELD, ["epoch", "batch", "t_s", "task"])
    task = y["task"].where(y["task"] != ev.NO_ARG, y["batch"])
    out = pd.DataFrame({"epoch": y["epoch"], "position": y["batch"], "batch": task, "t_s": y["t_s"]})
    out["batch"] = out["batch"].astype("int64")
    return out.drop_duplicates(["epoch", "position"]).reset_index(drop=True)


@shared
def paired_rows(f: pd.DataFrame, begin: str, end: str, keys: list[str]) -> pd.DataFrame:
    """:func:`pair` of ``f``'s ``begin`` and ``end`` rows, copying only what the result holds (the keys are read
    from the table one column at a time: a big trace's fetches are millions of rows)."""
    at_begin, at_end = positions(f, begin), positions(f, end)
    out = f[keys + ["t_s"]].take(at_begin).rename(columns={"t_s": "start_s"}).reset_index(drop=True)
    at = _alternating(f, at_begin, at_end, keys)
    if at is None:
        keyed = Gathered(lambda k: f[k].to_numpy(), (at_begin, at_end), keys)  # begins' then ends' key columns
        at = _match(keyed, len(at_begin), len(at_end), keys)
    t_end = f["t_s"].to_numpy(dtype=float)[at_end]
    out["end_s"] = np.where(at >= 0, t_end[np.maximum(at, 0)] if len(t_end) else np.nan, np.nan)
    return out


def _alternating(f: pd.DataFrame, at_begin: np.ndarray, at_end: np.ndarray, keys: list[str]) -> np.ndarray | None:
    """:func:`_match`'s answer without hashing a key, where each process's begins and ends simply alternate
    (begin, its end, begin, its end…: a process fetches one sample at a time), else None.

    Within one process (``pid`` is a key), if every end directly follows a begin with the same keys, a key's
    ends and begins pair off in order, so the n-th begin of a key meets the n-th end of that key — what
    :func:`_match` finds by numbering every key (1.5 s of a 10 M-event report) — and a last begin with no end
    meets none. Any other shape (an end first, two begins in a row, keys that differ) returns None."""
    if "pid" not in keys or not len(at_begin):
        return None
    pid = f["pid"].to_numpy()
    pid_begin, pid_end = pid[at_begin], pid[at_end]
    at = np.full(len(at_begin), -1, np.int64)
    for p in pd.unique(pid_begin):
        b, e = np.flatnonzero(pid_begin == p), np.flatnonzero(pid_end == p)
        first, last = at_begin[b], at_end[e]
        if len(e) not in (len(b), len(b) - 1) or not (first[:len(e)] < last).all() \
                or not (last[:len(b) - 1] < first[1:]).all():
            return None
        at[b[:len(e)]] = e
    met = at >= 0
    begun, ended = at_begin[met], at_end[at[met]]
    for key in keys:
        if key != "pid":
            column = f[key].to_numpy()
            if not np.array_equal(column[begun], column[ended]):
                return None
    return at


def pair(begins: pd.DataFrame, ends: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Match the n-th begin of each key with the n-th end: ``keys + [start_s, end_s]`` (end NaN if none)."""
    out = begins[keys + ["t_s"]].rename(columns={"t_s": "start_s"}).reset_index(drop=True)
    at = _match(Joined(begins, ends, keys), len(begins), len(ends), keys)
    end = ends["t_s"].to_numpy(dtype=float)
    out["end_s"] = np.where(at >= 0, end[np.maximum(at, 0)] if len(end) else np.nan, np.nan)
    return out


def _match(keyed: Mapping, n_begins: int, n_ends: int, keys: list[str]) -> np.ndarray:
    """For each begin, the position among the ends of its end (-1: none): the n-th begin of a key meets the
    n-th end of that key. ``keyed``: the begins' then the ends' key columns (:class:`~loaderlab.trace.core.groups.Joined`,
    :class:`~loaderlab.trace.core.groups.Gathered`)."""
    # One id per key over begins and ends together, then each row's rank among its key's rows: the n-th begin
    # meets the n-th end where (id, rank) match (a merge on all the keys cost a big trace a tenth of its report)
    group = key_ids(keyed, keys) if n_begins + n_ends else np.zeros(0, np.int64)
    ids = int(group.max()) + 1 if len(group) else 0
    front, back = group[:n_begins], group[n_begins:]
    if ids and np.bincount(front, minlength=ids).max() <= 1 and np.bincount(back, minlength=ids).max() <= 1:
        where = np.full(ids, -1, np.int64)  # each key begins and ends at most once (a sample's fetch): no ranks
        where[back] = np.arange(len(back))
        return where[front]
    nth = np.r_[rank_in_group(front), rank_in_group(back)]
    width = int(nth.max()) + 1 if len(nth) else 1
    key = group * width + nth
    return pd.Index(key[n_begins:]).get_indexer(key[:n_begins])


def positions(f: pd.DataFrame, *kinds: str) -> np.ndarray:
    """The positions (ascending) of ``f``'s rows of these kinds, however the table is held."""
    at = kind_positions(f, *kinds)
    return at if at is not None else np.flatnonzero(f["kind"].isin(kinds).to_numpy())
