"""The "Your trace" page's views of a trace too big to draw span by span: the whole run in time bins first, then
the timeline and queue depths of one window the user chooses, never of everything at once.

Wiring only: the events table → :mod:`loaderlab.trace.tables.bins` (computed once per trace, cached) → the overview
figure, a range slider → a window cut → the same detailed figures a small trace gets. Knows nothing of how the
trace was loaded; every word shown comes from :mod:`.texts`.
"""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd
import streamlit as st

from ..figures.depths import depth_figure
from ..figures.label_counts import label_counts_figure
from ..figures.overview import overview_figure
from ..figures.timeline import timeline_figure
from ..trace.tables.bins import (bin_edges, BINS, cut_window, depth_bins, depths_in_window, label_counts,
                                 label_share_bins, LABEL_WINDOW, skeleton, worker_busy_bins)
from ..trace.tables.stays import queue_depths
from ..trace.tables.waits import stage_spans, STAGES
from ..trace.export.chrome import to_chrome_trace
from ..trace.files.io import trace_document
from ..engine import events as ev
from .texts import t

BIG_EVENTS = 200_000  # past this many events the page draws the overview and a window, not every span
WINDOW_EVENTS = 10_000  # the window shown at first holds about this many events (about 5,000 spans)
MAX_WINDOW_EVENTS = 18_000  # a wider window is cut to this many: the Gantt stays under ~10,000 bars
SLIDER_STEPS = 2_000
OVERVIEW_QUEUES = {"outstanding", "result_queue", "data_queue", "reorder"}  # index queues: a legend click away


def is_big(frame: pd.DataFrame) -> bool:
    return len(frame) > BIG_EVENTS


@dataclass(frozen=True)
class Overview:
    """The binned tables of one trace and the few numbers the page states about it (small whatever the trace)."""

    busy: pd.DataFrame
    depth_bins: pd.DataFrame
    depths: pd.DataFrame  # the whole queue_depths step series: a window shows its part, exact
    shares: pd.DataFrame
    label_window: int  # batches per label-share window
    start_s: float
    end_s: float
    batches: int


def overview(frame: pd.DataFrame, n_bins: int = BINS) -> Overview:
    """Everything the overview draws, from one pass of each vectorised table; workers and queues are read from
    the trace's skeleton (:func:`loaderlab.trace.tables.bins.skeleton`: the same tables, a fraction of the events),
    label shares from the fetches, in a second thread meanwhile (numpy and Arrow let go of the GIL).
    Label windows hold at least :data:`~loaderlab.trace.tables.bins.LABEL_WINDOW` batches, more when that would make
    more windows than time bins (a figure's size follows the bins, not the run)."""
    batches = int((frame["kind"] == ev.BATCH_YIELD).sum())
    window = max(LABEL_WINDOW, math.ceil(batches / n_bins))
    with ThreadPoolExecutor(max_workers=1) as pool:
        shares = pool.submit(label_share_bins, frame, window)
        sk = skeleton(frame)
        edges = bin_edges(sk, n_bins)
        depths = queue_depths(sk)
        busy = worker_busy_bins(sk, edges, is_skeleton=True)
        return Overview(busy=busy, depth_bins=depth_bins(depths, edges), depths=depths,
                        shares=shares.result(), label_window=window, start_s=float(edges[0]),
                        end_s=float(edges[-1]), batches=batches)


# Kept once per trace and shared, not copied per rerun (its depth series has a row per queue change).
@st.cache_resource(max_entries=2, show_spinner=False)
def _cached_overview(token: str, _frame: pd.DataFrame) -> Overview:  # _frame: not hashed; token names the trace
    return overview(_frame)


def default_window(frame: pd.DataFrame, events: int | None = None) -> tuple[float, float]:
    """From the trace's start to the time of its ``events``-th event (default :data:`WINDOW_EVENTS`)."""
    events = WINDOW_EVENTS if events is None else events
    ts = frame["t_s"].to_numpy()
    return float(ts[0]), float(ts[min(len(ts) - 1, events)])


def limit_window(frame: pd.DataFrame, t0: float, t1: float, most: int | None = None) -> tuple[float, int, int]:
    """``(t1', events in [t0, t1), events in [t0, t1'))``: ``t1`` moved back so that at most ``most`` events
    (default :data:`MAX_WINDOW_EVENTS`) fall in the window."""
    most = MAX_WINDOW_EVENTS if most is None else most
    ts = frame["t_s"].to_numpy()
    lo, hi = np.searchsorted(ts, [t0, t1], side="left")
    if hi - lo <= most:
        return t1, int(hi - lo), int(hi - lo)
    return float(ts[lo + most]), int(hi - lo), most


def _window_slider(ov: Overview, frame: pd.DataFrame, token: str) -> tuple[float, float]:
    lo, hi = ov.start_s, ov.end_s
    step = max((hi - lo) / SLIDER_STEPS, 1e-6)
    first = default_window(frame)
    value = (lo, min(hi, max(first[1], lo + step)))
    t0, t1 = st.slider(t("yourtrace.window.slider"), min_value=lo, max_value=hi, value=value, step=step,
                       format="%.3f", key=f"trace_window:{token}")
    if t1 >= hi:
        t1 = math.inf  # the slider's right end is the trace's end: its last event belongs in the window
    return t0, max(t1, t0 + step)


def show_big(frame: pd.DataFrame, *, token: str, name: str, stem: str) -> None:
    """The overview, the window slider, the window's downloads and its detailed views."""
    with st.spinner(t("spinner.trace")):
        ov = _cached_overview(token, frame)
    st.info(t("yourtrace.big.note", events=len(frame), bins=BINS))
    st.subheader(t("yourtrace.overview.title"))
    overview_slot = st.empty()  # drawn after the slider, so that it can shade the window the slider chose
    t0, t1 = _window_slider(ov, frame, token)
    t1, held, kept = limit_window(frame, t0, t1)
    window = cut_window(frame, t0, t1)
    shown_to = min(t1, ov.end_s)
    overview_slot.plotly_chart(overview_figure(
        ov.busy, ov.depth_bins, ov.shares, x_title=t("yourtrace.depths.x"), busy_title=t("yourtrace.overview.busy"),
        depth_title=t("yourtrace.overview.depth"),
        label_title=t("yourtrace.overview.labels", window=ov.label_window),
        worker_name=t("timeline.lane.worker"), label_name=t("yourtrace.overview.label"),
        other_name=t("yourtrace.overview.other"), queues_shown=OVERVIEW_QUEUES, window=(t0, shown_to),
        busy_hover=t("yourtrace.overview.busy_hover"), depth_hover=t("yourtrace.overview.depth_hover"),
        label_hover=t("yourtrace.overview.label_hover")), theme=None)
    if held > kept:
        st.warning(t("yourtrace.window.cut", events=held, shown=shown_to - t0, kept=kept))
    st.caption(t("yourtrace.window.caption", t0=t0, t1=shown_to, events=kept))
    _window_downloads(window, name=name, stem=stem, t0=t0, t1=shown_to)

    st.subheader(t("timeline.title"))
    st.caption(t("timeline.explain"))
    spans = stage_spans(window)
    names = {stage: t(f"stage.{stage}") for stage in STAGES}
    lanes = {lane: t(f"timeline.lane.{lane}") for lane in ("main", "pin", "worker")}
    fig = timeline_figure(spans, x_title=t("timeline.x"), stage_names=names, lane_names=lanes,
                          hover=t("timeline.hover"))
    st.plotly_chart(fig.update_xaxes(range=[t0, shown_to]), theme=None)

    st.subheader(t("yourtrace.depths.title"))
    depths = depths_in_window(ov.depths, t0, shown_to)
    if len(depths):
        st.caption(t("yourtrace.depths.explain"))
        fig = depth_figure(depths, x_title=t("yourtrace.depths.x"), y_title=t("yourtrace.depths.y"))
        st.plotly_chart(fig.update_xaxes(range=[t0, shown_to]), theme=None)
    else:
        st.info(t("yourtrace.depths.none"))

    st.subheader(t("yourtrace.labels.title"))  # the whole run's counts: the windows' label shares, summed
    per_epoch = label_counts(ov.shares)
    if len(per_epoch):
        st.plotly_chart(label_counts_figure(per_epoch, x_title=t("yourtrace.labels.x"), y_title=t("yourtrace.labels.y"),
                                            epoch_name=t("yourtrace.labels.epoch")), theme=None)
    else:
        st.info(t("yourtrace.labels.none"))


def json_bytes(doc: dict) -> bytes:
    """A JSON document as the page's downloads write it (compact, UTF-8, no NaN)."""
    return json.dumps(doc, separators=(",", ":"), allow_nan=False, ensure_ascii=False).encode("utf-8") + b"\n"


def _window_downloads(window: pd.DataFrame, *, name: str, stem: str, t0: float, t1: float) -> None:
    # a trace file stores text columns as text: a categorical column (as a big table may hold) becomes str
    window = window.astype({c: str for c in window.columns if isinstance(window[c].dtype, pd.CategoricalDtype)})
    part = f"{stem}.{t0:.3f}-{t1:.3f}s"
    c1, c2 = st.columns(2)
    # written when asked for (a click), not on every move of the slider
    c1.download_button(t("yourtrace.download.window"), lambda: json_bytes(trace_document(window)),
                       file_name=f"{part}.json", mime="application/json", help=t("yourtrace.download.help"),
                       key="download_trace")
    c2.download_button(t("yourtrace.download.window_chrome"), lambda: json_bytes(to_chrome_trace(window)),
                       file_name=f"{part}.chrome.json", mime="application/json",
                       help=t("yourtrace.download.chrome_help"), key="download_chrome")
    st.caption(t("yourtrace.download.big", name=name, stem=stem))
