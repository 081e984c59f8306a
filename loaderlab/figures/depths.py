"""Queue depths over time: one small step chart per queue of torch's design, sharing the time axis.

Twin of nothing in torch (it keeps no such counts). Input: the table of
``loaderlab.trace.tables.utilisation.queue_depths`` (``t_s, queue, depth``: the depth holds from ``t_s`` until
the queue's next row). Output: a plotly Figure. Pure: knows nothing of streamlit or of how the trace was
made; every word shown is an argument.
"""

from __future__ import annotations

import re

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

GL_POINTS = 5000  # past this many points per line, WebGL keeps a long trace responsive
ROW_PX = 80
# colours follow the stage that fills each queue (style.STAGE_COLOURS): fetch, collate, pin, wait
QUEUE_COLOURS = {"index_queue": "#1f77b4", "result_queue": "#ff7f0e", "data_queue": "#9467bd",
                 "reorder": "#d62728", "outstanding": "#7f7f7f"}


def queue_order(name: str) -> tuple:
    """Index queues by worker, then the queues a batch meets on its way to the loop."""
    m = re.fullmatch(r"index_queue\[(\d+)\]", name)
    if m:
        return (0, int(m.group(1)), name)
    rank = {"result_queue": 1, "data_queue": 2, "reorder": 3, "outstanding": 4}
    return (rank.get(name, 5), 0, name)


def depth_figure(depths: pd.DataFrame, *, x_title: str, y_title: str,
                 queue_names: dict[str, str] | None = None) -> go.Figure:
    """One row per queue (its name above it; ``queue_names`` maps names to other words), filled steps."""
    queue_names = queue_names or {}
    queues = sorted(set(depths["queue"]), key=queue_order)
    n = max(1, len(queues))
    fig = make_subplots(rows=n, cols=1, shared_xaxes=True, vertical_spacing=min(0.3 / n, 0.08),
                        subplot_titles=[queue_names.get(q, q) for q in queues] or None, y_title=y_title)
    for row, name in enumerate(queues, start=1):
        rows = depths[depths["queue"] == name].sort_values("t_s", kind="stable")
        colour = QUEUE_COLOURS.get(name.split("[")[0], "#17becf")
        kind = go.Scattergl if len(rows) > GL_POINTS else go.Scatter
        fig.add_trace(kind(name=queue_names.get(name, name), x=rows["t_s"], y=rows["depth"], mode="lines",
                           line=dict(shape="hv", width=1.5, color=colour), fill="tozeroy", showlegend=False,
                           hovertemplate="%{x:.4f} s: %{y}<extra>%{fullData.name}</extra>"), row=row, col=1)
        top = int(rows["depth"].max()) if len(rows) else 1
        ticks = dict(dtick=1) if top <= 2 else dict(nticks=3)  # depths are whole numbers
        fig.update_yaxes(range=[0, max(1, top) * 1.15], row=row, col=1, **ticks)
    for note in fig.layout.annotations:  # subplot titles: small, at the left, so the rows can be thin
        if note.text in {queue_names.get(q, q) for q in queues}:
            note.update(x=0, xanchor="left", font=dict(size=12))
    fig.update_xaxes(title_text=x_title, row=n, col=1)
    fig.update_layout(height=110 + ROW_PX * n, margin=dict(l=60, r=10, t=30, b=50))
    return fig
