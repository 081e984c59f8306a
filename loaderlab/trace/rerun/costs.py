"""What a replay adds to the measured per-sample costs so that the stand-in costs what the recorded run did
beyond fetching: a worker's start-up, the shared memory a worker's collate pays for, and what the loop
pays to drop a batch that came from a worker. A batch's own time and a worker's start-up are the diagnosis's
measurements (:func:`~loaderlab.trace.diagnosis.costs.batch_costs`, the summary's ``startup`` stage): the
report and the replay read one measurement of each.

Twin of nothing in torch. Used by :mod:`loaderlab.trace.rerun.replayer`; knows the event vocabulary's names, pandas and torch,
nothing of plotly or streamlit.
"""

from __future__ import annotations

import time

import pandas as pd
import torch

from ...engine.collate import default_collate
from ..diagnosis.summary import summarise


def shared_release_s(dataset, batch_size: int, repeats: int = 5) -> float:
    """What the main process spends dropping a batch that came from a worker: its tensors live in shared
    memory (one mapping and file descriptor each), and freeing them unmaps and closes each. The loop pays it
    when it lets go of the previous batch, which a recording counts in the loop body's span. Measured here
    by dropping a collated batch moved to shared memory (median of ``repeats``)."""
    samples = [dataset.payload() for _ in range(max(1, batch_size))]
    times = []
    for _ in range(repeats):
        batch = default_collate(samples)
        _share(batch)
        started = time.perf_counter()
        del batch
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2]


def _share(data) -> None:
    if isinstance(data, torch.Tensor):
        data.share_memory_()
    elif isinstance(data, dict):
        for value in data.values():
            _share(value)
    elif isinstance(data, (list, tuple)):
        for value in data:
            _share(value)


BATCH_KEYS = ["pid", "epoch", "batch"]


def collate_costs(frame: pd.DataFrame, factors: pd.DataFrame) -> pd.Series:
    """Each collate's duration (s), less its batch's wait for a core (``factors``: the ``factor`` of
    :func:`~loaderlab.trace.diagnosis.costs.batch_costs`)."""
    b = frame[frame["kind"] == "collate_begin"][[*BATCH_KEYS, "t_ns"]]
    e = frame[frame["kind"] == "collate_end"][[*BATCH_KEYS, "t_ns"]]
    spans = b.merge(e, on=BATCH_KEYS, suffixes=("_b", "_e")).merge(factors, on=BATCH_KEYS, how="left")
    return ((spans["t_ns_e"] - spans["t_ns_b"]).clip(lower=0) * spans["factor"].fillna(1.0)) / 1e9


MIN_BATCHES = 2  # a place in a worker's life seen in fewer batches cannot tell the worker from the sample


def worker_overhead_s(spans: pd.DataFrame) -> pd.Series:
    """Per fetched sample (a row of ``spans``: ``pid, worker, epoch, batch, t_ns_b, cost_s, computed``), the
    seconds of its cost that were its worker's, not the sample's: 0 outside workers.

    A worker's wake-up (its first sample of a batch) and warm-up (its first batch) are paid again by the
    replay's own workers, so they are taken off: among computing batches, per place in a worker's life, the
    median cost beyond later batches' other samples, where at least :data:`MIN_BATCHES` batches show that
    place. A batch that waited keeps its time (it may be the sample's). Measured: docs/performance.md.
    """
    out = pd.Series(0.0, index=spans.index)
    if "computed" not in spans or "worker" not in spans:
        return out
    mine = spans[(spans["worker"] >= 0) & (spans["computed"] == True)]  # noqa: E712 (NaN: not known)
    if not len(mine):
        return out
    keys = ["pid", "epoch", "batch"]
    ordered = mine.sort_values("t_ns_b")
    first_sample = ordered.groupby(keys).cumcount() == 0
    batch_start = ordered.groupby(keys)["t_ns_b"].transform("min")
    first_batch = batch_start == ordered.groupby("pid")["t_ns_b"].transform("min")
    place = first_batch.map({True: "first_batch", False: "later"}) + first_sample.map({True: "/first", False: "/other"})
    baseline = ordered.loc[place == "later/other", "cost_s"]
    if not len(baseline):
        return out
    base = float(baseline.median())
    batches = ordered.assign(place=place).drop_duplicates([*keys, "place"])["place"].value_counts()
    excess = ordered.groupby(place)["cost_s"].median() - base
    excess = excess[(batches.reindex(excess.index) >= MIN_BATCHES) & (excess > 0)]
    out.loc[ordered.index] = place.map(excess).fillna(0.0).to_numpy()
    return out


class ReplayStartup:
    """``worker_init_fn``: a worker's measured start-up beyond what starting a bare worker costs."""

    def __init__(self, extra_s: float) -> None:
        self.extra_s = extra_s

    def __call__(self, worker_id: int) -> None:
        time.sleep(self.extra_s)


# Starting a worker that imports nothing new, measured by benchmarks/worker_startup.py (fork, this 2-core
# machine: median 13-14 ms at load average 6, p10 7 ms, p90 54-81 ms; 9-15 ms when it was quieter).
BARE_STARTUP_S = 0.015


def startup_extra(frame: pd.DataFrame) -> float:
    """Median worker start-up (the summary's ``startup`` stage: ``worker_start`` → its ``worker_ready``) beyond
    :data:`BARE_STARTUP_S`."""
    startup = summarise(frame).stage("startup")
    return max(0.0, float(startup.p50_s) - BARE_STARTUP_S) if startup.count else 0.0
