"""Findings that name the common re-balancing mistakes on a user's own loader, each with its numbers.

Twin of nothing in torch, which samples as told. Read from the three label distributions
(:func:`loaderlab.trace.tables.label_shares.label_distributions`), the label audit of what the loop received
(:func:`loaderlab.trace.tables.audits.label_audit`) and the sampler's arguments the recorder kept
(``label_sources``). Every finding is a ``warning``:

- ``sampler_share_off``: a label's received count outside the binomial's own range for the intended share
  and that many draws (99.9 % for the epoch's labels together, Bonferroni) (the samples' labels are not those the weights were made from; for a sampler without
  weights, those the dataset says, or a rank's shard is not a fair part of the data);
- ``minority_missing``: the least common label in under half of the epoch's batches (it stands in for the
  label audit's ``class_imbalance`` line of the same epoch, which says less);
- ``class_weights_per_sample``: a WeightedRandomSampler with fewer weights than samples draws only indices
  0…k−1 (``WeightedRandomSampler(class_weights, n)``);
- ``draws_without_replacement``: ``replacement=False`` with more draws than non-zero weights (torch fails at
  the first batch; its error is quoted where the trace holds it);
- ``unseen_samples``: an epoch that drew about as many samples as the data holds but never saw most of it.

Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.findings import Finding, finding
from ..core.lookups import normal, positions, settings
from ..core import kinds
from ..tables.audits import label_audit, samples
from ..tables.audits import is_iterable
from ..tables.label_shares import label_distributions, sources

FAIR = 0.001  # the chance that a fair draw of any of an epoch's labels is called off (Bonferroni over labels)
MIN_DRAWS = 30
MIN_BATCHES = 4
UNSEEN_FRACTION = 0.5  # more than half the data never seen in an epoch that drew about as many
MULTINOMIAL = ("multinomial", "without replacement")


def _torch_error(frame: pd.DataFrame) -> str:
    f = normal(frame)
    details = f["detail"].take(positions(f, ev.ERROR)).astype(str)
    said = [d for d in details if any(m in d for m in MULTINOMIAL)]
    return said[0] if said else ""


def _sampler_findings(frame: pd.DataFrame, sampler: dict, s: pd.DataFrame, dataset_len) -> list[Finding]:
    out = []
    if not sampler.get("weighted"):
        return out
    n_weights, num_samples = int(sampler["n_weights"]), int(sampler["num_samples"])
    nonzero = int(sampler.get("nonzero_weights", n_weights))
    if not sampler.get("replacement") and num_samples > nonzero:
        error = _torch_error(frame)
        out.append(finding(kinds.DRAWS_WITHOUT_REPLACEMENT, "warning", num_samples=num_samples, nonzero=nonzero,
                           n_weights=n_weights, torch_error=error))
    if dataset_len and n_weights < dataset_len:
        for epoch, g in (s.groupby("epoch") if len(s) else [(0, s)]):
            distinct = int(g["index"].nunique())
            out.append(finding(kinds.CLASS_WEIGHTS_PER_SAMPLE, "warning", epoch=int(epoch), n_weights=n_weights,
                               dataset_len=int(dataset_len), last=n_weights - 1, drawn=len(g), distinct=distinct,
                               unseen=int(dataset_len) - distinct))
    return out


def fair_range(n: int, p: float, alpha: float) -> tuple[int, int]:
    """The counts a fair draw of ``n`` at share ``p`` lands within with probability at least 1 − ``alpha``
    (the binomial's own tails, ``alpha / 2`` each: a rare label's upper tail is longer than a normal's)."""
    if p <= 0 or p >= 1:
        return (0, 0) if p <= 0 else (n, n)
    sd = math.sqrt(n * p * (1 - p))
    ks = np.arange(max(0, math.floor(n * p - 8 * sd - 20)), min(n, math.ceil(n * p + 8 * sd + 20)) + 1)
    # pmf(k + 1) / pmf(k) = (n − k) / (k + 1) · p / (1 − p): the window's log pmf up to a constant, by cumsum
    step = np.log(n - ks[:-1]) - np.log(ks[:-1] + 1.0) + math.log(p) - math.log1p(-p)
    log_pmf = np.concatenate(([0.0], np.cumsum(step)))
    pmf = np.exp(log_pmf - log_pmf.max())
    cdf = np.cumsum(pmf) / pmf.sum()  # the window holds all but ~1e-15 of the mass
    lo = ks[np.searchsorted(cdf, alpha / 2, side="right")]
    hi = ks[min(np.searchsorted(cdf, 1 - alpha / 2, side="left"), len(ks) - 1)]
    return int(lo), int(hi)


def _share_off_key(sampler: dict) -> str:
    """The words for shares off the intended: why it happens depends on what meant them."""
    if sampler.get("weighted"):
        return kinds.SAMPLER_SHARE_OFF  # the weights were made for other rows
    if sampler.get("type") == "DistributedSampler":
        return "sampler_share_off_shard"  # the rank's shard is not a fair part of the data
    return "sampler_share_off_data"  # the samples' labels are not those the dataset says


def _share_off(table: pd.DataFrame, sampler: dict) -> list[Finding]:
    """Per epoch, the label furthest outside a fair draw of its intended share (one finding: with two labels
    the second is the first's mirror)."""
    key, out = _share_off_key(sampler), []
    for epoch, g in table.groupby("epoch"):
        got, meant = g[g["which"] == "received"], g[g["which"] == "intended"]
        if not len(got) or not len(meant):
            continue
        n = int(round(got["count"].sum()))
        intended = dict(zip(meant["label"], meant["share"]))
        received = dict(zip(got["label"], got["count"]))
        if n < MIN_DRAWS or not set(received) <= set(intended):
            continue  # labels the dataset's attribute never named: the two are not the same labels
        worst, worst_key = None, (0.0, -math.inf)
        for label, p in intended.items():
            count = int(round(received.get(label, 0)))
            lo, hi = fair_range(n, p, FAIR / len(intended))  # the epoch's labels judged together
            if lo <= count <= hi:
                continue
            sd = math.sqrt(n * p * (1 - p))
            z = abs(count - n * p) / sd if sd > 0 else math.inf
            key_z = (round(z, 9), p - count / n)  # a tie names the label served less than meant
            if key_z > worst_key:
                worst, worst_key = (label, p, count, lo, hi), key_z
        if worst is not None:
            label, p, count, lo, hi = worst
            out.append(finding(kinds.SAMPLER_SHARE_OFF, "warning", key, epoch=int(epoch), label=label,
                               share=count / n, count=count, n=n, intended=p, low=lo / n, high=hi / n))
    return out


def _minority_missing(frame: pd.DataFrame) -> list[Finding]:
    audit, out = label_audit(frame), []
    for epoch, g in audit.per_epoch.groupby("epoch"):
        k = len(g)
        if k < 2 or g["count"].sum() < MIN_DRAWS:
            continue
        rare = g["share"].idxmin()
        label, share = g.at[rare, "label"], float(g.at[rare, "share"])
        if share >= 0.5 / k:
            continue  # not a minority: many classes each miss most batches by design
        batches = audit.per_batch[audit.per_batch["epoch"] == epoch]
        total = int(batches["batch"].nunique())
        with_label = int(batches[batches["label"] == label]["batch"].nunique())
        sizes = batches.groupby("batch")["count"].sum()
        # the words promise that balancing puts it in most batches: 1 − (1 − 1/k)^B ≥ 1/2 needs B ≥ 0.7 k
        if total >= MIN_BATCHES and with_label < total / 2 and sizes.max() >= k:
            out.append(finding(kinds.MINORITY_MISSING, "warning", epoch=int(epoch), label=label,
                               with_label=with_label, batches=total, without=total - with_label, share=share,
                               count=int(g.at[rare, "count"]), batch_size=int(sizes.max())))
    return out


def _unseen(frame: pd.DataFrame, table: pd.DataFrame, s: pd.DataFrame, dataset_len, skip: set) -> list[Finding]:
    out = []
    if not dataset_len or not len(s) or is_iterable(frame):
        return out
    data = table[(table["which"] == "dataset") & ~table["estimated"]]
    for epoch, g in s.groupby("epoch"):
        if int(epoch) in skip or len(g) < 0.9 * dataset_len:
            continue  # a loop that stopped early left the rest unseen, not its sampler
        distinct = int(g["index"].nunique())
        unseen = int(dataset_len) - distinct
        if unseen / dataset_len <= UNSEEN_FRACTION:
            continue
        worst = {}
        rows = data[data["epoch"] == epoch]
        seen = g.drop_duplicates("index").groupby("label", sort=False).size()
        if len(rows) and set(seen.index) <= set(rows["label"]):  # the same labels (not "cat" beside 0)
            missing = {r.label: (int(round(r.count)) - int(seen.get(r.label, 0)), int(round(r.count)))
                       for r in rows.itertuples()}
            label = max(missing, key=lambda lab: missing[lab][0])
            worst = {"label": label, "unseen": missing[label][0], "count": missing[label][1]}
        # draws an epoch needs before a sample of the least drawn class is expected once: n · max(share_d / share_r)
        out.append(finding(kinds.UNSEEN_SAMPLES, "warning", epoch=int(epoch), unseen=unseen,
                           dataset_len=int(dataset_len), fraction=unseen / dataset_len, drawn=len(g),
                           distinct=distinct, most_unseen=worst, suggested=_suggested(table, epoch, len(g))))
    return out


def _suggested(table: pd.DataFrame, epoch: int, drawn: int) -> int:
    """Draws that give every label's samples one expected draw each: drawn × max(dataset share / received share)."""
    g = table[table["epoch"] == epoch]
    data = dict(zip(g[g["which"] == "dataset"]["label"], g[g["which"] == "dataset"]["share"]))
    got = dict(zip(g[g["which"] == "received"]["label"], g[g["which"] == "received"]["share"]))
    ratios = [data[k] / got[k] for k in data if got.get(k)]
    return int(math.ceil(drawn * max(ratios))) if ratios else drawn


def sampling_findings(frame: pd.DataFrame) -> list[Finding]:
    """Every re-balancing mistake the trace shows (module docstring)."""
    meta = sources(frame)
    sampler = meta.get("sampler") or {}
    dataset_len = settings(frame).get("dataset_len") or (meta.get("dataset") or {}).get("n")
    table = label_distributions(frame)
    s = samples(frame)
    found = _sampler_findings(frame, sampler, s, dataset_len)
    skip = {f.epoch for f in found if f.kind == kinds.CLASS_WEIGHTS_PER_SAMPLE}
    found += _share_off(table, sampler) + _minority_missing(frame) + _unseen(frame, table, s, dataset_len, skip)
    return found


SAYS_MORE = {kinds.CLASS_IMBALANCE: (kinds.MINORITY_MISSING,),
             kinds.REPEATED_SAMPLES: (kinds.UNSEEN_SAMPLES, kinds.CLASS_WEIGHTS_PER_SAMPLE)}


def with_sampling(frame: pd.DataFrame, label_found: list[Finding]) -> list[Finding]:
    """The label audit's findings and :func:`sampling_findings`, less an audit line that a sampling finding
    of the same epoch says with more (``class_imbalance`` beside ``minority_missing``; ``repeated_samples``
    beside ``unseen_samples`` or ``class_weights_per_sample``, which give the same counts and why)."""
    found = sampling_findings(frame)
    said = {(f.kind, f.epoch) for f in found}
    return [f for f in label_found
            if not any((k, f.epoch) in said for k in SAYS_MORE.get(f.kind, ()))] + found
