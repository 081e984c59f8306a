"""Label counts per epoch: how many samples of each label the loop received, one bar group per label.

Twin of nothing in torch (it never looks at what it loads). Input: ``per_epoch`` of
``loaderlab.trace.tables.audits.label_audit`` (``epoch, label, count, share``). Output: a plotly Figure. Pure:
knows nothing of streamlit; every word shown is an argument.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go


def label_counts_figure(per_epoch: pd.DataFrame, *, x_title: str, y_title: str, epoch_name: str) -> go.Figure:
    """One bar trace per epoch (named ``epoch_name.format(epoch=…)``); labels on the x axis as text, so
    that numeric labels are categories, not a scale."""
    fig = go.Figure()
    labels = list(dict.fromkeys(str(v) for v in per_epoch["label"]))
    for epoch, g in per_epoch.groupby("epoch", sort=True):
        fig.add_trace(go.Bar(name=epoch_name.format(epoch=int(epoch)), x=[str(v) for v in g["label"]],
                             y=g["count"], customdata=g[["share"]].to_numpy(),
                             hovertemplate="%{x}: %{y} (%{customdata[0]:.1%})<extra>%{fullData.name}</extra>"))
    fig.update_layout(barmode="group", xaxis_title=x_title, yaxis_title=y_title, height=340,
                      xaxis=dict(type="category", categoryorder="array", categoryarray=labels), yaxis=dict(automargin=True),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), margin=dict(l=60, r=10, t=50, b=50))
    return fig
