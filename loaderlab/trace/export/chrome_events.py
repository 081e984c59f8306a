"""The Chrome export's events as columns: which spans, instants and waits an event table makes, in one pass of numpy.

Twin of nothing in torch. Knows the event vocabulary (:mod:`loaderlab.engine.events`), numpy and pandas;
knows nothing of JSON (:mod:`loaderlab.trace.export.chrome` renders and streams these columns), plotly or streamlit.

A begin pairs with an end of the same track and key the way a queue would: each end takes the oldest begin
still open before it, an end with none open is an instant, a begin never closed is *unfinished*. The n-th
end that finds a begin open takes the n-th begin of its key, so the pairing is a running count per key
(an end is unmatched exactly where the running ``begins - ends`` reaches a new low).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.groups import fold, Gathered, sorted_runs

MAIN_PID = 1
CATEGORY = "loaderlab"
PH_SPAN, PH_INSTANT, PH_SIDE = 0, 1, 2  # an output event: a span, an instant, or text made by chrome.py (rare ones)
PIN_TID = 1_000_000  # tids must differ from every pid used: importers treat a tid seen under two pids as one thread

# begin kind → (end kind, span name, what pairs a begin with its end besides the track)
SPANS = {
    ev.FETCH_BEGIN: (ev.FETCH_END, "fetch", ("epoch", "batch", "index")),  # + pid
    ev.COLLATE_BEGIN: (ev.COLLATE_END, "collate", ("epoch", "batch")),  # + pid
    ev.PIN_BEGIN: (ev.PIN_END, "pin", ("epoch", "batch")),
    ev.CONSUMER_BEGIN: (ev.CONSUMER_END, "consume", ("epoch", "batch")),
    ev.INDEX_GET: (ev.RESULT_PUT, "batch", ("epoch", "batch")),  # + pid: a worker's time on one task
}
_WITH_PID = (ev.FETCH_BEGIN, ev.COLLATE_BEGIN, ev.INDEX_GET)
ENDS = {end: begin for begin, (end, _, _) in SPANS.items()}
FLOW_KINDS = (ev.INDEX_PUT, ev.SAMPLER_YIELD, ev.INDEX_GET, ev.COLLATE_BEGIN, ev.BATCH_YIELD)
# kinds shown as span edges only; every other kind (unknown future ones too) becomes an instant
NOT_INSTANTS = {*SPANS, *ENDS, ev.BATCH_YIELD, ev.WORKER_START, ev.WORKER_READY} - {ev.INDEX_GET, ev.RESULT_PUT}
KINDS = tuple(dict.fromkeys((*ev.ALL_KINDS, *SPANS, *ENDS)))
SPAN_NAMES = ("fetch", "collate", "pin", "consume", "batch", "wait for batch", "wait: epoch ends", "start-up")

# what made an output event, in the order the events of one table row are made (ties keep this order)
SUB_SPAN, SUB_WAIT, SUB_INSTANT = 1, 2, 3


@dataclass
class Rows:
    """The sorted event table's columns as arrays, and each row's Chrome track."""

    frame: pd.DataFrame
    kind: np.ndarray  # code into KINDS; -1 for a kind this LoaderLab does not know
    t: np.ndarray
    worker: np.ndarray
    pid: np.ndarray
    epoch: np.ndarray
    batch: np.ndarray
    index: np.ndarray
    tpid: np.ndarray  # Chrome pid (main 1, worker k → k + 2)
    ttid: np.ndarray
    shown: np.ndarray  # not a memory event (those are counters, on no track)
    _texts: dict = field(default_factory=dict)

    def rows(self, where: np.ndarray) -> list:
        return list(self.frame.iloc[where].itertuples(index=False))

    def texts(self, field: str, encode) -> tuple[np.ndarray, np.ndarray]:
        """``encode(column, field)`` of a column, computed once per table (the export renders in chunks)."""
        if field not in self._texts:
            self._texts[field] = encode(self.frame[field], field)
        return self._texts[field]


def code(kind: str) -> int:
    return KINDS.index(kind)


def table_rows(frame: pd.DataFrame) -> Rows:
    f = frame if frame["t_ns"].is_monotonic_increasing else frame.sort_values("t_ns", kind="stable")
    f = f.reset_index(drop=True) if not isinstance(f.index, pd.RangeIndex) or f.index.start != 0 else f
    if isinstance(f["kind"].dtype, pd.CategoricalDtype):
        codes, uniques = f["kind"].cat.codes.to_numpy(), f["kind"].cat.categories.astype(str)
    else:
        codes, uniques = pd.factorize(f["kind"])
    lookup = np.r_[pd.Index(KINDS).get_indexer(uniques), -1]  # -1: a kind unknown here, or missing
    kind = lookup[np.where(codes >= 0, codes, len(uniques))].astype(np.int16)
    worker = _ints(f["worker"])
    tpid = np.where(worker < 0, MAIN_PID, worker + 2).astype(np.int32)
    ttid = tpid.copy()
    if (worker >= 0).any():  # the pin thread of a multi-process loader runs beside main's loop: its own thread
        ttid[((kind == code(ev.PIN_BEGIN)) | (kind == code(ev.PIN_END))) & (tpid == MAIN_PID)] = PIN_TID
    return Rows(f, kind, f["t_ns"].to_numpy(np.int64), worker, _ints(f["pid"]), _ints(f["epoch"]), _ints(f["batch"]),
                _ints(f["index"]), tpid, ttid, kind != code(ev.MEMORY))


def _ints(column: pd.Series) -> np.ndarray:
    """A compact table's int32 column as it is (no int64 copy of a big trace's column); anything else int64."""
    return column.to_numpy() if column.dtype == np.int32 else column.to_numpy(np.int64)


@dataclass
class Pairs:
    begin: np.ndarray  # row of each matched begin
    end: np.ndarray  # row of its end
    name: np.ndarray  # index into SPAN_NAMES
    unmatched_ends: np.ndarray  # rows of ends with no begin open (instants, except result_put)
    unfinished: np.ndarray  # rows of begins never closed


def pair_spans(r: Rows) -> Pairs:
    begins, ends, names, lone, open_ = [], [], [], [], []
    for begin_kind, (end_kind, name, key) in SPANS.items():
        b_code, e_code = code(begin_kind), code(end_kind)
        rows = np.flatnonzero(r.shown & ((r.kind == b_code) | (r.kind == e_code)))
        if not len(rows):
            continue
        columns = ["tpid", "ttid", *key] + (["pid"] if begin_kind in _WITH_PID else [])
        fast = _alternating(r, rows, r.kind[rows] == b_code, columns[:2] + columns[2 + len(key):], list(key))
        if fast is not None:
            begins.append(fast[0])
            ends.append(fast[1])
            names.append(np.full(len(fast[1]), SPAN_NAMES.index(name)))
            open_.append(fast[2])
            continue
        # each key column is gathered only when the fold reads it, and let go after: a 10 M-event trace's
        # fetches are 8.6 M rows, and six gathered columns at once were 200 MB more at the export's peak
        order, group = sorted_runs(_gather(r, rows, columns), columns)
        rows = rows[order]  # by key, then in table order (rows ascend already); group: each key's run number
        is_begin = r.kind[rows] == b_code
        step = np.where(is_begin, np.int8(1), np.int8(-1))
        first = np.r_[True, group[1:] != group[:-1]]
        starts = np.flatnonzero(first)
        balance = np.cumsum(step, dtype=np.int64)
        balance -= np.repeat(balance[starts] - step[starts], np.diff(np.r_[starts, len(rows)]))
        del step, starts  # a big trace's fetches are millions of rows: each temporary goes when done
        # each key's running max of -balance: keys lie in ascending runs, so lifting each run by key * (more
        # than any spread of -balance) lets one running max over all rows restart at every key
        lift = group * (2 * len(rows) + 2)
        low = np.maximum.accumulate(lift - balance) - lift
        np.clip(low, 0, None, out=low)
        del lift, balance
        before = np.r_[0, low[:-1]]
        before[first] = 0
        unmatched = ~is_begin & (low > before)
        del low, before
        matched_end = ~is_begin & ~unmatched
        # the k-th matched end of a key takes the k-th begin of that key
        b_rank = _rank_within(group, is_begin)
        e_rank = _rank_within(group, matched_end)
        b_first = _first_of_group(group, is_begin)
        begin_pos = np.flatnonzero(is_begin)
        pos_of = b_first[group[matched_end]] + e_rank[matched_end]
        begins.append(rows[begin_pos[pos_of]])
        ends.append(rows[matched_end])
        names.append(np.full(int(matched_end.sum()), SPAN_NAMES.index(name)))
        if end_kind != ev.RESULT_PUT:
            lone.append(rows[unmatched])
        n_matched = np.bincount(group[matched_end], minlength=group.max() + 1)
        open_.append(rows[is_begin & (b_rank >= n_matched[group])])
    cat = (lambda parts: np.concatenate(parts) if parts else np.empty(0, np.int64))
    return Pairs(cat(begins), cat(ends), cat(names), np.sort(cat(lone)), np.sort(cat(open_)))


def _alternating(r: Rows, rows: np.ndarray, is_begin: np.ndarray, track: list[str],
                 key: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The pairing without sorting by key, where it is plain: on every track (``track`` columns: the thread,
    and the process where the key holds it) the rows go begin, end, begin, end… and each end has its begin's
    ``key``. Then each end takes the begin just before it (the only one open with its key), no end is
    unmatched and a track's last begin without an end is unfinished. ``(begins, ends, unfinished)`` rows, or
    None for any other shape (the sort by key handles it)."""
    stream = fold(_gather(r, rows, track), track)  # None for no rows (pair_spans skips those) or wide tracks
    if stream is None:
        return None
    pairs_b, pairs_e, unfinished = [], [], []
    for s in pd.unique(stream):
        at = np.flatnonzero(stream == s)
        kinds = is_begin[at]
        if not kinds[0::2].all() or kinds[1::2].any():
            return None
        pairs_b.append(at[0:len(at) - len(at) % 2:2])
        pairs_e.append(at[1::2])
        unfinished.append(at[len(at) - len(at) % 2:])
    b, e = rows[np.concatenate(pairs_b)], rows[np.concatenate(pairs_e)]
    for name in key:
        column = getattr(r, name)
        if not np.array_equal(column[b], column[e]):
            return None
    return b, e, rows[np.concatenate(unfinished)]


def _gather(r: Rows, rows: np.ndarray, columns: list[str]) -> Gathered:
    """``r``'s ``columns`` at ``rows``, each gathered when asked for (for :func:`~loaderlab.trace.core.groups.fold`)."""
    return Gathered(lambda name: getattr(r, name), (rows,), columns)


def _rank_within(group: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For each row where ``mask``: how many masked rows of its group come before it (sorted by group)."""
    c = np.cumsum(mask) - mask
    first = np.r_[True, group[1:] != group[:-1]]
    starts = np.flatnonzero(first)
    return c - np.repeat(c[starts], np.diff(np.r_[starts, len(group)]))


def _first_of_group(group: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per group id: the position (among masked rows, in order) of its first masked row."""
    counts = np.bincount(group[mask], minlength=group.max() + 1 if len(group) else 0)
    # groups are contiguous and in ascending id order of first appearance in the sorted rows
    ids_in_order = group[np.r_[True, group[1:] != group[:-1]]]
    firsts = np.zeros(len(counts), np.int64)
    firsts[ids_in_order] = np.cumsum(np.r_[0, counts[ids_in_order][:-1]])
    return firsts


def waits(r: Rows) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Main's waits for a batch: (from row, to row, name) where the loop asked for a batch and got one (or the
    epoch ended): an ``epoch_begin``/``consumer_end`` followed, on main's own track, by a ``batch_yield`` or
    ``epoch_end`` with nothing of those four between."""
    setters = (r.kind == code(ev.EPOCH_BEGIN)) | (r.kind == code(ev.CONSUMER_END))
    users = (r.kind == code(ev.BATCH_YIELD)) | (r.kind == code(ev.EPOCH_END))
    seq = np.flatnonzero((setters | users) & r.shown & (r.tpid == MAIN_PID) & (r.ttid == MAIN_PID))
    if len(seq) < 2:
        return np.empty(0, np.int64), np.empty(0, np.int64), np.empty(0, np.int64)
    hit = users[seq[1:]] & setters[seq[:-1]]
    to, frm = seq[1:][hit], seq[:-1][hit]
    name = np.where(r.kind[to] == code(ev.BATCH_YIELD), SPAN_NAMES.index("wait for batch"),
                    SPAN_NAMES.index("wait: epoch ends"))
    return frm, to, name


def instants(r: Rows) -> np.ndarray:
    """Rows shown as instants of their own (not a span's edge)."""
    edge = np.isin(r.kind, [code(k) for k in NOT_INSTANTS])
    return np.flatnonzero(r.shown & ~edge)


def flows(r: Rows) -> pd.DataFrame:
    """One arrow per batch: (epoch, batch, id, then row of its start, step and end); batches with no worker
    between dropped. A stock torch trace has no queue events: its arrows run from the sampler to the collate."""
    mask = r.shown & np.isin(r.kind, [code(k) for k in FLOW_KINDS])
    rows = np.flatnonzero(mask)
    firsts = pd.DataFrame({"epoch": r.epoch[rows], "batch": r.batch[rows], "kind": r.kind[rows], "row": rows})
    firsts = firsts.drop_duplicates(["epoch", "batch", "kind"])
    table = firsts.pivot(index=["epoch", "batch"], columns="kind", values="row")
    table["id"] = np.arange(1, len(table) + 1)  # flow ids number every batch that has one of these events

    def column(*kinds: str) -> np.ndarray:
        out = np.full(len(table), -1, np.int64)
        for k in reversed(kinds):
            if code(k) in table.columns:
                got = table[code(k)].to_numpy()
                out = np.where(np.isnan(got), out, np.nan_to_num(got, nan=-1)).astype(np.int64)
        return out

    out = pd.DataFrame({"epoch": table.index.get_level_values(0), "batch": table.index.get_level_values(1),
                        "id": table["id"].to_numpy(), "start": column(ev.INDEX_PUT, ev.SAMPLER_YIELD),
                        "step": column(ev.INDEX_GET, ev.COLLATE_BEGIN), "end": column(ev.BATCH_YIELD)})
    keep = (out["start"] >= 0) & (out["end"] >= 0) & (out["step"] >= 0)
    out = out[keep]
    return out[r.tpid[out["step"].to_numpy()] != MAIN_PID].reset_index(drop=True)
