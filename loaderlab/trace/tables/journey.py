"""One batch's journey through the DataLoader, read from a recorded run: where it was, and when.

The pipeline tour's data, a finished table for :mod:`loaderlab.figures.tour` to word and draw. Input: a run
(:class:`loaderlab.trace.core.run.Run`, whose ``loader`` gives the settings) or an events table as
:func:`loaderlab.record` returns it. Knows the event vocabulary, pandas and numpy; nothing of plotly,
streamlit or any language. Every lookup reads the batch's own rows (taken once by position), the hand-overs,
or the few rows of its wait: a page change draws one batch of a fresh run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.frame import arg_column
from ..core.lookups import batch_indices, hand_overs, normal, pair, rows, settings


@dataclass(frozen=True)
class Journey:
    """One task's path. ``worker`` None = made by the main process (``num_workers=0``); times in ``t_s`` seconds;
    ``segments``: ``segment, start_s, end_s`` in :data:`SEGMENTS` order, only those the trace shows."""

    epoch: int
    batch: int
    n_batches: int
    worker: int | None
    position: int | None
    indices: list | None
    samples: int
    num_workers: int
    in_order: bool
    pin_memory: bool
    segments: pd.DataFrame
    moments: dict = field(default_factory=dict)  # sampled_s, put_s, yield_s
    slowest_index: int | None = None
    slowest_s: float = math.nan
    waiting_for: int | None = None  # the earlier task that arrived last while it sat in the reorder buffer
    pin_detail: str = ""
    wait_s: float = math.nan  # how long the loop waited in next() for it
    consume_s: float = math.nan  # the loop body that got it

    def seconds(self, segment: str) -> float:
        s = self.segments[self.segments["segment"] == segment]
        return float((s["end_s"] - s["start_s"]).iloc[0]) if len(s) else math.nan


def handed_batches(frame: pd.DataFrame) -> pd.DataFrame:
    """``epoch, batch, position``: every task that reached the loop, in task order (the tour's choices)."""
    y = hand_overs(normal(frame))
    return y[["epoch", "batch", "position"]].sort_values(["epoch", "batch"]).reset_index(drop=True)


def _first(r: pd.DataFrame, after: float = -math.inf) -> float:
    t = r["t_s"].to_numpy()
    t = t[t >= after]  # a NaN ``after`` leaves none
    return float(t[0]) if len(t) else math.nan


def batch_journey(frame: pd.DataFrame, epoch: int, batch: int) -> Journey:
    """Where task ``batch`` of ``epoch`` was, from its events (a stage missing from the trace is left out)."""
    s = settings(frame)
    f = normal(frame)
    # Every lookup below reads this task's own rows, the epoch's hand-overs, or the few rows of its wait: taken
    # once by position from the epoch and batch columns (a boolean filter of the whole table per lookup, Arrow
    # string columns included, cost a page change more than drawing the figure).
    epochs, batches = f["epoch"].to_numpy(), f["batch"].to_numpy()
    in_epoch = epochs == epoch
    mine = f.take(np.flatnonzero(in_epoch & (batches == batch)))
    mine_kinds = mine["kind"].to_numpy()

    def own(*kinds: str) -> pd.DataFrame:  # rows(mine, *kinds) without pandas' isin on a few dozen rows
        return mine.take(np.flatnonzero(np.isin(mine_kinds, kinds)))

    num_workers = int(s.get("num_workers") or 0)

    sampled = own(ev.SAMPLER_YIELD)
    samples = sampled[arg_column(ev.SAMPLER_YIELD, "samples")]
    indices = batch_indices(sampled["indices"].iloc[0], samples.iloc[0]) if len(sampled) else None
    put = own(ev.INDEX_PUT)
    worker_events = mine[(mine["worker"] >= 0) & mine["kind"].isin((ev.INDEX_GET, ev.FETCH_BEGIN, ev.RESULT_PUT))]
    worker = int(put["queue"].iloc[0].split("[")[-1].rstrip("]")) if len(put) and "[" in put["queue"].iloc[0] \
        else int(worker_events["worker"].iloc[0]) if len(worker_events) else None

    spans: list[tuple[str, float, float]] = []
    put_s = _first(put)
    spans.append(("index_queue", put_s, _first(own(ev.INDEX_GET), put_s)))
    fetch = pair(own(ev.FETCH_BEGIN), own(ev.FETCH_END), ["pid", "index"]).dropna(subset=["end_s"])
    fetch = fetch.assign(fetch_s=fetch["end_s"] - fetch["start_s"])
    if len(fetch):
        spans.append(("fetch", float(fetch["start_s"].min()), float(fetch["end_s"].max())))
    collate_s = _first(own(ev.COLLATE_BEGIN))
    spans.append(("collate", collate_s, _first(own(ev.COLLATE_END), collate_s)))
    ready_s = _first(own(ev.RESULT_PUT))
    spans.append(("result_queue", ready_s, _first(own(ev.PIN_BEGIN, ev.RESULT_GET), ready_s)))
    park = own(ev.REORDER_PARK)
    park_s = _first(park)
    spans.append(("reorder", park_s, _first(own(ev.REORDER_RELEASE), park_s)))
    pins = own(ev.PIN_BEGIN)
    pin_s = _first(pins)
    pinned_s = _first(own(ev.PIN_END), pin_s)
    spans.append(("pin", pin_s, pinned_s))
    if len(put):  # the pin thread's output waits in data_queue for main
        spans.append(("data_queue", pinned_s, _first(own(ev.RESULT_GET), pinned_s)))

    yields = rows(f, ev.BATCH_YIELD)
    handed = hand_overs(yields)  # the same table as hand_overs(f): it reads only these rows
    n_batches = int((handed["epoch"] == epoch).sum())
    handed = handed[(handed["epoch"] == epoch) & (handed["batch"] == batch)]
    position = int(handed["position"].iloc[0]) if len(handed) else None
    yield_s = float(handed["t_s"].iloc[0]) if len(handed) else math.nan
    wait_s = consume_s = math.nan
    if position is not None:
        ends = rows(f, ev.CONSUMER_END, columns=["epoch", "batch", "t_s"])
        ends = ends[ends["epoch"] == epoch]
        end_s = _first(ends[ends["batch"] == position], yield_s)
        spans.append(("loop", yield_s, end_s))
        consume_s = end_s - yield_s
        wait_s = yield_s - _wait_start(f, epoch, position, ends)

    segments = pd.DataFrame(spans, columns=["segment", "start_s", "end_s"]).dropna()
    slowest = fetch.loc[fetch["fetch_s"].idxmax()] if len(fetch) else None
    waiting = _held_up_by(f, epoch, batch, park_s, park)
    return Journey(
        epoch=int(epoch), batch=int(batch), n_batches=n_batches, worker=worker, position=position, indices=indices,
        samples=len(fetch) if len(fetch) else len(indices or ()), num_workers=num_workers,
        in_order=bool(s.get("in_order", True)), pin_memory=bool(s.get("pin_memory", False)), segments=segments,
        moments={"sampled_s": _first(sampled), "put_s": put_s, "yield_s": yield_s},
        slowest_index=None if slowest is None else int(slowest["index"]),
        slowest_s=math.nan if slowest is None else float(slowest["fetch_s"]),
        waiting_for=waiting,
        pin_detail=str(pins["detail"].iloc[0]) if len(pins) else "", wait_s=wait_s, consume_s=consume_s)


def _wait_start(f: pd.DataFrame, epoch: int, position: int, ends: pd.DataFrame) -> float:
    """When the loop began to wait for hand-over ``position``, as :func:`~loaderlab.trace.tables.waits.main_wait`
    defines it: the previous loop body's first ``consumer_end`` (``ends``: the epoch's), or for the epoch's
    first hand-over its ``epoch_begin``. Read for one hand-over instead of main_wait's table of them all (10 ms
    of pandas on every page change); a test holds the two equal, batch by batch."""
    if position == 0:
        begins = rows(f, ev.EPOCH_BEGIN, columns=["epoch", "t_s"])
        return _first(begins[begins["epoch"] == epoch])
    return _first(ends[ends["batch"] == position - 1])


def _held_up_by(f: pd.DataFrame, epoch: int, batch: int, park_s: float, park: pd.DataFrame) -> int | None:
    """The earlier task that arrived last after this one parked: the one that kept it in the buffer.

    (The park event names only the task awaited at that moment; several may have been late.)
    """
    if math.isnan(park_s):
        return None
    gets = rows(f, ev.RESULT_GET, columns=["epoch", "batch", "t_s"])
    gets = gets[gets["epoch"] == epoch]
    later = gets[(gets["batch"] >= 0) & (gets["batch"] < batch) & (gets["t_s"] >= park_s)]
    if len(later):
        return int(later.loc[later["t_s"].idxmax(), "batch"])
    waits_for = park[arg_column(ev.REORDER_PARK, "waits_for")]
    named = waits_for[waits_for >= 0]  # the task the parked batch waited for
    return int(named.iloc[0]) if len(named) else None
