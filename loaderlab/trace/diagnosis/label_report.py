"""The three label distributions per epoch in the report's words and in its JSON (issue 35).

Twin of nothing in torch. Lays out :func:`loaderlab.trace.tables.label_shares.label_distributions`: per epoch
and label, the dataset's share (read, or estimated with its interval), the sampler's intended share and the
received share, "not known" where the trace cannot say; then where the dataset's shares came from. The JSON
form is :func:`loaderlab.trace.tables.label_shares.labels_json`. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from ...texts import text
from ..core.run import as_run, events_of
from ..ranks.analysis import by_rank
from ..tables.label_shares import label_distributions, labels_json, sources

MAX_LABELS = 10  # per epoch, labels shown in the text report (the JSON has them all)


def labels_document(trace: Any) -> list[dict]:
    """``report --json``'s ``labels`` (of a multi-rank trace: every rank's samples together)."""
    return labels_json(label_distributions(trace))


def label_keys(trace: Any) -> dict[str, Any]:
    """The JSON's ``labels``, and for a multi-rank trace ``labels_by_rank``: rank (as text) → that rank's
    ``labels`` (a DistributedSampler's shard beside the data it is a part of)."""
    out: dict[str, Any] = {"labels": labels_document(trace)}
    if "rank" in events_of(trace).columns:
        run = as_run(trace)
        out["labels_by_rank"] = {str(rank): labels_document(run.with_events(events_of(part)))
                                 for rank, part in by_rank(trace).items()}
    return out


def _cell(rows: pd.DataFrame, label: Any, lang: str) -> str:
    hit = rows[rows["label"].map(repr) == repr(label)]
    if not len(hit):
        return text("report.labels.unknown", lang) if not len(rows) else f"{0:.1%}"
    r = hit.iloc[0]
    if r["estimated"] and not math.isnan(r["low"]):
        return text("report.labels.interval", lang, share=r["share"], low=r["low"], high=r["high"])
    return f"{r['share']:.1%}"


def _source(table: pd.DataFrame, trace: Any, lang: str) -> str | None:
    data = table[table["which"] == "dataset"]
    if not len(data):
        return None
    kind = str(data["source"].iloc[0])
    if kind in ("inverse_weight", "whole_epoch", "uniform_draws"):
        return text(f"report.labels.source.{kind}", lang)
    n = (sources(trace).get("dataset") or {}).get("n", 0)
    return text("report.labels.source.read", lang, where=kind, n=int(n))


def distribution_lines(trace: Any, lang: str) -> list[str]:
    """The report's lines: nothing where no distribution is known beyond what the loop received."""
    table = label_distributions(trace)
    if not len(table) or set(table["which"]) <= {"received"}:
        return []
    lines = [text("report.labels.title", lang)]
    for epoch, g in table.groupby("epoch"):
        parts = {w: g[g["which"] == w] for w in ("dataset", "intended", "received")}
        labels = list(dict.fromkeys(g.sort_values("share", ascending=False, kind="stable")["label"]))
        for label in labels[:MAX_LABELS]:
            lines.append(text("report.labels.row", lang, epoch=int(epoch), label=label,
                              **{w: _cell(rows, label, lang) for w, rows in parts.items()}))
    source = _source(table, trace, lang)
    if source:
        lines.append(text("report.labels.source", lang, source=source))
    return lines
