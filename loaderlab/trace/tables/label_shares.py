"""Three label distributions per epoch: what the data is, what the sampler intends, what the loop received.

Twin of nothing in torch. ``received`` is counted from the samples the loop got (:func:`.audits.samples`);
``dataset`` and ``intended`` come from what the recorder read off the loader once
(:mod:`loaderlab.trace.recording.label_reading`, the run's ``label_sources``):

- dataset: read (a ``targets`` attribute, a pandas column, a ClassLabel: exact counts); else, for a
  ``WeightedRandomSampler`` whose weights the trace kept, estimated from the epoch's draws weighted by
  1/weight (a ratio estimator, with a 95 % interval); else, for a uniform sampler (sequential, random,
  distributed), the received shares themselves (exact where the epoch drew every index once, else a Wilson
  interval); else not known;
- intended: a WeightedRandomSampler's weight per class (its share of the weights), a SubsetRandomSampler's
  indices per class, or the dataset's own shares for a sampler that draws every index alike; where the
  dataset does not say its labels, the weights' share per label when the draws tie each weight value to one
  label (class weights spread over the samples); else not known (the draws alone cannot tell it apart from
  what was received).

Pure pandas/numpy over the events table; knows nothing of findings' words, plotly or streamlit.
"""

from __future__ import annotations

import json
import math
from typing import Any

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.cache import shared
from ..core.lookups import normal, positions
from ..core.run import as_run
from ..recording.label_reading import unpacked_weights
from .audits import is_class, per_label, plain_label, samples

COLUMNS = ["epoch", "which", "label", "count", "share", "low", "high", "estimated", "source"]
WHICH = ("dataset", "intended", "received")
Z95 = 1.959964
UNIFORM = ("SequentialSampler", "RandomSampler", "DistributedSampler")  # each index drawn alike


def sources(frame: pd.DataFrame) -> dict[str, Any]:
    """The run's ``label_sources`` metadata ({} where the recorder read none)."""
    return dict(as_run(frame).extra.get("label_sources") or {})


def _pairs(pairs) -> dict:
    return {plain_label(k): float(v) for k, v in pairs or ()}


def wilson(count: float, n: float) -> tuple[float, float]:
    """The 95 % Wilson interval of a share ``count / n``."""
    if n <= 0:
        return math.nan, math.nan
    p = count / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def inverse_weight_shares(labels: np.ndarray, weights: np.ndarray) -> dict:
    """Each label's share of the data from draws made with probability ∝ weight: Σ 1/w of the label over
    Σ 1/w (a ratio estimator), and its 95 % interval (linearised variance): label → (share, low, high)."""
    codes, uniques = pd.factorize(pd.Series(labels, dtype=object))
    x = 1.0 / weights
    total, n, k = x.sum(), len(x), len(uniques)
    share = np.bincount(codes, weights=x, minlength=k) / total
    # Σ_i (y_i − r·x_i)² per label, with y_i = x_i for the label's draws and 0 for the others
    sq = (x * x).sum()
    own = np.bincount(codes, weights=x * x, minlength=k)
    var = (own * (1 - 2 * share) + share * share * sq) / (total * total) * (n / max(n - 1, 1))
    half = Z95 * np.sqrt(np.maximum(var, 0.0))
    return {plain_label(lab): (float(r), max(0.0, float(r - h)), min(1.0, float(r + h)))
            for lab, r, h in zip(uniques, share, half)}


def weights_by_label(got: pd.DataFrame, weights: np.ndarray) -> dict:
    """The weights' share per label where the draws tie each weight value to one label and each label to one
    value (class weights spread over the samples, the usual recipe): label → Σ weights of its value / Σ
    weights; {} where they do not (a weight value no draw reached, a label drawn at two weights)."""
    idx = got["index"].to_numpy(np.int64)
    if not len(idx) or idx.min() < 0 or idx.max() >= len(weights):
        return {}
    pairs = pd.DataFrame({"w": weights[idx], "label": got["label"].to_numpy(dtype=object)}).drop_duplicates()
    values, counts = np.unique(weights, return_counts=True)
    if len(pairs) != len(values) or pairs["w"].nunique() != len(pairs) or pairs["label"].nunique() != len(pairs):
        return {}
    per_value = dict(zip(values.tolist(), (values * counts).tolist()))
    total = float((values * counts).sum())
    return {plain_label(r.label): per_value[float(r.w)] / total for r in pairs.itertuples()} if total > 0 else {}


def _rows(epoch: int, which: str, shares: dict, total: float, estimated: bool, source: str,
          intervals: dict | None = None) -> list[dict]:
    out = []
    for lab, share in shares.items():
        lo, hi = (intervals or {}).get(lab, (math.nan, math.nan))
        out.append({"epoch": epoch, "which": which, "label": lab, "count": share * total, "share": share,
                    "low": lo, "high": hi, "estimated": estimated, "source": source})
    return out


def _normalised(counts: dict) -> dict:
    total = sum(counts.values())
    return {k: v / total for k, v in counts.items()} if total > 0 else {}


def _epochs(frame: pd.DataFrame, s: pd.DataFrame) -> list[int]:
    f = normal(frame)
    begun = f["epoch"].to_numpy()[positions(f, ev.EPOCH_BEGIN)]
    return sorted({int(e) for e in begun} | {int(e) for e in s["epoch"].unique()})


def label_distributions(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per (epoch, which, label): ``count``, ``share`` (of that distribution), ``low``/``high`` (a 95 %
    interval where ``estimated``, else NaN) and ``source`` (where the numbers came from; module docstring).
    ``count`` is rows for the dataset, expected draws for the intended, samples for the received."""
    meta = sources(frame)  # part of the key: a report asks for the table three times (findings, text, JSON)
    return _distributions(frame, json.dumps(meta, sort_keys=True, default=str),
                          as_run(frame).loader.get("dataset_len"))


@shared
def _distributions(frame: pd.DataFrame, meta_json: str, dataset_len: Any) -> pd.DataFrame:
    meta = json.loads(meta_json)
    data_meta, sampler = meta.get("dataset") or {}, meta.get("sampler") or {}
    s = samples(frame)
    s = s[per_label(s["label"], is_class).astype(bool)] if len(s) else s
    dataset_counts = _pairs(data_meta.get("counts"))
    n_data = float(data_meta.get("n") or sum(dataset_counts.values()))
    kind = sampler.get("type", "")
    weights = unpacked_weights(sampler.get("weights"))
    rows: list[dict] = []
    for epoch in _epochs(frame, s):
        got = s[s["epoch"] == epoch]
        counts = got["label"].value_counts(sort=False)
        received = {plain_label(k): float(v) for k, v in counts.items()}
        n_got = float(len(got))
        if received:
            rows += _rows(epoch, "received", _normalised(received), n_got, False, "received")
        # the dataset's
        if dataset_counts:
            rows += _rows(epoch, "dataset", _normalised(dataset_counts), n_data, False, data_meta.get("source", ""))
        elif weights is not None and len(got):
            idx = got["index"].to_numpy(np.int64)
            ok = (idx >= 0) & (idx < len(weights))
            if ok.all() and (weights[idx] > 0).all():
                est = inverse_weight_shares(got["label"].to_numpy(dtype=object), weights[idx])
                shares = {k: v[0] for k, v in est.items()}
                total = float(dataset_len or len(weights))
                rows += _rows(epoch, "dataset", shares, total, True, "inverse_weight",
                              {k: v[1:] for k, v in est.items()})
        elif kind in UNIFORM and len(got):
            complete = dataset_len is not None and got["index"].nunique() == len(got) == dataset_len
            intervals = None if complete else {k: wilson(v, n_got) for k, v in received.items()}
            total = float(dataset_len or n_got)
            rows += _rows(epoch, "dataset", _normalised(received), total, not complete,
                          "whole_epoch" if complete else "uniform_draws", intervals)
        # the sampler's intended
        draws = float(sampler.get("num_samples") or dataset_len or n_got or 0)
        class_weight = _pairs(sampler.get("class_weight"))
        if class_weight:
            rows += _rows(epoch, "intended", _normalised(class_weight), draws, False,
                          "weights" if sampler.get("weighted") else "indices")
        elif kind in UNIFORM and dataset_counts:
            rows += _rows(epoch, "intended", _normalised(dataset_counts), draws, False, "uniform")
        elif weights is not None and len(got):
            by_weight = weights_by_label(got, weights)
            if by_weight:
                rows += _rows(epoch, "intended", by_weight, draws, False, "weights_by_label")
    out = pd.DataFrame(rows, columns=COLUMNS)
    order = {w: i for i, w in enumerate(WHICH)}
    out["_w"] = out["which"].map(order)
    try:
        out = out.sort_values(["epoch", "_w", "label"], kind="stable")
    except TypeError:  # labels of mixed types
        out = out.sort_values(["epoch", "_w", "label"], key=lambda c: c.astype(str) if c.name == "label" else c,
                              kind="stable")
    return out.drop(columns="_w").reset_index(drop=True)


def labels_json(table: pd.DataFrame) -> list[dict]:
    """``report --json``'s ``labels``: per epoch ``{"epoch", "dataset", "intended", "received"}``, each a map
    label → share (labels as text: JSON keys) or null; ``dataset_estimated`` and, where estimated,
    ``dataset_interval`` (label → [low, high])."""
    out = []
    for epoch in sorted(table["epoch"].unique()) if len(table) else []:
        g = table[table["epoch"] == epoch]
        entry: dict[str, Any] = {"epoch": int(epoch)}
        for which in WHICH:
            part = g[g["which"] == which]
            entry[which] = {str(r.label): round(float(r.share), 6) for r in part.itertuples()} if len(part) else None
        data = g[g["which"] == "dataset"]
        entry["dataset_estimated"] = bool(data["estimated"].any()) if len(data) else None
        if len(data) and data["estimated"].any():
            entry["dataset_interval"] = {str(r.label): [round(float(r.low), 6), round(float(r.high), 6)]
                                         for r in data.itertuples()}
        out.append(entry)
    return out
