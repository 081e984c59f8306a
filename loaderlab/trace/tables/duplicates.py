"""IterableDataset samples that more than one worker yielded: a stream every worker replays whole.

Twin of nothing in torch (it warns only when the workers together yield more samples than ``len()``). An
IterableDataset's sample has no dataset index, so a duplicate shows as the same *identity* from two workers
in one epoch. Two identities are read, in this order:

- the sample's ``label`` where it is the sample itself (a bare value: a record id, a file name; the label
  guess of :class:`~loaderlab.trace.recording.sample_guess.SampleGuess` makes one so), worded with that value;
- else the identity that the fetch path takes of every IterableDataset sample (``fetch_end``'s ``fingerprint``,
  :mod:`loaderlab.engine.fingerprint`): the keys its library gave it where it carries them (webdataset's,
  :mod:`loaderlab.trace.recording.sample_keys`: exact whatever the augmentation), else a fingerprint of its
  content: ``(input, label)`` pairs, dicts and tensors. Content read after a random augmentation makes two
  copies of one sample look different, so a count by content is a lower bound: where the samples' labels allow
  more copies, the finding gives the count as a range up to that and says why.

An identity that one worker yields twice in an epoch is no identity (labels that repeat are classes; content
that repeats is a constant sample): such labels make the first reading give up, such fingerprints are left
out of the second. Each finding names the epoch, the workers that yielded the same sample, and where it sat in
each one's stream (its position, the ``index`` of an IterableDataset's sample). Returns raw findings (kind,
severity, key, evidence) that :mod:`loaderlab.trace.diagnosis.findings` words. Knows pandas and the event vocabulary; nothing of
plotly or streamlit.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...engine import events as ev
from ..core.findings import Finding, finding
from ..core.frame import arg_column
from ..core.lookups import positions
from ..core import kinds
from .audits import is_class, samples

FINGERPRINT = arg_column(ev.FETCH_END, "fingerprint")  # a sample's identity: its keys' or content's
COLUMNS = ["epoch", "batch", "worker", "pid", "index", FINGERPRINT, "t_s"]


def _named(g: pd.DataFrame, key: str, example: Any) -> dict[str, Any]:
    """Where ``example`` (a value of column ``key``) sat: the workers that yielded it and its positions there."""
    mine = g[g[key] == example].sort_values(["worker", "index"]).drop_duplicates("worker")
    return {"workers": [int(w) for w in mine["worker"]], "positions": [int(i) for i in mine["index"]]}


def _found(key: str, epoch: Any, g: pd.DataFrame, column: str, producers: pd.Series, **more: Any) -> Finding:
    dup = g[g[column].isin(producers[producers > 1].index)]
    first = dup[dup["worker"] == dup["worker"].max()].sort_values("index").iloc[0]  # the last worker's first
    out = {"epoch": int(epoch),
           "worker": int(first["worker"]), "index": int(first["index"]),
           # a stock loader's IterableDataset batch is named by its task where the recorder read it
           "batch": int(first["batch"]) if first["batch"] >= 0 else None,
           "duplicates": int((producers > 1).sum()), "distinct": int(len(producers)),
           **_named(g, column, first[column])}
    if column == "label":
        out["label"] = first["label"]
    out.update(more)
    return finding(kinds.ITERABLE_DUPLICATES, "error", key=key, **out)


def by_label(f: pd.DataFrame) -> list[Finding]:
    """Duplicates by the samples' labels, where those are the samples' own values (module docstring)."""
    s = samples(f, handed_only=False)
    s = s[s["label"].map(is_class).astype(bool)]
    if not len(s) or s.duplicated(["epoch", "pid", "label"]).any():
        return []  # labels repeat within one worker's stream: they are classes, not sample identities
    out = []
    for epoch, g in s.groupby("epoch"):
        producers = g.groupby("label")["worker"].nunique()
        if (producers > 1).any():
            out.append(_found("iterable_duplicates", epoch, g, "label", producers))
    return out


def label_bound(g: pd.DataFrame) -> int:
    """The most samples of ``g`` (one epoch's, named by content) that could have come from more than one worker,
    as their labels tell: a copy has its original's label, so of the n samples of one label at most n minus the
    most any one worker yielded are copies. -1 where the samples have no class labels."""
    labelled = g[g["label"].map(is_class).astype(bool)]
    if len(labelled) < len(g) or not len(g):
        return -1
    counts = labelled.groupby(["label", "worker"]).size()
    by_label = counts.groupby(level="label")
    return int((by_label.sum() - by_label.max()).sum())


def replayed(g: pd.DataFrame, producers: pd.Series) -> bool:
    """Whether the samples of equal content that several workers yielded look like a replayed stream, not like
    rows of equal content in the data (two CSV rows of the same text): a replay puts a copy at the same place in
    each worker's stream (or, shuffled, copies nearly everything). Half of them at one position each, or a tenth
    of all the samples, is a replay; fewer is the data's own repeats."""
    shared = producers[producers > 1].index
    places = g[g["fingerprint"].isin(shared)].groupby("fingerprint")["index"].nunique()
    return int((places == 1).sum()) >= max(2, len(shared) / 2) or len(shared) >= 0.1 * len(producers)


def by_content(f: pd.DataFrame, skip: set[int]) -> list[Finding]:
    """Duplicates by the samples' identities (their library's keys, else their content fingerprints), in the
    epochs not in ``skip``. Where content names them, equal content is a duplicate only where it looks like a
    replay (:func:`replayed`), and a random augmentation may have made copies look different: the count is then a
    range up to what the labels allow (:func:`label_bound`)."""
    at = positions(f, ev.FETCH_END)
    s = f[COLUMNS + ["detail", "label"]].take(at).rename(columns={FINGERPRINT: "fingerprint"})
    s = s[(s["detail"] == "") & (s["index"] >= 0) & (s["fingerprint"] != ev.NO_ARG) & ~s["epoch"].isin(skip)]
    out = []
    for epoch, g in s.groupby("epoch"):
        keyed = bool(((g["fingerprint"] & ev.KEYED) != 0).all())
        bound = -1 if keyed else label_bound(g)
        repeated = g.loc[g.duplicated(["pid", "fingerprint"]), "fingerprint"]
        g = g[~g["fingerprint"].isin(repeated)]  # repeats in one stream: no identity
        producers = g.groupby("fingerprint")["worker"].nunique()
        if not (producers > 1).any() or (not keyed and not replayed(g, producers)):
            continue
        if keyed:
            out.append(_found("iterable_duplicates_key", epoch, g, "fingerprint", producers))
            continue
        found = _found("iterable_duplicates_content", epoch, g, "fingerprint", producers)
        if bound > found.evidence["duplicates"]:  # content alone cannot tell: a range, and why
            found = _found("iterable_duplicates_range", epoch, g, "fingerprint", producers, upper=bound,
                           fetched=int(len(s[s["epoch"] == epoch])))
        out.append(found)
    return out


def iterable_duplicates(f: pd.DataFrame) -> list[Finding]:
    """Every epoch's duplicates: by label where labels are identities, else by content (module docstring)."""
    found = by_label(f)
    return found + by_content(f, {d.epoch for d in found})
