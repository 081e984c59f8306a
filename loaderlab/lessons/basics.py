"""Lessons 1–5: Dataset styles, batches, shuffle and samplers, ``batch_sampler``, ``collate_fn``.

Each lesson's answer is read from its recorded run (sampler order, samples received, padding, torch's
error); nothing here knows the right choice in advance. Knows pandas and the trace tables; nothing of
plotly or streamlit.
"""

from __future__ import annotations

import pandas as pd

from ..trace.tables.audits import padding_audit, samples
from ..trace.core.lookups import sampler_order
from .lesson import BASE, Lesson, Outcome, loader_settings, try_run


def _orders(frame: pd.DataFrame) -> dict[int, list]:
    """Epoch → the indices the sampler drew, in order (flattened over batches)."""
    order = sampler_order(frame)
    return {int(e): [i for idx in g["indices"] for i in (idx or [])] for e, g in order.groupby("epoch")}


def _sizes(frame: pd.DataFrame, epoch: int = 0) -> list[int]:
    order = sampler_order(frame)
    return [len(i or []) for i in order[order["epoch"] == epoch]["indices"]]


def _show(values, most: int = 12) -> str:
    values = list(values)
    return ", ".join(str(v) for v in values[:most]) + (", …" if len(values) > most else "")


# 1 Dataset -------------------------------------------------------------------------------------------

def dataset_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    s = samples(frame)
    n = int(loader_settings(frame).get("dataset_len") or 0)
    per_worker = s.groupby("worker").size()
    params = {"received": len(s), "n": n, "workers": len(per_worker),
                  "per_worker": ", ".join(f"{int(w)}: {int(c)}" for w, c in per_worker.items())}
    return ("per_worker" if len(s) > n else "once"), params


def samples_per_worker(frame: pd.DataFrame) -> pd.DataFrame:
    s = samples(frame)
    return pd.DataFrame([{"worker": int(w), "samples": len(g), "index": _show(g["index"], 8)}
                         for w, g in s.groupby("worker")])


# 2 batches -------------------------------------------------------------------------------------------

def batches_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    sizes = _sizes(frame)
    n = int(loader_settings(frame).get("dataset_len") or 0)
    params = {"batches": len(sizes), "sizes": _show(sizes), "received": sum(sizes), "n": n, "dropped": n - sum(sizes),
                  "last": sizes[-1] if sizes else 0}
    if loader_settings(frame).get("batch_size") is None:
        return "unbatched", params
    return ("dropped" if sum(sizes) < n else "short_last"), params


def batch_table(frame: pd.DataFrame) -> pd.DataFrame:
    order = sampler_order(frame)
    return pd.DataFrame({"batch": order["batch"], "indices": [_show(i or []) for i in order["indices"]],
                         "samples": [len(i or []) for i in order["indices"]]})


# 3 shuffle -------------------------------------------------------------------------------------------

def shuffle_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    orders = _orders(frame)
    first, second = orders.get(0, []), orders.get(1, [])
    params = {"first": _show(first, 8), "second": _show(second, 8), "sampler": loader_settings(frame).get("sampler")}
    if first == sorted(first):
        return "sequential", params
    return ("same" if first == second else "new"), params


def order_table(frame: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame([{"epoch": e, "indices": _show(o, 16)} for e, o in _orders(frame).items()])


# 4 batch_sampler -------------------------------------------------------------------------------------

def batch_sampler_answer(outcome: Outcome) -> tuple[str, dict]:
    if outcome.error:
        return "error", {"message": outcome.error}
    sizes = _sizes(outcome.frame)
    first = sampler_order(outcome.frame)["indices"].iloc[0]
    return "batch_sampler", {"batches": len(sizes), "sizes": _show(sizes), "first": _show(first or []),
                                 "kind": loader_settings(outcome.frame).get("batch_sampler")}


def outcome_batches(outcome: Outcome) -> pd.DataFrame | None:
    return None if outcome.frame is None else batch_table(outcome.frame)


# 5 collate_fn ----------------------------------------------------------------------------------------

def collate_answer(outcome: Outcome) -> tuple[str, dict]:
    if outcome.error:
        return "error", {"message": outcome.error}
    audit = padding_audit(outcome.frame)
    cells, padded = int(audit["cells"].sum()), int(audit["padded_cells"].sum())
    lengths = samples(outcome.frame)["length"]
    params = {"cells": cells, "padded": padded, "fraction": padded / cells if cells else 0.0,
                  "shortest": int(lengths.min()), "longest": int(lengths.max())}
    return ("padded" if padded else "stacked"), params


def padding_table(outcome: Outcome) -> pd.DataFrame | None:
    if outcome.frame is None:
        return None
    audit = padding_audit(outcome.frame)
    return audit[["batch", "samples", "max_length", "cells", "padded_cells"]]


def _length_range(settings) -> dict:
    lo, hi = settings["length"] - settings["length_spread"], settings["length"] + settings["length_spread"]
    return {"shortest": max(lo, 1), "longest": hi,
                "collate_name": "default_collate" if settings["collate"] == "default" else "pad_collate (pad_sequence)"}


LESSONS = (
    Lesson(1, "dataset", ("once", "per_worker", "error"),
           {**BASE, "kind": "iterable_unsharded", "n_samples": 12}, dataset_answer, "1_Event_table",
           table=samples_per_worker),
    Lesson(2, "batches", ("short_last", "dropped", "padded", "unbatched"),
           {**BASE, "n_samples": 10, "num_workers": 0, "cost_ms": 0.0}, batches_answer, "1_Event_table",
           table=batch_table, figure="none"),
    Lesson(3, "shuffle", ("new", "same", "sequential"),
           {**BASE, "n_samples": 16, "shuffle": True, "epochs": 2, "num_workers": 0, "cost_ms": 0.0},
           shuffle_answer, "4_Sampling_and_imbalance", table=order_table, figure="none"),
    Lesson(4, "batch_sampler", ("error", "batch_sampler", "shuffled"),
           {**BASE, "batch_sampler": "bucket", "shuffle": True, "collate": "pad", "length_spread": 4,
            "num_workers": 0, "cost_ms": 0.0}, batch_sampler_answer, "5_Padding_and_collate",
           table=outcome_batches, runner=try_run, figure="none"),
    Lesson(5, "collate", ("error", "padded", "truncated", "stacked"),
           {**BASE, "n_samples": 16, "length_spread": 4, "num_workers": 0, "cost_ms": 0.0}, collate_answer,
           "5_Padding_and_collate", table=padding_table, runner=try_run, figure="padding",
           prompt=_length_range),
)
