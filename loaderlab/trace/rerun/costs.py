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

from ...engine.collate import default_collate


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

    A worker's ``collate_end`` says its thread's CPU time, its voluntary context switches, how long it waited
    runnable for a core, and its process's other threads' CPU time since the batch began
    (:func:`loaderlab.engine.fetch.batch_usage`).

    - A batch that never gave its core up voluntarily (no sleep, no I/O, no lock: ``arg1 == 0``) was
      computing all along: wall time beyond its CPU time was spent runnable but pre-empted (by the other
      workers, the main process or other programs) and the replay should not inherit it: factor = CPU / wall.
    - A batch that gave it up keeps its wall time less its wait for a core (``arg2``: measured, 64-tensor
      samples at load average 7: 10.8 of a batch's 10.8 ms beyond its CPU time) and less what its process's
      other threads ran meanwhile (``arg3``: the queue's sending thread and the event flusher, which hold the
      GIL it then waits for). Measured on computing datasets (2 µs samples, two workers): every batch that
      gave its core up did so while those threads ran for 35-230 % of its wait (0.3 µs in the batches that did
      not); a sleeping dataset's waits are mostly its own (a 0.3 s sample beside 3 ms of theirs).
    - Where most batches never gave their core up (fewer than :data:`WAITING_DATASET` waited) the dataset
      computes, and a waiting batch its own threads ran through (at least :data:`OWN_THREADS_SHARE` of the
      wait) counts as computing too: the rest of its wait was the GIL's holder pre-empted (measured: 3.6 ms
      of a 2 µs sample's batch, 1.4 ms of it the sending thread's, at load average 4.6).

    Traces without the numbers get no rows; older traces (``arg3`` -1, ``arg2`` a count of involuntary
    switches: a few ns as read here) count no other threads and no wait for a core.
    """
    ends = frame[(frame["kind"] == "collate_end") & (frame["worker"] >= 0) & (frame["batch"] >= 0)
                 & (frame["arg0"] >= 0)][[*BATCH_KEYS, "t_ns", "arg0", "arg1", "arg2", "arg3"]]
    if not len(ends):
        return pd.DataFrame(columns=[*BATCH_KEYS, "factor", "computed"])
    begins = frame[frame["kind"] == "fetch_begin"].groupby(BATCH_KEYS)["t_ns"].min().rename("start")
    both = ends.merge(begins.reset_index(), on=BATCH_KEYS)
    wall = (both["t_ns"] - both["start"]).clip(lower=1)
    cpu, runqueue, others = both["arg0"], both["arg2"].clip(lower=0), both["arg3"].clip(lower=0)
    waited = both["arg1"] > 0
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

    Measured on a real run (8-sample batches of 2 µs samples, two workers): a worker's first sample of a
    batch costs 14 µs against 2 µs for the others (it was woken from its wait for a task: caches and the
    interpreter's state refilled), and the samples of a worker's first batch after it started cost 0.4 ms
    (its first sample) and 7 µs (the others): the fresh process's first calls. All of it computing (no
    voluntary context switch). A replay's workers pay their own wake-up and warm-up when they run the
    stand-in, and the main process pays neither, so a replay that kept them would pay them twice or where
    none is paid. So, among batches that never gave their core up (``computed``): per place in a worker's
    life (first batch of a process or a later one; first sample of a batch or another), the median cost
    beyond the median of later batches' other samples, where at least :data:`MIN_BATCHES` batches show that
    place. A batch that slept or waited (a file, a network, a lock) keeps its time: it may be the sample's.
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
    starts = frame[frame["kind"] == "worker_start"][["arg0", "t_ns"]].rename(columns={"arg0": "pid"})
    ready = frame[frame["kind"] == "worker_ready"][["pid", "t_ns"]]
    both = starts.merge(ready, on="pid", suffixes=("_s", "_r"))
    if not len(both):
        return 0.0
    return max(0.0, float((both["t_ns_r"] - both["t_ns_s"]).median()) / 1e9 - BARE_STARTUP_S)
