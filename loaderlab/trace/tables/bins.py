"""A whole run at a glance: worker utilisation, queue depths and label shares summed over time bins, and a cut
of the events table to a time window — what a dashboard draws when a trace is too big to draw span by span.

Twin of nothing in torch. Pure, vectorised functions over the table :func:`loaderlab.record` returns (any
size: no Python loop runs per event, task or bin). The definitions are those of the detailed tables and are
not repeated here: busy and idle are :func:`loaderlab.trace.tables.utilisation.worker_utilisation`'s (a worker is busy while it holds
a task, :func:`loaderlab.trace.core.lookups.worker_tasks`; alive from ``worker_ready`` to its end, :func:`loaderlab.trace.core.lookups.worker_processes`),
queue depths are :func:`loaderlab.trace.tables.utilisation.queue_depths`' step series, labels are those
:func:`loaderlab.trace.tables.audits.samples` counts (``fetch_end`` of a sample that did not raise, in a batch the loop received).
Summed over the bins, each table gives back the detailed one. Knows pandas and numpy, nothing of plotly or
streamlit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...engine import events as ev
from .audits import is_class, plain_label
from ..core.lookups import hand_overs, normal
from .processes import worker_processes, worker_tasks
from .stays import queue_depths

BINS = 300  # bins across a whole run: a heatmap row of 300 cells is cheap to draw and still shows an epoch's shape
LABEL_WINDOW = 50  # batches per label-share window
BUSY_COLUMNS = ["worker", "bin", "start_s", "end_s", "alive_s", "busy_s", "idle_s", "busy_share"]
DEPTH_BIN_COLUMNS = ["queue", "bin", "start_s", "end_s", "mean_depth", "min_depth", "max_depth"]
LABEL_SHARE_COLUMNS = ["epoch", "window", "first_batch", "last_batch", "start_s", "end_s", "label", "count", "share"]


def _plain(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as :func:`loaderlab.trace.core.lookups.normal` wants it, without copying a big frame only to drop its ``attrs``."""
    if frame.attrs:
        frame = frame.copy(deep=False)  # shares the columns; only the (small) attrs are copied, then dropped
        frame.attrs = {}
    return normal(frame)


# Kinds no table here reads: the sampler's output (its indices are the heaviest cells) and the loop body's marks.
_UNREAD = (ev.SAMPLER_YIELD, ev.CONSUMER_BEGIN, ev.CONSUMER_END)
_INSIDE_TASK = (ev.FETCH_BEGIN, ev.FETCH_END, ev.COLLATE_BEGIN, ev.COLLATE_END)


def skeleton(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame without the events that no table here reads (most of a big trace): the fetch and collate
    events of a task that has both an ``index_get`` and a ``result_put``, in a process that reported
    ``worker_ready``, and every ``sampler_yield`` and ``consumer_*``.

    Such a task's fetches and collate happen between the two in one worker process (the worker loop takes the
    task, fetches, collates, puts the result), so its start and end (:func:`loaderlab.trace.core.lookups.worker_tasks`), its process'
    start, ready and end (:func:`loaderlab.trace.core.lookups.worker_processes`), the hand-overs and every queue stay
    (:func:`loaderlab.trace.tables.utilisation.queue_depths`) are the same without them (tests/trace/tables/test_bins.py checks each).
    The first and last events stay (the trace's start and end). Returns a normal frame (no ``attrs``) whose
    ``kind`` is categorical. The functions below take ``is_skeleton=True`` for a frame that already is one.
    """
    f = _plain(frame)
    kind = f["kind"]
    if not isinstance(kind.dtype, pd.CategoricalDtype):  # one pass over the text; comparisons then cost little
        kind = kind.astype("category")
    inside = kind.isin(_INSIDE_TASK).to_numpy(dtype=bool)
    drop = kind.isin(_UNREAD).to_numpy(dtype=bool).copy()  # written into below
    epoch, batch, pid = f["epoch"].to_numpy(), f["batch"].to_numpy(), f["pid"].to_numpy()
    got, put = (kind == ev.INDEX_GET).to_numpy(dtype=bool), (kind == ev.RESULT_PUT).to_numpy(dtype=bool)
    cand = inside & (batch >= 0)
    if cand.any():
        ready_pids = np.unique(pid[(kind == ev.WORKER_READY).to_numpy(dtype=bool)])
        marks = (got | put) & (batch >= 0)
        lo = int(epoch[cand].min())
        span = int(epoch[cand].max()) - lo + 1
        top = int(max(batch[cand].max(), batch[marks].max() if marks.any() else 0)) + 1
        has_get, has_put = np.zeros((span, top), dtype=bool), np.zeros((span, top), dtype=bool)
        for table, which in ((has_get, got & (batch >= 0)), (has_put, put & (batch >= 0))):
            e = epoch[which] - lo
            ok = (e >= 0) & (e < span)
            table[e[ok], batch[which][ok]] = True
        row, b = epoch[cand] - lo, batch[cand]
        drop[cand] = has_get[row, b] & has_put[row, b] & np.isin(pid[cand], ready_pids)
    drop[0] = drop[-1] = False
    return f.assign(kind=kind)[~drop].reset_index(drop=True)


def _skeletal(frame: pd.DataFrame, is_skeleton: bool) -> pd.DataFrame:
    return _plain(frame) if is_skeleton else skeleton(frame)


def bin_edges(frame: pd.DataFrame, bins: int = BINS) -> np.ndarray:
    """``bins + 1`` evenly spaced edges from the trace's first to its last event (``t_s``)."""
    if not isinstance(bins, int) or isinstance(bins, bool) or bins < 1:
        raise ValueError(f"bins should be a positive integer, but got bins={bins!r}")
    t = frame["t_s"]
    lo, hi = (float(t.min()), float(t.max())) if len(t) else (0.0, 0.0)
    return np.linspace(lo, hi if hi > lo else lo + 1e-9, bins + 1)


def covered(starts, ends, edges: np.ndarray) -> np.ndarray:
    """Per bin ``[edges[i], edges[i+1])``, the time the intervals ``[start, end)`` spend in it (overlaps count
    once per interval; an interval with ``end <= start`` counts nothing).

    Vectorised: ``C(x)``, the time all intervals spent before ``x``, is piecewise linear; a bin holds
    ``C(right) - C(left)``.
    """
    a = np.asarray(starts, dtype=float)
    b = np.asarray(ends, dtype=float)
    keep = np.isfinite(a) & np.isfinite(b) & (b > a)
    a, b = np.sort(a[keep]), np.sort(b[keep])
    x = np.asarray(edges, dtype=float)

    def before(points: np.ndarray) -> np.ndarray:  # sum over points p <= x of (x - p)
        n = np.searchsorted(points, x, side="right")
        sums = np.concatenate([[0.0], np.cumsum(points)])
        return n * x - sums[n]

    c = before(a) - before(b)
    return np.maximum(np.diff(c), 0.0)  # a difference of large sums can come out a hair below zero


def worker_busy_bins(frame: pd.DataFrame, edges: np.ndarray, *, is_skeleton: bool = False) -> pd.DataFrame:
    """Per worker (the worker number; its processes of every epoch together) and bin: ``alive_s`` (ready → its
    end, as ``worker_utilisation``'s lifetime), ``busy_s`` (holding a task), ``idle_s`` = alive − busy and
    ``busy_share`` = busy / alive (NaN where it was not alive). Columns: ``BUSY_COLUMNS``."""
    f = _skeletal(frame, is_skeleton)
    procs = worker_processes(f)
    tasks = worker_tasks(f, procs=procs)
    if not len(procs):
        return pd.DataFrame(columns=BUSY_COLUMNS)
    lo = procs["ready_s"].fillna(procs["first_s"])
    ends = tasks["pid"].map(procs.set_index("pid")["end_s"]).astype(float)
    busy_end = np.minimum(tasks["end_s"].astype(float), ends)  # worker_utilisation clips a task at its process' end
    parts = []
    for worker in sorted(procs["worker"].unique()):  # one pass per worker number, not per task or bin
        mine = procs["worker"] == worker
        alive = covered(lo[mine], procs.loc[mine, "end_s"], edges)
        held = tasks["worker"] == worker
        busy = covered(tasks.loc[held, "start_s"], busy_end[held], edges)
        parts.append(pd.DataFrame({"worker": int(worker), "bin": np.arange(len(edges) - 1), "start_s": edges[:-1],
                                   "end_s": edges[1:], "alive_s": alive, "busy_s": busy}))
    out = pd.concat(parts, ignore_index=True)
    out["idle_s"] = (out["alive_s"] - out["busy_s"]).clip(lower=0)
    alive = out["alive_s"].where(out["alive_s"] > 0)
    out["busy_share"] = (out["busy_s"] / alive).clip(0.0, 1.0)
    return out[BUSY_COLUMNS]


def depth_bins(depths: pd.DataFrame, edges: np.ndarray) -> pd.DataFrame:
    """A ``queue_depths`` step series (``t_s, queue, depth``; a depth holds until the queue's next row, the last
    to the last edge) → per queue and bin its time-weighted ``mean_depth``, and ``min_depth`` / ``max_depth``
    reached in the bin. Columns: ``DEPTH_BIN_COLUMNS``."""
    edges = np.asarray(edges, dtype=float)
    left, width = edges[:-1], np.diff(edges)
    parts = []
    for name, g in depths.groupby("queue", sort=True):  # one pass per queue
        t = g["t_s"].to_numpy(dtype=float)
        d = g["depth"].to_numpy(dtype=float)
        order = np.argsort(t, kind="stable")
        t, d = t[order], d[order]
        # the area under the step series before x: whole steps, then the part of the step x falls in
        area = np.concatenate([[0.0], np.cumsum(d[:-1] * np.diff(t))])

        def integral(x: np.ndarray) -> np.ndarray:
            k = np.searchsorted(t, x, side="right") - 1
            inside = k >= 0
            kk = np.maximum(k, 0)
            return np.where(inside, area[kk] + d[kk] * (x - t[kk]), 0.0)

        mean = np.diff(integral(edges)) / width
        k = np.searchsorted(t, left, side="right") - 1
        at_left = np.where(k >= 0, d[np.maximum(k, 0)], 0.0)  # the depth each bin starts with
        high, low = at_left.copy(), at_left.copy()
        step_bin = np.searchsorted(edges, t, side="right") - 1
        ok = (step_bin >= 0) & (step_bin < len(left))
        np.maximum.at(high, step_bin[ok], d[ok])
        np.minimum.at(low, step_bin[ok], d[ok])
        parts.append(pd.DataFrame({"queue": str(name), "bin": np.arange(len(left)), "start_s": left,
                                   "end_s": edges[1:], "mean_depth": mean, "min_depth": low, "max_depth": high}))
    if not parts:
        return pd.DataFrame(columns=DEPTH_BIN_COLUMNS)
    return pd.concat(parts, ignore_index=True)[DEPTH_BIN_COLUMNS]


def queue_depth_bins(frame: pd.DataFrame, edges: np.ndarray, *, is_skeleton: bool = False) -> pd.DataFrame:
    """:func:`depth_bins` of the frame's :func:`loaderlab.trace.tables.utilisation.queue_depths`."""
    return depth_bins(queue_depths(_skeletal(frame, is_skeleton)), edges)


def _handed(handed: pd.DataFrame, epoch: np.ndarray, batch: np.ndarray) -> np.ndarray:
    """Which samples (their ``epoch``, ``batch``) belong to a batch the loop received (a lookup table per epoch,
    not a merge)."""
    if not len(handed):
        return np.ones(len(epoch), dtype=bool)  # no hand-overs recorded: every fetched sample counts
    if not len(epoch):
        return np.zeros(0, dtype=bool)
    top = int(max(handed["batch"].max(), batch.max())) + 1
    epochs = np.union1d(handed["epoch"].to_numpy(), np.arange(epoch.min(), epoch.max() + 1))  # no sort of samples
    table = np.zeros((len(epochs), top), dtype=bool)
    table[np.searchsorted(epochs, handed["epoch"].to_numpy()), handed["batch"].to_numpy()] = True
    return table[np.searchsorted(epochs, epoch), batch]


def label_share_bins(frame: pd.DataFrame, window: int = LABEL_WINDOW, *,
                     skeleton_frame: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per epoch and window of ``window`` consecutive batches (task ids ``window * k`` …), how many of the
    samples the loop received carry each label, and their ``share`` of the window's labelled samples;
    ``start_s, end_s``: the window's first and last ``fetch_end``. Columns: ``LABEL_SHARE_COLUMNS``.
    ``skeleton_frame``: the frame's :func:`skeleton`, if at hand (the hand-overs are read from it)."""
    if not isinstance(window, int) or isinstance(window, bool) or window < 1:
        raise ValueError(f"window should be a positive integer, but got window={window!r}")
    f = _plain(frame)
    ends = (f["kind"] == ev.FETCH_END).to_numpy(dtype=bool)
    ends = ends & (f["index"].to_numpy() >= 0) & (f["batch"].to_numpy() >= 0)
    at = np.flatnonzero(ends)
    at = at[(f["detail"].iloc[at] == "").to_numpy(dtype=bool)]  # a sample that raised names its exception here
    epoch, batch = f["epoch"].to_numpy()[at], f["batch"].to_numpy()[at]
    keep = _handed(hand_overs(f if skeleton_frame is None else skeleton_frame), epoch, batch)
    at, epoch, batch = at[keep], epoch[keep], batch[keep]
    # Labels are compared as plain values (1.0 is 1, as audits does): only the distinct labels are converted,
    # and labels of mixed types are told apart by their repr.
    codes, uniques = pd.factorize(f["label"].iloc[at])
    plain = [plain_label(v) for v in uniques]
    reprs, names = pd.factorize(pd.Series([repr(v) for v in plain], dtype=object))
    label_of = np.where([is_class(v) for v in plain], reprs, -1).astype("int64") if len(plain) else reprs
    label = np.where(codes >= 0, label_of[np.maximum(codes, 0)] if len(plain) else -1, -1)
    labelled = label >= 0
    if not labelled.any():
        return pd.DataFrame(columns=LABEL_SHARE_COLUMNS)
    at, epoch, batch, label = at[labelled], epoch[labelled], batch[labelled], label[labelled]
    first_epoch, wins = int(epoch.min()), int(batch.max()) // window + 1
    cell = (epoch - first_epoch) * wins + batch // window  # (epoch, window) as one number
    key = cell * len(names) + label
    if (top := int(key.max()) + 1) <= 50_000_000:  # a count per possible key: no sort of the samples
        counts = np.bincount(key, minlength=top)
        cells = np.flatnonzero(counts)
        counts = counts[cells]
    else:
        cells, counts = np.unique(key, return_counts=True)
    out = pd.DataFrame({"_cell": cells // len(names), "_label": cells % len(names), "count": counts})
    spans = pd.DataFrame({"_cell": cell, "batch": batch, "t_s": f["t_s"].to_numpy()[at]}).groupby("_cell").agg(
        first_batch=("batch", "min"), last_batch=("batch", "max"), start_s=("t_s", "min"), end_s=("t_s", "max"))
    out = out.join(spans, on="_cell")
    out["epoch"] = out["_cell"] // wins + first_epoch
    out["window"] = out["_cell"] % wins
    first = {}  # the plain label each repr stands for
    for name_code, value in zip(reprs, plain):
        first.setdefault(int(name_code), value)
    out["label"] = pd.Series([first[int(c)] for c in out["_label"]], index=out.index, dtype=object)
    out["share"] = out["count"] / out.groupby("_cell")["count"].transform("sum")
    out["count"] = out["count"].astype("int64")
    return out[LABEL_SHARE_COLUMNS].sort_values(["epoch", "window", "count"], ascending=[True, True, False],
                                                kind="stable").reset_index(drop=True)


def cut_window(frame: pd.DataFrame, t0: float, t1: float) -> pd.DataFrame:
    """The events in ``[t0, t1)``, plus every other event of each task (``epoch, batch``) that has one in the
    window, so that a fetch, collate or queue stay crossing an edge keeps both its ends instead of looking
    unfinished; the table keeps its columns, dtypes, ``t_s`` axis and ``attrs``. Events of no task (start-up,
    exits, epoch marks) count only inside the window.
    """
    if not t1 > t0:
        raise ValueError(f"cut_window needs t0 < t1, but got t0={t0!r}, t1={t1!r}")
    t = frame["t_s"].to_numpy()
    if len(t) and not frame["t_s"].is_monotonic_increasing:
        raise ValueError("cut_window needs a frame sorted by t_s, as loaderlab.record returns it")
    lo, hi = np.searchsorted(t, [t0, t1], side="left")
    inside = np.zeros(len(t), dtype=bool)
    inside[lo:hi] = True
    epoch, batch = frame["epoch"].to_numpy(), frame["batch"].to_numpy()
    mine = inside & (batch >= 0)
    for e in np.unique(epoch[mine]):  # one lookup table per epoch in the window (usually one or two)
        ids = np.unique(batch[mine & (epoch == e)])
        table = np.zeros(int(ids.max()) + 1, dtype=bool)
        table[ids] = True
        cand = (epoch == e) & (batch >= 0) & (batch <= ids.max())
        inside[cand] |= table[batch[cand]]
    return frame[inside].reset_index(drop=True)


def depths_in_window(depths: pd.DataFrame, t0: float, t1: float) -> pd.DataFrame:
    """The rows of a ``queue_depths`` step series that fall in ``[t0, t1)``, each queue starting with the depth
    it held at ``t0`` (a row at ``t0``): the detailed series of a window, without recomputing it from a cut."""
    if not len(depths):
        return depths.iloc[0:0]
    t = depths["t_s"]
    earlier = depths[t <= t0]
    held = earlier.loc[earlier.groupby("queue", sort=False)["t_s"].idxmax()].assign(t_s=float(t0))
    inside = depths[(t > t0) & (t < t1)]  # only these few rows are sorted
    return pd.concat([held, inside]).sort_values(["queue", "t_s"], kind="stable").reset_index(drop=True)


def label_counts(shares: pd.DataFrame) -> pd.DataFrame:
    """``label_share_bins`` summed per epoch: ``epoch, label, count, share``, the numbers and order of
    ``label_audit(...).per_epoch`` without reading the samples again."""
    if not len(shares):
        return pd.DataFrame(columns=["epoch", "label", "count", "share"])
    keyed = shares.assign(_key=shares["label"].map(repr))
    out = keyed.groupby(["epoch", "_key"], as_index=False, sort=False).agg(label=("label", "first"),
                                                                          count=("count", "sum"))
    out["share"] = out["count"] / out.groupby("epoch")["count"].transform("sum")
    out = out[["epoch", "label", "count", "share"]]
    try:
        return out.sort_values(["epoch", "label"], kind="stable").reset_index(drop=True)
    except TypeError:  # labels of mixed types: ordered by their text, as label_audit orders them
        return out.sort_values(["epoch", "label"], key=lambda c: c.astype(str), kind="stable").reset_index(drop=True)
