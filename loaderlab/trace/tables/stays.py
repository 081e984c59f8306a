"""Where every batch stays, place by place: one table of stays, and what sits where at sampled moments.

Twin of nothing in torch (torch keeps no record of what sits in its queues; its ``dataloader.py`` only
draws them in a comment). Pure functions over the events table: knows the event vocabulary and pandas,
nothing of plotly, streamlit or any language. :func:`queue_stays` is the one place the rules below live:
:func:`queue_depths` counts its queue rows, :func:`queue_snapshots` samples all of them, so the depth plot
and the animation cannot disagree. (:mod:`loaderlab.trace.tables.waits` re-exports ``queue_depths``.)

Where one batch is between two of its events (an item whose leaving is missing leaves when its queue goes,
or stays to the end of the trace: ``end_s`` NaN)::

    index_queue[k]   index_put                → index_get           (else: worker k exits)
    worker k         index_get (or 1st fetch) → result_put          (else: the process ends)
    result_queue     result_put               → pin_begin / result_get (else: next epoch's drain, shutdown)
    pin thread       pin_begin                → pin_end             (pin_memory=True only)
    data_queue       pin_end                  → result_get          (pin_memory=True only)
    reorder          reorder_park             → reorder_release     (else: the epoch ends)
    loop             batch_yield              → consumer_end        (else: the epoch ends)
    outstanding      index_put                → handed over: reorder_release if parked, else result_get
                                                                    (else: the epoch ends)

A persistent worker's results left over from an epoch cut short are drained at the next epoch's start and
logged with the new epoch, so a leave is matched only at or after its enter, and a result left in the
queue at an epoch's end may leave under the next epoch's number.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.cache import shared
from ..core.lookups import hand_overs, main_pid, normal, prefetch_cap, rows, settings, trace_end
from .processes import worker_tasks

DEPTH_COLUMNS = ["t_s", "queue", "depth"]
STAY_COLUMNS = ["place", "k", "epoch", "batch", "start_s", "end_s"]
# The places a batch passes through, in the order it travels (``outstanding`` is the count main caps).
PLACES = ("index_queue", "worker", "result_queue", "pin", "data_queue", "reorder", "loop", "outstanding")
QUEUES = ("index_queue", "result_queue", "data_queue", "reorder", "outstanding")  # what queue_depths counts
MEASURED = ("index_queue", "result_queue", "pin", "data_queue", "reorder", "outstanding")  # what the summary times
ROWS = PLACES[:-1]  # what the snapshots show: every place a batch can be seen in
MAX_FRAMES = 150  # plotly animations stay smooth below ~200 frames (see notes/streamlit.md)
CONTENT_COLUMNS = ["frame", "t_s", "row", "k", "slot", "epoch", "batch", "worker"]
KEYS = ["epoch", "batch"]


def _first_leave(enters: pd.DataFrame, leaves: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """``enters``' keys with ``start_s``, and ``end_s`` from the first matching leave at or after it (NaN if none)."""
    e = enters[keys + ["t_s"]].drop_duplicates(keys).rename(columns={"t_s": "start_s"})
    lv = e.merge(leaves[keys + ["t_s"]].rename(columns={"t_s": "end_s"}), on=keys)
    lv = lv[lv["end_s"] >= lv["start_s"]].groupby(keys, as_index=False)["end_s"].min()
    return e.merge(lv, on=keys, how="left")


def _fill(iv: pd.DataFrame, times: pd.Series) -> pd.DataFrame:
    """Missing ends ← the first of ``times`` at or after the start (the queue was dropped then)."""
    t = np.sort(times.to_numpy(dtype=float))
    missing = iv["end_s"].isna().to_numpy()
    if len(t) and missing.any():
        pos = t.searchsorted(iv.loc[missing, "start_s"].to_numpy(), side="left")
        iv.loc[missing, "end_s"] = [t[p] if p < len(t) else math.nan for p in pos]
    return iv


def _worker_of(queue: str) -> int:
    return int(queue.split("[")[-1].rstrip("]")) if "[" in queue else -1


@shared
def queue_stays(frame: pd.DataFrame, places: tuple[str, ...] = PLACES) -> pd.DataFrame:
    """Every stay of every batch in ``places`` (see the module docstring): ``STAY_COLUMNS``.

    ``k`` is the worker for ``index_queue`` and ``worker`` rows, -1 elsewhere; ``end_s`` NaN: it never left.
    Rows come place by place in :data:`PLACES` order (index queues by name).
    """
    f = normal(frame)
    mp = main_pid(f)
    main_exits = rows(f, ev.WORKER_EXIT)
    main_exits = main_exits[main_exits["pid"] == mp]
    queue_gone = pd.concat([main_exits["t_s"], rows(f, ev.EPOCH_BEGIN)["t_s"]])  # shut down, or drained
    epoch_marks = pd.concat([rows(f, ev.EPOCH_BEGIN, ev.EPOCH_END)["t_s"], main_exits["t_s"]])
    puts, received = rows(f, ev.INDEX_PUT), rows(f, ev.RESULT_GET)
    parts = []
    if "index_queue" in places:
        gets, exits = rows(f, ev.INDEX_GET), rows(f, ev.WORKER_EXIT)  # an exit: the worker's queue is gone
        for name, enters in puts.groupby("queue"):
            k = _worker_of(str(name))
            gone = exits[exits["worker"] == k]["t_s"] if k >= 0 else exits["t_s"].iloc[0:0]
            parts.append(_fill(_first_leave(enters, gets[gets["queue"] == name], KEYS), gone)
                         .assign(place="index_queue", k=k))
    if "worker" in places:
        tasks = worker_tasks(f)
        if len(tasks):
            parts.append(tasks[["worker", "epoch", "batch", "start_s", "end_s"]].rename(columns={"worker": "k"})
                         .assign(place="worker"))
    if len(rows(f, ev.RESULT_PUT)):
        if "result_queue" in places:
            taken = pd.concat([rows(f, ev.PIN_BEGIN), received])  # the pin thread takes Results; main the rest
            iv = _first_leave(rows(f, ev.RESULT_PUT), taken, KEYS)
            stale = iv[iv["end_s"].isna()].assign(epoch=lambda t: t["epoch"] + 1, t_s=lambda t: t["start_s"])
            iv.loc[iv["end_s"].isna(), "end_s"] = _first_leave(stale, taken, KEYS)["end_s"].to_numpy()
            parts.append(_fill(iv, queue_gone).assign(place="result_queue", k=-1))
    if "pin" in places and len(rows(f, ev.PIN_BEGIN)):  # a stock loader's trace has pins but no queue events
        pin = _first_leave(rows(f, ev.PIN_BEGIN), rows(f, ev.PIN_END), KEYS)
        parts.append(_fill(pin, queue_gone).assign(place="pin", k=-1))
    if "data_queue" in places and len(rows(f, ev.RESULT_PUT)) and len(rows(f, ev.PIN_END)):
        data = _first_leave(rows(f, ev.PIN_END), received[received["queue"] == "data_queue"], KEYS)
        parts.append(_fill(data, queue_gone).assign(place="data_queue", k=-1))
    if "reorder" in places and len(rows(f, ev.REORDER_PARK)):
        iv = _first_leave(rows(f, ev.REORDER_PARK), rows(f, ev.REORDER_RELEASE), KEYS)
        parts.append(_fill(iv, epoch_marks).assign(place="reorder", k=-1))
    if "loop" in places:
        handed = hand_overs(f)
        if len(handed):
            ends = rows(f, ev.CONSUMER_END).rename(columns={"batch": "position"})
            iv = _first_leave(handed, ends, ["epoch", "position"])  # consumer events count positions, not tasks
            iv = iv.merge(handed[["epoch", "position", "batch"]], on=["epoch", "position"])
            parts.append(_fill(iv, epoch_marks).assign(place="loop", k=-1))
    if "outstanding" in places and len(puts):
        # Main hands a batch over (and only then sends the next task) on arrival, or on release if parked.
        parked = rows(f, ev.REORDER_PARK)[KEYS].drop_duplicates()
        direct = received.merge(parked, on=KEYS, how="left", indicator=True)
        direct = direct[direct["_merge"] == "left_only"]
        iv = _first_leave(puts, pd.concat([rows(f, ev.REORDER_RELEASE), direct]), KEYS)
        parts.append(_fill(iv, epoch_marks).assign(place="outstanding", k=-1))
    if not parts:
        return pd.DataFrame(columns=STAY_COLUMNS)
    return pd.concat([p[STAY_COLUMNS] for p in parts], ignore_index=True)


@shared
def queue_depths(frame: pd.DataFrame) -> pd.DataFrame:
    """A step series per queue: ``t_s, queue, depth`` — the depth from ``t_s`` until the queue's next row.

    Each queue starts at depth 0 at the start of the trace. Queues: ``index_queue[k]``, ``result_queue``,
    ``data_queue`` (pin stage), ``reorder`` and ``outstanding`` (the :data:`QUEUES` of :func:`queue_stays`).
    """
    f = normal(frame)
    start = float(f["t_s"].min()) if len(f) else 0.0
    parts = []
    stays = queue_stays(f, MEASURED)  # the summary's stays (computed once per trace in a report): pin left out
    for (place, k), iv in stays[stays["place"] != "pin"].groupby(["place", "k"], sort=False):
        name = f"index_queue[{k}]" if place == "index_queue" else place
        ups = pd.DataFrame({"t_s": iv["start_s"], "delta": 1})
        downs = pd.DataFrame({"t_s": iv["end_s"].dropna(), "delta": -1})
        steps = pd.concat([ups, downs]).sort_values(["t_s", "delta"], kind="stable")  # leave before enter
        steps = pd.concat([pd.DataFrame({"t_s": [start], "delta": [0]}), steps], ignore_index=True)
        steps["depth"] = steps["delta"].cumsum().astype("int64")
        steps = steps.drop_duplicates("t_s", keep="last")  # one depth per instant
        parts.append(steps.assign(queue=name)[DEPTH_COLUMNS])
    if not parts:
        return pd.DataFrame(columns=DEPTH_COLUMNS)
    return pd.concat(parts, ignore_index=True)


class Snapshots(NamedTuple):
    """``rows``: (row, k) from top to bottom; ``times``: the sampled moments; ``contents``: one line per batch
    per frame (``CONTENT_COLUMNS``; slot 0 = next out); ``counters``: ``frame, t_s, outstanding, handed``;
    ``cap``: ``prefetch_factor * num_workers`` (NaN without workers)."""

    rows: list
    times: list
    contents: pd.DataFrame
    counters: pd.DataFrame
    cap: float


def queue_rows(num_workers: int, pin: bool = False) -> list[tuple[str, int]]:
    """The rows of the snapshots, top to bottom: the way a batch travels."""
    out = [("index_queue", k) for k in range(num_workers)] + [("worker", k) for k in range(num_workers)]
    out.append(("result_queue", -1))
    if pin:
        out += [("pin", -1), ("data_queue", -1)]
    return out + [("reorder", -1), ("loop", -1)]


def _times(stays: pd.DataFrame, start: float, end: float, max_frames: int) -> list[float]:
    """One moment per change of state if there are few enough, else ``max_frames`` moments evenly spread."""
    changes = pd.concat([stays["start_s"], stays["end_s"]]).dropna()
    changes = sorted({float(t) for t in changes if start <= t <= end})
    moments = sorted({start, *changes})
    if len(moments) <= max_frames:
        return moments
    return [float(t) for t in np.linspace(start, end, max_frames)]


def queue_snapshots(frame: pd.DataFrame, depths: pd.DataFrame | None = None, *,
                    max_frames: int = MAX_FRAMES) -> Snapshots:
    """What sits in each place at up to ``max_frames`` moments of the run (the rules of :func:`queue_stays`).

    ``depths``: ``queue_depths(frame)`` if already at hand; its ``outstanding`` series gives the counter
    that the main process holds under ``prefetch_factor * num_workers``.
    """
    depths = queue_depths(frame) if depths is None else depths
    loader, cap = settings(frame), prefetch_cap(frame)  # attrs are gone once normalised
    f = normal(frame)
    stays = queue_stays(f, ROWS).rename(columns={"place": "row"})
    n = int(loader.get("num_workers") or 0) or int(f["worker"].max() + 1 if len(f) else 0)
    grid = queue_rows(n, pin=bool((stays["row"] == "pin").any()))
    start, end = (float(f["t_s"].min()), trace_end(f)) if len(f) else (0.0, 0.0)
    times = _times(stays, start, end, max_frames)
    # Which worker made each task (its index queue says so; its result, failing that).
    made = pd.concat([stays[stays["row"].isin(["index_queue", "worker"])][["epoch", "batch", "k"]],
                      rows(f, ev.RESULT_PUT)[["epoch", "batch", "worker"]].rename(columns={"worker": "k"})])
    made = made.drop_duplicates(["epoch", "batch"]).rename(columns={"k": "worker"})
    stays = stays.merge(made, on=["epoch", "batch"], how="left")
    stays["worker"] = stays["worker"].fillna(-1).astype("int64")

    t = np.asarray(times, dtype=float)[:, None]
    s = stays["start_s"].to_numpy(dtype=float)[None, :]
    e = stays["end_s"].fillna(math.inf).to_numpy(dtype=float)[None, :]
    fi, si = np.nonzero((s <= t) & (t < e))  # frame i holds stay j while it has begun and not ended
    c = stays.iloc[si].reset_index(drop=True).assign(frame=fi, t_s=np.asarray(times)[fi])
    # Slot 0 is next out: first in for the FIFO queues; the lowest task id for the reorder buffer.
    c["_order"] = np.where(c["row"] == "reorder", c["epoch"] * 1e9 + c["batch"], c["start_s"])
    c = c.sort_values(["frame", "row", "k", "_order", "epoch", "batch"], kind="stable")
    c["slot"] = c.groupby(["frame", "row", "k"]).cumcount()
    contents = c[CONTENT_COLUMNS].astype({"frame": "int64", "k": "int64", "epoch": "int64", "batch": "int64",
                                          "slot": "int64"}).reset_index(drop=True)

    out = depths[depths["queue"] == "outstanding"].sort_values("t_s")
    pos = out["t_s"].to_numpy(dtype=float).searchsorted(np.asarray(times), side="right") - 1
    level = out["depth"].to_numpy()
    handed = np.sort(rows(f, ev.BATCH_YIELD)["t_s"].to_numpy(dtype=float))
    counters = pd.DataFrame({"frame": range(len(times)), "t_s": times,
                             "outstanding": [int(level[p]) if p >= 0 else 0 for p in pos],
                             "handed": handed.searchsorted(np.asarray(times), side="right")})
    return Snapshots(grid, times, contents, counters, cap)
