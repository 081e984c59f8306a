"""The per-process timeline (a Gantt chart): one lane per process (and one for the pin thread), one bar per span.

Twin of nothing in torch. Input: the finished table of ``loaderlab.trace.tables.timeline.timeline_spans`` (columns
``worker``, ``stage``, ``start_s``, ``end_s``, ``batch``, ``index``; ``track`` if present names the lane;
idle already split into ``idle`` and ``idle_capped``; a ``mark`` column, if present, orders the spans a
finding blames), or plain ``loaderlab.trace.tables.waits.stage_spans``. Output: a plotly Figure with one bar trace
per stage, so the legend toggles stages, and an outline over the marked spans. It computes nothing: every
number drawn is the table's. Pure: knows nothing of streamlit or of how the run was made; every word shown
is an argument.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from ..trace.tables.timeline import CAPPED_IDLE, MARK
from .style import STAGE_COLOURS, lane_name

COLOURS = {**STAGE_COLOURS, CAPPED_IDLE: "#f4b6b6"}
MARK_COLOUR = "#000000"


def _lane_key(lane: str) -> tuple:
    if lane == "main":
        return (0, 0)
    if lane == "pin":
        return (1, 0)
    digits = lane.rsplit(" ", 1)[-1]
    return (2, int(digits)) if digits.isdigit() else (3, lane)


def _lanes(spans: pd.DataFrame) -> pd.Series:
    if "track" in spans.columns:
        return spans["track"].astype(str)
    return spans["worker"].map(lane_name)


HOVER = "batch %{customdata[0]}, index %{customdata[1]}<br>%{base:.4f}s + %{x:.4f}s<extra></extra>"


def _lane_label(lane: str, names: dict[str, str]) -> str:
    """A lane's words: ``names`` has ``main``, ``pin`` and ``worker`` (with ``{k}``); other lanes stay."""
    if lane in ("main", "pin"):
        return names.get(lane, lane)
    digits = lane.rsplit(" ", 1)[-1]
    return names["worker"].format(k=digits) if "worker" in names and digits.isdigit() else lane


def timeline_figure(spans: pd.DataFrame, *, title: str = "", x_title: str = "seconds since start",
                    stage_names: dict[str, str] | None = None, mark_name: str = "stall",
                    lane_names: dict[str, str] | None = None, hover: str = HOVER) -> go.Figure:
    """``stage_names`` maps stage keys to the legend's words (for translations), ``lane_names`` the lanes'
    (keys ``main``, ``pin``, ``worker`` with ``{k}``). ``hover``: a plotly hovertemplate with
    ``%{customdata[0]}`` = batch, ``[1]`` = index. Spans with a ``mark`` are outlined in black, in that
    order, as one more legend entry named ``mark_name``."""
    stage_names, lane_names = stage_names or {}, lane_names or {}
    fig = go.Figure()
    lane_of = _lanes(spans) if len(spans) else pd.Series([], dtype=str)
    lanes = sorted(set(lane_of), key=_lane_key)
    lane_of = lane_of.map(lambda lane: _lane_label(lane, lane_names))
    for stage, colour in COLOURS.items():
        pick = spans["stage"] == stage
        rows = spans[pick]
        if rows.empty:
            continue
        fig.add_trace(go.Bar(
            name=stage_names.get(stage, stage), orientation="h", marker_color=colour,
            y=lane_of[pick].to_list(), base=rows["start_s"], x=rows["end_s"] - rows["start_s"],
            customdata=rows[["batch", "index"]].to_numpy(), hovertemplate=hover,
        ))
    marks = spans[spans[MARK].notna()].sort_values(MARK, kind="stable") if MARK in spans.columns else spans.iloc[0:0]
    if len(marks):
        fig.add_trace(go.Bar(
            name=mark_name, orientation="h", y=[_lane_label(lane, lane_names) for lane in _lanes(marks)],
            base=marks["start_s"],
            x=marks["end_s"] - marks["start_s"], marker=dict(color="rgba(0,0,0,0)",
                                                             line=dict(color=MARK_COLOUR, width=3)),
            customdata=marks[["batch", "index"]].to_numpy(), hovertemplate=hover,
        ))
    fig.update_layout(
        title=title, barmode="overlay", xaxis_title=x_title, height=140 + 40 * max(1, len(lanes)),
        yaxis=dict(categoryorder="array", categoryarray=[_lane_label(lane, lane_names) for lane in reversed(lanes)], automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), margin=dict(l=10, r=10, t=60, b=50),
    )
    return fig
