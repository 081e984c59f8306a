"""The home page: run the loader with the sidebar's settings and show its timeline."""

from __future__ import annotations

import streamlit as st

from ..figures.timeline import timeline_figure
from ..trace import analysis
from .settings import cached_run, sidebar_config, torch_code
from .texts import EN, t

STAGES = ("startup", "fetch", "collate", "pin", "wait", "consume", "idle")


def main() -> None:
    st.set_page_config(page_title="LoaderLab", layout="wide")
    st.title(t("app.title"))
    st.write(t("app.intro"))
    config = sidebar_config()
    if config is None:
        return
    frame = cached_run(config)
    for message in frame.attrs.get("warnings", []):
        st.warning(message)
    spans = analysis.spans(frame)
    wait = spans.loc[spans["stage"] == "wait", "duration_s"].sum() if len(spans) else 0.0
    batches = int((frame["kind"] == "batch_yield").sum())
    duration = float(frame["t_s"].iloc[-1]) if len(frame) else 0.0
    c1, c2, c3 = st.columns(3)
    c1.metric(t("metric.duration"), f"{duration:.2f}")
    c2.metric(t("metric.throughput"), f"{batches / duration:.1f}" if duration else "–")
    c3.metric(t("metric.wait"), f"{wait:.2f}")
    st.subheader(t("timeline.title"))
    st.caption(t("timeline.explain"))
    names = {stage: EN[f"stage.{stage}"] for stage in STAGES}
    st.plotly_chart(timeline_figure(spans, x_title=t("timeline.x"), stage_names=names), theme=None)
    with st.expander(t("code.title")):
        st.code(torch_code(config), language="python")
