"""Findings: what went wrong (or is worth knowing) in a recorded run, each naming its batch, worker and sample.

Twin of nothing in torch; the nearest kin are TensorFlow's input-pipeline analyzer ("are you input-bound?")
and SageMaker Debugger's start-up outliers. Pure functions over the table :func:`loaderlab.record`
returns, built on :mod:`loaderlab.trace.tables.waits`, :mod:`loaderlab.trace.tables.utilisation` and :mod:`loaderlab.trace.tables.audits`; knows nothing of plotly or
streamlit.

Every finding carries a ``key`` and its ``evidence``; its words come from :mod:`loaderlab.texts.words` (English and
Korean): ``message`` is the English sentence, ``finding.text(lang)`` the sentence in any language.
The stall checks live in :mod:`loaderlab.trace.tables.stalls` and :mod:`loaderlab.trace.tables.slow`; every check
makes a :class:`loaderlab.trace.core.findings.Finding`. Thresholds are
named constants; a finding needs both a relative and an absolute margin where timing is involved.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...texts import EN
from ..core.cache import release, shared_tables
from ..core.findings import Finding, finding, SEVERITIES
from ..core.lookups import named_rows, normal, paired_rows, rows, settings
from ..core import kinds
from ..tables.audits import is_iterable, is_rng, label_audit, padding_audit, per_label, RNG_PREFIX, samples
from ..tables.duplicates import iterable_duplicates
from ..tables.memory import memory_checks
from ..tables.orders import epoch_orders
from ..tables.stalls import stall_checks
from ...engine import events as ev
from .busy_wait import busy_wait_findings
from .bottleneck import CONSUMER, LOADER_BOUND_SHARE, verdict, Verdict, WORKERS
from .summary import summarise
from .sampling_checks import with_sampling

__all__ = ["TEMPLATES", "all_findings", "correctness_findings", "label_audit",
           "label_findings", "memory_findings", "padding_audit", "padding_findings", "stall_findings"]

# The English templates, by finding key (the words of every language live in :mod:`loaderlab.texts.words`).
TEMPLATES = {k.removeprefix("finding."): v for k, v in EN.items() if k.startswith("finding.")}

IMBALANCE_RATIO, MAX_CLASSES = 4.0, 100
DRIFT_MIN, DRIFT_SIGMAS = 0.05, 4.0  # |realised - intended| above both this and 4 binomial sigmas
PADDING_FRACTION = 0.3


def stall_findings(frame: pd.DataFrame, found: Verdict | None = None) -> list[Finding]:
    """Where time went wrong: stragglers, a slow worker, head-of-line blocking, stalled or vanished workers,
    slow first batches, errors, pauses of the whole machine, and the loader-bound / model-bound finding
    (severity info) derived from the verdict (``found``, worked out when not given). See
    :mod:`loaderlab.trace.tables.stalls` and :mod:`loaderlab.trace.tables.slow`."""
    persistent = bool(settings(frame).get("persistent_workers"))
    return stall_checks(normal(frame), persistent) + bound_findings(frame, found) + busy_wait_findings(frame)


def bound_findings(frame: pd.DataFrame, found: Verdict | None = None) -> list[Finding]:
    """The loader-bound / model-bound finding: the verdict's call (the one place it is made, with its threshold
    :data:`~loaderlab.trace.diagnosis.bottleneck.LOADER_BOUND_SHARE`), worded so as never to contradict it."""
    s = summarise(frame)
    loop = s.loop
    if not len(rows(normal(frame), ev.CONSUMER_END)) or math.isnan(loop.share):
        return []
    numbers = dict(wait_s=loop.wait_s, consume_s=loop.consume_s, share=loop.share)
    if loop.share > LOADER_BOUND_SHARE:
        return [finding(kinds.LOADER_BOUND, "info", **numbers)]
    found = verdict(frame, s) if found is None else found
    key = ("model_bound_cores" if found.kind == WORKERS else
           "model_bound" if found.kind == CONSUMER else "model_bound_steady")
    return [finding(kinds.MODEL_BOUND, "info", key=key, **numbers)]


def _stream_replayed(f: pd.DataFrame, iterable: bool, dataset_len: Any, already: set[int]) -> list[Finding]:
    """Without sample identities: workers that together yield more samples than the IterableDataset's
    ``len()`` (torch warns about the same) replay the stream, as an unsharded ``__iter__`` does."""
    if not iterable or not isinstance(dataset_len, int) or dataset_len <= 0:
        return []
    out = []
    for epoch, g in samples(f).groupby("epoch"):
        per_worker = g.groupby("worker").size()
        if int(epoch) in already or len(g) <= dataset_len or (per_worker.index >= 0).sum() < 2:
            continue
        last = g[g["worker"] == per_worker.index.max()].sort_values("t_s").iloc[0]  # its first sample repeats
        out.append(finding(kinds.ITERABLE_DUPLICATES, "error", key="iterable_replayed", epoch=epoch,
                           worker=int(last["worker"]), batch=int(last["batch"]) if last["batch"] >= 0 else None,
                           index=int(last["index"]),
                           received=len(g), dataset_len=dataset_len,
                           per_worker=[int(n) for n in per_worker.to_numpy()]))
    return out


def _sampler_epochs(f: pd.DataFrame) -> dict[int, int]:
    """The sampler's own epoch at each epoch's start, where the trace says it (``run`` records it as
    ``epoch_begin``'s ``sampler_epoch`` for a sampler with ``set_epoch``)."""
    begins = named_rows(f, ev.EPOCH_BEGIN, ["epoch", "sampler_epoch"])
    begins = begins[begins["sampler_epoch"] != ev.NO_ARG]
    return {int(epoch): int(own) for epoch, own in zip(begins["epoch"], begins["sampler_epoch"])}


def _same_order(f: pd.DataFrame, sampler: str) -> list[Finding]:
    seqs = epoch_orders(f)  # per epoch: the indices drawn, in order, and where a None stands
    epochs = sorted(seqs)
    for a, b in zip(epochs, epochs[1:]):
        m = min(len(seqs[a][0]), len(seqs[b][0]))
        (head, none), (other, other_none) = (seqs[a][0][:m], seqs[a][1][:m]), (seqs[b][0][:m], seqs[b][1][:m])
        if (m >= 4 and not none.any() and not other_none.any() and (head == other).all()
                and (np.diff(head) < 0).any()):
            own = _sampler_epochs(f)
            if a in own and own.get(b) == own[a]:  # the script never moved the sampler's epoch on
                return [finding(kinds.SAME_ORDER, "warning", key="same_order_set_epoch", epoch=b, first_epoch=a,
                                n=m, sampler=sampler, sampler_epoch=own[a])]
            return [finding(kinds.SAME_ORDER, "warning", epoch=b, first_epoch=a, n=m,
                            sampler=sampler)]
    return []


def _identical_rng(f: pd.DataFrame) -> list[Finding]:
    labels = rows(f, ev.FETCH_END, columns=["label"])["label"].to_numpy(dtype=object)
    try:
        if not any(is_rng(v) for v in pd.unique(labels)):  # no random draw recorded: nothing to compare
            return []
    except TypeError:  # an unhashable label: look at every sample
        pass
    s = samples(f, handed_only=False)
    s = s[per_label(s["label"], is_rng).astype(bool)].sort_values("t_s")  # once per distinct label
    out = []
    for epoch, g in s.groupby("epoch"):
        draws = {w: set(h["label"]) for w, h in g.groupby("worker")}
        for w in sorted(draws):
            earlier = [v for v in sorted(draws) if v < w and draws[v] & draws[w]]
            if not earlier:
                continue
            shared = draws[earlier[0]] & draws[w]
            first = g[(g["worker"] == w) & g["label"].isin(shared)].iloc[0]
            out.append(finding(kinds.IDENTICAL_RNG, "error", epoch=epoch, worker=w, same_as_worker=earlier[0],
                               batch=int(first["batch"]), index=int(first["index"]), shared=len(shared),
                               draws=len(draws[w]), draw=first["label"][len(RNG_PREFIX):]))
    return out


def correctness_findings(frame: pd.DataFrame) -> list[Finding]:
    """Wrong data rather than slow data: IterableDataset samples duplicated across workers, the same
    shuffled order every epoch, and workers drawing identical random numbers.

    Conventions for ``record(..., sample_info=)``, whose ``label`` these checks read:

    - IterableDataset: give each sample an identity as its label (a record id, a file name); a label
      produced by two workers in one epoch is a duplicate. (If one worker repeats a label, labels are
      taken to be classes, and each sample's content fingerprint is its identity: :mod:`loaderlab.trace.tables.duplicates`.)
      Without identities, workers that together yield more samples than the
      dataset's ``len()`` are replaying the stream.
    - Random draws: a label ``"rng:<number>"`` is a random number drawn while making the sample (e.g.
      ``f"rng:{x!r}"`` for the ``x = np.random.random()`` your augmentation drew). Two workers that
      drew any equal number in one epoch were seeded alike; with 53-bit floats that never happens by chance.
    - Shuffle order: read from ``sampler_yield``; an order repeated in consecutive epochs is flagged
      unless it is ascending (a SequentialSampler repeats by design).
    """
    iterable, sampler = is_iterable(frame), settings(frame).get("sampler", "sampler")
    f = normal(frame)
    duplicates = iterable_duplicates(f) if iterable else []
    duplicates += _stream_replayed(f, iterable, settings(frame).get("dataset_len"), {d.epoch for d in duplicates})
    return duplicates + _same_order(f, sampler) + _identical_rng(f)


def label_findings(frame: pd.DataFrame, labels=None, intended=None) -> list[Finding]:
    """From :func:`label_audit`: class imbalance (or, given ``intended``, drift from it) and repeated draws."""
    audit, out = label_audit(frame, labels, intended), []
    for epoch, g in audit.per_epoch.groupby("epoch"):
        n = int(g["count"].sum())
        if intended is not None:
            sigma = (g["intended_share"] * (1 - g["intended_share"]) / max(n, 1)) ** 0.5
            bad = g[g["drift"].abs() > (DRIFT_SIGMAS * sigma).clip(lower=DRIFT_MIN)]
            out += [finding(kinds.SHARE_DRIFT, "warning", epoch=epoch, label=r.label, share=r.share,
                            intended=r.intended_share, n=n) for r in bad.itertuples()]
        elif 2 <= len(g) <= min(MAX_CLASSES, n / 5):
            lo, hi = g["share"].idxmin(), g["share"].idxmax()  # .at keeps labels' types (a row would upcast)
            ratio = g.at[hi, "share"] / g.at[lo, "share"] if g.at[lo, "share"] > 0 else math.inf
            if ratio >= IMBALANCE_RATIO:
                batches = audit.per_batch[audit.per_batch["epoch"] == epoch]
                with_rare = batches[batches["label"] == g.at[lo, "label"]]["batch"].nunique()
                total = int(batches["batch"].nunique())
                out.append(finding(kinds.CLASS_IMBALANCE, "warning", epoch=epoch, minority=g.at[lo, "label"],
                                   minority_share=g.at[lo, "share"], majority=g.at[hi, "label"],
                                   majority_share=g.at[hi, "share"], ratio=ratio, batches=total,
                                   batches_without=total - int(with_rare)))
    for r in audit.coverage[audit.coverage["repeats"] > 0].itertuples():
        top = audit.repeated[audit.repeated["epoch"] == r.epoch].iloc[0]
        known = r.dataset_len == r.dataset_len
        out.append(finding(kinds.REPEATED_SAMPLES, "info", epoch=r.epoch, drawn=r.drawn, distinct=r.distinct,
                           repeats=r.repeats, index=int(top["index"]), times=int(top["times"]),
                           unseen=int(r.unseen) if known else "?", dataset_len=int(r.dataset_len) if known else "?"))
    return out


def bucketed_cells(lengths: Sequence[int], sizes: Sequence[int]) -> int:
    """The batch cells (samples × longest) if the epoch's samples were sorted by length into batches of the
    same ``sizes``: what a length-bucketing sampler reaches at best."""
    ordered = np.sort(np.asarray(lengths, dtype=np.int64))
    sizes = np.sort(np.asarray(sizes, dtype=np.int64))
    sizes = sizes[sizes > 0]  # each batch, smallest first, takes the next run of samples: its longest is last
    return int((sizes * ordered[np.cumsum(sizes) - 1]).sum()) if len(sizes) else 0


def padding_findings(frame: pd.DataFrame) -> list[Finding]:
    """From :func:`padding_audit`: epochs where at least ``PADDING_FRACTION`` of the batch cells are padding,
    with what batching samples of similar length would leave (:func:`bucketed_cells`)."""
    pad, out = padding_audit(frame), []
    lengths = None
    for epoch, g in pad.groupby("epoch"):
        cells, padded = int(g["cells"].sum()), int(g["padded_cells"].sum())
        if cells and padded / cells >= PADDING_FRACTION:
            if lengths is None:
                s = samples(frame)
                lengths = s[s["length"] >= 0].groupby("epoch")["length"]
            total = int(g["total_length"].sum())
            bucketed = bucketed_cells(lengths.get_group(epoch).to_numpy(), g["samples"].to_numpy())
            worst = g.loc[g["padded_cells"].idxmax()]
            out.append(finding(kinds.PADDING_WASTE, "warning", key="padding_waste_bucketed", epoch=epoch,
                               batch=int(worst["batch"]), fraction=padded / cells, padded_cells=padded, cells=cells,
                               batch_fraction=float(worst["padding_fraction"]),
                               bucketed_fraction=(bucketed - total) / bucketed if bucketed else 0.0,
                               saved_cells=cells - bucketed, saved_fraction=(cells - bucketed) / cells))
    return out


def memory_findings(frame: pd.DataFrame) -> list[Finding]:
    """Copy-on-access growth of a worker's private memory; /dev/shm nearly full (see :mod:`loaderlab.trace.tables.memory`)."""
    return memory_checks(frame)


def all_findings(frame: pd.DataFrame, verdict_found: Verdict | None = None) -> list[Finding]:
    """Every finding the trace supports, most severe first (labels and lengths from ``sample_info``);
    ``verdict_found``: the trace's verdict where the caller has it (the model-bound finding follows it)."""
    with shared_tables():  # the checks read the same worker, wait and sample tables
        found = stall_findings(frame, verdict_found)
        release(paired_rows)  # the fetch pairs: only the stall checks (and the verdict, before them) read them
        found += correctness_findings(frame) + with_sampling(frame, label_findings(frame)) + padding_findings(frame)
        release(samples)
        found += memory_findings(frame)
    return sorted(found, key=lambda x: SEVERITIES.index(x.severity))
