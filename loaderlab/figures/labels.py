"""What a sampler fed the loop, class by class: labels per batch (animated), per-epoch shares, coverage.

Twin of nothing in torch (a sampler never reports what it drew). Inputs are the tables of
:func:`loaderlab.trace.tables.audits.label_audit` — ``per_batch`` (epoch, batch, label, count), ``per_epoch``
(epoch, label, count, share, intended_share) and ``coverage`` (epoch, drawn, distinct, …) — one per run,
in a dict ``{run name: table}``, so several samplers sit side by side. Output: plotly Figures. Pure: knows
pandas and plotly, nothing of streamlit or of how the runs were made; every word shown is an argument.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .style import LINE_SPACING, MIN_FIGURE_PX, STEP, margin, play_pause, slider_beside, wrap_px

MAX_FRAMES = 200  # plotly animations stay smooth below ~200 frames (notes/streamlit.md)
MAX_BARS = 1500  # bars in one frame, every run and label together (smooth below ~2k)
# Okabe–Ito: told apart with the common colour-vision deficiencies; the labels are categories, not a scale.
LABEL_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000")
DATA_COLOUR, INTENDED_COLOUR = "#bdbdbd", "#333333"
EPOCH_COLOURS = ("#0072B2", "#56B4E9", "#9ecae1")
COVERAGE_COLOURS = {"drawn": "#0072B2", "distinct": "#009E73", "unseen": "#D55E00"}


def label_colour(i: int) -> str:
    return LABEL_COLOURS[i % len(LABEL_COLOURS)]


def _label_order(tables: Sequence[pd.DataFrame]) -> list:
    labels = {v for t in tables for v in t["label"]}
    try:
        return sorted(labels)
    except TypeError:  # mixed types: order by text
        return sorted(labels, key=str)


def batch_counts(per_batch: pd.DataFrame, labels: Sequence, group: int = 1) -> pd.DataFrame:
    """Counts per batch (or per ``group`` consecutive batches) in the order the loop received them.

    One row per bar position: ``position`` (first batch's place in the run, counting across epochs),
    ``last`` (last batch's place), ``epoch``, ``batch`` (of the first), then one column per label (0 where
    a batch had none of it).
    """
    keys = per_batch[["epoch", "batch"]].drop_duplicates().sort_values(["epoch", "batch"]).reset_index(drop=True)
    keys["position"] = range(len(keys))
    wide = per_batch.pivot_table(index=["epoch", "batch"], columns="label", values="count", aggfunc="sum",
                                 fill_value=0)
    wide = wide.reindex(columns=list(labels), fill_value=0).reset_index()
    wide = keys.merge(wide, on=["epoch", "batch"], how="left").fillna(0)
    if group <= 1:
        wide["last"] = wide["position"]
        return wide[["position", "last", "epoch", "batch", *labels]]
    wide["last"] = wide["position"]
    agg = {"position": "first", "last": "last", "epoch": "first", "batch": "first", **{lab: "sum" for lab in labels}}
    out = wide.groupby(wide["position"] // group).agg(agg)
    return out.reset_index(drop=True)[["position", "last", "epoch", "batch", *labels]]


def bar_group(n_positions: int, n_runs: int, n_labels: int, max_bars: int = MAX_BARS) -> int:
    """How many consecutive batches one bar stands for so that a frame holds at most ``max_bars`` bars."""
    return max(1, math.ceil(n_positions * max(n_runs, 1) * max(n_labels, 1) / max_bars))


def label_batches_figure(runs: Mapping[str, pd.DataFrame], *, label_names: Mapping, x_title: str, y_title: str,
                         y_title_grouped: str, hover: str, hover_grouped: str, play: str, pause: str,
                         slider_prefix: str, max_frames: int = MAX_FRAMES, max_bars: int = MAX_BARS) -> go.Figure:
    """Stacked bars of label counts per batch, one row per run, growing batch by batch under Play/slider.

    ``runs``: run name → ``per_batch``. When bars would pass ``max_bars`` per frame, each bar stands for
    ``g`` consecutive batches (summed; ``y_title_grouped`` gets ``{g}``). ``hover``/``hover_grouped``:
    plotly hovertemplates with ``%{customdata[0]}`` = epoch, ``[1]``/``[2]`` = first/last batch place.
    The still picture (and the slider's starting point) is the whole run; Play replays it from the start.
    """
    names = list(runs)
    labels = _label_order(list(runs.values()))
    n_positions = max((len(t[["epoch", "batch"]].drop_duplicates()) for t in runs.values()), default=0)
    g = bar_group(n_positions, len(names), len(labels), max_bars)
    counts = {name: batch_counts(runs[name], labels, g) for name in names}
    n_bars = max((len(c) for c in counts.values()), default=0)
    n_frames = max(1, min(n_bars, max_frames))
    shown = [math.ceil((i + 1) * n_bars / n_frames) for i in range(n_frames)]  # bars visible in frame i
    top = max((float(c[labels].sum(axis=1).max()) for c in counts.values() if len(c)), default=1.0)

    fig = make_subplots(rows=max(1, len(names)), cols=1, shared_xaxes=True, subplot_titles=names,
                        vertical_spacing=min(0.12, 0.3 / max(1, len(names))))

    for row, name in enumerate(names, start=1):
        c = counts[name]
        for k, lab in enumerate(labels):
            middle = c["position"] + (c["last"] - c["position"]) / 2  # a grouped bar spans its batches
            fig.add_trace(go.Bar(x=middle.tolist(), y=c[lab].astype(int).tolist(),
                                 customdata=c[["epoch", "position", "last"]].astype(int).to_numpy().tolist(),
                                 name=str(label_names.get(lab, lab)), legendgroup=str(lab), showlegend=row == 1,
                                 marker=dict(color=label_colour(k), line=dict(width=0)),
                                 width=0.9 * g if g > 1 else None,
                                 hovertemplate=(hover_grouped if g > 1 else hover) + "<extra></extra>"),
                          row=row, col=1)

    def heights(c: pd.DataFrame, lab, upto: int) -> list[int]:
        # Frames carry only the heights (bars not yet received are 0): x and hover stay in the traces,
        # which keeps a 200-frame figure to a few hundred kB.
        y = c[lab].astype(int).tolist()
        return y[:upto] + [0] * (len(y) - upto)

    frames = [dict(name=str(i), traces=list(range(len(names) * len(labels))),
                   data=[dict(type="bar", y=heights(counts[name], lab, shown[i])) for name in names for lab in labels])
              for i in range(n_frames)]
    fig.update_xaxes(range=[-0.5 * g - 0.5, n_positions - 0.5 + 0.5 * g], showticklabels=True)
    fig.update_xaxes(title_text=x_title, row=len(names) or 1, col=1)
    fig.update_yaxes(range=[0, top * 1.05], automargin=True,
                     title_text=y_title_grouped.format(g=g) if g > 1 else y_title)
    fig.update_layout(
        barmode="stack", bargap=0.1, height=120 + 190 * max(1, len(names)), margin=dict(l=10, r=10, t=70, b=130),
        legend=dict(orientation="h", yanchor="bottom", y=1.06, x=0, traceorder="normal"),
        updatemenus=[play_pause(play, pause, frame_ms=60, pad_top=78, from_current=False)],
        sliders=[dict(active=n_frames - 1, **slider_beside(play, pause), y=0, yanchor="top", pad=dict(t=45), ticklen=3,
                      minorticklen=0, font=dict(color="rgba(0,0,0,0)"),  # 200 labels would overprint
                      currentvalue=dict(prefix=slider_prefix, xanchor="right", font=dict(size=13, color="#333333")),
                      steps=[dict(label=str(_last_position(counts, shown[i]) + 1), method="animate",
                                  args=[[str(i)], STEP]) for i in range(n_frames)])],
    )
    for annotation in fig.layout.annotations:  # subplot titles: left-aligned, like section labels
        annotation.update(x=0, xanchor="left", font=dict(size=13))
    # Validating hundreds of frame traces one by one costs seconds; they are plain numbers built above.
    return go.Figure({**fig.to_dict(), "frames": frames}, _validate=False)


def _last_position(counts: Mapping[str, pd.DataFrame], upto: int) -> int:
    """The last batch place shown when ``upto`` bars are visible (0-based; +1 = batches received)."""
    lasts = [int(c["last"].iloc[min(upto, len(c)) - 1]) for c in counts.values() if len(c)]
    return max(lasts, default=0)


def intended_shares(labels: Sequence, weights: Sequence[float]) -> dict:
    """Class shares a sampler with these per-*sample* ``weights`` aims for: Σ weights of a class / Σ weights.

    Only samples ``0 … len(weights)-1`` can be drawn (torch samples indices below ``len(weights)``), so a
    short ``weights`` counts only those.
    """
    totals: dict = {}
    for label, w in zip(labels, weights):
        totals[label] = totals.get(label, 0.0) + float(w)
    total = sum(totals.values())
    return {k: v / total for k, v in totals.items()} if total > 0 else {}


def data_shares(labels: Sequence) -> dict:
    """Each class's share of the dataset."""
    return intended_shares(labels, [1.0] * len(labels))


SHARE_TITLE_PX, SHARE_SPACING, SHARE_Y_PX = 13, 0.04, 90  # panel titles' font; gap between panels; y axis room


def share_figure(runs: Mapping[str, pd.DataFrame], *, label_names: Mapping, data: Mapping, data_name: str,
                 intended_name: str, epoch_name: str, x_title: str, y_title: str) -> go.Figure:
    """Per run (one panel each, side by side): per class, the data's share, the intended share and each
    epoch's realised share, as grouped bars. ``runs``: name → ``per_epoch`` with ``intended_share``;
    ``data``: label → share of the dataset; ``epoch_name`` has ``{epoch}``."""
    names = list(runs)
    labels = _label_order([*runs.values(), pd.DataFrame({"label": list(data)})])
    x = [str(label_names.get(lab, lab)) for lab in labels]
    # Side-by-side panels are narrow: a run's name is wrapped to its panel (in the narrowest figure, less the
    # room of the y axis) rather than run into its neighbour's.
    panel_px = (MIN_FIGURE_PX - SHARE_Y_PX) * (1 - SHARE_SPACING * (len(names) - 1)) / max(1, len(names))
    titles = [wrap_px(name, panel_px - 10, SHARE_TITLE_PX) for name in names]
    fig = make_subplots(rows=1, cols=max(1, len(names)), shared_yaxes=True,
                        subplot_titles=["<br>".join(t) for t in titles], horizontal_spacing=SHARE_SPACING)
    epochs = sorted({int(e) for t in runs.values() for e in t["epoch"]})
    for col, name in enumerate(names, start=1):
        t = runs[name]
        first = col == 1
        fig.add_trace(go.Bar(name=data_name, x=x, y=[data.get(lab, 0.0) for lab in labels], legendgroup="data",
                             showlegend=first, marker_color=DATA_COLOUR,
                             hovertemplate="%{x}: %{y:.1%}<extra>%{fullData.name}</extra>"), row=1, col=col)
        intended = t.drop_duplicates("label").set_index("label")["intended_share"] if len(t) else pd.Series()
        fig.add_trace(go.Bar(name=intended_name, x=x, y=[float(intended.get(lab, math.nan)) for lab in labels],
                             legendgroup="intended", showlegend=first,
                             marker=dict(color="rgba(0,0,0,0)", line=dict(color=INTENDED_COLOUR, width=2)),
                             hovertemplate="%{x}: %{y:.1%}<extra>%{fullData.name}</extra>"), row=1, col=col)
        for k, epoch in enumerate(epochs):
            e = t[t["epoch"] == epoch].set_index("label")["share"]
            fig.add_trace(go.Bar(name=epoch_name.format(epoch=epoch), x=x,
                                 y=[float(e.get(lab, 0.0)) for lab in labels], legendgroup=f"e{epoch}",
                                 showlegend=first, marker_color=EPOCH_COLOURS[k % len(EPOCH_COLOURS)],
                                 hovertemplate="%{x}: %{y:.1%}<extra>%{fullData.name}</extra>"), row=1, col=col)
        fig.update_xaxes(title_text=x_title, type="category", row=1, col=col)
    fig.update_yaxes(range=[0, 1], tickformat=".0%", automargin=True)
    fig.update_yaxes(title_text=y_title, row=1, col=1)
    # The legend sits at the figure's top edge, the (maybe wrapped) panel titles between it and the plot.
    title_px = max((len(t) for t in titles), default=1) * SHARE_TITLE_PX * LINE_SPACING
    fig.update_layout(barmode="group", height=380 + int(title_px), margin=margin(l=10, t=int(45 + title_px)),
                      legend=dict(orientation="h", yref="container", yanchor="top", y=1, x=0))
    for annotation in fig.layout.annotations:
        annotation.update(font=dict(size=SHARE_TITLE_PX))
    return fig


def coverage_figure(runs: Mapping[str, pd.DataFrame], *, names: Mapping[str, str], epoch_name: str,
                    y_title: str) -> go.Figure:
    """Per run and epoch: samples drawn, distinct samples among them, and samples never drawn.

    ``runs``: name → ``coverage``; ``names``: legend words for ``drawn``, ``distinct``, ``unseen``;
    ``epoch_name``: with ``{run}`` and ``{epoch}``, used when a run has more than one epoch.
    """
    x, rows = [], {k: [] for k in COVERAGE_COLOURS}
    for run, c in runs.items():
        for r in c.itertuples():
            x.append(epoch_name.format(run=run, epoch=int(r.epoch)) if len(c) > 1 else run)
            rows["drawn"].append(int(r.drawn))
            rows["distinct"].append(int(r.distinct))
            rows["unseen"].append(int(r.unseen) if r.unseen == r.unseen else None)
    fig = go.Figure([go.Bar(name=names[k], x=x, y=v, marker_color=COVERAGE_COLOURS[k], text=v,
                            textposition="outside", hovertemplate="%{x}: %{y}<extra>%{fullData.name}</extra>")
                     for k, v in rows.items()])
    fig.update_layout(barmode="group", height=360, yaxis_title=y_title, xaxis=dict(type="category", automargin=True),
                      yaxis=dict(automargin=True, rangemode="tozero"), margin=dict(l=10, r=10, t=50, b=40),
                      legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), uniformtext=dict(minsize=9))
    return fig
