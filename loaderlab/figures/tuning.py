"""What ``run --tune`` measured inside the job: one horizontal bar per tried setting, its median samples per
second, the spread of its rounds as a whisker, the job's own setting and the measured best in their colours.

Twin of nothing in torch. Input: :func:`loaderlab.trace.diagnosis.tuning.tuning_table` (``setting, own, best,
rounds, samples_per_s, low, high, vs_own, startup_s``). Output: a plotly Figure. Pure: knows nothing of
streamlit; every word shown is an argument.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

OWN_COLOUR, BEST_COLOUR, OTHER_COLOUR = "#7f7f7f", "#2ca02c", "#1f77b4"


def tuning_figure(table: pd.DataFrame, *, x_title: str, own_mark: str, best_mark: str, hover: str) -> go.Figure:
    """Measured settings only (rows with rounds), the job's own at the top. ``own_mark`` / ``best_mark`` are
    appended to those bars' names; ``hover`` is a plotly hovertemplate with ``%{customdata[0]}`` = rounds,
    ``%{customdata[1]}`` = lowest, ``%{customdata[2]}`` = highest, ``%{customdata[3]}`` = ratio to the own."""
    rows = table[table["rounds"] > 0].reset_index(drop=True)
    names = [f"{r.setting} ({own_mark})" if r.own else f"{r.setting} ({best_mark})" if r.best else r.setting
             for r in rows.itertuples()]
    colours = [OWN_COLOUR if r.own else BEST_COLOUR if r.best else OTHER_COLOUR for r in rows.itertuples()]
    mid = rows["samples_per_s"].to_numpy(float)
    custom = np.column_stack([rows["rounds"].to_numpy(float), rows["low"].to_numpy(float),
                              rows["high"].to_numpy(float), rows["vs_own"].to_numpy(float)]) if len(rows) else None
    fig = go.Figure(go.Bar(x=mid.tolist(), y=names, orientation="h", marker_color=colours, customdata=custom,
                           error_x=dict(type="data", symmetric=False, visible=True,
                                        array=(rows["high"].to_numpy(float) - mid).tolist(),
                                        arrayminus=(mid - rows["low"].to_numpy(float)).tolist()),
                           hovertemplate=hover))
    fig.update_layout(xaxis_title=x_title, height=max(220, 70 + 48 * len(rows)), showlegend=False,
                      yaxis=dict(autorange="reversed", automargin=True), xaxis=dict(rangemode="tozero"),
                      plot_bgcolor="white", margin=dict(l=20, r=20, t=20, b=50))
    return fig
