"""Grouping the rows of a big events table with numpy: one id per key, each group's first and last row.

Twin of nothing in torch. What ``groupby(keys, sort=False)`` with ``nth(0)``/``nth(-1)``/``min``/``max`` gives,
without copying the grouped columns into a new table first: on a 10 M-event trace that copy (and pandas'
codes for each key column) cost more memory than the trace itself. Knows numpy and pandas; nothing of
events' meaning, plotly or streamlit.
"""

from __future__ import annotations

from typing import Callable, Mapping

import numpy as np
import pandas as pd


def fold(table: pd.DataFrame | Mapping[str, np.ndarray], keys: list[str]) -> np.ndarray | None:
    """Each row's key (the ``keys`` columns' values together) as one int64, equal where the keys are equal;
    None when a column is not ints or their ranges multiply to 2**62 or more. Columns are read one at a time
    (``table`` may make each on demand)."""
    combined, span = None, 1
    for key in keys:
        values = np.asarray(table[key])
        combined = np.zeros(len(values), np.int64) if combined is None else combined
        if values.dtype.kind not in "iu" or not len(values):
            return None
        lo = int(values.min())
        width = int(values.max()) - lo + 1
        if span * width >= 2**62:
            return None
        combined *= width
        combined += values
        combined -= lo
        span *= width
    return combined


def key_ids(table: pd.DataFrame | Mapping[str, np.ndarray], keys: list[str]) -> np.ndarray:
    """One id per distinct key (the ``keys`` columns' values together), numbered in order of first appearance:
    ``table.groupby(keys, sort=False).ngroup()``. Int columns whose ranges multiply to less than 2**62 are
    folded into one int64 per row and factorized once (a groupby on five columns of a million rows factorizes
    each column and then their combinations). ``table``: a DataFrame, or a dict of equally long arrays."""
    combined = fold(table, keys) if keys else np.zeros(0, np.int64)
    if combined is None:
        return pd.DataFrame({k: np.asarray(table[k]) for k in keys}).groupby(keys, sort=False).ngroup().to_numpy(np.int64)
    span = int(combined.max()) + 1 if len(combined) else 0
    if span <= 2 * len(combined):  # few possible keys (epoch, batch): numbered through an array, not a hash table
        first = np.full(span, len(combined), np.int64)
        np.minimum.at(first, combined, np.arange(len(combined)))
        seen = np.flatnonzero(first < len(combined))
        number = np.empty(span, np.int64)
        number[seen[np.argsort(first[seen], kind="stable")]] = np.arange(len(seen))
        return number[combined]
    return pd.factorize(combined)[0].astype(np.int64)


def tie_sorted(primary: np.ndarray, tie_keys: Callable[[np.ndarray], list[np.ndarray]]) -> np.ndarray:
    """The order of ``np.lexsort((*reversed(tie_keys(all rows)), primary))``: by ``primary``, rows that share
    a value by ``tie_keys(rows)`` (most significant first; given only those rows' positions, ascending), then
    in row order. One stable argsort of ``primary`` (a timestamp column: runs already sorted, which a stable
    sort takes fast) and a lexsort of only the tied rows, at a third of a whole lexsort's time."""
    order = np.argsort(primary, kind="stable")
    at = primary[order]
    tied = np.r_[False, at[1:] == at[:-1]]
    tied[:-1] |= tied[1:]
    where = np.flatnonzero(tied)
    if len(where):
        # the runs, in primary order, get their rows back sorted by every key, ties in row order (as lexsort)
        rows = np.sort(order[where])
        order[where] = rows[np.lexsort((*reversed(tie_keys(rows)), primary[rows]))]
    return order


def sorted_runs(table: pd.DataFrame | Mapping[str, np.ndarray], keys: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(order, run)``: the rows in order of their key, rows of one key in their own order (a stable sort),
    and each sorted row's run number (0, 1, … one per distinct key, ascending). Where the keys fold into one
    int64 this is one sort and no hash table (a 10 M-event export pairs millions of rows); else by
    :func:`key_ids`."""
    combined = fold(table, keys)
    if combined is None:
        combined = key_ids(table, keys)
    order = np.argsort(combined, kind="stable")
    ordered = combined[order]
    run = np.zeros(len(ordered), np.int64)
    np.cumsum(ordered[1:] != ordered[:-1], out=run[1:])
    return order, run


class Joined(Mapping):
    """Two tables' ``keys`` columns end to end, each made only when asked for (for :func:`key_ids`)."""

    def __init__(self, first: pd.DataFrame, second: pd.DataFrame, keys: list[str]) -> None:
        self._first, self._second, self._keys = first, second, keys

    def __getitem__(self, key: str) -> np.ndarray:
        return np.concatenate((self._first[key].to_numpy(), self._second[key].to_numpy()))

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class Gathered(Mapping):
    """Columns (``column(name)`` reads one whole) at ``rows`` — one array of positions, or several whose
    gathered pieces go end to end — each gathered only when asked for, so :func:`fold` holds one at a time:
    a big trace's key columns are millions of rows, and gathering them all first cost hundreds of MB."""

    def __init__(self, column: Callable[[str], np.ndarray], rows: tuple[np.ndarray, ...], names: list[str]) -> None:
        self._column, self._rows, self._names = column, rows, names

    def __getitem__(self, name: str) -> np.ndarray:
        if name not in self._names:
            raise KeyError(name)
        values = self._column(name)
        return values[self._rows[0]] if len(self._rows) == 1 else np.concatenate([values[r] for r in self._rows])

    def __iter__(self):
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


def firsts(codes: np.ndarray, positions: np.ndarray, groups: int) -> np.ndarray:
    """Per group id (``codes`` numbers ``groups`` groups), the smallest of its rows' ``positions``; -1 for a
    group without rows."""
    out = np.full(groups, np.iinfo(np.int64).max, np.int64)
    np.minimum.at(out, codes, positions)
    out[out == np.iinfo(np.int64).max] = -1
    return out


def lasts(codes: np.ndarray, positions: np.ndarray, groups: int) -> np.ndarray:
    """Per group id, the largest of its rows' ``positions``; -1 for a group without rows."""
    out = np.full(groups, -1, np.int64)
    np.maximum.at(out, codes, positions)
    return out


def rank_in_group(group: np.ndarray) -> np.ndarray:
    """Each row's place among the rows of its group, in row order (``groupby(...).cumcount()``)."""
    order = np.argsort(group, kind="stable")
    ordered = group[order]
    first = np.r_[True, ordered[1:] != ordered[:-1]] if len(group) else np.zeros(0, bool)
    step = np.arange(len(group))
    rank = np.empty(len(group), np.int64)
    rank[order] = step - np.maximum.accumulate(np.where(first, step, 0))
    return rank
