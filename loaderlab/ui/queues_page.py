"""The "Index queues" page: every queue of the run animated, and how full each one was over time.

Wiring only: the shared sidebar → the cached run → the queue tables of :mod:`loaderlab.trace.tables.stays`
(depths and snapshots, both counted from the same stays) → the two figures of :mod:`loaderlab.figures.queues`.
"""

from __future__ import annotations

import math

import streamlit as st

from ..figures.queues import queue_animation_figure, queue_depth_figure
from ..trace.tables.stays import queue_depths, queue_snapshots
from ..trace.core.cache import shared_tables
from ..trace.core import kinds
from ..trace.diagnosis.findings import stall_findings
from .language import page_setup
from .outcome import show_warnings
from .settings import cached_run, sidebar_config, torch_code
from .diagnosis_view import show_diagnosis
from .texts import language, t
from .alerts import show

ROWS = ("index_queue", "worker", "result_queue", "pin", "data_queue", "reorder", "loop")
FINDINGS = (kinds.STRAGGLER, kinds.HEAD_OF_LINE, kinds.LOADER_BOUND, kinds.MODEL_BOUND)  # the ones queues explain


def _peak(depths, queue: str) -> int:
    d = depths[depths["queue"] == queue]["depth"]
    return int(d.max()) if len(d) else 0


@shared_tables()  # the figures, the verdict and the findings count one run's queue stays once
def main() -> None:
    page_setup("queues")
    config = sidebar_config()
    if config is None:
        return
    frame = cached_run(config)
    show_warnings(frame)
    if config.num_workers == 0:
        st.info(t("queues.no_workers"))
    else:
        depths = queue_depths(frame)
        snap = queue_snapshots(frame, depths)
        cols = st.columns(4)
        cols[0].metric(t("queues.metric.cap"), "–" if math.isnan(snap.cap) else f"{snap.cap:.0f}")
        cols[1].metric(t("queues.metric.peak_outstanding"), _peak(depths, "outstanding"))
        cols[2].metric(t("queues.metric.peak_result"), _peak(depths, "result_queue"))
        cols[3].metric(t("queues.metric.peak_reorder"), _peak(depths, "reorder"))

        st.subheader(t("queues.animation.title"))
        st.caption(t("queues.animation.explain"))
        animation = queue_animation_figure(
            snap, row_names={r: t(f"queues.row.{r}") for r in ROWS}, worker_name=t("queues.legend.worker"),
            main_name=t("queues.legend.main"), counter=t("queues.counter"), x_title=t("queues.x"),
            hover=t("queues.hover"), play=t("queues.play"), pause=t("queues.pause"), time_prefix=t("queues.time"),
            time_suffix=t("queues.time_suffix"))
        st.plotly_chart(animation, theme=None, key="queues_animation")

        st.subheader(t("queues.depth.title"))
        st.caption(t("queues.depth.explain"))
        names = {q: t(f"queues.depth.{q}") for q in ("outstanding", "result_queue", "data_queue", "reorder")}
        panels = {p: t(f"queues.depth.panel.{p}") for p in ("outstanding", "index", "result", "reorder")}
        end = float(frame.events["t_s"].max()) if len(frame.events) else 0.0
        st.plotly_chart(queue_depth_figure(depths, cap=snap.cap, end_s=end, names=names, panel_titles=panels,
                                           cap_name=t("queues.depth.cap"), x_title=t("queues.depth.x"),
                                           y_title=t("queues.depth.y")), theme=None, key="queues_depths")

        show_diagnosis(frame, key="queues", trace_id=config)
        found = [f for f in stall_findings(frame) if f.kind in FINDINGS]
        if found:
            st.subheader(t("queues.findings"))
            for finding in found:
                show(finding.severity, finding.text(language()))
    with st.expander(t("code.title")):
        st.code(torch_code(config), language="python")
