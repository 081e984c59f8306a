"""The "Your trace" page's ``run --tune`` section: the measured table as a chart, then the report's own
sentences (the suggestion or "keep your settings", what the rest of the job ran with).

Wiring only: :func:`loaderlab.trace.diagnosis.tuning.tuning_table` and
:func:`~loaderlab.trace.diagnosis.tuning_report.tuning_lines` decide (the report prints the same),
:func:`loaderlab.figures.tuning.tuning_figure` draws, the words come from ``ui/texts/tuning`` and
``loaderlab/texts/tuning``. Shown only for a trace of ``run --tune``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..figures.tuning import tuning_figure
from ..trace.diagnosis.tuning import tuning_table
from ..trace.diagnosis.tuning_report import tuning_lines
from .texts import language, t


def show_tuning(frame: Any) -> None:
    attrs = getattr(frame, "attrs", {}) or {}
    record = attrs.get("tuning")
    if not record:
        return
    st.subheader(t("tuningview.title"))
    lines = tuning_lines(record, language(), attrs.get("epochs"))
    if not record.get("skipped"):
        st.caption(t("tuningview.explain"))
        table = tuning_table(record)
        if (table["rounds"] > 0).any():
            st.plotly_chart(tuning_figure(table, x_title=t("tuningview.x"), own_mark=t("tuningview.own"),
                                          best_mark=t("tuningview.best"), hover=t("tuningview.hover")), theme=None)
    st.markdown("\n".join(f"- {line.strip()}" for line in lines[1:] if line.strip() and not line.startswith("  ")))
