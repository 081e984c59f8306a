"""Slow samples and slow workers, judged by what they cost rather than by an absolute time.

Twin of nothing in torch. Pure functions over a normalised events table (see :mod:`loaderlab.trace.core.lookups`) that return
:class:`~loaderlab.trace.core.findings.Finding` objects (and the tables they are read from); their words come
from :mod:`loaderlab.texts`. Knows nothing of plotly or streamlit.

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
- **A pause of the whole machine** (:func:`machine_stalls`): a window of at least ``MACHINE_STALL_MIN_S`` in
  which no process of the run emitted an event (no worker, no loop; the memory sampler's thread aside) while
  at least ``MACHINE_STALL_PROCESSES`` processes sat inside a span (a sample, a collate, the loop's body)
  that the window stretched to ``MACHINE_STALL_RATIO`` × that process's median span of the kind. One slow
  sample stalls its worker while the others go on (or go idle, their batches done); the machine stalls all
  of them at once. A sample's time inside such a window is the machine's: the straggler check leaves it out,
  and so it does the time its worker waited for a core (``collate_end``'s run-queue clock, where recorded).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.findings import Finding, finding
from ..core.lookups import main_pid, named_rows, paired_rows, trace_end
from ..core import kinds
from .waits import LoopWait, main_wait

MIN_SAMPLES = 5  # a median over fewer says little
STRAGGLER_RATIO, STRAGGLER_BATCH_SHARE = 5.0, 1.0  # × its worker's median; excess ≥ this × a batch's fetching
STRAGGLER_LOOP_SHARE = 0.1  # excess ≥ this × the loop's wall time per batch
STRAGGLER_MIN_SHARE, STRAGGLER_MIN_LOST_S = 0.05, 0.1  # of the run's wall time, and at least this long
STRAGGLERS_LISTED = 5
WARMUP_FETCHES = 2  # per process (a worker's life, or the main process with num_workers=0)
SLOW_WORKER_RATIO, SLOW_WORKER_MIN_S, SLOW_WORKER_COST_SHARE = 2.0, 0.1, 0.05
MACHINE_STALL_MIN_S, MACHINE_STALL_RATIO, MACHINE_STALL_PROCESSES = 0.05, 5.0, 2
NOT_PROGRESS = (ev.MEMORY, ev.STACK)  # sampled by a thread beside the loader: no sign that the loader moved
STALL_COLUMNS = ["start_s", "end_s", "processes"]


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


def _spans(f: pd.DataFrame, samples: pd.DataFrame) -> pd.DataFrame:
    """``pid, what, start_s, end_s``: the spans a process spends working (samples, collates, the loop's body)."""
    parts = [samples[["pid", "start_s", "end_s"]].assign(what="fetch"),
             paired_rows(f, ev.COLLATE_BEGIN, ev.COLLATE_END, ["pid", "worker", "epoch", "batch"])[
                 ["pid", "start_s", "end_s"]].assign(what="collate")]
    body = paired_rows(f, ev.CONSUMER_BEGIN, ev.CONSUMER_END, ["epoch", "batch"])
    if len(body):
        parts.append(body[["start_s", "end_s"]].assign(pid=main_pid(f), what="body"))
    return pd.concat(parts, ignore_index=True).dropna(subset=["end_s"])


def _first_inside(starts: np.ndarray, ends: np.ndarray, span_start: np.ndarray, span_end: np.ndarray) -> np.ndarray:
    """Per span, the first window (sorted, disjoint ``starts``/``ends``) that begins inside it, else -1."""
    j = np.searchsorted(starts, span_start, side="left")
    inside = j < len(starts)
    j = np.where(inside, j, 0)
    inside &= (starts[j] < span_end) if len(starts) else False
    return np.where(inside, j, -1)


def machine_stalls(f: pd.DataFrame, samples: pd.DataFrame | None = None) -> pd.DataFrame:
    """``start_s, end_s, processes``: the windows in which the whole machine paused (module docstring);
    ``processes``: how many processes the window held inside a span it stretched."""
    t = f.loc[~f["kind"].isin(NOT_PROGRESS), "t_s"].to_numpy(dtype=float)
    gap = np.diff(t)
    at = np.flatnonzero(gap >= MACHINE_STALL_MIN_S)
    if not len(at):
        return pd.DataFrame(columns=STALL_COLUMNS)
    starts, ends = t[at], t[at + 1]
    spans = _spans(f, sample_fetches(f) if samples is None else samples)
    took = spans["end_s"] - spans["start_s"]
    typical = took.groupby([spans["pid"], spans["what"]]).transform("median").to_numpy(dtype=float)
    j = _first_inside(starts, ends, spans["start_s"].to_numpy(float), spans["end_s"].to_numpy(float))
    covers = (j >= 0) & (ends[np.maximum(j, 0)] <= spans["end_s"].to_numpy(float))
    stretched = covers & (gap[at][np.maximum(j, 0)] >= MACHINE_STALL_RATIO * typical)
    held = pd.DataFrame({"window": j[stretched], "pid": spans["pid"].to_numpy()[stretched]})
    count = held.drop_duplicates().groupby("window").size()
    count = count[count >= MACHINE_STALL_PROCESSES]
    windows = count.index.to_numpy(dtype=int)
    return pd.DataFrame({"start_s": starts[windows], "end_s": ends[windows], "processes": count.to_numpy(dtype=int)})


def outside_stalls(fe: pd.DataFrame, stalls: pd.DataFrame) -> pd.Series:
    """Each fetch's ``fetch_s`` less its time inside a machine stall (:func:`machine_stalls`)."""
    if not len(stalls) or not len(fe):
        return fe["fetch_s"]
    starts, ends = stalls["start_s"].to_numpy(float), stalls["end_s"].to_numpy(float)
    begin, end = fe["start_s"].to_numpy(float), fe["end_s"].to_numpy(float)
    j = _first_inside(starts, ends, begin, end)
    k = np.maximum(j, 0)
    inside = np.where(j >= 0, np.clip(np.minimum(end, ends[k]) - starts[k], 0.0, None), 0.0)
    return fe["fetch_s"] - inside


def _waited_for_a_core(f: pd.DataFrame, fe: pd.DataFrame) -> pd.Series:
    """Per fetch, the part of its batch's wait for a core (the worker's run-queue clock, ``collate_end``'s
    ``runqueue_ns``) that falls to it. A batch's samples' excess over their median is first the batch's own
    waiting off the CPU (wall − CPU − run queue: a sleep, a read), then its wait for a core; that wait is shared
    among the samples by their excess, never more than a sample's excess. A sample its worker spent waiting for a
    core, held by other programs, is the machine's: beside a CPU-bound process a 0.6 ms sample took 15-75 ms
    while its batch waited 15-100 ms for a core (the default sidebar, 2 cores)."""
    none = pd.Series(0.0, index=fe.index)
    keys = ["pid", "epoch", "batch"]
    clock = named_rows(f, ev.COLLATE_END, [*keys, "t_s", "cpu_ns", "runqueue_ns"])
    clock = clock[clock["runqueue_ns"] >= 0].drop_duplicates(keys)
    if not len(clock) or not len(fe):
        return none
    typical = fe.groupby(keys)["fetch_s"].transform("median")
    excess = (fe["fetch_s"] - typical).clip(lower=0.0)
    by = [fe[k] for k in keys]
    total = excess.groupby(by).transform("sum").to_numpy()
    began = fe.groupby(by)["start_s"].transform("min")
    at = fe[keys].merge(clock, on=keys, how="left")
    waited = at["runqueue_ns"].to_numpy(dtype=float) / 1e9
    cpu = at["cpu_ns"].to_numpy(dtype=float) / 1e9
    off_cpu = np.where(cpu >= 0, (at["t_s"].to_numpy(dtype=float) - began.to_numpy()) - cpu - waited, 0.0)
    machine = np.clip(np.minimum(total - np.clip(off_cpu, 0.0, None), waited), 0.0, None)
    share = np.where(total > 0, excess.to_numpy() / np.maximum(total, 1e-12), 0.0)
    part = np.nan_to_num(machine * share, nan=0.0)
    return pd.Series(np.minimum(part, excess.to_numpy()), index=fe.index)


def machine_stall_findings(f: pd.DataFrame, samples: pd.DataFrame | None = None,
                           stalls: pd.DataFrame | None = None) -> list[Finding]:
    """One finding (info) for the run's machine stalls: when, how long in all, how many samples they slowed."""
    fe = sample_fetches(f) if samples is None else samples
    stalls = machine_stalls(f, fe) if stalls is None else stalls
    if not len(stalls):
        return []
    first = stalls.iloc[0]
    lost = float((stalls["end_s"] - stalls["start_s"]).sum())
    slowed = int((outside_stalls(fe, stalls) < fe["fetch_s"]).sum()) if len(fe) else 0
    return [finding(kinds.MACHINE_STALL, "info", windows=len(stalls), start_s=float(first["start_s"]),
                    end_s=float(first["end_s"]), processes=int(first["processes"]), stalled_s=lost,
                    samples=slowed)]


def stragglers(f: pd.DataFrame, samples: pd.DataFrame | None = None,
               stalls: pd.DataFrame | None = None) -> list[Finding]:
    """The straggler finding (module docstring); a sample's time inside a machine stall (``stalls``, from
    :func:`machine_stalls` when not given) is not its own."""
    fe = sample_fetches(f) if samples is None else samples
    if len(fe) < MIN_SAMPLES:
        return []
    stalls = machine_stalls(f, fe) if stalls is None else stalls
    fe = fe.assign(took_s=fe["fetch_s"])  # as the timelines show it; judged on its own time (fetch_s below)
    if len(stalls):
        fe = fe.assign(fetch_s=outside_stalls(fe, stalls))
    fe = fe.assign(fetch_s=fe["fetch_s"] - _waited_for_a_core(f, fe))
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
               "fetch_s": float(r.took_s), "ratio": float(r.ratio)} for r in worst.itertuples()]
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
