"""Replay ("what if"): re-run the engine on a stand-in for the recorded dataset, with new loader settings.

Twin of nothing in torch. From a trace we take what was measured — each sample's fetch time, label,
length and size, the collate time per batch, the training step's time, how many tensors a batch carries,
a worker's start-up (:mod:`.replay_costs`) — and build a dataset that costs
the same, then record the loaderlab engine on it with the trace's settings overridden by the caller's.
So "what would num_workers=4, in_order=False do to *my* loader?" is answered by a real run, not a model.

Samples are visited in the recorded order (the sampler's order of each recorded epoch), so a straggler
stays where it was. Waiting stands for the measured cost, and waiting does not compete for cores: eight
sleeping workers on two cores run eight at once, which CPU-bound loading never does. So by default each
sample's (and each collate's) wait holds one of ``cores`` slots shared by all workers (``cores``: this
machine's usable cores, as torch counts them for its worker-count warning): at most that many run at
once, the CPU-bound case. The trace cannot tell computing from waiting; ``io_bound=True`` says the
recorded time was waiting (disk, network) and lifts the cap. The result's run (``as_run(out)``) has
``extra["replay_model"]``, which says
which model ran (``model_note`` words it). The training step is not capped (it may run on a GPU).

Torch warns about too many workers when the loader is built and again at each ``iter()``; a replay shows
each distinct warning once. Knows nothing of plotly/streamlit.
"""

from __future__ import annotations

import multiprocessing
import time
import warnings
from typing import Any

import pandas as pd
import torch

from ..engine.collate import default_collate
from ..engine import loader as engine_loader
from ..engine.loader import DataLoader
from .finding_texts import text
from .payload import recorded_payload
from .recorder import record
from .replay_costs import (ReplayStartup, collate_costs, core_wait_factors, shared_collate_s, shared_release_s,
                           startup_extra)
from .result import Run, as_run, events_of, to_frame

# record() of a stock torch DataLoader drops the previous batch before batch_yield (not in the step's span)
STOCK_RECORD = "torch.utils.data.DataLoader"
REPLAYABLE = ("batch_size", "drop_last", "num_workers", "prefetch_factor", "in_order", "persistent_workers",
              "pin_memory", "timeout", "multiprocessing_context")


def spend(cost_s: float, cores=None) -> None:
    """Take ``cost_s`` seconds; with ``cores`` (a shared semaphore), holding one core slot meanwhile."""
    if cost_s <= 0:
        return
    if cores is None:
        _take(cost_s)
        return
    with cores:
        _take(cost_s)


SPIN_BELOW_S = 0.001  # time.sleep cannot take less than ~60 µs: a microsecond sample spins instead


def _take(cost_s: float) -> None:
    if cost_s >= SPIN_BELOW_S:
        time.sleep(cost_s)
        return
    until = time.perf_counter() + cost_s
    while time.perf_counter() < until:
        pass


class ReplayDataset(torch.utils.data.Dataset):
    """Sample ``i`` costs its measured time; returns (a float vector of its measured size, label, length).

    ``cores``: a semaphore shared by every worker (inherited when they start), or None for no cap.
    """

    def __init__(self, cost_s: dict[int, float], labels: dict[int, Any], lengths: dict[int, int],
                 sample_floats: int, cores=None, tensors: int = 1) -> None:
        self.cost_s, self.labels, self.lengths, self.sample_floats = cost_s, labels, lengths, sample_floats
        self.tensors = max(1, tensors)  # the measured payload: a batch of many small tensors moves slowly
        self.cores = cores
        self.n = max(cost_s) + 1 if cost_s else 0

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        started = time.perf_counter()  # building the payload is part of the measured cost: spend the rest
        payload = self.payload()
        spend(self.cost_s.get(i, 0.0) - (time.perf_counter() - started), self.cores)
        return payload, self.labels.get(i, -1), self.lengths.get(i, -1)


    def payload(self):
        """One sample's tensors, shaped as measured (one vector, or ``tensors`` of them in a dict)."""
        if self.tensors == 1:
            return torch.zeros(self.sample_floats)
        each = max(1, self.sample_floats // self.tensors)
        return {f"t{k}": torch.zeros(each) for k in range(self.tensors)}


class ReplayCollate:
    def __init__(self, cost_s: float, cores=None) -> None:
        self.cost_s, self.cores = cost_s, cores

    def __call__(self, samples):
        started = time.perf_counter()  # collating the payload is part of the measured cost: spend the rest
        batch = default_collate(samples)
        spend(self.cost_s - (time.perf_counter() - started), self.cores)
        return batch


class ReplayConsumer:
    def __init__(self, cost_s: float) -> None:
        self.cost_s = cost_s

    def __call__(self, batch) -> None:
        spend(self.cost_s)


class RecordedOrder(torch.utils.data.Sampler):
    """The recorded epochs' index order, one recorded epoch per pass (cycling if replaying more epochs)."""

    def __init__(self, epochs: list[list[int]]) -> None:
        self.epochs, self.passes = epochs, 0

    def __iter__(self):
        order = self.epochs[self.passes % len(self.epochs)]
        self.passes += 1
        return iter(order)

    def __len__(self) -> int:
        return len(self.epochs[self.passes % len(self.epochs)])


QUIET_QUANTILE = 0.25
QUIET_STEP_QUANTILE = 0.1  # the main process's loop body shares its GIL with the loader's threads


def _span_median(frame: pd.DataFrame, begin: str, end: str, quantile: float = 0.5) -> float:
    b = frame[frame["kind"] == begin].reset_index(drop=True)
    e = frame[frame["kind"] == end].reset_index(drop=True)
    n = min(len(b), len(e))
    if n == 0:
        return 0.0
    return float((e["t_ns"][:n] - b["t_ns"][:n]).clip(lower=0).quantile(quantile) / 1e9)


def _collate_s(frame: pd.DataFrame, factors: pd.DataFrame) -> float:
    if not len(factors):
        return _span_median(frame, "collate_begin", "collate_end", QUIET_QUANTILE)
    costs = collate_costs(frame, factors)
    return float(costs.quantile(QUIET_QUANTILE)) if len(costs) else 0.0


def measured_workload(trace: pd.DataFrame | Run) -> dict[str, Any]:
    """What the replay reproduces, read from a trace: per-index cost/label/length, and per-batch costs."""
    frame = events_of(trace)
    fetch = frame[frame["kind"].isin(["fetch_begin", "fetch_end"]) & (frame["index"] >= 0)]
    begins = fetch[fetch["kind"] == "fetch_begin"].drop_duplicates(["pid", "epoch", "index", "t_ns"])
    ends = fetch[fetch["kind"] == "fetch_end"]
    keys = ["pid", "epoch", "batch", "index"]
    spans = begins[keys + ["t_ns"]].merge(ends[keys + ["t_ns", "label", "length"]], on=keys, suffixes=("_b", "_e"))
    factors = core_wait_factors(frame)  # a worker's time pre-empted by the recording's other processes
    spans = spans.merge(factors, on=["pid", "epoch", "batch"], how="left")
    spans["cost_s"] = (spans["t_ns_e"] - spans["t_ns_b"]) * spans["factor"].fillna(1.0) / 1e9
    per_index = spans.groupby("index").agg(cost_s=("cost_s", "median"), label=("label", "first"),
                                           length=("length", "first"))
    orders = []
    for _, rows in frame[frame["kind"] == "fetch_end"].groupby("epoch"):
        orders.append([int(i) for i in rows.sort_values(["batch", "t_ns"])["index"] if i >= 0])
    puts = frame[(frame["kind"] == "result_put") & (frame["nbytes"] > 0)]
    batch_size = as_run(trace).loader.get("batch_size") or 1
    sample_bytes = float(puts["nbytes"].median()) / batch_size if len(puts) else 32.0
    return {
        "cost_s": {int(i): float(c) for i, c in per_index["cost_s"].items()},
        "labels": {int(i): v for i, v in per_index["label"].items() if v is not None and v == v},
        "lengths": {int(i): int(v) for i, v in per_index["length"].items()},
        "orders": [o for o in orders if o],
        # The least-disturbed quarter: the loader's own threads and processes stretch a short collate or
        # step they run beside (a 10 µs step measured 0.12 ms beside two workers), and a replay with other
        # settings should not inherit that.
        "collate_s": _collate_s(frame, factors),
        "consume_s": _span_median(frame, "consumer_begin", "consumer_end", QUIET_STEP_QUANTILE),
        "sample_floats": max(1, int(sample_bytes // 4)),
        # Tensors per batch beyond the label and length the stand-in adds (default collate keeps the count).
        "tensors": max(1, int(recorded_payload(trace).get("tensors", 3)) - 2),
        "startup_extra_s": startup_extra(frame),
        "in_workers": bool((frame[frame["kind"] == "collate_end"]["worker"] >= 0).any()),
    }


def replay(frame: pd.DataFrame | Run, *, epochs: int | None = None, io_bound: bool = False, max_samples: int | None = None,
           **loader_args: Any) -> pd.DataFrame:
    """Record the engine on the trace's measured workload, with ``loader_args`` replacing recorded settings.

    Returns the replay's events like :func:`loaderlab.record` (its ``attrs`` carry the run's metadata:
    ``loader``, ``epochs``, ``replay_of`` — the recorded settings — and ``replay_model``).

    ``io_bound``: the recorded sample time was waiting, not computing, so workers beyond this machine's
    cores still overlap (default False: at most ``cores`` samples or collates at once; see the module).
    """
    unknown = sorted(set(loader_args) - set(REPLAYABLE))
    if unknown:
        raise TypeError(f"replay() got unexpected loader arguments {unknown}; allowed: {', '.join(REPLAYABLE)}")
    if not isinstance(io_bound, bool):
        raise TypeError(f"io_bound should be True or False, but got io_bound={io_bound!r}")
    work = measured_workload(frame)
    if not work["orders"]:
        raise ValueError("this trace has no per-sample fetch events with dataset indices, so there is nothing "
                         "to replay (record it with loaderlab.record, which times every sample)")
    recorded = as_run(frame)
    settings = {k: v for k, v in recorded.loader.items() if k in REPLAYABLE}
    settings.update(loader_args)
    if not settings.get("num_workers"):
        settings.pop("prefetch_factor", None)
        settings.pop("persistent_workers", None)
    if settings.get("batch_size") is None:
        settings["batch_size"] = 1
    if max_samples is not None:  # a long trace: the first samples of each epoch tell the rate
        work["orders"] = [o[:max_samples] for o in work["orders"]]
    dataset = ReplayDataset(work["cost_s"], work["labels"], work["lengths"], work["sample_floats"],
                            tensors=work["tensors"])
    if settings.get("num_workers") and work["startup_extra_s"] > 0:
        settings["worker_init_fn"] = ReplayStartup(work["startup_extra_s"])
    collate = ReplayCollate(work["collate_s"])
    if work["in_workers"] and not settings.get("num_workers"):  # the recorded collate paid for shared memory
        collate.cost_s = max(0.0, collate.cost_s - shared_collate_s(dataset, settings["batch_size"]))
    consumer = ReplayConsumer(work["consume_s"])
    if work["in_workers"] and recorded.loader.get("recorded_from") != STOCK_RECORD:
        # The recorded loop body dropped the previous batch, held in shared memory; the replay's own batches
        # pay that again when they come from workers, so the step is replayed without it.
        recorded_size = recorded.loader.get("batch_size") or 1
        consumer.cost_s = max(0.0, consumer.cost_s - shared_release_s(dataset, recorded_size))
    # Torch warns about too many workers when the loader is built and again at each iter(): one replay is
    # one question, so each distinct warning is shown once, after the run (or the failure).
    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loader = DataLoader(dataset, sampler=RecordedOrder(work["orders"]), collate_fn=collate, **settings)
            model = replay_model(loader.num_workers, io_bound)  # after torch has validated num_workers
            if model["capped"]:  # set before iter(): the workers inherit the slots when they start
                dataset.cores = collate.cores = _core_slots(model["cores"], settings.get("multiprocessing_context"))
            out = record(loader, epochs=epochs or len(work["orders"]), consumer=consumer,
                         sample_info=replay_sample_info)
    finally:
        _warn_once(caught)  # the caller's own filters are back: it sees each warning as it chose
    run = as_run(out)
    return to_frame(Run(run.events, loader=run.loader, epochs=run.epochs, warnings=run.warnings,
                        extra={**run.extra, "replay_of": dict(recorded.loader), "replay_model": model}))


def replay_model(num_workers: int, io_bound: bool) -> dict[str, Any]:
    """Which model a replay with ``num_workers`` runs on this machine (its run's ``extra["replay_model"]``):
    ``cores`` (usable cores as torch counts them, None if unknown), ``over_cores`` (more workers than
    that), ``capped`` (their samples then share ``cores`` slots), ``io_bound``."""
    cores = engine_loader.cpu_count()  # the count torch's worker-count warning uses
    over = cores is not None and num_workers > cores
    return {"num_workers": num_workers, "cores": cores, "over_cores": over, "io_bound": io_bound,
            "capped": over and not io_bound}


def _core_slots(cores: int, start_method: str | None):
    """A semaphore of ``cores`` slots from the context the workers start in (so they inherit it)."""
    ctx = multiprocessing.get_context(start_method) if start_method else torch.multiprocessing
    return ctx.BoundedSemaphore(cores)


def _warn_once(caught: list) -> None:
    seen: set = set()
    for w in caught:
        key = (w.category, str(w.message))
        if key not in seen:
            seen.add(key)
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def model_note(model: dict[str, Any], lang: str = "en") -> str:
    """One sentence saying what ``model`` (a replay's ``extra["replay_model"]``) assumed about cores."""
    if model["num_workers"] == 0:
        key = "main"
    elif model["cores"] is None:
        key = "unknown"
    elif model["capped"]:
        key = "capped"
    elif model["over_cores"]:
        key = "io_bound"
    else:
        key = "fits"
    return text(f"replay.model.{key}", lang, **model)


def replay_sample_info(index, sample) -> tuple[Any, int]:
    return sample[1], sample[2]
