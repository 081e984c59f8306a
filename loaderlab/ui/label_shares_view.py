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
from ..trace.diagnosis import sampling_findings
from ..trace.tables import label_distributions
from .texts import language, t

WHICH = ("dataset", "intended", "received")


@st.cache_data(max_entries=4, show_spinner=False)
def _tables(trace_id: Hashable, lang: str, _frame: Any) -> tuple[pd.DataFrame, list[tuple[str, str]]]:
    found = sampling_findings(_frame)
    return label_distributions(_frame), [(str(f.severity), f.text(lang)) for f in found]


def show_label_shares(frame: Any, trace_id: Hashable) -> None:
    table, found = _tables(trace_id, language(), frame)
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
