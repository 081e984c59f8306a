"""The per-process timeline (a Gantt chart): one lane per process, one bar per span.

Twin of nothing in torch. Input: a spans table as made by ``loaderlab.trace.analysis.spans`` (columns
``worker``, ``stage``, ``start_s``, ``end_s``, ``batch``, ``index``). Output: a plotly Figure with one bar
trace per stage, so the legend toggles stages. Pure: knows nothing of streamlit or of how the run was made.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from .style import STAGE_COLOURS, lane_name


def timeline_figure(spans: pd.DataFrame, *, title: str = "", x_title: str = "seconds since start",
                    stage_names: dict[str, str] | None = None) -> go.Figure:
    """``stage_names`` maps stage keys to the legend's words (for translations)."""
    stage_names = stage_names or {}
    fig = go.Figure()
    lanes = sorted(set(spans["worker"]), key=lambda w: (w >= 0, w)) if len(spans) else []
    for stage, colour in STAGE_COLOURS.items():
        rows = spans[spans["stage"] == stage]
        if rows.empty:
            continue
        fig.add_trace(go.Bar(
            name=stage_names.get(stage, stage), orientation="h", marker_color=colour,
            y=[lane_name(w) for w in rows["worker"]], base=rows["start_s"], x=rows["end_s"] - rows["start_s"],
            customdata=rows[["batch", "index"]].to_numpy(),
            hovertemplate="batch %{customdata[0]}, index %{customdata[1]}<br>%{base:.4f}s + %{x:.4f}s<extra></extra>",
        ))
    fig.update_layout(
        title=title, barmode="overlay", xaxis_title=x_title, height=140 + 40 * max(1, len(lanes)),
        yaxis=dict(categoryorder="array", categoryarray=[lane_name(w) for w in reversed(lanes)], automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), margin=dict(l=10, r=10, t=60, b=50),
    )
    return fig
