"""One summary of a recorded run: every number the report, the pages, the verdict and the CLI show about it.

Twin of nothing in torch (the nearest kin are TensorFlow's input-pipeline analyzer and SPDL's per-stage
stats). :func:`summarise` reads an events table once and returns a :class:`RunSummary`; nothing else in
LoaderLab defines throughput, the wait share or a stage's time again, so a number shown twice is one number.
Waiting is :func:`loaderlab.trace.tables.waits.loop_wait` (the summary carries its :class:`LoopWait`).

Stages, each with its count, total and p50/p90/p99 (seconds):

- ``fetch``: one dataset sample (``fetch_begin → fetch_end``; a ``__getitems__`` call counts as one);
- ``collate``: one batch's ``collate_fn``;
- ``move``: a batch from its worker to the main process, ``result_put → result_get`` (the result queue; the
  pin thread's take when ``pin_memory=True``). A stock torch loader's trace has no queue events: there it is
  ``collate_end → pin_begin`` (``pin_memory=True``), else ``collate_end → batch hand-over``. It includes
  pickling, the pipe, unpickling, and any time the batch sat in the queue while the loop was busy;
- ``pin``: the pin stage's ``pin_begin → pin_end`` (the pin thread's, or the loop's with ``num_workers=0``);
- ``reorder``: a batch parked in the reorder buffer (``in_order=True``) waiting for its turn;
- ``step``: the user's loop body (``consumer_begin → consumer_end``);
- ``startup``: a worker process from ``worker_start`` to ``worker_ready``.

Queues (``index_queue[k]``, ``result_queue``, ``data_queue``, ``reorder``, ``outstanding``): depth p50/p90/p99
and max weighted by time, how long items stayed, and how long the taker was blocked on ``get`` (a worker on
its index queue, the loop on the result queue). Every queue of the loader is unbounded, so a ``put`` never
blocks: the prefetch cap holds tasks back in the main process instead, and shows as ``outstanding`` at
the cap while workers wait on ``get``.

Vectorised (groupby / numpy), no loop per batch or per event. Knows nothing of plotly, streamlit or words.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..tables.stays import MEASURED, queue_depths, queue_stays
from ..tables.utilisation import worker_utilisation
from ..tables.waits import loop_wait, LoopWait, main_wait, throughput
from ..core.cache import shared
from ..core.lookups import hand_overs, main_pid, normal, paired_rows, rows
from ..core.run import as_run, events_of, Run

STAGE_NAMES = ("fetch", "collate", "move", "pin", "reorder", "step", "startup")
QUEUE_COLUMNS = ["queue", "items", "depth_p50", "depth_p90", "depth_p99", "depth_max", "stay_p50_s",
                 "stay_p90_s", "stay_p99_s", "get_wait_s", "get_wait_p50_s", "get_wait_p90_s", "get_wait_p99_s"]


def events(trace: Any) -> pd.DataFrame:
    """The events table of a trace (a run, or a bare table)."""
    return events_of(trace)


def run_settings(trace: Any) -> dict:
    """The loader settings a trace was recorded with (the one place the summary reads them from)."""
    return dict(as_run(trace).loader)


@dataclass(frozen=True)
class Stage:
    """One stage's spans: how many, their total, and the 50th/90th/99th percentile of one span (seconds)."""

    count: int
    total_s: float
    p50_s: float
    p90_s: float
    p99_s: float

    @property
    def mean_s(self) -> float:
        return self.total_s / self.count if self.count else math.nan

    @classmethod
    def of(cls, durations: Any) -> "Stage":
        d = np.asarray(pd.Series(durations, dtype=float).dropna(), dtype=float)
        if not len(d):
            return cls(0, 0.0, math.nan, math.nan, math.nan)
        p50, p90, p99 = np.percentile(d, [50, 90, 99])
        return cls(int(len(d)), float(d.sum()), float(p50), float(p90), float(p99))

    def as_dict(self) -> dict[str, Any]:
        return {"count": self.count, "total_s": self.total_s, "mean_s": self.mean_s, "p50_s": self.p50_s,
                "p90_s": self.p90_s, "p99_s": self.p99_s}


@dataclass(frozen=True)
class Payload:
    """What one batch carries across the process boundary: tensors and their bytes (medians over batches)."""

    tensors: float  # NaN when unknown (a trace recorded without the payload probe)
    nbytes: float

    def as_dict(self) -> dict[str, Any]:
        return {"tensors": self.tensors, "nbytes": self.nbytes}


@dataclass(frozen=True)
class RunSummary:
    """The run in numbers (see the module docstring). ``wall_s``: the epochs' ``epoch_begin`` → last loop
    body, summed; ``batches_per_s`` / ``samples_per_s`` over that wall time. ``worker_busy_share``: the mean of
    the worker processes' busy fractions; ``worker_capped_share``: of their lives idle at the prefetch cap."""

    settings: dict
    epochs: int
    batches: int
    samples: float
    wall_s: float
    loop: LoopWait
    stages: dict[str, Stage]
    queues: pd.DataFrame = field(repr=False)
    worker_processes: int
    worker_busy_share: float
    worker_capped_share: float
    payload: Payload

    @property
    def wait_share(self) -> float:
        return self.loop.share

    @property
    def num_workers(self) -> int:
        return int(self.settings.get("num_workers") or 0)

    @property
    def batches_per_s(self) -> float:
        return self.batches / self.wall_s if self.wall_s > 0 else math.nan

    @property
    def samples_per_s(self) -> float:
        return self.samples / self.wall_s if self.wall_s > 0 else math.nan

    @property
    def batch_size(self) -> float:
        return self.samples / self.batches if self.batches else math.nan

    def stage(self, name: str) -> Stage:
        return self.stages[name]

    def as_dict(self) -> dict[str, Any]:
        """JSON-able (NaN stays NaN: the CLI writes it as null)."""
        samples = int(self.samples) if self.samples == self.samples else self.samples  # a count; NaN: unknown
        return {"batches": self.batches, "samples": samples, "epochs": self.epochs, "wall_s": self.wall_s,
                "batches_per_s": self.batches_per_s, "samples_per_s": self.samples_per_s,
                "wait_share": self.wait_share, "wait_s": self.loop.wait_s, "first_wait_s": self.loop.first_wait_s,
                "step_s": self.loop.consume_s, "num_workers": self.num_workers,
                "worker_busy_share": self.worker_busy_share, "worker_capped_share": self.worker_capped_share,
                "payload": self.payload.as_dict(),
                "stages": {k: v.as_dict() for k, v in self.stages.items()},
                "queues": self.queues.to_dict(orient="records")}


def _moves(f: pd.DataFrame, stays: pd.DataFrame) -> pd.Series:
    """Seconds per batch from its worker to the main process (module docstring)."""
    rq = stays[stays["place"] == "result_queue"]
    if len(rq):
        return rq["end_s"] - rq["start_s"]
    mp = main_pid(f)
    done = rows(f, ev.COLLATE_END)
    done = done[(done["worker"] >= 0) & (done["pid"] != mp) & (done["batch"] >= 0)]
    if not len(done):
        return pd.Series([], dtype=float)
    ready = done.groupby(["epoch", "batch"], as_index=False)["t_s"].max().rename(columns={"t_s": "ready_s"})
    taken = rows(f, ev.PIN_BEGIN)  # the pin thread's (or, pinning nothing, main's) take from the result queue
    taken = taken[taken["pid"] == mp] if len(taken) else hand_overs(f)
    taken = taken.groupby(["epoch", "batch"], as_index=False)["t_s"].min().rename(columns={"t_s": "taken_s"})
    got = ready.merge(taken, on=["epoch", "batch"])
    return got["taken_s"] - got["ready_s"]


def _weighted_percentiles(values: np.ndarray, weights: np.ndarray, qs: tuple[float, ...]) -> list[float]:
    if not len(values) or weights.sum() <= 0:
        return [math.nan] * len(qs)
    order = np.argsort(values, kind="stable")
    v, w = values[order], np.cumsum(weights[order])
    return [float(v[min(np.searchsorted(w, q * w[-1], side="left"), len(v) - 1)]) for q in qs]


def _index_get_waits(f: pd.DataFrame) -> pd.DataFrame:
    """``queue, wait_s``: per ``index_get``, how long its worker had been free (since its ready or last put)."""
    mp = main_pid(f)
    marks = rows(f, ev.WORKER_READY, ev.RESULT_PUT, ev.INDEX_GET)
    marks = marks[(marks["pid"] != mp) & (marks["worker"] >= 0)][["pid", "worker", "kind", "t_s"]]
    prev = marks.groupby("pid")["t_s"].shift()
    prev_kind = marks.groupby("pid")["kind"].shift()
    gets = (marks["kind"] == ev.INDEX_GET) & prev_kind.isin([ev.WORKER_READY, ev.RESULT_PUT])
    out = marks[gets]
    return pd.DataFrame({"queue": "index_queue[" + out["worker"].astype(str) + "]",
                         "wait_s": (out["t_s"] - prev[gets]).to_numpy()})


def _queues(f: pd.DataFrame, stays: pd.DataFrame) -> pd.DataFrame:
    depths = queue_depths(f)
    if not len(depths):
        return pd.DataFrame(columns=QUEUE_COLUMNS)
    end = float(f["t_s"].max())
    depths = depths.assign(hold=depths.groupby("queue")["t_s"].shift(-1).fillna(end) - depths["t_s"])
    stay = stays.assign(queue=np.where(stays["place"] == "index_queue",
                                       "index_queue[" + stays["k"].astype(str) + "]", stays["place"]),
                        stay_s=stays["end_s"] - stays["start_s"])
    waits = _index_get_waits(f)
    main_gets = main_wait(f)["wait_s"]
    taker = "data_queue" if len(rows(f, ev.PIN_END)) else "result_queue"
    waits = pd.concat([waits, pd.DataFrame({"queue": taker, "wait_s": main_gets.to_numpy()})], ignore_index=True)
    out = []
    for name, g in depths.groupby("queue", sort=False):  # one row per queue (a handful), not per item
        d50, d90, d99 = _weighted_percentiles(g["depth"].to_numpy(float), g["hold"].to_numpy(float), (.5, .9, .99))
        s = stay[stay["queue"] == name]["stay_s"].dropna()
        w = waits[waits["queue"] == name]["wait_s"].dropna()
        sq = np.percentile(s, [50, 90, 99]) if len(s) else [math.nan] * 3
        wq = np.percentile(w, [50, 90, 99]) if len(w) else [math.nan] * 3
        out.append([name, int(len(s)), d50, d90, d99, int(g["depth"].max()), *map(float, sq),
                    float(w.sum()) if len(w) else math.nan, *map(float, wq)])
    return pd.DataFrame(out, columns=QUEUE_COLUMNS)


def _payload(frame: pd.DataFrame, f: pd.DataFrame) -> Payload:
    """Medians per batch: the probe's tensors, the bytes moved (``result_put``, ``pin_begin``) or probed; where
    neither was recorded (a stock loader traced by ``run``), what its ``collate_end`` events say it carried."""
    probe = as_run(frame).extra.get("payload") or {}
    collated = rows(f, ev.COLLATE_END)
    collated = collated[collated["length"] >= 0]  # length = the batch's tensors (a stock loader's collate)
    puts = rows(f, ev.RESULT_PUT, ev.PIN_BEGIN)
    puts = puts[puts["nbytes"] > 0]
    nbytes = float(puts["nbytes"].median()) if len(puts) else float(probe.get("nbytes", math.nan))
    tensors = float(probe.get("tensors", math.nan))
    if math.isnan(nbytes) and len(collated):
        nbytes = float(collated["nbytes"].median())
    if math.isnan(tensors) and len(collated):
        tensors = float(collated["length"].median())
    return Payload(tensors=tensors, nbytes=nbytes)


def _with_settings(f: pd.DataFrame, found: dict) -> pd.DataFrame | Run:
    """The normalised table as a run with its settings, as the utilisation tables read them."""
    return Run(f, loader=found) if found else f


@shared(settings=True)
def summarise(frame: Any) -> RunSummary:
    """The :class:`RunSummary` of a recorded run (an events table from :func:`loaderlab.record`, or a run
    value with ``.events``, ``.loader`` and ``.extra``)."""
    found = run_settings(frame)
    f = normal(events(frame))
    thr = throughput(f)
    loop = loop_wait(f)
    stays = queue_stays(f, MEASURED)
    fetch = paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, ["pid", "worker", "epoch", "batch", "index"])
    collate = paired_rows(f, ev.COLLATE_BEGIN, ev.COLLATE_END, ["pid", "worker", "epoch", "batch"])
    steps = paired_rows(f, ev.CONSUMER_BEGIN, ev.CONSUMER_END, ["epoch", "batch"])
    util = worker_utilisation(_with_settings(f, found))  # the cap needs the settings (capped idle)

    def stay(place: str) -> pd.Series:
        s = stays[stays["place"] == place]
        return s["end_s"] - s["start_s"]

    stages = {"fetch": Stage.of(fetch["end_s"] - fetch["start_s"]),
              "collate": Stage.of(collate["end_s"] - collate["start_s"]),
              "move": Stage.of(_moves(f, stays)), "pin": Stage.of(stay("pin")), "reorder": Stage.of(stay("reorder")),
              "step": Stage.of(steps["end_s"] - steps["start_s"]), "startup": Stage.of(util["startup_s"])}
    busy = float(util["busy_fraction"].mean()) if len(util) else math.nan
    capped = float(util["capped_idle_fraction"].mean()) if len(util) else math.nan
    epochs = int(rows(f, ev.EPOCH_BEGIN)["epoch"].nunique())
    return RunSummary(settings=found, epochs=epochs, batches=int(thr["batches"].sum()),
                      samples=float(thr["samples"].sum()) if thr["samples"].notna().any() else math.nan,
                      wall_s=float(thr["duration_s"].sum()), loop=loop, stages=stages, queues=_queues(f, stays),
                      worker_processes=int(len(util)), worker_busy_share=busy, worker_capped_share=capped,
                      payload=_payload(frame, f))
