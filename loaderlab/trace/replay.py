"""Replay ("what if"): re-run the engine on a stand-in for the recorded dataset, with new loader settings.

Twin of nothing in torch. From a trace we take what was measured — each sample's fetch time, label,
length and size, the collate time per batch, the training step's time — and build a dataset that costs
the same, then record the loaderlab engine on it with the trace's settings overridden by the caller's.
So "what would num_workers=4, in_order=False do to *my* loader?" is answered by a real run, not a model.

Samples are visited in the recorded order (the sampler's order of each recorded epoch), so a straggler
stays where it was. Waiting stands for the measured cost: it reproduces I/O-bound loading faithfully and
CPU-bound loading optimistically (waiting does not compete for cores). Knows nothing of plotly/streamlit.
"""

from __future__ import annotations

import time
from typing import Any

import pandas as pd
import torch

from ..engine.collate import default_collate
from ..engine.loader import DataLoader
from .recorder import record

REPLAYABLE = ("batch_size", "drop_last", "num_workers", "prefetch_factor", "in_order", "persistent_workers",
              "pin_memory", "timeout", "multiprocessing_context")


class ReplayDataset(torch.utils.data.Dataset):
    """Sample ``i`` waits its measured cost; returns (a float vector of its measured size, label, length)."""

    def __init__(self, cost_s: dict[int, float], labels: dict[int, Any], lengths: dict[int, int],
                 sample_floats: int) -> None:
        self.cost_s, self.labels, self.lengths, self.sample_floats = cost_s, labels, lengths, sample_floats
        self.n = max(cost_s) + 1 if cost_s else 0

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        cost = self.cost_s.get(i, 0.0)
        if cost > 0:
            time.sleep(cost)
        return torch.zeros(self.sample_floats), self.labels.get(i, -1), self.lengths.get(i, -1)


class ReplayCollate:
    def __init__(self, cost_s: float) -> None:
        self.cost_s = cost_s

    def __call__(self, samples):
        if self.cost_s > 0:
            time.sleep(self.cost_s)
        return default_collate(samples)


class ReplayConsumer:
    def __init__(self, cost_s: float) -> None:
        self.cost_s = cost_s

    def __call__(self, batch) -> None:
        if self.cost_s > 0:
            time.sleep(self.cost_s)


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


def _span_median(frame: pd.DataFrame, begin: str, end: str) -> float:
    b = frame[frame["kind"] == begin].reset_index(drop=True)
    e = frame[frame["kind"] == end].reset_index(drop=True)
    n = min(len(b), len(e))
    if n == 0:
        return 0.0
    return float((e["t_ns"][:n] - b["t_ns"][:n]).clip(lower=0).median() / 1e9)


def measured_workload(frame: pd.DataFrame) -> dict[str, Any]:
    """What the replay reproduces, read from a trace: per-index cost/label/length, and per-batch costs."""
    fetch = frame[frame["kind"].isin(["fetch_begin", "fetch_end"]) & (frame["index"] >= 0)]
    begins = fetch[fetch["kind"] == "fetch_begin"].drop_duplicates(["pid", "epoch", "index", "t_ns"])
    ends = fetch[fetch["kind"] == "fetch_end"]
    keys = ["pid", "epoch", "batch", "index"]
    spans = begins[keys + ["t_ns"]].merge(ends[keys + ["t_ns", "label", "length"]], on=keys, suffixes=("_b", "_e"))
    spans["cost_s"] = (spans["t_ns_e"] - spans["t_ns_b"]) / 1e9
    per_index = spans.groupby("index").agg(cost_s=("cost_s", "median"), label=("label", "first"),
                                           length=("length", "first"))
    orders = []
    for _, rows in frame[frame["kind"] == "fetch_end"].groupby("epoch"):
        orders.append([int(i) for i in rows.sort_values(["batch", "t_ns"])["index"] if i >= 0])
    puts = frame[(frame["kind"] == "result_put") & (frame["nbytes"] > 0)]
    batch_size = frame.attrs.get("loader", {}).get("batch_size") or 1
    sample_bytes = float(puts["nbytes"].median()) / batch_size if len(puts) else 32.0
    return {
        "cost_s": {int(i): float(c) for i, c in per_index["cost_s"].items()},
        "labels": {int(i): v for i, v in per_index["label"].items() if v is not None and v == v},
        "lengths": {int(i): int(v) for i, v in per_index["length"].items()},
        "orders": [o for o in orders if o],
        "collate_s": _span_median(frame, "collate_begin", "collate_end"),
        "consume_s": _span_median(frame, "consumer_begin", "consumer_end"),
        "sample_floats": max(1, int(sample_bytes // 4)),
    }


def replay(frame: pd.DataFrame, *, epochs: int | None = None, **loader_args: Any) -> pd.DataFrame:
    """Record the engine on the trace's measured workload, with ``loader_args`` replacing recorded settings."""
    unknown = sorted(set(loader_args) - set(REPLAYABLE))
    if unknown:
        raise TypeError(f"replay() got unexpected loader arguments {unknown}; allowed: {', '.join(REPLAYABLE)}")
    work = measured_workload(frame)
    if not work["orders"]:
        raise ValueError("this trace has no per-sample fetch events with dataset indices, so there is nothing "
                         "to replay (record it with loaderlab.record, which times every sample)")
    settings = {k: v for k, v in (frame.attrs.get("loader") or {}).items() if k in REPLAYABLE}
    settings.update(loader_args)
    if not settings.get("num_workers"):
        settings.pop("prefetch_factor", None)
        settings.pop("persistent_workers", None)
    if settings.get("batch_size") is None:
        settings["batch_size"] = 1
    dataset = ReplayDataset(work["cost_s"], work["labels"], work["lengths"], work["sample_floats"])
    loader = DataLoader(dataset, sampler=RecordedOrder(work["orders"]), collate_fn=ReplayCollate(work["collate_s"]),
                        **settings)
    out = record(loader, epochs=epochs or len(work["orders"]), consumer=ReplayConsumer(work["consume_s"]),
                 sample_info=replay_sample_info)
    out.attrs["replay_of"] = dict(frame.attrs.get("loader") or {})
    return out


def replay_sample_info(index, sample) -> tuple[Any, int]:
    return sample[1], sample[2]
