"""What padding costs: the batch × position grid of a padded batch, and the padding fraction per batch.

Twin of nothing in torch (``pad_sequence`` returns the padded tensor and says nothing about the cells it
filled). Inputs: the per-sample table of :func:`loaderlab.trace.tables.audits.samples` (``epoch, batch, index,
length``) and the per-batch table of :func:`loaderlab.trace.tables.audits.padding_audit`, one per run in a dict
``{run name: table}`` where runs sit side by side. Output: plotly Figures. Pure: knows pandas and plotly,
nothing of streamlit or of how the runs were made; every word shown is an argument.

A batch padded to its longest sample is a ``samples × max_length`` tensor: position ``p`` of a sample of
length ``L`` is a real token when ``p < L`` and padding otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd
import plotly.graph_objects as go

from .style import TITLE_PAD

MAX_COLUMNS = 200  # wider grids put several positions in one column (the share of real tokens in it)
MAX_HOVER_CELLS = 25_000  # per-cell hover text past this would make the figure several MB
TOKEN_COLOUR, PADDING_COLOUR = "#0072B2", "#F0A35E"
RUN_COLOURS = ("#D55E00", "#009E73", "#0072B2", "#CC79A7")


@dataclass(frozen=True)
class Grid:
    """``z[row][column]``: 1 real token, 0 padding, None outside the batch's tensor (spacer rows: all None);
    a column stands for ``step`` positions (then z is the share of real tokens among them).
    ``rows``: per row, ``(epoch, batch, index, length)`` or None for a spacer between batches;
    ``batches``: ``(epoch, batch, first row, last row, padded cells)`` per batch shown."""

    z: list
    rows: list
    step: int
    batches: list


def first_batches(samples: pd.DataFrame, n: int) -> pd.DataFrame:
    """The samples (with a length) of the first ``n`` batches in the order the loop received them."""
    s = samples[samples["length"] >= 0]
    keys = s[["epoch", "batch"]].drop_duplicates().sort_values(["epoch", "batch"]).head(n)
    return keys.merge(s, on=["epoch", "batch"], how="left")  # the merge keeps the keys' order


def padding_grid(samples: pd.DataFrame, n_batches: int, max_columns: int = MAX_COLUMNS) -> Grid:
    """The grid of the first ``n_batches`` batches, one row per sample, a spacer row between batches."""
    s = first_batches(samples, n_batches)
    widest = int(s["length"].max()) if len(s) else 0
    step = max(1, math.ceil(widest / max_columns))
    n_cols = math.ceil(widest / step) if widest else 0
    z, rows, batches = [], [], []
    for (epoch, batch), g in s.groupby(["epoch", "batch"], sort=False):
        if rows:
            z.append([None] * n_cols)
            rows.append(None)
        longest = int(g["length"].max())
        first = len(rows)
        for r in g.itertuples():
            length = int(r.length)
            line = []
            for c in range(n_cols):
                inside = min(longest, (c + 1) * step) - c * step  # positions of this column in the tensor
                real = max(0, min(length, (c + 1) * step) - c * step)
                line.append(None if inside <= 0 else (real // inside if step == 1 else real / inside))
            z.append(line)
            rows.append((int(epoch), int(batch), int(r.index), length))
        batches.append((int(epoch), int(batch), first, len(rows) - 1, int(longest * len(g) - g["length"].sum())))
    return Grid(z, rows, step, batches)


def padding_grid_figure(grid: Grid, *, title: str, x_title: str, batch_name: str, token_name: str,
                        padding_name: str, hover: str) -> go.Figure:
    """The grid as a heatmap: token cells blue, padding cells orange, outside the tensor blank.

    ``batch_name``: tick text per batch with ``{epoch}``, ``{batch}``, ``{padded}``; ``hover``: per-cell
    text with ``{epoch}``, ``{batch}``, ``{index}``, ``{length}``, ``{position}``, ``{what}`` (used while
    the grid has at most ``MAX_HOVER_CELLS`` cells).
    """
    n_rows, n_cols = len(grid.z), len(grid.z[0]) if grid.z else 0
    x = [c * grid.step for c in range(n_cols)]
    heat = dict(z=grid.z, x=x, y=list(range(n_rows)), zmin=0, zmax=1, showscale=False,
                colorscale=[[0, PADDING_COLOUR], [1, TOKEN_COLOUR]])
    if n_cols <= 80 and n_rows <= 160:  # cell borders only while cells are big enough to show them
        heat.update(xgap=1, ygap=1)
    if n_rows * n_cols <= MAX_HOVER_CELLS:
        text = []
        for row, line in zip(grid.rows, grid.z):
            if row is None:
                text.append([""] * n_cols)
                continue
            epoch, batch, index, length = row
            text.append(["" if v is None else hover.format(
                epoch=epoch, batch=batch, index=index, length=length, position=x[c],
                what=token_name if v >= 0.5 else padding_name) for c, v in enumerate(line)])
        heat.update(text=text, hovertemplate="%{text}<extra></extra>")
    else:
        heat.update(hoverinfo="skip")
    fig = go.Figure(go.Heatmap(**heat))
    for name, colour in ((token_name, TOKEN_COLOUR), (padding_name, PADDING_COLOUR)):  # legend keys only
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, hoverinfo="skip",
                                 marker=dict(symbol="square", size=12, color=colour)))
    ticks = [(first + last) / 2 for _, _, first, last, _ in grid.batches]
    labels = [batch_name.format(epoch=e, batch=b, padded=p) for e, b, _, _, p in grid.batches]
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left", pad=dict(l=TITLE_PAD)), height=min(900, 160 + 9 * max(n_rows, 10)),
        xaxis=dict(title=x_title, range=[-0.5 * grid.step, max(n_cols, 1) * grid.step - 0.5 * grid.step],
                   zeroline=False, showgrid=False),
        yaxis=dict(autorange="reversed", tickmode="array", tickvals=ticks, ticktext=labels, showgrid=False,
                   zeroline=False, automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=1, xanchor="right"),
        plot_bgcolor="white", margin=dict(l=10, r=10, t=70, b=50))
    return fig


def padding_totals(audit: pd.DataFrame) -> dict:
    """Cells, padded cells and their fraction over every batch of a ``padding_audit`` table."""
    cells, padded = int(audit["cells"].sum()), int(audit["padded_cells"].sum())
    return dict(cells=cells, padded_cells=padded, fraction=padded / cells if cells else 0.0)


def padding_fraction_figure(runs: Mapping[str, pd.DataFrame], *, title: str, x_title: str, y_title: str,
                            overall_name: str, hover: str) -> go.Figure:
    """Per run, one bar per batch (in the order the loop received them) with its padding fraction, and a
    dashed line at the run's fraction over all batches.

    ``overall_name``: legend text with ``{run}`` and ``{fraction}`` (a float); ``hover``: a plotly
    hovertemplate with ``%{customdata[0]}`` = epoch, ``[1]`` = batch, ``[2]`` = padded cells,
    ``[3]`` = cells, ``%{y}`` = fraction.
    """
    fig = go.Figure()
    longest = 0
    for k, (run, audit) in enumerate(runs.items()):
        a = audit.sort_values(["epoch", "batch"]).reset_index(drop=True)
        longest = max(longest, len(a))
        colour = RUN_COLOURS[k % len(RUN_COLOURS)]
        fig.add_trace(go.Bar(name=run, x=list(range(len(a))), y=a["padding_fraction"].tolist(), marker_color=colour,
                             customdata=a[["epoch", "batch", "padded_cells", "cells"]].astype(int).to_numpy().tolist(),
                             hovertemplate=hover + "<extra>%{fullData.name}</extra>"))
        total = padding_totals(a)["fraction"]
        fig.add_trace(go.Scatter(name=overall_name.format(run=run, fraction=total), x=[-0.5, max(len(a), 1) - 0.5],
                                 y=[total, total], mode="lines", line=dict(color=colour, dash="dash", width=2),
                                 hoverinfo="skip"))
    fig.update_layout(
        title=dict(text=title, x=0, xanchor="left", pad=dict(l=TITLE_PAD), yref="container", y=0.97,
                   yanchor="top"), barmode="group",
        bargap=0.15, height=420,
        xaxis=dict(title=x_title, range=[-0.5, max(longest, 1) - 0.5]),
        yaxis=dict(title=y_title, range=[0, 1], tickformat=".0%", automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), margin=dict(l=10, r=10, t=120, b=50))
    return fig
