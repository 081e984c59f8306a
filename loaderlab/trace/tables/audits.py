"""What the loop was fed: per-sample labels and lengths from a trace → label and padding tables.

Twin of nothing in torch (it never looks at what it loads). Pure functions over the table
:func:`loaderlab.record` returns; labels and lengths come from ``record(..., sample_info=)``, which fills
``fetch_end``'s ``label`` and ``length``. Knows pandas and the event vocabulary, nothing of plotly or
streamlit. The findings built on these tables live in :mod:`loaderlab.trace.diagnosis.findings`.

Labels are compared as values: a float that is a whole number (the ``label`` column turns ints into
floats next to missing values) counts as that int. A label written ``"rng:<number>"`` is a random draw
(see :func:`loaderlab.trace.diagnosis.findings.correctness_findings`), not a class, and is left out of label counts.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.cache import shared
from ..core.groups import firsts, key_ids
from ..core.lookups import hand_overs, normal, positions, sampler_order, settings

RNG_PREFIX = "rng:"
SAMPLE_COLUMNS = ["epoch", "batch", "worker", "pid", "index", "label", "length", "t_s"]


def plain_label(value):
    """A label as a plain, hashable Python value (None when missing)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    try:
        hash(value)
    except TypeError:
        return repr(value)
    return value


def plain_labels(values: pd.Series) -> pd.Series:
    """:func:`plain_label` of every cell, worked out once per distinct label (a trace has millions of samples
    and a handful of classes)."""
    return per_label(values, plain_label)


def per_label(values: pd.Series, fn) -> pd.Series:
    """``fn`` of each cell, called once per distinct value where that is safe."""
    cells = values.to_numpy(dtype=object)
    try:
        codes, uniques = pd.factorize(cells)  # missing cells (None, NaN) get code -1
    except TypeError:  # an unhashable label (a list, say): one call per cell
        return pd.Series([fn(v) for v in cells], index=values.index, dtype=object)
    if pd.api.types.infer_dtype(uniques, skipna=True) not in ("integer", "string", "floating", "boolean", "empty"):
        # 1, 1.0 and True hash alike and factorize as one: with several types, each cell on its own
        return pd.Series([fn(v) for v in cells], index=values.index, dtype=object)
    mapped = np.empty(len(uniques) + 2, dtype=object)
    mapped[:len(uniques)] = [fn(u) for u in uniques]
    mapped[-2], mapped[-1] = fn(math.nan), fn(None)
    codes = np.where(codes >= 0, codes, np.where(cells == None, len(uniques) + 1, len(uniques)))  # noqa: E711
    return pd.Series(mapped[codes], index=values.index, dtype=object)


def is_rng(label) -> bool:
    return isinstance(label, str) and label.startswith(RNG_PREFIX)


def is_class(label) -> bool:
    """A label that names a class (or, for an IterableDataset, a sample): present and not a random draw."""
    return label is not None and not is_rng(label)


def is_iterable(frame: pd.DataFrame) -> bool:
    """Was the dataset an IterableDataset? (From the settings, else from the sampler's ``None`` indices.)"""
    s = settings(frame)
    if "iterable" in s:
        return bool(s["iterable"])
    return any(i is None for idx in sampler_order(frame)["indices"] if idx for i in idx)


@shared
def samples(frame: pd.DataFrame, handed_only: bool = True) -> pd.DataFrame:
    """One row per fetched sample: ``epoch, batch, worker, pid, index, label, length, t_s``.

    From ``fetch_end`` (a sample that raised is left out); with ``handed_only``, only samples of batches
    the loop received (a loop stopped early leaves prefetched batches unseen). Without fetch events the
    sampler's indices stand in, with no label and length -1. ``index`` is the dataset index, or for an
    IterableDataset the sample's position in its worker's stream.
    """
    f = normal(frame)
    at = positions(f, ev.FETCH_END)  # the rows kept are found first, then taken once (a big trace's samples)
    ok = (f["detail"].take(at) == "").to_numpy(dtype=bool, na_value=False) & (f["index"].to_numpy()[at] >= 0)
    if not ok.any() and not len(at):
        order = sampler_order(f).explode("indices").dropna(subset=["indices"])
        out = pd.DataFrame({"epoch": order["epoch"], "batch": order["batch"], "worker": -1, "pid": -1,
                            "index": order["indices"].astype("int64"), "label": None, "length": -1,
                            "t_s": math.nan})[SAMPLE_COLUMNS]
        handed = hand_overs(f)[["epoch", "batch"]]
        if handed_only and len(handed):
            out = out.merge(handed.drop_duplicates(), on=["epoch", "batch"])
    else:
        at = at[ok]
        handed = hand_overs(f)[["epoch", "batch"]]
        if handed_only and len(handed):  # the inner merge on (epoch, batch), as a mask: the rows keep their order
            both = {k: np.concatenate((f[k].to_numpy()[at].astype(np.int64), handed[k].to_numpy(np.int64)))
                    for k in handed}
            code = key_ids(both, ["epoch", "batch"])
            at = at[np.isin(code[:len(at)], code[len(at):])]
        out = f[SAMPLE_COLUMNS].take(at)
    out["label"] = plain_labels(out["label"])
    return out.reset_index(drop=True)


@dataclass(frozen=True)
class LabelAudit:
    """The tables of :func:`label_audit`."""

    per_batch: pd.DataFrame  # epoch, batch, label, count
    per_epoch: pd.DataFrame  # epoch, label, count, share, intended_share, drift (share - intended)
    coverage: pd.DataFrame  # epoch, drawn, distinct, repeats, dataset_len, unseen (map-style datasets only)
    repeated: pd.DataFrame  # epoch, index, times: dataset indices drawn more than once in an epoch


def _sorted(table: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    try:
        return table.sort_values(by, kind="stable").reset_index(drop=True)
    except TypeError:  # labels of mixed types: order them by their text
        return table.sort_values(by, key=lambda c: c.astype(str), kind="stable").reset_index(drop=True)


def _intended_shares(intended) -> dict:
    if intended is None:
        return {}
    items = intended.items() if isinstance(intended, Mapping) else enumerate(intended)
    shares = {plain_label(k): float(v) for k, v in items}
    total = sum(shares.values())
    return {k: v / total for k, v in shares.items()} if total > 0 else {}


def _counts(classes: pd.DataFrame, keys: list[str], label: np.ndarray | None, uniques) -> pd.DataFrame:
    """``classes.groupby(keys + ["label"], sort=False).size()`` as ``keys, label, count``, from the labels'
    codes (``pd.factorize``: 1, 1.0 and True are one label, as in groupby) and the keys as ints; ``label``
    None: pandas' own way (an unhashable label)."""
    if label is None or not len(classes):
        return classes.groupby([*keys, "label"], sort=False).size().rename("count").reset_index()
    code = key_ids({**{k: classes[k].to_numpy() for k in keys}, "label": label}, [*keys, "label"])
    count = np.bincount(code)
    first = firsts(code, np.arange(len(code)), len(count))
    labels = np.empty(len(first), dtype=object)
    labels[:] = list(np.asarray(uniques, dtype=object)[label[first]])
    return pd.DataFrame({**{k: classes[k].to_numpy()[first] for k in keys}, "label": labels, "count": count})


def label_audit(frame: pd.DataFrame, labels=None, intended=None) -> LabelAudit:
    """Label counts of what the loop received, per batch and per epoch, and how well the epoch covered the data.

    ``labels``: an optional sequence, dataset index → label (else the ``label`` that ``sample_info`` put
    on each ``fetch_end``). ``intended``: optional class shares, a mapping label → share or a sequence
    indexed by label (normalised to sum to 1); ``per_epoch`` then compares realised with intended.
    """
    s = samples(frame)
    if labels is not None:
        table = list(labels)
        s["label"] = pd.Series([plain_label(table[i]) if 0 <= i < len(table) else None for i in s["index"]],
                               index=s.index, dtype=object)
    try:  # each label's code once, for the class test and both counts
        label, uniques = pd.factorize(s["label"].to_numpy(dtype=object))
        is_one = np.array([is_class(u) for u in uniques] + [False], dtype=bool)[label]  # -1 (None) → not a class
        classes, label = s[is_one], label[is_one]
    except TypeError:  # an unhashable label: one test per cell
        classes, label, uniques = s[per_label(s["label"], is_class).astype(bool)], None, None
    per_batch, per_epoch = _counts(classes, ["epoch", "batch"], label, uniques), _counts(classes, ["epoch"], label, uniques)
    shares = _intended_shares(intended)
    if shares:  # a class intended but never drawn still gets its row, with count 0
        grid = pd.DataFrame([(e, lab) for e in per_epoch["epoch"].unique() for lab in shares],
                            columns=["epoch", "label"])
        per_epoch = per_epoch.merge(grid, on=["epoch", "label"], how="outer")
        per_epoch["count"] = per_epoch["count"].fillna(0).astype("int64")
    per_epoch["share"] = per_epoch["count"] / per_epoch.groupby("epoch")["count"].transform("sum")
    per_epoch["intended_share"] = per_epoch["label"].map(shares).astype(float) if shares else math.nan
    per_epoch["drift"] = per_epoch["share"] - per_epoch["intended_share"]

    coverage_cols = ["epoch", "drawn", "distinct", "repeats", "dataset_len", "unseen"]
    coverage, repeated = [], pd.DataFrame(columns=["epoch", "index", "times"])
    if not is_iterable(frame) and len(s):
        n = settings(frame).get("dataset_len")
        for epoch, g in s.groupby("epoch"):
            distinct = int(g["index"].nunique())
            coverage.append({"epoch": int(epoch), "drawn": len(g), "distinct": distinct,
                             "repeats": len(g) - distinct, "dataset_len": n if n is not None else math.nan,
                             "unseen": n - distinct if n is not None else math.nan})
        code = key_ids(s, ["epoch", "index"])  # draws per (epoch, index): groupby(...).size() without sorting
        times = np.bincount(code)
        first = firsts(code, np.arange(len(code)), len(times))[times > 1]
        times = pd.DataFrame({"epoch": s["epoch"].to_numpy()[first], "index": s["index"].to_numpy()[first],
                              "times": times[times > 1]})
        # (epoch, index) is unique: this order is total, whatever order the rows came in
        repeated = times.sort_values(["epoch", "times", "index"], ascending=[True, False, True])
    return LabelAudit(per_batch=_sorted(per_batch, ["epoch", "batch", "label"]),
                      per_epoch=_sorted(per_epoch, ["epoch", "label"]),
                      coverage=pd.DataFrame(coverage, columns=coverage_cols),
                      repeated=repeated.reset_index(drop=True))


def padding_audit(frame: pd.DataFrame) -> pd.DataFrame:
    """Per batch, what padding to the longest sample costs: ``epoch, batch, samples, max_length,
    total_length, cells`` (samples × max_length), ``padded_cells`` and ``padding_fraction``.

    Uses each sample's ``length`` from ``sample_info``; samples without a length (-1) are left out.
    """
    s = samples(frame)
    s = s[s["length"] >= 0]
    cols = ["epoch", "batch", "samples", "max_length", "total_length", "cells", "padded_cells", "padding_fraction"]
    if not len(s):
        return pd.DataFrame(columns=cols)
    out = s.groupby(["epoch", "batch"])["length"].agg(samples="size", max_length="max", total_length="sum")
    out = out.reset_index()
    out["cells"] = out["samples"] * out["max_length"]
    out["padded_cells"] = out["cells"] - out["total_length"]
    out["padding_fraction"] = (out["padded_cells"] / out["cells"].where(out["cells"] > 0)).fillna(0.0)
    return out[cols]
