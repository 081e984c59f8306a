"""What a replay reproduces, read from a trace: each sample's cost, label and length, the recorded order,
the collate and step times, the payload's shape and a worker's start-up.

Twin of nothing in torch. :func:`measured_workload` is what :mod:`loaderlab.trace.rerun.replayer` builds its stand-in from; each
cost is read from the trace, less what the recording's surroundings added to it and a replay pays again
for itself (or, without workers, never pays): a worker's time pre-empted, its start-up and wake-up
(:mod:`loaderlab.trace.rerun.costs`). Knows the event vocabulary's names and pandas, nothing of plotly or streamlit.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ..core.payload import recorded_payload
from ..core.run import as_run, events_of, Run
from ..diagnosis.costs import batch_costs
from .costs import BATCH_KEYS, collate_costs, startup_extra, worker_overhead_s

QUIET_QUANTILE = 0.25
QUIET_STEP_QUANTILE = 0.1  # the main process's loop body shares its GIL with the loader's threads
UNKNOWN_TENSORS = 3  # a trace without the payload probe: an input, a label and a length, as replay once built


def _span_median(frame: pd.DataFrame, begin: str, end: str, quantile: float = 0.5) -> float:
    b = frame[frame["kind"] == begin].reset_index(drop=True)
    e = frame[frame["kind"] == end].reset_index(drop=True)
    n = min(len(b), len(e))
    if n == 0:
        return 0.0
    return float((e["t_ns"][:n] - b["t_ns"][:n]).clip(lower=0).quantile(quantile) / 1e9)


def own_time(frame: pd.DataFrame) -> pd.DataFrame:
    """Per batch with usage numbers (``pid, epoch, batch, factor, computed``): the diagnosis's measurement of the
    share of its wall time that was its own (:func:`~loaderlab.trace.diagnosis.costs.batch_costs`)."""
    costs = batch_costs(frame)
    return costs.loc[costs["cpu"].notna(), [*BATCH_KEYS, "factor", "computed"]]


def collate_s(frame: pd.DataFrame) -> float:
    """One collate's cost (s): the least-disturbed quarter of the trace's, less their waits for a core."""
    factors = own_time(frame)
    if not len(factors):
        return _span_median(frame, "collate_begin", "collate_end", QUIET_QUANTILE)
    costs = collate_costs(frame, factors)
    return float(costs.quantile(QUIET_QUANTILE)) if len(costs) else 0.0


def step_s(frame: pd.DataFrame) -> float:
    """One loop body's cost (s): the least-disturbed tenth of the trace's."""
    return _span_median(frame, "consumer_begin", "consumer_end", QUIET_STEP_QUANTILE)


def sample_costs(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per fetched sample: ``pid, worker, epoch, batch, index, t_ns_b, t_ns_e, label, length`` and
    ``cost_s``, its span less the wait for a core and the worker's own overhead (:mod:`loaderlab.trace.rerun.costs`)."""
    fetch = frame[frame["kind"].isin(["fetch_begin", "fetch_end"]) & (frame["index"] >= 0)]
    begins = fetch[fetch["kind"] == "fetch_begin"].drop_duplicates(["pid", "epoch", "index", "t_ns"])
    ends = fetch[fetch["kind"] == "fetch_end"]
    keys = ["pid", "epoch", "batch", "index"]
    spans = begins[keys + ["worker", "t_ns"]].merge(ends[keys + ["t_ns", "label", "length"]], on=keys,
                                                     suffixes=("_b", "_e"))
    factors = own_time(frame)  # a worker's time pre-empted by the recording's other processes
    spans = spans.merge(factors, on=["pid", "epoch", "batch"], how="left")
    spans["cost_s"] = (spans["t_ns_e"] - spans["t_ns_b"]) * spans["factor"].fillna(1.0) / 1e9
    spans["cost_s"] = (spans["cost_s"] - worker_overhead_s(spans)).clip(lower=0.0)
    return spans


def measured_workload(trace: pd.DataFrame | Run) -> dict[str, Any]:
    """What the replay reproduces, read from a trace: per-index cost/label/length, and per-batch costs."""
    frame = events_of(trace)
    spans = sample_costs(frame)
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
        "collate_s": collate_s(frame),
        "consume_s": step_s(frame),
        "sample_floats": max(1, int(sample_bytes // 4)),
        # Tensors per batch as the loop received them (the stand-in's batches carry as many).
        "tensors": max(1, int(recorded_payload(trace).get("tensors", UNKNOWN_TENSORS))),
        "startup_extra_s": startup_extra(frame),
        "in_workers": bool((frame[frame["kind"] == "collate_end"]["worker"] >= 0).any()),
        # The recording read labels or lengths from its samples (inside each sample's span): so does the replay.
        "labelled": bool(spans["label"].notna().any() or (spans["length"] >= 0).any()),
    }
