"""A whole run on one page, however long: busy share per worker as a heatmap over time, each queue's depth as a
band (lowest to highest in a time bin) around its time-weighted mean, and label shares per batch window as
stacked areas, all on one time axis; optionally the window the detailed views show, shaded.

Twin of nothing in torch. Input: the finished tables of :mod:`loaderlab.trace.tables.bins` (``worker_busy_bins``,
``queue_depth_bins``, ``label_share_bins``). Output: a plotly Figure whose size depends on the number of bins,
workers, queues and labels, never on the number of events. It computes nothing but the shares of labels
folded into "other". Pure: knows nothing of streamlit or of how the run was made; every word shown is an
argument.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .depths import QUEUE_COLOURS, queue_order
from .style import fit_axes, margin

MAX_LABELS = 9  # more labels than this are drawn as the largest ones plus one "other" area (ImageNet has 1,000)
HEAT_ROW_PX = 28  # per worker
ROW_GAP_PX = 45  # between rows: room for the next row's title above it
BUSY_SCALE = [[0.0, "#f7fbff"], [0.5, "#6baed6"], [1.0, "#08306b"]]  # idle pale, busy dark (fetch's blue)
WINDOW_COLOUR = "rgba(255, 193, 7, 0.25)"  # drawn over the heatmap (which is opaque), so see-through
WINDOW_LINE = "#b8860b"
LABEL_COLOURS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22",
                 "#17becf"]
OTHER_COLOUR = "#c7c7c7"


def _centres(table: pd.DataFrame) -> pd.Series:
    return (table["start_s"] + table["end_s"]) / 2


def _heatmap(busy: pd.DataFrame, worker_name: str, hover: str) -> go.Heatmap:
    grid = busy.pivot(index="worker", columns="bin", values="busy_share").sort_index()
    x = _centres(busy.drop_duplicates("bin").set_index("bin").loc[grid.columns])
    return go.Heatmap(z=grid.to_numpy(), x=x.to_numpy(), y=[worker_name.format(k=int(k)) for k in grid.index],
                      zmin=0, zmax=1, colorscale=BUSY_SCALE, hovertemplate=hover + "<extra></extra>",
                      colorbar=dict(thickness=10, len=0.3, y=1, yanchor="top", tickformat=".0%"), hoverongaps=False)


def _bands(depths: pd.DataFrame, queue_names: dict[str, str], shown: set[str] | None, hover: str) -> list:
    """Per queue: its highest depth, its lowest filled up to it (the band), and its mean as a line."""
    out = []
    for name in sorted(set(depths["queue"]), key=queue_order):
        rows = depths[depths["queue"] == name].sort_values("bin")
        colour = QUEUE_COLOURS.get(name.split("[")[0], "#17becf")
        word, x = queue_names.get(name, name), _centres(rows)
        visible = True if shown is None or name in shown else "legendonly"
        common = dict(x=x, legendgroup=f"q:{name}", visible=visible, mode="lines")
        out.append(go.Scatter(y=rows["max_depth"], line=dict(width=0, color=colour), showlegend=False,
                              hoverinfo="skip", name=word, **common))
        out.append(go.Scatter(y=rows["min_depth"], line=dict(width=0, color=colour), fill="tonexty",
                              opacity=0.3, showlegend=False, hoverinfo="skip", name=word, **common))
        out.append(go.Scatter(y=rows["mean_depth"], line=dict(width=1.5, color=colour), name=word,
                              customdata=rows[["min_depth", "max_depth"]].to_numpy(),
                              hovertemplate=hover + "<extra>%{fullData.name}</extra>", **common))
    return out


def _label_areas(labels: pd.DataFrame, other_name: str, label_name: str, hover: str,
                 max_labels: int) -> list[go.Scatter]:
    """One stacked area per label (the largest ``max_labels`` by count; the rest as one ``other_name`` area)."""
    keys = labels["label"].map(repr)
    totals = labels.assign(_key=keys).groupby("_key")["count"].sum().sort_values(ascending=False, kind="stable")
    top = list(totals.index[:max_labels])
    first = labels.assign(_key=keys).drop_duplicates("_key").set_index("_key")["label"]
    folded = labels.assign(_key=keys.where(keys.isin(top), "\0other"))
    per = folded.groupby(["epoch", "window", "_key"], as_index=False).agg(
        share=("share", "sum"), start_s=("start_s", "first"), end_s=("end_s", "first"))
    windows = per.drop_duplicates(["epoch", "window"])[["epoch", "window", "start_s", "end_s"]]
    windows = windows.sort_values(["start_s", "epoch", "window"]).reset_index(drop=True)
    x = _centres(windows).to_numpy()
    out = []
    for i, key in enumerate(top + (["\0other"] if len(totals) > max_labels else [])):
        mine = windows.merge(per[per["_key"] == key][["epoch", "window", "share"]], on=["epoch", "window"],
                             how="left")["share"].fillna(0.0)
        other = key == "\0other"
        word = other_name if other else label_name.format(label=first[key])
        out.append(go.Scatter(x=x, y=mine.to_numpy(), name=word, stackgroup="labels", mode="lines",
                              line=dict(width=0.5, color=OTHER_COLOUR if other else LABEL_COLOURS[i % 9]),
                              hovertemplate=hover + "<extra>%{fullData.name}</extra>"))
    return out


def overview_figure(busy: pd.DataFrame, depths: pd.DataFrame, labels: pd.DataFrame, *, x_title: str,
                    busy_title: str, depth_title: str, label_title: str, worker_name: str = "worker {k}",
                    label_name: str = "{label}", other_name: str = "other",
                    queue_names: dict[str, str] | None = None, queues_shown: set[str] | None = None,
                    window: tuple[float, float] | None = None, busy_hover: str = "%{y}, %{x:.2f} s: %{z:.0%}",
                    depth_hover: str = "%{x:.2f} s: %{y:.2f} (%{customdata[0]:.0f}–%{customdata[1]:.0f})",
                    label_hover: str = "%{x:.2f} s: %{y:.1%}", max_labels: int = MAX_LABELS) -> go.Figure:
    """Rows, top to bottom, each only when its table has rows: the busy-share heatmap (``busy_title``), queue
    depth bands (``depth_title``; ``queues_shown``: the queues drawn at first, the others one legend click away;
    None: all) and label shares (``label_title``). ``window``: ``(t0, t1)`` shaded across every row."""
    queue_names = queue_names or {}
    parts = [(busy_title, len(busy), max(120, HEAT_ROW_PX * busy["worker"].nunique() + 40) if len(busy) else 0),
             (depth_title, len(depths), 200), (label_title, len(labels), 200)]
    parts = [p for p in parts if p[1]]
    if not parts:
        return fit_axes(go.Figure(layout=dict(height=120, xaxis_title=x_title, margin=margin())))
    heights = [p[2] for p in parts]
    gaps = ROW_GAP_PX * (len(parts) - 1)
    fig = make_subplots(rows=len(parts), cols=1, shared_xaxes=True, vertical_spacing=ROW_GAP_PX / (sum(heights) + gaps),
                        subplot_titles=[p[0] for p in parts], row_heights=[h / sum(heights) for h in heights])
    row = 1
    if len(busy):
        fig.add_trace(_heatmap(busy, worker_name, busy_hover), row=row, col=1)
        fig.update_yaxes(autorange="reversed", row=row, col=1)
        row += 1
    if len(depths):
        for trace in _bands(depths, queue_names, queues_shown, depth_hover):
            fig.add_trace(trace, row=row, col=1)
        fig.update_yaxes(rangemode="tozero", row=row, col=1)
        row += 1
    if len(labels):
        for trace in _label_areas(labels, other_name, label_name, label_hover, max_labels):
            fig.add_trace(trace, row=row, col=1)
        fig.update_yaxes(range=[0, 1], tickformat=".0%", row=row, col=1)
    if window is not None:
        fig.add_shape(type="rect", xref="x", yref="paper", x0=window[0], x1=window[1], y0=0, y1=1,
                      fillcolor=WINDOW_COLOUR, line=dict(width=1, color=WINDOW_LINE), layer="above")
    for note in fig.layout.annotations:  # subplot titles at the left, small
        note.update(x=0, xanchor="left", font=dict(size=13))
    fig.update_xaxes(title_text=x_title, row=len(parts), col=1)
    fig.update_layout(height=sum(heights) + gaps + 130, margin=margin(t=40),
                      legend=dict(orientation="h", y=-0.1, yanchor="top", x=0, traceorder="normal"))
    return fit_axes(fig)
