"""Where every batch waits: the queues of torch's DataLoader design, moment by moment, and their depths.

Twin of nothing in torch (torch keeps no record of what sits in its queues; its ``dataloader.py`` only
draws them in a comment). Input: finished tables of the trace layer — the snapshots of
:func:`loaderlab.trace.tables.stays.queue_snapshots` (which batch sits where at each sampled moment) and the depth
table of :func:`loaderlab.trace.tables.stays.queue_depths`, both counted from the same queue stays. Output: two
plotly figures; nothing here computes a stay or a depth. Pure: knows pandas and plotly; knows nothing of
streamlit, of how the run was made, or of any language (every word is passed in).
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..trace.tables.stays import Snapshots
from .style import STEP, play_pause, slider_beside

# Batches are coloured by the worker that made them; not the stage colours, which mean "what", not "who".
WORKER_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666")
UNKNOWN_COLOUR = "#9e9e9e"
QUEUE_COLOURS = {"outstanding": "#333333", "result_queue": "#1f77b4", "data_queue": "#9467bd", "reorder": "#e377c2"}


def row_label(row: tuple[str, int], names: dict[str, str]) -> str:
    """``names`` holds one template per row kind; ``{k}`` is the worker."""
    return names.get(row[0], row[0]).format(k=row[1])


def queue_animation_figure(snap: Snapshots, *, row_names: dict[str, str], worker_name: str, main_name: str,
                           counter: str, x_title: str, hover: str, play: str, pause: str, time_prefix: str,
                           time_suffix: str = " s", frame_ms: int = 120) -> go.Figure:
    """Boxes labelled by task id, one row per queue, one frame per sampled moment, Play/Pause and a slider.

    ``worker_name``: legend template with ``{k}`` (``main_name``: batches made without workers);
    ``counter``: per-frame text with ``{outstanding}``, ``{cap}``, ``{handed}``; ``hover``: a plotly
    hovertemplate (``%{text}`` = task, ``%{customdata}`` = epoch).
    """
    labels = [row_label(r, row_names) for r in snap.rows]
    index = {r: i for i, r in enumerate(snap.rows)}
    c = snap.contents[[(r, k) in index for r, k in zip(snap.contents["row"], snap.contents["k"])]]
    workers = sorted(set(c["worker"])) or [0]
    width = int(c["slot"].max()) + 1 if len(c) else 1
    size = max(12, min(30, int(900 / max(width, 1))))
    # Plain lists per (frame, worker), made in one pass: a pandas filter per frame and worker costs seconds.
    boxes: dict[tuple[int, int], tuple[list, list, list, list]] = {}
    for i, w, slot, r, k, b, e in zip(c["frame"].tolist(), c["worker"].tolist(), c["slot"].tolist(),
                                      c["row"].tolist(), c["k"].tolist(), c["batch"].tolist(), c["epoch"].tolist()):
        x, y, text, epochs = boxes.setdefault((i, w), ([], [], [], []))
        x.append(slot); y.append(labels[index[(r, k)]]); text.append(str(b)); epochs.append(e)
    nothing = ([], [], [], [])

    def traces(i: int) -> list[dict]:
        # Plain dicts: validating 150 frames of go.Scatter objects one by one costs seconds.
        out = []
        for w in workers:
            x, y, text, epochs = boxes.get((i, w), nothing)
            out.append(dict(
                type="scatter", x=x, y=y, text=text, customdata=epochs, mode="markers+text",
                name=worker_name.format(k=w) if w >= 0 else main_name, hovertemplate=hover + "<extra></extra>",
                marker=dict(symbol="square", size=size, line=dict(width=1, color="white"),
                            color=WORKER_COLOURS[w % len(WORKER_COLOURS)] if w >= 0 else UNKNOWN_COLOUR),
                textfont=dict(color="white", size=max(9, size // 2 - 1))))
        return out

    def note(i: int) -> list[dict]:
        row = snap.counters.iloc[i] if i < len(snap.counters) else None
        outstanding = int(row["outstanding"]) if row is not None else 0
        handed = int(row["handed"]) if row is not None else 0
        cap = "–" if math.isnan(snap.cap) else f"{snap.cap:.0f}"
        full = not math.isnan(snap.cap) and outstanding >= snap.cap
        return [dict(text=counter.format(outstanding=outstanding, cap=cap, handed=handed), showarrow=False,
                     xref="paper", yref="paper", x=0, y=1.0, xanchor="left", yanchor="bottom", align="left",
                     font=dict(size=14, color="#d62728" if full else "#333333"))]

    # An invisible point per row keeps every row on the axis even while it is empty.
    scaffold = dict(type="scatter", x=[0] * len(labels), y=labels, mode="markers", marker=dict(opacity=0),
                    hoverinfo="skip", showlegend=False)
    moving = list(range(1, len(workers) + 1))
    frames = [dict(name=str(i), data=traces(i), traces=moving, layout=dict(annotations=note(i)))
              for i in range(len(snap.times))]
    # Open on the busiest moment, so the still picture already shows the queues (Play goes on from there).
    busy = c.groupby("frame").size()
    first = int(busy.idxmax()) if len(busy) else 0
    fig = go.Figure(data=[scaffold, *traces(first)], frames=frames)
    fig.update_layout(
        annotations=note(first), height=230 + 44 * len(labels), margin=dict(l=10, r=10, t=70, b=130),
        xaxis=dict(title=x_title, range=[-0.6, max(width, 4) - 0.4], dtick=1, zeroline=False),
        yaxis=dict(type="category", categoryorder="array", categoryarray=list(reversed(labels)),
                   range=[-0.6, len(labels) - 0.4], automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.06, x=1, xanchor="right"),
        plot_bgcolor="#f7f7f7",
        updatemenus=[play_pause(play, pause, frame_ms=frame_ms, pad_top=88, from_current=True)],
        sliders=[dict(active=first, **slider_beside(play, pause), y=0, yanchor="top", pad=dict(t=50), ticklen=3,
                      minorticklen=0,
                      currentvalue=dict(prefix=time_prefix, suffix=time_suffix, xanchor="right",
                                        font=dict(size=13, color="#333333")),
                      font=dict(color="rgba(0,0,0,0)"),  # 150 step labels would overprint; the current one shows
                      steps=[dict(label=f"{t_:.3f}", method="animate", args=[[str(i)], STEP])
                             for i, t_ in enumerate(snap.times)])],
    )
    return fig


def queue_depth_figure(depths: pd.DataFrame, *, cap: float, end_s: float, names: dict[str, str],
                       panel_titles: dict[str, str], cap_name: str, x_title: str, y_title: str) -> go.Figure:
    """Step plots of ``queue_depths``: panels for outstanding tasks, index queues, result queues, reorder buffer.

    ``names`` maps a queue key (``outstanding``, ``result_queue``, ``data_queue``, ``reorder``) to its legend
    name (index queues keep their code name); ``panel_titles`` has ``outstanding, index, result, reorder``.
    The cap is a dashed line in every panel: no queue can hold more tasks than are outstanding.
    """
    panels = ["outstanding", "index", "result", "reorder"]
    fig = make_subplots(rows=4, cols=1, shared_xaxes=True, vertical_spacing=0.06,
                        subplot_titles=[panel_titles[p] for p in panels])

    def panel(queue: str) -> int:
        if queue.startswith("index_queue"):
            return 2
        return {"outstanding": 1, "result_queue": 3, "data_queue": 3, "reorder": 4}.get(queue, 3)

    queues = sorted(set(depths["queue"]), key=lambda q: (panel(q), q))
    for q in queues:
        d = depths[depths["queue"] == q].sort_values("t_s")
        x, y = d["t_s"].tolist(), d["depth"].tolist()
        if x and end_s > x[-1]:
            x, y = x + [end_s], y + [y[-1]]  # draw the last step to the end of the run
        colour = (WORKER_COLOURS[int(q.split("[")[1].rstrip("]")) % len(WORKER_COLOURS)]
                  if q.startswith("index_queue[") else QUEUE_COLOURS.get(q))  # index queue k: worker k's colour
        fig.add_trace(go.Scatter(x=x, y=y, mode="lines", line=dict(shape="hv", width=1.5, color=colour),
                                 name=names.get(q, q)), row=panel(q), col=1)
    if not math.isnan(cap):
        for p in range(1, 5):
            fig.add_trace(go.Scatter(x=[0, max(end_s, 1e-3)], y=[cap, cap], mode="lines", name=cap_name,
                                     line=dict(dash="dash", color="#d62728", width=1.5), legendgroup="cap",
                                     showlegend=p == 1, hoverinfo="skip"), row=p, col=1)
    fig.update_yaxes(title_text=y_title, title_standoff=6, automargin=True, rangemode="tozero", tickformat="d")
    fig.update_xaxes(title_text=x_title, row=4, col=1)
    fig.update_layout(height=720, margin=dict(l=10, r=10, t=60, b=50),
                      legend=dict(orientation="h", yanchor="bottom", y=1.04, x=0))
    return fig
