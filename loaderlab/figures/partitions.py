"""Which sample went to which rank: the partition of every epoch (animated), per-rank labels, per-rank timelines.

Twin of nothing in torch. Inputs are the tables of :mod:`loaderlab.trace.ranks.analysis` — ``assignments``
(epoch, rank, position, index, label, padded), ``label_counts`` (epoch, rank, label, count, share) and
``rank_spans`` (the spans of :func:`loaderlab.trace.tables.waits.stage_spans` with a ``rank`` column). Output:
plotly Figures. Pure: knows pandas and plotly, nothing of streamlit or of how the ranks ran; every word
shown is an argument.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .labels import label_colour
from .style import STEP, fit_axes, lane_name, margin, play_pause, slider_beside
from .timeline import timeline_figure

# Paul Tol's "bright": ranks are categories, told apart from the label colours (Okabe–Ito) of labels.py.
RANK_COLOURS = ("#4477AA", "#EE6677", "#228833", "#CCBB44", "#66CCEE", "#AA3377")
PADDED_COLOUR = "#000000"


def rank_colour(rank: int) -> str:
    return RANK_COLOURS[rank % len(RANK_COLOURS)]


def _epoch_traces(a: pd.DataFrame, ranks: list[int], rank_names: list[str]) -> list[dict]:
    """The data of every trace for one epoch: per rank its strip and its order, then the padded marks."""
    strips, orders = [], []
    for rank, name in zip(ranks, rank_names):
        mine = a[a["rank"] == rank]
        custom = mine[["position", "global_position"]].astype(int).to_numpy().tolist()
        strips.append(dict(x=mine["index"].tolist(), y=[name] * len(mine), customdata=custom))
        orders.append(dict(x=mine["index"].tolist(), y=mine["position"].tolist(), customdata=custom))
    pads = a[a["padded"]]
    padded = dict(x=pads["index"].tolist(), y=[rank_names[ranks.index(r)] for r in pads["rank"]],
                  customdata=pads[["position", "global_position"]].astype(int).to_numpy().tolist())
    return strips + orders + [padded]


def partition_figure(assignments: pd.DataFrame, *, dataset_len: int, rank_name: str, padded_name: str,
                     x_title: str, strip_title: str, order_title: str, hover: str, epoch_prefix: str,
                     play: str, pause: str) -> go.Figure:
    """Top: one lane per rank, a square at every dataset index the rank got. Bottom: the order in which
    each rank got them (position in its epoch against the index). A black ✕ marks a padding copy. One
    animation frame per epoch (Play, or the slider): with ``set_epoch`` the squares move between epochs,
    without it nothing moves. ``rank_name`` has ``{rank}``; ``hover`` is a hovertemplate with
    ``%{customdata[0]}`` = position in the rank's epoch and ``%{customdata[1]}`` = place in the global list.
    """
    ranks = sorted({int(r) for r in assignments["rank"]})
    names = [rank_name.format(rank=r) for r in ranks]
    epochs = sorted({int(e) for e in assignments["epoch"]}) or [0]
    per_epoch = {e: _epoch_traces(assignments[assignments["epoch"] == e], ranks, names) for e in epochs}
    fig = make_subplots(rows=2, cols=1, shared_xaxes=True, row_heights=[0.35, 0.65], vertical_spacing=0.08,
                        subplot_titles=[strip_title, order_title])
    first = per_epoch[epochs[0]]
    size = max(4, min(12, int(700 / max(dataset_len, 1))))
    for k, (rank, name) in enumerate(zip(ranks, names)):
        fig.add_trace(go.Scatter(**first[k], name=name, legendgroup=name, mode="markers",
                                 marker=dict(symbol="square", size=size, color=rank_colour(rank)),
                                 hovertemplate=hover + "<extra>%{fullData.name}</extra>"), row=1, col=1)
    for k, (rank, name) in enumerate(zip(ranks, names)):
        fig.add_trace(go.Scatter(**first[len(ranks) + k], name=name, legendgroup=name, showlegend=False,
                                 mode="markers", marker=dict(size=max(4, size - 3), color=rank_colour(rank)),
                                 hovertemplate=hover + "<extra>%{fullData.name}</extra>"), row=2, col=1)
    fig.add_trace(go.Scatter(**first[-1], name=padded_name, mode="markers",
                             marker=dict(symbol="x-thin", size=size + 2, line=dict(width=2, color=PADDED_COLOUR)),
                             hovertemplate=hover + f"<extra>{padded_name}</extra>"), row=1, col=1)
    n_traces = 2 * len(ranks) + 1
    frames = [dict(name=str(e), traces=list(range(n_traces)),
                   data=[dict(type="scatter", **d) for d in per_epoch[e]]) for e in epochs]
    top = int(assignments["position"].max()) + 1 if len(assignments) else 1
    fig.update_xaxes(range=[-1, max(dataset_len, 1)], title_text=x_title, row=2, col=1)
    fig.update_yaxes(type="category", categoryorder="array", categoryarray=list(reversed(names)), row=1, col=1)
    fig.update_yaxes(range=[-0.5, top - 0.5], autorange="reversed", row=2, col=1)
    fig.update_layout(
        height=260 + 28 * len(ranks) + min(360, 8 * top), margin=margin(t=70, b=110),
        legend=dict(orientation="h", yanchor="bottom", y=1.06, x=0),
        updatemenus=[play_pause(play, pause, frame_ms=900, pad_top=60, from_current=False)],
        sliders=[dict(active=0, **slider_beside(play, pause), y=0, yanchor="top", pad=dict(t=35),
                      currentvalue=dict(prefix=epoch_prefix, xanchor="right"),
                      steps=[dict(label=str(e), method="animate", args=[[str(e)], STEP]) for e in epochs])],
    )
    for annotation in fig.layout.annotations:
        annotation.update(x=0, xanchor="left", font=dict(size=13))
    fit_axes(fig)  # rank names and places in the epoch sit left of the plot: room for them
    return go.Figure({**fig.to_dict(), "frames": frames}, _validate=False)


def rank_label_figure(counts: pd.DataFrame, *, label_names: Mapping, rank_name: str, epoch_name: str,
                      y_title: str) -> go.Figure:
    """Stacked bars of label counts, one bar per rank and epoch (grouped by rank on a two-level x axis).
    ``rank_name`` has ``{rank}``, ``epoch_name`` has ``{epoch}``."""
    keys = counts[["rank", "epoch"]].drop_duplicates().sort_values(["rank", "epoch"])
    x = [[rank_name.format(rank=int(r)) for r in keys["rank"]], [epoch_name.format(epoch=int(e)) for e in keys["epoch"]]]
    try:
        labels = sorted(set(counts["label"]))
    except TypeError:
        labels = sorted(set(counts["label"]), key=str)
    fig = go.Figure()
    for k, label in enumerate(labels):
        mine = counts[counts["label"] == label].set_index(["rank", "epoch"])
        y = [int(mine["count"].get((r, e), 0)) for r, e in zip(keys["rank"], keys["epoch"])]
        share = [float(mine["share"].get((r, e), 0.0)) for r, e in zip(keys["rank"], keys["epoch"])]
        fig.add_trace(go.Bar(name=str(label_names.get(label, label)), x=x, y=y, customdata=share,
                             marker_color=label_colour(k),
                             hovertemplate="%{y} (%{customdata:.0%})<extra>%{fullData.name}</extra>"))
    fig.update_layout(barmode="stack", height=360, yaxis=dict(title=y_title, automargin=True),
                      margin=dict(l=10, r=10, t=50, b=40), legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0))
    return fig


def rank_lanes(spans: pd.DataFrame, lane: str, lane_names: Mapping[str, str] | None = None) -> pd.DataFrame:
    """``spans`` with a ``track`` per rank and process: ``lane`` has ``{rank}`` and ``{lane}``, the process's
    words from ``lane_names`` (keys ``main``, ``pin``, ``worker`` with ``{k}``; English by default)."""
    names = {"main": "main", "pin": "pin", "worker": "worker {k}", **(lane_names or {})}
    out = spans.copy()
    base = out["track"].astype(str) if "track" in out.columns else out["worker"].map(lane_name)

    def words(process: str) -> str:
        if process in ("main", "pin"):
            return names[process]
        k = process.rsplit(" ", 1)[-1]
        return names["worker"].format(k=k) if k.isdigit() else process

    out["track"] = [lane.format(rank=int(r), lane=words(b)) for r, b in zip(out["rank"], base)]
    return out


def rank_timeline_figure(spans: pd.DataFrame, *, lane: str, lane_names: Mapping[str, str] | None = None,
                         **words) -> go.Figure:
    """:func:`loaderlab.figures.timeline.timeline_figure` with one lane per rank and process, rank by rank
    (main first, then its workers). ``words``: the timeline's own keyword arguments (title, stage names…)."""
    table = rank_lanes(spans, lane, lane_names)
    fig = timeline_figure(table, **words)
    order = (table.assign(_worker=table["worker"] >= 0)
             .sort_values(["rank", "_worker", "worker"], kind="stable")["track"].drop_duplicates().tolist())
    fig.update_layout(yaxis=dict(categoryorder="array", categoryarray=list(reversed(order))),
                      height=140 + 32 * max(1, len(order)))
    return fig
