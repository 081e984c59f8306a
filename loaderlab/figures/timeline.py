"""The per-process timeline (a Gantt chart): one lane per process (and one for the pin thread), one bar per span.

Twin of nothing in torch. Input: a spans table as made by ``loaderlab.trace.analysis.spans`` (columns
``worker``, ``stage``, ``start_s``, ``end_s``, ``batch``, ``index``; ``track`` if present names the lane).
Output: a plotly Figure with one bar trace per stage, so the legend toggles stages, and optionally an
outline over the spans a stall is blamed on. Two figure-side tables help: :func:`split_capped_idle`
(idle time a worker spent waiting on the ``prefetch_factor`` cap) and :func:`stall_spans`.
Pure: knows nothing of streamlit or of how the run was made; every word shown is an argument.
"""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from ..trace import kinds
from ..trace.utilisation import intervals_where
from .style import STAGE_COLOURS, lane_name

# Idle with an empty index queue while the main process had prefetch_factor × num_workers tasks out.
CAPPED_IDLE = "idle_capped"
COLOURS = {**STAGE_COLOURS, CAPPED_IDLE: "#f4b6b6"}
MARK_COLOUR = "#000000"
STALL_KINDS = (kinds.STRAGGLER, kinds.HEAD_OF_LINE, kinds.STALLED_WORKER, kinds.WORKER_VANISHED,
               kinds.SLOW_FIRST_BATCH, kinds.ERROR)


def _lane_key(lane: str) -> tuple:
    if lane == "main":
        return (0, 0)
    if lane == "pin":
        return (1, 0)
    digits = lane.rsplit(" ", 1)[-1]
    return (2, int(digits)) if digits.isdigit() else (3, lane)


def _lanes(spans: pd.DataFrame) -> pd.Series:
    if "track" in spans.columns:
        return spans["track"].astype(str)
    return spans["worker"].map(lane_name)


def _clip(lo: float, hi: float, intervals: list[tuple[float, float]]) -> list[tuple[float, float]]:
    return [(max(lo, a), min(hi, b)) for a, b in intervals if min(hi, b) > max(lo, a)]


def split_capped_idle(spans: pd.DataFrame, depths: pd.DataFrame, cap: float) -> pd.DataFrame:
    """``spans`` with each worker's idle span split where the worker waited on the prefetch cap.

    A worker idles "because of the cap" while its index queue is empty and the outstanding tasks are at
    ``cap`` (``prefetch_factor × num_workers``): the main process sends a new task only when it hands a
    batch over. Those pieces get stage :data:`CAPPED_IDLE`. ``depths``: the table of
    ``loaderlab.trace.analysis.queue_depths``. Nothing changes when ``cap`` is NaN or no queue is known.
    """
    if math.isnan(cap) or not len(depths) or not (spans["stage"] == "idle").any():
        return spans
    end = float(max(spans["end_s"].max(), depths["t_s"].max()))
    at_cap = intervals_where(depths[depths["queue"] == "outstanding"], lambda d: d >= cap, end)
    empty_queue: dict[int, list[tuple[float, float]]] = {}
    for worker in set(spans.loc[spans["stage"] == "idle", "worker"]):
        queue = depths[depths["queue"] == f"index_queue[{worker}]"]
        always = [(-math.inf, math.inf)]  # no queue events: nothing says the queue was ever full
        empty_queue[worker] = intervals_where(queue, lambda d: d == 0, end) if len(queue) else always
    out = []
    for row in spans.itertuples(index=False):
        r = row._asdict()
        if r["stage"] != "idle" or r["worker"] < 0:
            out.append(r)
            continue
        empty = empty_queue[r["worker"]]
        capped = sorted(c for a, b in _clip(r["start_s"], r["end_s"], at_cap) for c in _clip(a, b, empty))
        cursor = r["start_s"]
        for a, b in capped + [(r["end_s"], r["end_s"])]:
            if a > cursor:
                out.append({**r, "start_s": cursor, "end_s": a})
            if b > a:
                out.append({**r, "stage": CAPPED_IDLE, "start_s": a, "end_s": b})
            cursor = max(cursor, b)
    table = pd.DataFrame(out, columns=spans.columns)
    if "duration_s" in table.columns:
        table["duration_s"] = table["end_s"] - table["start_s"]
    return table.astype(spans.dtypes.to_dict())


def stall_spans(spans: pd.DataFrame, stalls: pd.DataFrame) -> pd.DataFrame:
    """The spans a stall is blamed on: the slow sample's fetch (else the late batch's fetches and collate on
    its worker) and, for head-of-line blocking, the main process's wait for that batch.

    ``stalls``: one row per stall with ``kind, epoch, batch, worker, index`` (NaN/None where it names none).
    """
    picked = []
    for s in stalls.itertuples(index=False):
        if pd.isna(s.batch):
            continue
        mine = spans[(spans["epoch"] == s.epoch) & (spans["batch"] == s.batch)]
        if not pd.isna(s.worker):
            on_worker = mine[mine["worker"] == s.worker]
            if not pd.isna(s.index):
                picked.append(on_worker[(on_worker["stage"] == "fetch") & (on_worker["index"] == s.index)])
            else:
                picked.append(on_worker[on_worker["stage"].isin(("fetch", "collate"))])
        if s.kind == kinds.HEAD_OF_LINE:
            picked.append(mine[(mine["worker"] < 0) & (mine["stage"] == "wait")])
    picked = [p for p in picked if len(p)]
    if not picked:
        return spans.iloc[0:0]
    return pd.concat(picked).drop_duplicates(subset=["worker", "stage", "start_s"]).reset_index(drop=True)


HOVER = "batch %{customdata[0]}, index %{customdata[1]}<br>%{base:.4f}s + %{x:.4f}s<extra></extra>"


def _lane_label(lane: str, names: dict[str, str]) -> str:
    """A lane's words: ``names`` has ``main``, ``pin`` and ``worker`` (with ``{k}``); other lanes stay."""
    if lane in ("main", "pin"):
        return names.get(lane, lane)
    digits = lane.rsplit(" ", 1)[-1]
    return names["worker"].format(k=digits) if "worker" in names and digits.isdigit() else lane


def timeline_figure(spans: pd.DataFrame, *, title: str = "", x_title: str = "seconds since start",
                    stage_names: dict[str, str] | None = None, marks: pd.DataFrame | None = None,
                    mark_name: str = "stall", lane_names: dict[str, str] | None = None,
                    hover: str = HOVER) -> go.Figure:
    """``stage_names`` maps stage keys to the legend's words (for translations), ``lane_names`` the lanes'
    (keys ``main``, ``pin``, ``worker`` with ``{k}``). ``hover``: a plotly hovertemplate with
    ``%{customdata[0]}`` = batch, ``[1]`` = index. ``marks``: spans (same columns) to outline in black, as
    one more legend entry named ``mark_name``."""
    stage_names, lane_names = stage_names or {}, lane_names or {}
    fig = go.Figure()
    lane_of = _lanes(spans) if len(spans) else pd.Series([], dtype=str)
    lanes = sorted(set(lane_of), key=_lane_key)
    lane_of = lane_of.map(lambda lane: _lane_label(lane, lane_names))
    for stage, colour in COLOURS.items():
        pick = spans["stage"] == stage
        rows = spans[pick]
        if rows.empty:
            continue
        fig.add_trace(go.Bar(
            name=stage_names.get(stage, stage), orientation="h", marker_color=colour,
            y=lane_of[pick].to_list(), base=rows["start_s"], x=rows["end_s"] - rows["start_s"],
            customdata=rows[["batch", "index"]].to_numpy(), hovertemplate=hover,
        ))
    if marks is not None and len(marks):
        fig.add_trace(go.Bar(
            name=mark_name, orientation="h", y=[_lane_label(lane, lane_names) for lane in _lanes(marks)],
            base=marks["start_s"],
            x=marks["end_s"] - marks["start_s"], marker=dict(color="rgba(0,0,0,0)",
                                                             line=dict(color=MARK_COLOUR, width=3)),
            customdata=marks[["batch", "index"]].to_numpy(), hovertemplate=hover,
        ))
    fig.update_layout(
        title=title, barmode="overlay", xaxis_title=x_title, height=140 + 40 * max(1, len(lanes)),
        yaxis=dict(categoryorder="array", categoryarray=[_lane_label(lane, lane_names) for lane in reversed(lanes)], automargin=True),
        legend=dict(orientation="h", yanchor="bottom", y=1.02, x=0), margin=dict(l=10, r=10, t=60, b=50),
    )
    return fig
