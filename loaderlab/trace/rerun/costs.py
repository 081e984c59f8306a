"""What a replay adds to the measured per-sample costs so that the stand-in costs what the recorded run did
beyond fetching: a worker's start-up, the shared memory a worker's collate pays for, and what the loop
pays to drop a batch that came from a worker.

Twin of nothing in torch. Used by :mod:`loaderlab.trace.rerun.replayer`; knows the event vocabulary's names, pandas and torch,
nothing of plotly or streamlit.
"""

from __future__ import annotations

import time

import pandas as pd
import torch

from ...engine import events as ev
from ...engine.collate import default_collate
from ..core import named_rows


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
WAITING_DATASET = 0.5  # a dataset that waits (a file, a network, a sleep) does so in most of its batches
OWN_THREADS_SHARE = 0.1  # a wait its process's other threads ran through this much of was (partly) theirs


def core_wait_factors(frame: pd.DataFrame) -> pd.DataFrame:
    """Per worker batch (``pid, epoch, batch``): ``factor``, the share of its wall time (first fetch → end of
    collate) that was its own work or its dataset's own waiting, and ``computed`` (it counts as computing).

    A batch that never gave its core up computes: its own time is its CPU time. One that did keeps its wall
    time less its wait for a core and less what its process's other threads ran (they held the GIL it waited
    for). The measurements behind these rules: docs/performance.md, "`replay` against real speed-ups".
    Traces without the usage numbers get no rows.
    """
    ends = named_rows(frame, ev.COLLATE_END, [*BATCH_KEYS, "worker", "t_ns", "cpu_ns", "voluntary_switches",
                                              "runqueue_ns", "others_cpu_ns"])
    ends = ends[(ends["worker"] >= 0) & (ends["batch"] >= 0) & (ends["cpu_ns"] >= 0)].drop(columns="worker")
    if not len(ends):
        return pd.DataFrame(columns=[*BATCH_KEYS, "factor", "computed"])
    begins = frame[frame["kind"] == "fetch_begin"].groupby(BATCH_KEYS)["t_ns"].min().rename("start")
    both = ends.merge(begins.reset_index(), on=BATCH_KEYS)
    wall = (both["t_ns"] - both["start"]).clip(lower=1)
    cpu, runqueue, others = both["cpu_ns"], both["runqueue_ns"].clip(lower=0), both["others_cpu_ns"].clip(lower=0)
    waited = both["voluntary_switches"] > 0
    asleep = (wall - cpu - runqueue).clip(lower=0)  # off its core and not waiting for one
    theirs = others >= OWN_THREADS_SHARE * asleep
    both["computed"] = ~waited | (theirs & (waited.mean() < WAITING_DATASET))
    work = cpu.where(both["computed"], (wall - runqueue - others).clip(lower=cpu))
    both["factor"] = (work / wall).clip(upper=1.0)
    return both[[*BATCH_KEYS, "factor", "computed"]].drop_duplicates(BATCH_KEYS)


def collate_costs(frame: pd.DataFrame, factors: pd.DataFrame) -> pd.Series:
    """Each collate's duration (s), less its batch's wait for a core (``factors``)."""
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
    """Median worker start-up (``worker_start`` → its ``worker_ready``) beyond :data:`BARE_STARTUP_S`."""
    starts = named_rows(frame, ev.WORKER_START, ["worker_pid", "t_ns"]).rename(columns={"worker_pid": "pid"})
    ready = frame[frame["kind"] == "worker_ready"][["pid", "t_ns"]]
    both = starts.merge(ready, on="pid", suffixes=("_s", "_r"))
    if not len(both):
        return 0.0
    return max(0.0, float((both["t_ns_r"] - both["t_ns_s"]).median()) / 1e9 - BARE_STARTUP_S)
