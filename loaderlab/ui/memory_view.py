"""The memory section of the event-table page: each worker's RSS and private memory, and /dev/shm.

Wiring only: a recorded run → :func:`loaderlab.trace.tables.memory.memory_table` and its findings →
:func:`loaderlab.figures.memory.memory_figure`. Words from :mod:`.texts` (``memory.*``).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures.memory import memory_figure
from ..trace.diagnosis.findings import memory_findings
from ..trace.tables.memory import memory_table
from .texts import language, t
from .alerts import show


def memory_section(frame: pd.DataFrame) -> None:
    st.subheader(t("memory.title"))
    table = memory_table(frame)
    if not len(table):
        st.caption(t("memory.none"))
        return
    st.caption(t("memory.explain"))
    for found in memory_findings(frame):
        show(found.severity, found.text(language()))
    st.plotly_chart(memory_figure(table, x_title=t("memory.x"), y_title=t("memory.y"), rss_name=t("memory.rss"),
                                  uss_name=t("memory.uss"), shm_name=t("memory.shm")),
                    theme=None, key="memory_chart")
