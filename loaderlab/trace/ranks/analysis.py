"""What a ``DistributedSampler`` did across ranks, from a merged multi-rank trace (see :mod:`loaderlab.trace.ranks.launch`).

Twin of nothing in torch: a DistributedSampler never reports what it handed to which rank. Input: an
event table with a ``rank`` column (:func:`loaderlab.trace.ranks.launch.record_ranks`); output: pandas tables —
which index went to which rank in which order, overlaps between ranks, the repeated (padding) samples,
per-rank label counts, whether each epoch repeated the previous one's order (a forgotten ``set_epoch``),
per-rank throughput — and a few findings. The index tables accept the trace or its :func:`assignments`
(built once, then shared). Knows the event vocabulary and pandas; knows nothing of plotly or streamlit,
and nothing of how the ranks were started.

A rank's k-th sample of an epoch sits at place ``rank + k * world_size`` of the sampler's global list
(DistributedSampler takes ``indices[rank:total_size:num_replicas]``); with ``drop_last=False`` it pads the
list by repeating its head, so the padded copies are the places past ``len(dataset)``: an index's later
occurrence in an epoch is flagged ``padded``.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from ...engine import events as ev
from ..tables.waits import stage_spans, wait_totals
from ..core.findings import Finding, finding
from ..core.frame import arg_column
from ..core.lookups import batch_indices, rows
from ..core.run import as_run, metadata
from ..core import kinds

ASSIGNMENT_COLUMNS = ("epoch", "rank", "position", "global_position", "batch", "index", "label", "padded")
SLOW_RANK_RATIO = 2.0  # a rank that waited this much longer for data than the fastest one…
SLOW_RANK_SHARE = 0.25  # …for at least this share of its run is named in a finding


def world_size(frame: pd.DataFrame) -> int:
    if "rank" not in frame.columns:
        raise ValueError("this trace has no rank column; record it with record_ranks() or "
                         "`python -m loaderlab record ... --world-size N`")
    return int(as_run(frame).extra.get("world_size") or (frame["rank"].max() + 1 if len(frame) else 0))


def by_rank(frame: pd.DataFrame) -> dict[int, pd.DataFrame]:
    """Rank → that rank's events (a single-process trace: ``t_s`` still on the merged clock)."""
    world_size(frame)
    return {int(r): part.drop(columns="rank").reset_index(drop=True) for r, part in frame.groupby("rank", sort=True)}


def dataset_len(frame: pd.DataFrame) -> int | None:
    return as_run(frame).loader.get("dataset_len")


def _plain_label(label: Any) -> Any:
    """A label as the hook gave it: pandas turns int labels beside None into floats (3.0 → 3; NaN → None)."""
    if isinstance(label, float):
        return None if label != label else int(label) if label.is_integer() else label
    return label.item() if hasattr(label, "item") else label


def assignments(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per sample a rank's sampler handed out: ``ASSIGNMENT_COLUMNS``.

    ``position``: place in the rank's epoch order; ``global_position``: ``rank + position * world_size``;
    ``label`` from the ``sample_info`` hook (None without one); ``padded``: the index already came earlier
    in this epoch's global order, at a place past ``len(dataset)`` (the copies DistributedSampler adds to
    even out the ranks; a repeat before that place is an overlap of disagreeing samplers, not padding).
    """
    n_ranks = world_size(frame)
    labels = {}
    fetched = rows(frame, ev.FETCH_END)
    for index, label in zip(fetched["index"], fetched["label"]):
        labels.setdefault(int(index), _plain_label(label))
    tasks = rows(frame, ev.SAMPLER_YIELD).drop_duplicates(["rank", "epoch", "batch"])
    tasks = tasks.sort_values(["rank", "epoch", "batch"], kind="stable")
    samples = tasks[arg_column(ev.SAMPLER_YIELD, "samples")]
    flat = [(int(r), int(e), int(b), int(i))
            for r, e, b, idx, n in zip(tasks["rank"], tasks["epoch"], tasks["batch"], tasks["indices"], samples)
            for i in batch_indices(idx, n) or []]
    if not flat:
        return pd.DataFrame({c: pd.Series(dtype="bool" if c == "padded" else "object" if c == "label" else "int64")
                             for c in ASSIGNMENT_COLUMNS})
    out = pd.DataFrame(flat, columns=["rank", "epoch", "batch", "index"])
    out["position"] = out.groupby(["rank", "epoch"]).cumcount()
    out["global_position"] = out["rank"] + out["position"] * n_ranks
    out["label"] = [labels.get(i) for i in out["index"]]
    out = out.sort_values(["epoch", "global_position"], kind="stable")
    n = dataset_len(frame)
    past_the_end = out["global_position"] >= n if n is not None else True
    out["padded"] = out.duplicated(["epoch", "index"], keep="first") & past_the_end
    out = out.sort_values(["epoch", "rank", "position"], kind="stable").reset_index(drop=True)
    for column in ("epoch", "rank", "position", "global_position", "batch", "index"):
        out[column] = out[column].astype("int64")
    out = out[list(ASSIGNMENT_COLUMNS)]
    out.attrs = metadata(as_run(frame))  # the tables below take a trace or this table: its run's metadata
    return out


def _assigned(table: pd.DataFrame) -> pd.DataFrame:
    """A trace → its :func:`assignments`; an assignments table stays as it is (so findings build it once)."""
    return table if "global_position" in table.columns else assignments(table)


def rank_indices(frame: pd.DataFrame) -> dict[tuple[int, int], list[int]]:
    """(epoch, rank) → the indices the rank's sampler yielded, in order (DistributedSampler's own list)."""
    a = _assigned(frame)
    return {(int(e), int(r)): part["index"].tolist() for (e, r), part in a.groupby(["epoch", "rank"], sort=True)}


def rank_summary(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epoch and rank: ``samples``, ``distinct``, ``padded`` (copies this rank got), ``shared``
    (distinct indices some other rank also got this epoch)."""
    a = _assigned(frame)
    ranks_per_index = a.groupby(["epoch", "index"])["rank"].nunique().rename("n_ranks").reset_index()
    a = a.merge(ranks_per_index, on=["epoch", "index"], how="left")
    grouped = a.groupby(["epoch", "rank"], sort=True)
    out = pd.DataFrame({
        "samples": grouped.size(),
        "distinct": grouped["index"].nunique(),
        "padded": grouped["padded"].sum(),
        "shared": a[a["n_ranks"] > 1].groupby(["epoch", "rank"])["index"].nunique(),
    }).fillna(0).astype("int64")
    return out.reset_index()


def overlap(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epoch and pair of ranks (``rank_a < rank_b``): ``shared`` distinct indices, and how many of
    them are padding copies (``padded``)."""
    a = _assigned(frame)
    out = []
    for epoch, part in a.groupby("epoch", sort=True):
        sets = {int(r): set(p["index"]) for r, p in part.groupby("rank")}
        padded = set(part.loc[part["padded"], "index"])
        ranks = sorted(sets)
        for i, ra in enumerate(ranks):
            for rb in ranks[i + 1:]:
                shared = sets[ra] & sets[rb]
                out.append({"epoch": int(epoch), "rank_a": ra, "rank_b": rb, "shared": len(shared),
                            "padded": len(shared & padded)})
    return pd.DataFrame(out, columns=["epoch", "rank_a", "rank_b", "shared", "padded"]).astype("int64")


def coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epoch: ``dataset_len``, ``handed_out`` (all ranks), ``distinct``, ``padded`` copies and
    ``dropped`` (indices no rank got: DistributedSampler's ``drop_last=True`` cuts the tail)."""
    a = _assigned(frame)
    n = dataset_len(frame)
    out = []
    for epoch, part in a.groupby("epoch", sort=True):
        distinct = part["index"].nunique()
        out.append({"epoch": int(epoch), "dataset_len": n if n is not None else -1, "handed_out": len(part),
                    "distinct": distinct, "padded": int(part["padded"].sum()),
                    "dropped": (n - distinct) if n is not None else -1})
    return pd.DataFrame(out, columns=["epoch", "dataset_len", "handed_out", "distinct", "padded", "dropped"])


def padded_indices(frame: pd.DataFrame) -> pd.DataFrame:
    """The padding copies: the rows of :func:`assignments` with ``padded`` set."""
    a = _assigned(frame)
    return a[a["padded"]].reset_index(drop=True)


def label_counts(frame: pd.DataFrame) -> pd.DataFrame:
    """Per epoch, rank and label: ``count`` and ``share`` of the rank's samples (padding copies included:
    they are trained on)."""
    a = _assigned(frame).dropna(subset=["label"])
    if not len(a):
        return pd.DataFrame(columns=["epoch", "rank", "label", "count", "share"])
    counts = a.groupby(["epoch", "rank", "label"], sort=True).size().rename("count").reset_index()
    totals = counts.groupby(["epoch", "rank"])["count"].transform("sum")
    counts["share"] = counts["count"] / totals
    return counts


def order_repeats(frame: pd.DataFrame) -> pd.DataFrame:
    """Per rank and epoch ≥ 1: ``same_as_previous`` — the rank got the very same indices in the very same
    order as in the epoch before (what happens when ``set_epoch`` is not called)."""
    orders = rank_indices(frame)
    out = []
    for (epoch, rank), indices in sorted(orders.items()):
        if epoch >= 1 and (epoch - 1, rank) in orders:
            out.append({"rank": rank, "epoch": epoch, "same_as_previous": indices == orders[(epoch - 1, rank)]})
    return pd.DataFrame(out, columns=["rank", "epoch", "same_as_previous"])


def shuffled(frame: pd.DataFrame) -> bool | None:
    """Whether the ranks' DistributedSamplers shuffle (None when the trace does not say)."""
    samplers = [s for s in as_run(frame).extra.get("samplers") or [] if s]
    return bool(samplers[0]["shuffle"]) if samplers else None


def set_epoch_forgotten(frame: pd.DataFrame) -> bool:
    """Shuffling samplers (or unknown ones) whose every epoch repeated the previous order on every rank."""
    repeats = order_repeats(frame)
    return shuffled(frame) is not False and len(repeats) > 0 and bool(repeats["same_as_previous"].all())


def rank_throughput(frame: pd.DataFrame) -> pd.DataFrame:
    """Per rank: ``batches`` handed to the loop, ``samples`` fetched, ``start_s``/``end_s`` (first
    ``epoch_begin`` → last ``epoch_end``, merged clock), ``seconds``, ``samples_per_s``, ``wait_s`` (the
    loop blocked in ``next()``: the rank's loader was late), ``step_s`` (inside the loop body, which holds
    any collective that waits for the other ranks) and ``slowest``: the rank that waited longest for data.
    When ranks all-reduce after each batch they finish together, so ``seconds`` alone cannot name it."""
    world_size(frame)
    ranks = sorted(int(r) for r in frame["rank"].unique())

    def per_rank(kind: str, how: str) -> pd.Series:
        picked = rows(frame, kind).groupby("rank")["t_s"]
        return getattr(picked, how)().reindex(ranks)

    table = pd.DataFrame({"rank": ranks})
    table["batches"] = per_rank(ev.BATCH_YIELD, "count").fillna(0).astype("int64").to_numpy()
    table["samples"] = per_rank(ev.FETCH_END, "count").fillna(0).astype("int64").to_numpy()
    every = frame.groupby("rank")["t_s"]
    table["start_s"] = per_rank(ev.EPOCH_BEGIN, "min").fillna(every.min().reindex(ranks)).to_numpy()
    table["end_s"] = per_rank(ev.EPOCH_END, "max").fillna(every.max().reindex(ranks)).to_numpy()
    table["seconds"] = (table["end_s"] - table["start_s"]).clip(lower=0.0)
    table["samples_per_s"] = table["samples"] / table["seconds"].where(table["seconds"] > 0)
    totals = {rank: wait_totals(part) for rank, part in by_rank(frame).items()}
    table["wait_s"] = [float(totals[r]["wait_s"].sum()) for r in ranks]
    table["step_s"] = [float(totals[r]["consume_s"].sum()) for r in ranks]
    table["slowest"] = table["wait_s"] == table["wait_s"].max()
    return table


def rank_spans(frame: pd.DataFrame) -> pd.DataFrame:
    """:func:`loaderlab.trace.tables.waits.stage_spans` of every rank, with a ``rank`` column (one clock for all)."""
    parts = []
    run = as_run(frame)
    for rank, part in by_rank(frame).items():
        parts.append(stage_spans(run.with_events(part)).assign(rank=rank))  # the rank's events, the settings
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def rank_findings(frame: pd.DataFrame) -> list[Finding]:
    """The forgotten ``set_epoch``, padding copies, dropped samples, unexplained overlap, a slow rank."""
    out: list[Finding] = []
    epochs = int(frame["epoch"].max()) + 1 if len(frame) else 0
    a = assignments(frame)
    if set_epoch_forgotten(a):
        out.append(finding(kinds.SAME_ORDER_EVERY_EPOCH, "warning", words="rank", epochs=epochs))
    cov = coverage(a)
    last = cov.iloc[-1] if len(cov) else None
    if last is not None and last["padded"] > 0:
        pads = padded_indices(a)
        first = pads[pads["epoch"] == last["epoch"]]
        shown = ", ".join(str(i) for i in first["index"].head(8))
        out.append(finding(kinds.PADDED, "info", words="rank", count=int(last["padded"]), indices=shown,
                           epoch=int(last["epoch"])))
    if last is not None and last["dropped"] > 0:
        out.append(finding(kinds.DROPPED, "info", words="rank", count=int(last["dropped"])))
    ov = overlap(a)
    extra = ov[ov["shared"] > ov["padded"]]
    if len(extra):
        row = extra.iloc[0]
        out.append(finding(kinds.OVERLAP, "error", words="rank", rank_a=int(row["rank_a"]), rank_b=int(row["rank_b"]),
                           count=int(row["shared"] - row["padded"]), epoch=int(row["epoch"])))
    tp = rank_throughput(frame)
    if len(tp) > 1:
        slow, fast = tp.loc[tp["wait_s"].idxmax()], tp.loc[tp["wait_s"].idxmin()]
        excess = float(slow["wait_s"] - fast["wait_s"])
        # named only when it matters: most of the run, and well above the fastest rank's wait
        if excess >= SLOW_RANK_SHARE * float(slow["seconds"]) and slow["wait_s"] >= SLOW_RANK_RATIO * fast["wait_s"]:
            ratio = float(slow["wait_s"] / fast["wait_s"]) if fast["wait_s"] > 0 else float("inf")
            out.append(finding(kinds.SLOW_RANK, "info", words="rank", rank=int(slow["rank"]),
                               wait=f"{float(slow['wait_s']):.2f}", ratio=f"{ratio:.1f}", fast=int(fast["rank"])))
    return out
