"""The "Your trace" page's label distributions: the data's, the sampler's and the loop's, per epoch, and the
re-balancing findings beside them (issue 35).

Wiring only: :func:`loaderlab.trace.tables.label_shares.label_distributions` and
:func:`loaderlab.trace.diagnosis.sampling_checks.sampling_findings` decide,
:func:`loaderlab.figures.label_shares.label_shares_figure` draws, the words come from ``ui/texts/label_shares``
and the findings' own texts. Shown only where the trace knows more than what the loop received.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import pandas as pd
import streamlit as st

from ..figures.label_shares import label_shares_figure
from ..trace.core.run import as_run, events_of
from ..trace.diagnosis.sampling_checks import sampling_findings
from ..trace.ranks.analysis import by_rank
from ..trace.tables.label_shares import label_distributions
from .texts import language, t

WHICH = ("dataset", "intended", "received")


@st.cache_data(max_entries=8, show_spinner=False)
def _tables(trace_id: Hashable, rank: int | None, lang: str, _frame: Any) -> tuple[pd.DataFrame, list[tuple[str, str]]]:
    part = _frame if rank is None else as_run(_frame).with_events(events_of(by_rank(_frame)[rank]))
    found = sampling_findings(part)
    return label_distributions(part), [(str(f.severity), f.text(lang)) for f in found]


def _rank(frame: Any, trace_id: Hashable) -> int | None:
    """A multi-rank trace: the rank to show (a DistributedSampler's shard beside the data), or all together."""
    if "rank" not in events_of(frame).columns:
        return None
    ranks = sorted(int(r) for r in events_of(frame)["rank"].unique())
    every = t("labelshares.ranks.all")
    chosen = st.radio(t("labelshares.ranks"), [every, *[t("labelshares.rank", rank=r) for r in ranks]],
                      horizontal=True, key=f"labelshares_rank_{trace_id}")
    return None if chosen == every else ranks[[t("labelshares.rank", rank=r) for r in ranks].index(chosen)]


def show_label_shares(frame: Any, trace_id: Hashable) -> None:
    rank = _rank(frame, trace_id)
    table, found = _tables(trace_id, rank, language(), frame)
    if not len(table) or set(table["which"]) <= {"received"}:
        return
    st.subheader(t("labelshares.title"))
    st.caption(t("labelshares.explain"))
    epochs = sorted(int(e) for e in table["epoch"].unique())
    epoch = epochs[0] if len(epochs) == 1 else st.select_slider(t("labelshares.epoch"), options=epochs,
                                                                 key=f"labelshares_epoch_{trace_id}")
    rows = table[table["epoch"] == epoch]
    names = {w: t(f"labelshares.name.{w}") for w in WHICH}
    st.plotly_chart(label_shares_figure(rows, names=names, x_title=t("labelshares.x"), y_title=t("labelshares.y"),
                                        hover=t("labelshares.hover")), theme=None)
    missing = [names[w] for w in WHICH if w not in set(rows["which"])]
    if missing:
        st.caption(t("labelshares.unknown", which=", ".join(missing)))
    for _, sentence in found:
        st.warning(sentence)
    if not found:
        st.success(t("labelshares.none"))
