"""Host-to-device transfer figures: a timeline per copy mode, and where each mode's epoch time went.

Twin of nothing in torch. Input: the tables of :mod:`loaderlab.scenarios.transfer` (``TRANSFER_COLUMNS`` rows: mode,
batch, stage, start_ms, end_ms; and its ``summarise`` table). Output: plotly Figures. Pure: knows nothing
of streamlit, of CUDA, or whether the times were measured or modelled; every word shown is an argument.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import STAGE_COLOURS

COPY_COLOUR = "#17becf"
IDLE_COLOUR = "#bdbdbd"
TRANSFER_COLOURS = {"pin": STAGE_COLOURS["pin"], "copy": COPY_COLOUR, "compute": STAGE_COLOURS["consume"]}
LANES = ("pin", "copy", "compute")  # top to bottom


def transfer_timeline_figure(table: pd.DataFrame, *, mode_titles: dict[str, str], stage_names: dict[str, str],
                             x_title: str, batch_word: str) -> go.Figure:
    """One panel per mode (in ``mode_titles``' order, modes absent from ``table`` left out), one lane per
    stage, one bar per batch and stage, labelled with the batch number. The panels share the time axis,
    so the shorter epoch is visibly shorter."""
    modes = [m for m in mode_titles if (table["mode"] == m).any()]
    fig = make_subplots(rows=max(1, len(modes)), cols=1, shared_xaxes=True, vertical_spacing=0.14,
                        subplot_titles=[mode_titles[m] for m in modes] or None)
    lanes_total, shown = 0, set()
    for row, mode in enumerate(modes, start=1):
        g = table[table["mode"] == mode]
        lanes = [s for s in LANES if (g["stage"] == s).any()]
        lanes_total += len(lanes)
        for stage in lanes:
            r = g[g["stage"] == stage]
            fig.add_trace(go.Bar(
                name=stage_names.get(stage, stage), legendgroup=stage, showlegend=stage not in shown,
                legendrank=LANES.index(stage),
                orientation="h", marker_color=TRANSFER_COLOURS[stage], marker_line=dict(color="white", width=1),
                y=[stage_names.get(stage, stage)] * len(r), base=r["start_ms"], x=r["end_ms"] - r["start_ms"],
                text=r["batch"].astype(str), textposition="inside", insidetextanchor="middle",
                customdata=r[["batch"]].to_numpy(),
                hovertemplate=f"{batch_word} %{{customdata[0]}}<br>%{{base:.2f}} ms + %{{x:.2f}} ms<extra></extra>",
            ), row=row, col=1)
            shown.add(stage)
        fig.update_yaxes(categoryorder="array", categoryarray=[stage_names.get(s, s) for s in reversed(lanes)],
                         automargin=True, row=row, col=1)
    fig.update_xaxes(title_text=x_title, rangemode="tozero", row=max(1, len(modes)), col=1)
    fig.update_layout(barmode="overlay", height=170 + 55 * max(1, lanes_total), uniformtext_minsize=8,
                      uniformtext_mode="hide", legend=dict(orientation="h", yanchor="bottom", y=1.06, x=0),
                      margin=dict(l=10, r=10, t=80, b=50))
    return fig


def breakdown(summary: pd.DataFrame) -> pd.DataFrame:
    """Per mode, the epoch split three ways: ``compute_ms``, ``exposed_copy_ms`` (copying while nothing
    computes) and ``idle_ms`` (the GPU neither copies nor computes: waiting for pinned batches). Copies
    never overlap each other, nor computes each other, so the three add up to ``total_ms``."""
    out = summary[["mode", "total_ms", "compute_ms", "copy_ms", "overlap"]].copy()
    out["exposed_copy_ms"] = summary["copy_ms"] - summary["hidden_copy_ms"]
    out["idle_ms"] = (summary["total_ms"] - summary["compute_ms"] - out["exposed_copy_ms"]).clip(lower=0)
    return out.reset_index(drop=True)


def transfer_totals_figure(summary: pd.DataFrame, *, mode_names: dict[str, str], part_names: dict[str, str],
                           x_title: str, total_text: str,
                           duration: Callable[[float], str] = "{:.1f}".format) -> go.Figure:
    """One stacked bar per mode: compute, copy not hidden behind compute, GPU idle.

    ``part_names`` keys: ``compute``, ``exposed_copy``, ``idle``. ``total_text`` is a format string written at
    the end of each bar, with ``{total_ms}`` and ``{overlap}`` (a fraction), and ``{total}`` and ``{copy}``:
    the epoch and the mode's copying in ms as ``duration`` writes them (so that a share hidden names what it
    is a share of, in the page's own way of writing a few microseconds)."""
    parts = breakdown(summary)
    parts = parts[parts["mode"].isin(list(mode_names))]
    order = {m: i for i, m in enumerate(mode_names)}
    parts = parts.sort_values("mode", key=lambda c: c.map(order), ascending=False)  # first mode on top
    y = [mode_names[m] for m in parts["mode"]]
    fig = go.Figure()
    for part, colour in (("compute", TRANSFER_COLOURS["compute"]), ("exposed_copy", COPY_COLOUR),
                         ("idle", IDLE_COLOUR)):
        fig.add_trace(go.Bar(name=part_names[part], orientation="h", y=y, x=parts[f"{part}_ms"],
                             marker_color=colour, hovertemplate="%{x:.1f} ms<extra>%{fullData.name}</extra>"))
    for name, r in zip(y, parts.itertuples()):
        text = total_text.format(total_ms=r.total_ms, overlap=r.overlap, total=duration(r.total_ms),
                                 copy=duration(r.copy_ms))
        fig.add_annotation(x=r.total_ms, y=name, text=text,
                           showarrow=False, xanchor="left", xshift=6)
    longest = float(parts["total_ms"].max()) if len(parts) else 1.0
    fig.update_layout(barmode="stack", height=150 + 60 * max(1, len(parts)), xaxis_title=x_title,
                      xaxis=dict(range=[0, longest * 1.75]), yaxis=dict(automargin=True),  # room for the label
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0, traceorder="normal"),
                      margin=dict(l=10, r=10, t=50, b=50))
    return fig
