"""A sweep of ``num_workers``: measured throughput against the ideal line, which the cores cap.

Twin of nothing in torch. Input: a table ``num_workers, batches_per_s`` (one measured run per row) and the
number of cores the runs could use. Output: :func:`ideal_line` (the throughput of one worker times the
workers, flat past the core count) and :func:`sweep_figure`. Pure: knows nothing of streamlit or of how
the runs were made; every word shown is an argument.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

MEASURED_COLOUR, IDEAL_COLOUR, CORES_COLOUR = "#1f77b4", "#7f7f7f", "#d62728"


def ideal_line(table: pd.DataFrame, cores: int) -> pd.DataFrame:
    """``num_workers, batches_per_s`` for every swept count ≥ 1: one worker's rate × min(workers, cores).

    Empty when the sweep has no run with one worker (there is nothing to scale).
    """
    one = table[table["num_workers"] == 1]["batches_per_s"]
    workers = sorted(int(n) for n in table["num_workers"] if n >= 1)
    if not len(one) or not workers:
        return pd.DataFrame(columns=["num_workers", "batches_per_s"])
    rate = float(one.iloc[0])
    return pd.DataFrame({"num_workers": workers, "batches_per_s": [rate * min(n, max(1, cores)) for n in workers]})


def sweep_figure(table: pd.DataFrame, *, cores: int, measured_name: str, ideal_name: str, cores_name: str,
                 x_title: str, y_title: str, title: str = "") -> go.Figure:
    """Measured batches/s per ``num_workers`` (markers and line), the ideal line (dashed), and a dotted
    vertical line at the core count labelled ``cores_name`` (a template with ``{cores}``)."""
    table = table.sort_values("num_workers")
    ideal = ideal_line(table, cores)
    fig = go.Figure()
    fig.add_trace(go.Scatter(name=measured_name, x=table["num_workers"], y=table["batches_per_s"],
                             mode="lines+markers", line=dict(color=MEASURED_COLOUR, width=3),
                             hovertemplate="num_workers=%{x}: %{y:.1f}<extra></extra>"))
    if len(ideal):
        fig.add_trace(go.Scatter(name=ideal_name, x=ideal["num_workers"], y=ideal["batches_per_s"], mode="lines",
                                 line=dict(color=IDEAL_COLOUR, width=2, dash="dash"),
                                 hovertemplate="num_workers=%{x}: %{y:.1f}<extra></extra>"))
    top = max([0.0, *table["batches_per_s"].dropna(), *ideal["batches_per_s"]]) * 1.15 or 1.0
    if len(table) and cores <= table["num_workers"].max():
        fig.add_shape(type="line", x0=cores, x1=cores, y0=0, y1=top, line=dict(color=CORES_COLOUR, dash="dot"))
        fig.add_annotation(x=cores, y=top, text=cores_name.format(cores=cores), showarrow=False, yanchor="bottom",
                           font=dict(color=CORES_COLOUR))
    fig.update_layout(title=title, height=380, plot_bgcolor="white", margin=dict(l=70, r=20, t=70, b=50),
                      legend=dict(orientation="h", yanchor="bottom", y=1.08, x=0),
                      xaxis=dict(title=x_title, dtick=1, gridcolor="#eee", automargin=True),
                      yaxis=dict(title=y_title, range=[0, top * 1.08], gridcolor="#eee", automargin=True))
    return fig
