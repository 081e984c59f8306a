"""Slow samples and slow workers, judged by what they cost rather than by an absolute time.

Twin of nothing in torch. Pure functions over a normalised events table (see :mod:`loaderlab.trace.core.lookups`) that return
raw findings (dicts of ``kind``, ``severity``, ``key`` and evidence) for :mod:`loaderlab.trace.diagnosis.findings` to word; knows
nothing of plotly or streamlit.

- **Stragglers**: a sample is slow when it took ``STRAGGLER_RATIO`` × the median sample of its own worker
  *and* its excess over that median is at least ``STRAGGLER_BATCH_SHARE`` × a typical batch's fetching
  (a sample that delays its batch by less than one batch's own fetching is absorbed by the batches
  prefetched behind it, and on a busy machine a 1 ms sleep often takes several) and at least
  ``STRAGGLER_LOOP_SHARE`` × the loop's wall time per batch (with µs samples a batch's fetching is a tenth
  of a millisecond, and scheduler blips of that size would be counted beside the real stragglers: a
  recorded stock loader with 40 planted 20 ms samples was reported as 58 without this). Measured against
  its own worker, so that a uniformly slow worker is not a crowd of stragglers (that is the slow-worker
  finding). The finding fires when their excess together — the time they added beyond median-cost samples — is at least
  ``STRAGGLER_MIN_SHARE`` of the run's wall time and ``STRAGGLER_MIN_LOST_S`` (a run that lost less has
  nothing worth fixing, and on a shared machine a few scheduler hiccups of that size are noise). It
  reports their count, the time lost and the worst ``STRAGGLERS_LISTED`` with batch, worker and index.
  A process's first ``WARMUP_FETCHES`` fetches are its warm-up, never stragglers: a fresh worker's first
  sample pays for cold caches, lazy imports and its siblings starting beside it (1.5-3x its median on an
  idle machine, measured on the default sidebar's run; 0.108 s on a loaded workshop server, where it led
  the landing page's verdict as "a few slow samples"). They still count in the medians.
- **A slow worker**: its median sample time is at least ``SLOW_WORKER_RATIO`` × the median of the other
  workers' samples, over at least ``MIN_SAMPLES`` samples, and the extra fetching adds up to
  ``SLOW_WORKER_MIN_S``. Medians ignore a few stragglers; the same code on the same data gives workers
  medians within a few per cent of each other (measured on 2 busy cores, load 8–11: 600 samples of
  0.5–2 ms with 2–4 workers, the largest ratio was 1.006), so 2× is far outside noise, and a worker
  twice as slow makes each of its batches in a round-robin, in-order loader late by at least a batch.
  What it costs the loop: the loop's waits for the batches that worker made, minus what the same number
  of the other workers' batches cost on average (waits after each epoch's first batch, as in :class:`~loaderlab.trace.tables.waits.LoopWait`). Below
  ``SLOW_WORKER_COST_SHARE`` of the loop's time the loop did not pay for it (the training step hid it)
  and the finding is only "info".
"""

from __future__ import annotations

import math

import pandas as pd

from ...engine import events as ev
from ..core import Finding, finding, kinds, paired_rows, trace_end
from .waits import LoopWait, main_wait

MIN_SAMPLES = 5  # a median over fewer says little
STRAGGLER_RATIO, STRAGGLER_BATCH_SHARE = 5.0, 1.0  # × its worker's median; excess ≥ this × a batch's fetching
STRAGGLER_LOOP_SHARE = 0.1  # excess ≥ this × the loop's wall time per batch
STRAGGLER_MIN_SHARE, STRAGGLER_MIN_LOST_S = 0.05, 0.1  # of the run's wall time, and at least this long
STRAGGLERS_LISTED = 5
WARMUP_FETCHES = 2  # per process (a worker's life, or the main process with num_workers=0)
SLOW_WORKER_RATIO, SLOW_WORKER_MIN_S, SLOW_WORKER_COST_SHARE = 2.0, 0.1, 0.05


def fetches(f: pd.DataFrame, still_running: bool = False) -> pd.DataFrame:
    """Sample fetch spans with ``fetch_s``; with ``still_running``, unfinished ones last until the trace ends."""
    out = paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, ["pid", "worker", "epoch", "batch", "index"])
    if still_running:
        out["end_s"] = out["end_s"].fillna(trace_end(f))
    return out.assign(fetch_s=out["end_s"] - out["start_s"]).dropna(subset=["fetch_s"])


def sample_fetches(f: pd.DataFrame) -> pd.DataFrame:
    """The finished fetches of dataset samples (:func:`fetches` without index-less ones): what both checks
    below judge, built once by the caller that runs both."""
    out = paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, ["pid", "worker", "epoch", "batch", "index"])
    fetch_s = out["end_s"] - out["start_s"]
    # fetches(f) without its index-less rows, in one copy (a big trace's fetch table is hundreds of MB)
    return out.assign(fetch_s=fetch_s)[fetch_s.notna() & (out["index"] >= 0)]


def stragglers(f: pd.DataFrame, samples: pd.DataFrame | None = None) -> list[Finding]:
    fe = sample_fetches(f) if samples is None else samples
    if len(fe) < MIN_SAMPLES:
        return []
    run_median = float(fe["fetch_s"].median())
    per_worker = fe.groupby("worker")["fetch_s"].agg(["median", "size"])
    own = per_worker["median"].where(per_worker["size"] >= MIN_SAMPLES, run_median)
    reference = fe["worker"].map(own).astype(float)
    batch_fetch = float(fe.groupby(["epoch", "batch", "worker"])["fetch_s"].sum().median())
    run_s = trace_end(f) - float(f["t_s"].min())
    batches = fe[["epoch", "batch"]].drop_duplicates().shape[0]
    floor = max(STRAGGLER_BATCH_SHARE * batch_fetch, STRAGGLER_LOOP_SHARE * run_s / max(batches, 1))
    excess = fe["fetch_s"] - reference
    warm = fe.sort_values("start_s", kind="stable").groupby("pid").cumcount().reindex(fe.index) >= WARMUP_FETCHES
    slow = fe[(fe["fetch_s"] >= STRAGGLER_RATIO * reference) & (excess >= floor) & warm]
    lost = float(excess[slow.index].sum())
    if not len(slow) or lost < STRAGGLER_MIN_LOST_S or lost < STRAGGLER_MIN_SHARE * run_s:
        return []
    worst = slow.assign(ratio=slow["fetch_s"] / reference[slow.index].clip(lower=1e-9)).nlargest(
        STRAGGLERS_LISTED, "fetch_s")
    listed = [{"index": int(r.index), "batch": int(r.batch), "worker": int(r.worker), "epoch": int(r.epoch),
               "fetch_s": float(r.fetch_s), "ratio": float(r.ratio)} for r in worst.itertuples()]
    top = listed[0]
    return [finding(kind=kinds.STRAGGLER, severity="warning", key="straggler", index=top["index"], batch=top["batch"],
                 worker=top["worker"], epoch=top["epoch"], fetch_s=top["fetch_s"], count=len(slow),
                 lost_s=lost, run_s=run_s, share=lost / run_s if run_s > 0 else math.inf,
                 median_ms=run_median * 1e3, ratio_min=STRAGGLER_RATIO, worst=listed,
                 more=len(slow) - len(listed), indices=sorted(int(i) for i in slow["index"]))]


def _batch_makers(fe: pd.DataFrame) -> pd.DataFrame:
    """``epoch, batch, worker``: which worker made each task (the worker that fetched its samples)."""
    return fe[fe["worker"] >= 0].drop_duplicates(["epoch", "batch"])[["epoch", "batch", "worker"]]


def slow_workers(f: pd.DataFrame, loop: LoopWait, samples: pd.DataFrame | None = None) -> list[Finding]:
    fe = sample_fetches(f) if samples is None else samples
    fe = fe[fe["worker"] >= 0]
    counts = fe.groupby("worker").size()
    candidates = [int(w) for w in counts[counts >= MIN_SAMPLES].index]
    if len(candidates) < 2:
        return []
    waits = None
    out = []
    for w in candidates:
        mine, others = fe[fe["worker"] == w]["fetch_s"], fe[fe["worker"] != w]["fetch_s"]
        median, others_median = float(mine.median()), float(others.median())
        if median < SLOW_WORKER_RATIO * others_median or (median - others_median) * len(mine) < SLOW_WORKER_MIN_S:
            continue
        if waits is None:  # the wait table, only once something is worth costing
            waits = main_wait(f)
            waits = waits[waits["position"] > 0].merge(_batch_makers(fe), on=["epoch", "batch"], how="inner")
        its, rest = waits[waits["worker"] == w]["wait_s"], waits[waits["worker"] != w]["wait_s"]
        typical = float(rest.mean()) if len(rest) else 0.0
        cost = max(0.0, float(its.sum()) - len(its) * typical)
        loop_s = loop.wait_s + loop.consume_s
        share = cost / loop_s if loop_s > 0 else 0.0
        paid = share >= SLOW_WORKER_COST_SHARE
        out.append(finding(kind=kinds.SLOW_WORKER, severity="warning" if paid else "info",
                        key="slow_worker" if paid else "slow_worker_hidden", worker=w,
                        ratio=median / others_median if others_median > 0 else math.inf,
                        median_ms=median * 1e3, others_ms=others_median * 1e3, samples=len(mine),
                        batches=len(its), cost_s=cost, loop_s=loop_s, cost_share=share,
                        typical_wait_ms=typical * 1e3))
    return out
