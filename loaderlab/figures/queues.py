"""Where every batch waits: the queues of torch's DataLoader design, moment by moment, and their depths.

Twin of nothing in torch (torch keeps no record of what sits in its queues; its ``dataloader.py`` only
draws them in a comment). Input: an events table as :func:`loaderlab.record` returns it (with
``attrs["loader"]`` for ``num_workers`` and ``prefetch_factor``) and the depth table of
:func:`loaderlab.trace.analysis.queue_depths`. Output: :func:`queue_snapshots` (which batch sits where at
each sampled moment) and two plotly figures. Pure: knows the event vocabulary, pandas and plotly; knows
nothing of streamlit, of how the run was made, or of any language (every word is passed in).

Where one batch is between two of its events (the same rules as ``queue_depths``, so the animation and
the depth plot agree; an item whose leaving is missing leaves when its queue goes, or stays to the end)::

    index_queue[k]   index_put                → index_get           (else: worker k exits)
    worker k         index_get (or 1st fetch) → result_put          (else: the process ends)
    result_queue     result_put               → pin_begin / result_get (else: next epoch's drain, shutdown)
    pin thread       pin_begin                → pin_end             (pin_memory=True only)
    data_queue       pin_end                  → result_get          (pin_memory=True only)
    reorder          reorder_park             → reorder_release     (else: the epoch ends)
    loop             batch_yield              → consumer_end        (else: the epoch ends)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..engine import events as ev
from ..trace.analysis import queue_depths
from ..trace.tables import hand_overs, main_pid, normal, prefetch_cap, rows, settings, trace_end, worker_tasks
from .style import STEP, play_pause, slider_beside

MAX_FRAMES = 150  # plotly animations stay smooth below ~200 frames (see notes/streamlit.md)
CONTENT_COLUMNS = ["frame", "t_s", "row", "k", "slot", "epoch", "batch", "worker"]
# Batches are coloured by the worker that made them; not the stage colours, which mean "what", not "who".
WORKER_COLOURS = ("#1b9e77", "#d95f02", "#7570b3", "#e7298a", "#66a61e", "#e6ab02", "#a6761d", "#666666")
UNKNOWN_COLOUR = "#9e9e9e"
QUEUE_COLOURS = {"outstanding": "#333333", "result_queue": "#1f77b4", "data_queue": "#9467bd", "reorder": "#e377c2"}


class Snapshots(NamedTuple):
    """``rows``: (row, k) from top to bottom; ``times``: the sampled moments; ``contents``: one line per batch
    per frame (``CONTENT_COLUMNS``; slot 0 = next out); ``counters``: ``frame, t_s, outstanding, handed``."""

    rows: list
    times: list
    contents: pd.DataFrame
    counters: pd.DataFrame
    cap: float


def _stay(enters: pd.DataFrame, leaves: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """``enters``' keys with ``start_s`` and ``end_s``: the first matching leave at or after it (NaN if none)."""
    e = enters[keys + ["t_s"]].drop_duplicates(keys).rename(columns={"t_s": "start_s"})
    lv = e.merge(leaves[keys + ["t_s"]].rename(columns={"t_s": "end_s"}), on=keys)
    lv = lv[lv["end_s"] >= lv["start_s"]].groupby(keys, as_index=False)["end_s"].min()
    return e.merge(lv, on=keys, how="left")


def _fill(iv: pd.DataFrame, times: pd.Series) -> pd.DataFrame:
    """Missing ends ← the first of ``times`` at or after the start."""
    t = np.sort(times.to_numpy(dtype=float))
    missing = iv["end_s"].isna().to_numpy()
    if len(t) and missing.any():
        pos = t.searchsorted(iv.loc[missing, "start_s"].to_numpy(), side="left")
        iv.loc[missing, "end_s"] = [t[p] if p < len(t) else math.nan for p in pos]
    return iv


def _stays(f: pd.DataFrame) -> pd.DataFrame:
    """Every stay of every batch: ``row, k, epoch, batch, start_s, end_s`` (end NaN: to the end of the trace)."""
    mp = main_pid(f)
    main_exits = rows(f, ev.WORKER_EXIT)
    main_exits = main_exits[main_exits["pid"] == mp]
    exits = rows(f, ev.WORKER_EXIT)
    keys = ["epoch", "batch"]
    parts = []
    gets = rows(f, ev.INDEX_GET)
    for name, puts in rows(f, ev.INDEX_PUT).groupby("queue"):
        k = int(str(name).split("[")[-1].rstrip("]")) if "[" in str(name) else -1
        iv = _fill(_stay(puts, gets[gets["queue"] == name], keys), exits[exits["worker"] == k]["t_s"])
        parts.append(iv.assign(row="index_queue", k=k))
    tasks = worker_tasks(f)
    if len(tasks):
        parts.append(tasks[["worker", "epoch", "batch", "start_s", "end_s"]].rename(columns={"worker": "k"})
                     .assign(row="worker"))
    queue_gone = pd.concat([main_exits["t_s"], rows(f, ev.EPOCH_BEGIN)["t_s"]])
    received = rows(f, ev.RESULT_GET)
    if len(rows(f, ev.RESULT_PUT)):
        taken = pd.concat([rows(f, ev.PIN_BEGIN), received])
        iv = _stay(rows(f, ev.RESULT_PUT), taken, keys)
        stale = iv[iv["end_s"].isna()].assign(epoch=lambda t: t["epoch"] + 1, t_s=lambda t: t["start_s"])
        iv.loc[iv["end_s"].isna(), "end_s"] = _stay(stale, taken, keys)["end_s"].to_numpy()  # drained next epoch
        parts.append(_fill(iv, queue_gone).assign(row="result_queue", k=-1))
        if len(rows(f, ev.PIN_BEGIN)):
            pin = _stay(rows(f, ev.PIN_BEGIN), rows(f, ev.PIN_END), keys)
            parts.append(_fill(pin, queue_gone).assign(row="pin", k=-1))
            data = _stay(rows(f, ev.PIN_END), received[received["queue"] == "data_queue"], keys)
            parts.append(_fill(data, queue_gone).assign(row="data_queue", k=-1))
    epoch_marks = pd.concat([rows(f, ev.EPOCH_BEGIN, ev.EPOCH_END)["t_s"], main_exits["t_s"]])
    if len(rows(f, ev.REORDER_PARK)):
        iv = _stay(rows(f, ev.REORDER_PARK), rows(f, ev.REORDER_RELEASE), keys)
        parts.append(_fill(iv, epoch_marks).assign(row="reorder", k=-1))
    handed = hand_overs(f)
    if len(handed):
        ends = rows(f, ev.CONSUMER_END).rename(columns={"batch": "position"})
        iv = _stay(handed, ends, ["epoch", "position"])  # consumer events count positions, not tasks
        iv = iv.merge(handed[["epoch", "position", "batch"]], on=["epoch", "position"])
        parts.append(_fill(iv, epoch_marks).assign(row="loop", k=-1))
    cols = ["row", "k", "epoch", "batch", "start_s", "end_s"]
    if not parts:
        return pd.DataFrame(columns=cols)
    return pd.concat([p[cols] for p in parts], ignore_index=True)


def queue_rows(num_workers: int, pin: bool = False) -> list[tuple[str, int]]:
    """The rows of the animation, top to bottom: the way a batch travels."""
    out = [("index_queue", k) for k in range(num_workers)] + [("worker", k) for k in range(num_workers)]
    out.append(("result_queue", -1))
    if pin:
        out += [("pin", -1), ("data_queue", -1)]
    return out + [("reorder", -1), ("loop", -1)]


def _times(stays: pd.DataFrame, start: float, end: float, max_frames: int) -> list[float]:
    """One moment per change of state if there are few enough, else ``max_frames`` moments evenly spread."""
    changes = pd.concat([stays["start_s"], stays["end_s"]]).dropna()
    changes = sorted({float(t) for t in changes if start <= t <= end})
    moments = sorted({start, *changes})
    if len(moments) <= max_frames:
        return moments
    return [float(t) for t in np.linspace(start, end, max_frames)]


def queue_snapshots(frame: pd.DataFrame, depths: pd.DataFrame | None = None, *,
                    max_frames: int = MAX_FRAMES) -> Snapshots:
    """What sits in each queue at up to ``max_frames`` moments of the run (see the module docstring).

    ``depths``: ``queue_depths(frame)`` if already at hand; its ``outstanding`` series gives the counter
    that the main process holds under ``prefetch_factor * num_workers`` (the cap, NaN without workers).
    """
    depths = queue_depths(frame) if depths is None else depths
    loader, cap = settings(frame), prefetch_cap(frame)  # attrs are gone once normalised
    f = normal(frame)
    stays = _stays(f)
    n = int(loader.get("num_workers") or 0) or int(f["worker"].max() + 1 if len(f) else 0)
    grid = queue_rows(n, pin=bool((stays["row"] == "pin").any()))
    start, end = (float(f["t_s"].min()), trace_end(f)) if len(f) else (0.0, 0.0)
    times = _times(stays, start, end, max_frames)
    # Which worker made each task (its index queue says so; its result, failing that).
    made = pd.concat([stays[stays["row"].isin(["index_queue", "worker"])][["epoch", "batch", "k"]],
                      rows(f, ev.RESULT_PUT)[["epoch", "batch", "worker"]].rename(columns={"worker": "k"})])
    made = made.drop_duplicates(["epoch", "batch"]).rename(columns={"k": "worker"})
    stays = stays.merge(made, on=["epoch", "batch"], how="left")
    stays["worker"] = stays["worker"].fillna(-1).astype("int64")

    t = np.asarray(times, dtype=float)[:, None]
    s = stays["start_s"].to_numpy(dtype=float)[None, :]
    e = stays["end_s"].fillna(math.inf).to_numpy(dtype=float)[None, :]
    fi, si = np.nonzero((s <= t) & (t < e))  # frame i holds stay j while it has begun and not ended
    c = stays.iloc[si].reset_index(drop=True).assign(frame=fi, t_s=np.asarray(times)[fi])
    # Slot 0 is next out: first in for the FIFO queues; the lowest task id for the reorder buffer.
    c["_order"] = np.where(c["row"] == "reorder", c["epoch"] * 1e9 + c["batch"], c["start_s"])
    c = c.sort_values(["frame", "row", "k", "_order", "epoch", "batch"], kind="stable")
    c["slot"] = c.groupby(["frame", "row", "k"]).cumcount()
    contents = c[CONTENT_COLUMNS].astype({"frame": "int64", "k": "int64", "epoch": "int64", "batch": "int64",
                                          "slot": "int64"}).reset_index(drop=True)

    out = depths[depths["queue"] == "outstanding"].sort_values("t_s")
    pos = out["t_s"].to_numpy(dtype=float).searchsorted(np.asarray(times), side="right") - 1
    level = out["depth"].to_numpy()
    handed = np.sort(rows(f, ev.BATCH_YIELD)["t_s"].to_numpy(dtype=float))
    counters = pd.DataFrame({"frame": range(len(times)), "t_s": times,
                             "outstanding": [int(level[p]) if p >= 0 else 0 for p in pos],
                             "handed": handed.searchsorted(np.asarray(times), side="right")})
    return Snapshots(grid, times, contents, counters, cap)


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
