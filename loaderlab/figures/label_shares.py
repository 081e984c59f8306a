"""One epoch's three label distributions side by side: what the data is, what the sampler intends, what the
loop received, each label a group of three bars, an estimate with its interval as an error bar.

Twin of nothing in torch. Input: the rows of one epoch of
:func:`loaderlab.trace.tables.label_shares.label_distributions` (``which, label, count, share, low, high,
estimated``). Output: a plotly Figure. Pure: knows nothing of streamlit; every word shown is an argument.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from .labels import DATA_COLOUR, INTENDED_COLOUR, LABEL_COLOURS

WHICH_COLOURS = {"dataset": DATA_COLOUR, "intended": INTENDED_COLOUR, "received": LABEL_COLOURS[0]}


def _label_order(rows: pd.DataFrame) -> list[str]:
    """Labels as text, the data's most common first (else the received's)."""
    for which in ("dataset", "intended", "received"):
        part = rows[rows["which"] == which]
        if len(part):
            first = list(part.sort_values("share", ascending=False, kind="stable")["label"].map(str))
            return first + [s for s in dict.fromkeys(rows["label"].map(str)) if s not in first]
    return []


def label_shares_figure(rows: pd.DataFrame, *, names: Mapping[str, str], x_title: str, y_title: str,
                        hover: str) -> go.Figure:
    """A bar trace per distribution present (``names``: ``dataset``/``intended``/``received`` → legend name),
    in that order; y is the share; an estimated share carries its interval as an asymmetric error bar.
    ``hover``: a plotly hovertemplate with ``%{customdata[0]}`` = count."""
    fig = go.Figure()
    order = _label_order(rows)
    for which in ("dataset", "intended", "received"):
        part = rows[rows["which"] == which]
        if not len(part):
            continue
        part = part.assign(_x=part["label"].map(str)).set_index("_x").reindex([x for x in order if x in set(
            part["label"].map(str))])
        error = None
        if part["estimated"].astype(bool).any():
            share = part["share"].to_numpy(float)
            error = dict(type="data", symmetric=False, array=np.nan_to_num(part["high"].to_numpy(float) - share),
                         arrayminus=np.nan_to_num(share - part["low"].to_numpy(float)), visible=True)
        fig.add_trace(go.Bar(name=names[which], x=list(part.index), y=part["share"].to_numpy(float).tolist(),
                             marker_color=WHICH_COLOURS[which], error_y=error,
                             customdata=np.round(part[["count"]].to_numpy(float)), hovertemplate=hover))
    fig.update_layout(barmode="group", xaxis_title=x_title, yaxis_title=y_title, height=340,
                      xaxis=dict(type="category", categoryorder="array", categoryarray=order),
                      yaxis=dict(tickformat=".0%", rangemode="tozero", automargin=True),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), margin=dict(l=60, r=10, t=50, b=50))
    return fig
