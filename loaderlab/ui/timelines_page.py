"""The "Worker timelines" page: a Gantt of every process, the stalls it shows, and a sweep of num_workers.

Wiring only: the shared sidebar → the cached run → ``loaderlab.trace`` tables and findings (the Gantt's
table, with capped idle and the blamed spans, is :func:`loaderlab.trace.tables.timeline.timeline_spans`) →
:mod:`loaderlab.figures.timeline` and :mod:`loaderlab.figures.sweep`. The sweep re-runs the sidebar's
settings for each ``num_workers`` (one epoch each), cached per settings.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, replace

import pandas as pd
import streamlit as st

from ..figures.sweep import sweep_figure
from ..figures.timeline import COLOURS, timeline_figure
from ..scenarios.run import run, RunConfig
from ..trace.tables.timeline import MARKED_KINDS, timeline_spans
from ..trace.tables.utilisation import capped_idle, worker_utilisation
from ..trace.tables.waits import loop_wait, LoopWait, SECONDS_SPEC, stage_spans, throughput
from ..trace.core.cache import shared_tables
from ..trace.core import kinds
from ..trace.diagnosis.findings import all_findings
from .language import page_setup
from .live_run import outcome as recorded
from .outcome import show_warnings
from .settings import cached_run, MAX_WORKERS, run_lock, sidebar_config, torch_code
from .diagnosis_view import show_diagnosis
from .texts import language, t
from .alerts import show

MAX_SPANS = 10_000  # a Gantt of bar traces stays responsive up to about this many bars (notes/streamlit.md)
SWEEP_MOST = min(4, MAX_WORKERS)
STALL_COLUMNS = ["kind", "epoch", "batch", "worker", "index", "message"]
VERDICTS = (kinds.LOADER_BOUND, kinds.MODEL_BOUND)
TABLE_KINDS = MARKED_KINDS  # the timing findings this page lists and outlines; the rest go under "also found"


def cores() -> int:
    """The cores this process may run on (a container or taskset can give fewer than the machine has)."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def sweep_config(config: RunConfig, num_workers: int) -> RunConfig:
    """``config`` with ``num_workers`` workers for one epoch; without workers torch wants neither
    ``persistent_workers`` nor a ``timeout``, which a throughput measurement does not need."""
    keep = num_workers > 0
    return replace(config, num_workers=num_workers, epochs=1, persistent_workers=config.persistent_workers and keep,
                   timeout=config.timeout if keep else 0.0)


@st.cache_data(max_entries=8, show_spinner=False)
def sweep_table(config: RunConfig, most: int) -> pd.DataFrame:
    """``num_workers, batches_per_s`` for 0..``most`` workers, each a one-epoch run of ``config``."""
    out = []
    for n in range(most + 1):
        rate = math.nan
        # A run that fails (a worker raised) has no rate; the sidebar's own run shows the error.
        try:
            with run_lock():  # one run at a time per server, like the sidebar's runs
                frame = run(sweep_config(config, n))
        except Exception:  # noqa: BLE001
            frame = None
        if frame is not None:
            tp = throughput(frame)
            rate = float(tp["batches"].sum() / tp["duration_s"].sum()) if len(tp) else math.nan
        out.append({"num_workers": n, "batches_per_s": rate})
    return pd.DataFrame(out)


@dataclass(frozen=True)
class Views:
    """What the page draws for one run, computed once per settings (the trace tables take a while)."""

    spans: pd.DataFrame  # trace.timeline.timeline_spans: capped idle split out, blamed spans marked; ≤ MAX_SPANS
    total_spans: int
    stalls: pd.DataFrame  # STALL_COLUMNS
    verdicts: list  # the loader-bound / model-bound sentences
    loader_bound: bool
    others: list  # (severity, sentence) of the run's other problems: wrong or wasteful data
    batches_per_s: float
    loop: LoopWait  # the one definition of waiting, as the verdict and the report show it
    busy: float  # mean busy fraction of the workers (NaN without workers)


@st.cache_data(max_entries=16, show_spinner=False)
def views(config: RunConfig, lang: str) -> Views:
    """The page's tables; ``lang`` words the findings (and keys the cache: each language its own entry)."""
    frame = recorded(config)  # main() has shown it (stopped, warnings): no second report from here
    findings = all_findings(frame)
    found = [f for f in findings if f.kind in TABLE_KINDS]
    stalls = pd.DataFrame([{**{c: getattr(f, c) for c in STALL_COLUMNS}, "message": f.text(lang)} for f in found],
                          columns=STALL_COLUMNS)
    spans = stage_spans(frame)
    total = len(spans)
    capped = capped_idle(frame)  # one set of capped-idle seconds: drawn in the Gantt, summed in the busy share
    spans = timeline_spans(frame, found, spans=spans, max_spans=MAX_SPANS, capped=capped)
    tp, util = throughput(frame), worker_utilisation(frame, capped=capped)
    duration = tp["duration_s"].sum()
    return Views(spans=spans, total_spans=total, stalls=stalls,
                 verdicts=[f.text(lang) for f in findings if f.kind in VERDICTS],
                 loader_bound=any(f.kind == kinds.LOADER_BOUND for f in findings),
                 others=[(f.severity, f.text(lang)) for f in findings
                         if f.kind not in TABLE_KINDS + VERDICTS and f.severity != "info"],
                 batches_per_s=tp["batches"].sum() / duration if duration > 0 else math.nan,
                 loop=loop_wait(frame), busy=float(util["busy_fraction"].mean()) if len(util) else math.nan)


def _number(value: float, spec: str) -> str:
    return "–" if math.isnan(value) else format(value, spec)


def _metrics(v: Views) -> None:
    cols = st.columns(4)
    cols[0].metric(t("timelines.metric.throughput"), _number(v.batches_per_s, ".1f"))
    cols[1].metric(t("timelines.metric.wait"), v.loop.wait_text())
    cols[2].metric(t("timelines.metric.wait_share"), v.loop.share_text())
    cols[3].metric(t("timelines.metric.busy"), _number(v.busy, ".0%"))
    st.caption(t("timelines.metric.first", first=format(v.loop.first_wait_s, SECONDS_SPEC)))


def _gantt(v: Views) -> None:
    st.subheader(t("timelines.gantt.title"))
    if v.total_spans > MAX_SPANS:
        st.caption(t("timelines.cut", shown=MAX_SPANS, total=v.total_spans))  # sorted by start: the beginning
    names = {stage: t(f"timelines.stage.{stage}") for stage in COLOURS}
    lanes = {lane: t(f"timeline.lane.{lane}") for lane in ("main", "pin", "worker")}
    fig = timeline_figure(v.spans, x_title=t("timelines.x"), stage_names=names, mark_name=t("timelines.mark"), lane_names=lanes, hover=t("timeline.hover"))
    st.plotly_chart(fig, theme=None, key="timelines_gantt")


def _stall_table(v: Views) -> None:
    st.subheader(t("timelines.stalls.title"))
    stalls = v.stalls
    if not len(stalls):
        if v.loader_bound:  # nothing stands out, yet the loop waited: "no stalls" in green would say all is well
            st.info(t("timelines.stalls.bound", share=v.loop.share_text()))
        elif not v.others:
            st.success(t("timelines.stalls.none"))
        else:
            st.caption(t("timelines.stalls.none"))
        return
    st.caption(t("timelines.stalls.explain"))
    table = stalls.assign(kind=stalls["kind"].map(lambda k: t(f"timelines.kind.{k}")))
    for column in ("epoch", "batch", "worker", "index"):  # None: the stall is not about one of these
        table[column] = ["" if v is None or pd.isna(v) else str(int(v)) for v in table[column]]
    st.table(table.rename(columns={c: t(f"timelines.col.{c}") for c in STALL_COLUMNS}), hide_index=True)


def _others(v: Views) -> None:
    if not v.others:
        return
    st.subheader(t("timelines.others.title"))
    st.caption(t("timelines.others.explain"))
    for severity, sentence in v.others:
        show(severity, sentence)


def _sweep(config: RunConfig) -> None:
    st.subheader(t("timelines.sweep.title"))
    n_cores = cores()
    st.write(t("timelines.sweep.explain", most=SWEEP_MOST, cores=n_cores))
    if st.button(t("timelines.sweep.button"), key="timelines_sweep"):
        st.session_state["timelines_sweep_for"] = config
    swept_for = st.session_state.get("timelines_sweep_for")
    if swept_for is None:
        return
    if swept_for != config:
        st.caption(t("timelines.sweep.stale"))
        return
    with st.spinner(t("timelines.sweep.running")):
        table = sweep_table(config, SWEEP_MOST)
    st.plotly_chart(sweep_figure(table, cores=n_cores, measured_name=t("timelines.sweep.measured"),
                                 ideal_name=t("timelines.sweep.ideal"), cores_name=t("timelines.sweep.cores"),
                                 x_title=t("timelines.sweep.x"), y_title=t("timelines.sweep.y")),
                    theme=None, key="timelines_sweep_chart")


@shared_tables()  # the figures, the verdict and the findings count one run's queue stays once
def main() -> None:
    page_setup("timelines")
    config = sidebar_config()
    if config is None:
        return
    frame = cached_run(config)
    show_warnings(frame)
    v = views(config, language())
    _metrics(v)
    show_diagnosis(frame, key="timelines", trace_id=config)  # the cause first, then the loader-bound numbers
    for sentence in v.verdicts:
        st.info(sentence)
    _gantt(v)
    _stall_table(v)
    _others(v)
    _sweep(config)
    with st.expander(t("code.title")):
        st.code(torch_code(config), language="python")
