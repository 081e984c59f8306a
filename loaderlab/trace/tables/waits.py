"""The loop's view of a trace: how long it waited for each batch, each batch's latency, throughput per epoch,
and every process's stage spans (an events table, see :func:`loaderlab.record`, → tidy pandas tables).

Twin of nothing in torch: torch's profiler shows one ``__next__`` span and nothing of its workers.
Every function here is pure (a DataFrame in, a new DataFrame out) and knows the event vocabulary of
:mod:`loaderlab.engine.events` and pandas; it knows nothing of plotly or streamlit, which draw these tables.
Queue depths and worker utilisation are in :mod:`loaderlab.trace.tables.utilisation`; the shared lookups
every table uses live in :mod:`loaderlab.trace.core.lookups`.

Conventions shared by every table:

- ``batch`` is the task id: the batch's number in sampler order within its epoch. ``position`` is the
  order in which batches were handed to the loop; the two differ with ``in_order=False``.
  (``batch_yield`` / ``consumer_*`` events carry the position; ``batch_yield``'s detail names the task.)
- Times are seconds on the trace's ``t_s`` axis.
- A trace that lacks some event kinds (one recorded from a stock torch DataLoader has no ``index_put``,
  ``result_get`` or reorder events) gives empty tables or NaN columns, never an exception.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.cache import shared
from ..core.frame import arg_column
from ..core.groups import firsts, key_ids
from ..core.lookups import drawn_per_task, hand_overs, main_pid, named_rows, normal, paired_rows, rows, trace_end
from .processes import idle_intervals, worker_processes

__all__ = ["SECONDS_SPEC", "SHARE_SPEC", "SPAN_COLUMNS", "STAGES", "LoopWait", "batch_latency", "loop_wait", "main_wait",
           "stage_spans", "throughput", "wait_totals"]

SPAN_COLUMNS = ["track", "pid", "worker", "stage", "epoch", "batch", "index", "start_s", "end_s", "duration_s",
                "open"]
STAGES = ("startup", "fetch", "collate", "pin", "wait", "consume", "idle")


@shared
def main_wait(frame: pd.DataFrame) -> pd.DataFrame:
    """Per hand-over: how long the main process was blocked in ``next()`` waiting for this batch.

    The wait runs from the end of the previous loop body (``consumer_end``), or from ``epoch_begin`` for
    an epoch's first batch (so it includes worker start-up), to ``batch_yield``.
    Columns: ``epoch, position, batch, start_s, end_s, wait_s``. See :func:`wait_totals` for sums.
    """
    f = normal(frame)
    y = hand_overs(f)
    ends = rows(f, ev.CONSUMER_END).drop_duplicates(["epoch", "batch"])
    ends = ends.assign(position=ends["batch"] + 1)[["epoch", "position", "t_s"]].rename(columns={"t_s": "start_s"})
    begins = rows(f, ev.EPOCH_BEGIN).drop_duplicates("epoch")[["epoch", "t_s"]].rename(columns={"t_s": "_eb"})
    out = y.rename(columns={"t_s": "end_s"}).merge(ends, on=["epoch", "position"], how="left")
    out = out.merge(begins, on="epoch", how="left")
    first = out["position"] == 0
    out.loc[first, "start_s"] = out.loc[first, "_eb"]
    out["wait_s"] = out["end_s"] - out["start_s"]
    cols = ["epoch", "position", "batch", "start_s", "end_s", "wait_s"]
    return out[cols].sort_values(["epoch", "position"]).reset_index(drop=True)


def _consumes(f: pd.DataFrame) -> pd.DataFrame:
    c = paired_rows(f, ev.CONSUMER_BEGIN, ev.CONSUMER_END, ["epoch", "batch"])
    return c.rename(columns={"batch": "position"})


@shared
def open_wait(frame: pd.DataFrame) -> tuple[int, float]:
    """``(epoch, seconds)`` the loop had been blocked in ``next()`` when the trace ended: a run stopped or
    failed while waiting for a batch after its first (no hand-over follows the last loop body of an
    unfinished epoch). ``(-1, 0.0)`` when the trace ended otherwise, or still before the epoch's first
    batch (start-up, which the first-batch wait covers)."""
    f = normal(frame)
    begun = rows(f, ev.EPOCH_BEGIN)
    if not len(begun):
        return -1, 0.0
    epoch = int(begun["epoch"].max())
    if len(rows(f, ev.EPOCH_END).query("epoch == @epoch")):
        return -1, 0.0
    bodies = rows(f, ev.CONSUMER_END).query("epoch == @epoch")
    if not len(bodies):
        return -1, 0.0
    since = float(bodies["t_s"].max())
    if len(rows(f, ev.BATCH_YIELD, ev.CONSUMER_BEGIN).query("epoch == @epoch and t_s > @since")):
        return -1, 0.0  # a batch came; the loop body was running when the trace ended
    return epoch, max(0.0, trace_end(f) - since)


@shared
def wait_totals(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epoch: ``batches``, ``first_wait_s`` (before the epoch's first batch: worker start-up included),
    ``steady_wait_s`` (every later wait, and the wait a stopped run ended in), ``wait_s`` (the two
    together), ``consume_s`` (the loop body) and ``wait_share`` = steady wait / (steady wait + consume):
    above one half, the loop waits on the loader. :func:`loop_wait` sums these over the run."""
    f = normal(frame)
    w, c = main_wait(f), _consumes(f)
    c = c.assign(consume_s=c["end_s"] - c["start_s"])
    stopped_in, still_waiting = open_wait(f)
    out = []
    for epoch, g in w.groupby("epoch"):
        steady = float(g[g["position"] > 0]["wait_s"].sum()) + (still_waiting if epoch == stopped_in else 0.0)
        consume = float(c[c["epoch"] == epoch]["consume_s"].sum())
        first = g[g["position"] == 0]["wait_s"]
        first_s = float(first.iloc[0]) if len(first) else math.nan
        out.append({"epoch": int(epoch), "batches": len(g), "wait_s": steady + (0.0 if math.isnan(first_s) else first_s),
                    "first_wait_s": first_s, "steady_wait_s": steady, "consume_s": consume,
                    "wait_share": steady / (steady + consume) if steady + consume > 0 else math.nan})
    cols = ["epoch", "batches", "wait_s", "first_wait_s", "steady_wait_s", "consume_s", "wait_share"]
    return pd.DataFrame(out, columns=cols)


SHARE_SPEC, SECONDS_SPEC = ".0%", ".3f"  # how every view shows a LoopWait (finding texts use the same specs)


@dataclass(frozen=True)
class LoopWait:
    """How the training loop's time split between waiting for data and its own body: the one definition of
    "waiting" that the timelines page, the loader-bound / model-bound verdict and the report all show.

    ``wait_s``: blocked in ``next()`` for every batch after each epoch's first (and, in a run stopped while
    it waited, that last wait); ``consume_s``: in the loop body; ``share`` = ``wait_s / (wait_s +
    consume_s)`` (NaN if both are 0). ``first_wait_s``: blocked before each epoch's first batch, which
    holds worker start-up: shown apart and left out of the share, so that start-up (its own finding,
    slow first batch) does not pass for a slow loader."""

    wait_s: float
    consume_s: float
    first_wait_s: float
    share: float

    def share_text(self) -> str:
        return "–" if math.isnan(self.share) else format(self.share, SHARE_SPEC)

    def wait_text(self) -> str:
        return format(self.wait_s, SECONDS_SPEC)


@shared
def loop_wait(frame: pd.DataFrame) -> LoopWait:
    """The run's :class:`LoopWait` (the sums of :func:`wait_totals` over its epochs)."""
    totals = wait_totals(frame)
    wait, consume = float(totals["steady_wait_s"].sum()), float(totals["consume_s"].sum())
    return LoopWait(wait_s=wait, consume_s=consume, first_wait_s=float(totals["first_wait_s"].fillna(0.0).sum()),
                    share=wait / (wait + consume) if wait + consume > 0 else math.nan)


@shared
def _samples_per_task(f: pd.DataFrame) -> pd.DataFrame:
    """``epoch, batch, samples``: fetched samples per task (from fetch ends, else the sampler's indices)."""
    fe = named_rows(f, ev.FETCH_END, ["epoch", "batch", "samples"])  # 1; 0: it raised; N: a __getitems__ call
    code = key_ids(fe, ["epoch", "batch"]) if len(fe) else np.zeros(0, np.int64)
    ids = int(code.max()) + 1 if len(code) else 0
    sums = np.bincount(code, weights=fe["samples"].clip(lower=0).to_numpy(float), minlength=ids)
    first = firsts(code, np.arange(len(code)), ids)
    fetched = pd.Series(sums, index=pd.MultiIndex.from_arrays(
        [fe["epoch"].to_numpy()[first], fe["batch"].to_numpy()[first]], names=["epoch", "batch"]),
        name="samples").sort_index()  # groupby(["epoch", "batch"]).sum(): keys in order
    drawn = drawn_per_task(f)
    out = fetched.combine_first(drawn).rename("samples").reset_index() if len(drawn) else fetched.reset_index()
    return out.reset_index(drop=True)


def _arrivals(f: pd.DataFrame) -> pd.DataFrame:
    """``epoch, batch, received_s``: the first ``result_get`` of each task after its dispatch.

    (A persistent worker's results left over from an epoch cut short are drained when the next epoch
    starts and logged with the new epoch's number: they come before that epoch's dispatch of the same id.)
    """
    gets = rows(f, ev.RESULT_GET)[["epoch", "batch", "t_s"]].rename(columns={"t_s": "received_s"})
    puts = rows(f, ev.INDEX_PUT, ev.SAMPLER_YIELD).drop_duplicates(["epoch", "batch"])[["epoch", "batch", "t_s"]]
    got = gets.merge(puts, on=["epoch", "batch"], how="left")
    got = got[~(got["received_s"] < got["t_s"])]  # NaN dispatch (no such events) keeps every arrival
    return got.groupby(["epoch", "batch"], as_index=False)["received_s"].min()


def batch_latency(frame: pd.DataFrame) -> pd.DataFrame:
    """Per task, its journey from dispatch to hand-over.

    Columns: ``epoch, batch, worker, pid, samples, dispatch_s`` (``index_put``; ``sampler_yield`` when
    there are no workers), ``get_s`` (worker took it), ``ready_s`` (``result_put``), ``outcome``
    (Result / Exhausted / Failure), ``received_s`` (``result_get``), ``parked_s`` (time in the reorder
    buffer: 0 if never parked, NaN if the trace has no reorder information), ``position, yield_s`` and
    ``latency_s`` = ``yield_s - dispatch_s``.
    """
    f = normal(frame)

    def first(kind: str, name: str, extra: tuple = ()) -> pd.DataFrame:
        r = rows(f, kind)
        r = r[r["batch"] >= 0].drop_duplicates(["epoch", "batch"])
        return r[["epoch", "batch", "t_s", *extra]].rename(columns={"t_s": name})

    keys = pd.concat([rows(f, ev.SAMPLER_YIELD, ev.INDEX_PUT, ev.INDEX_GET, ev.RESULT_PUT)[["epoch", "batch"]],
                      hand_overs(f)[["epoch", "batch"]]])
    out = keys[keys["batch"] >= 0].drop_duplicates().astype("int64")
    to = arg_column(ev.INDEX_PUT, "queue_worker")  # k of index_queue[k]
    put = first(ev.INDEX_PUT, "dispatch_s", (to,)).rename(columns={to: "qworker"})
    put["qworker"] = put["qworker"].where(put["qworker"] != ev.NO_ARG).astype("float64")
    got = first(ev.INDEX_GET, "get_s", ("worker", "pid"))
    ready = first(ev.RESULT_PUT, "ready_s", ("worker", "pid", "detail")).rename(
        columns={"worker": "rworker", "pid": "rpid", "detail": "outcome"})
    fetched = first(ev.FETCH_BEGIN, "_fetched", ("worker", "pid")).rename(columns={"worker": "fworker",
                                                                                    "pid": "fpid"})
    for table in (put, first(ev.SAMPLER_YIELD, "sampled_s"), got, ready, _arrivals(f),
                  first(ev.REORDER_PARK, "_park"), first(ev.REORDER_RELEASE, "_release"), fetched,
                  hand_overs(f).rename(columns={"t_s": "yield_s"}), _samples_per_task(f)):
        out = out.merge(table, on=["epoch", "batch"], how="left")
    out["worker"] = out["qworker"].fillna(out["worker"]).fillna(out["rworker"]).fillna(out["fworker"])
    out["pid"] = out["pid"].fillna(out["rpid"]).fillna(out["fpid"])
    for column in ("worker", "pid", "position"):
        out[column] = out[column].astype("Int64")
    out["dispatch_s"] = out["dispatch_s"].fillna(out["sampled_s"])
    out["parked_s"] = out["_release"] - out["_park"]
    if len(rows(f, ev.RESULT_GET)):  # our engine reports every arrival, so "no park" means 0
        out["parked_s"] = out["parked_s"].fillna(0.0)
    out["latency_s"] = out["yield_s"] - out["dispatch_s"]
    out["outcome"] = out["outcome"].fillna("")
    cols = ["epoch", "batch", "worker", "pid", "samples", "dispatch_s", "get_s", "ready_s", "outcome", "received_s",
            "parked_s", "position", "yield_s", "latency_s"]
    return out[cols].sort_values(["epoch", "batch"]).reset_index(drop=True)


@shared
def throughput(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epoch: ``batches, samples, start_s`` (``epoch_begin``), ``end_s`` (the last loop body's end),
    ``duration_s, batches_per_s, samples_per_s, first_batch_s`` and ``steady_batches_per_s`` (after the
    first batch, so that start-up does not hide the steady rate)."""
    f = normal(frame)
    y, counts = hand_overs(f), _samples_per_task(f)
    y = y.merge(counts, on=["epoch", "batch"], how="left")
    begins = rows(f, ev.EPOCH_BEGIN).drop_duplicates("epoch").set_index("epoch")["t_s"]
    ends = rows(f, ev.CONSUMER_END, ev.BATCH_YIELD).groupby("epoch")["t_s"].max()
    out = []
    for epoch, g in y.groupby("epoch"):
        start = float(begins.get(epoch, g["t_s"].min()))
        end, n = float(ends.get(epoch, g["t_s"].max())), len(g)
        samples = float(g["samples"].sum()) if g["samples"].notna().any() else math.nan
        duration, first = end - start, float(g["t_s"].min()) - start
        steady = (n - 1) / (end - g["t_s"].min()) if n > 1 and end > g["t_s"].min() else math.nan
        out.append({"epoch": int(epoch), "batches": n, "samples": samples, "start_s": start, "end_s": end,
                    "duration_s": duration, "batches_per_s": n / duration if duration > 0 else math.nan,
                    "samples_per_s": samples / duration if duration > 0 else math.nan,
                    "first_batch_s": first, "steady_batches_per_s": float(steady)})
    cols = ["epoch", "batches", "samples", "start_s", "end_s", "duration_s", "batches_per_s", "samples_per_s",
            "first_batch_s", "steady_batches_per_s"]
    return pd.DataFrame(out, columns=cols)


def stage_spans(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per span of time, per track (``main``, ``pin``, ``worker k``), for timelines.

    Stages: ``startup`` (main started the worker → it is ready), ``fetch`` (one sample, ``index`` = dataset
    index), ``collate``, ``pin``, ``wait`` (main blocked in ``next()``; with ``num_workers=0`` it contains
    that batch's fetch and collate), ``consume`` (the loop body) and ``idle`` (a worker holding no task).
    A span still running when the trace ends (a stuck sample) has ``open=True`` and ends with the trace.
    Columns: ``SPAN_COLUMNS``.
    """
    f = normal(frame)
    mp, end = main_pid(f), trace_end(f)
    multi = bool((f["worker"] >= 0).any())
    parts = []
    procs = worker_processes(f)
    st = procs.dropna(subset=["start_s", "ready_s"])
    parts.append(st.assign(stage="startup", batch=-1, index=-1, end_s=st["ready_s"])[
        ["pid", "worker", "stage", "epoch", "batch", "index", "start_s", "end_s"]])
    keys = ["pid", "worker", "epoch", "batch", "index"]
    parts.append(paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, keys).assign(stage="fetch"))
    collate = paired_rows(f, ev.COLLATE_BEGIN, ev.COLLATE_END, keys[:-1])
    parts.append(collate.assign(stage="collate", index=-1))
    pin = paired_rows(f, ev.PIN_BEGIN, ev.PIN_END, keys[:-1])
    parts.append(pin.assign(stage="pin", index=-1))
    w = main_wait(f)
    parts.append(w.assign(stage="wait", pid=mp, worker=-1, index=-1)[
        ["pid", "worker", "stage", "epoch", "batch", "index", "start_s", "end_s"]].dropna(subset=["start_s"]))
    c = _consumes(f).merge(hand_overs(f)[["epoch", "position", "batch"]], on=["epoch", "position"], how="left")
    c["batch"] = c["batch"].fillna(c["position"])
    parts.append(c.assign(stage="consume", pid=mp, worker=-1, index=-1).drop(columns="position"))
    parts.append(idle_intervals(f, procs=procs).assign(stage="idle", batch=-1, index=-1))
    parts = [p for p in parts if len(p)]
    if not parts:
        return pd.DataFrame(columns=SPAN_COLUMNS)
    out = pd.concat(parts, ignore_index=True)
    out["open"] = out["end_s"].isna()
    out["end_s"] = out["end_s"].fillna(end)
    out["duration_s"] = out["end_s"] - out["start_s"]
    for column in ("pid", "worker", "epoch", "batch", "index"):
        out[column] = out[column].fillna(-1).astype("int64")
    track = np.where(out["worker"] >= 0, "worker " + out["worker"].astype(str), "main")
    out["track"] = np.where((out["stage"] == "pin") & multi, "pin", track)
    return out[SPAN_COLUMNS].sort_values(["start_s", "track"], kind="stable").reset_index(drop=True)
