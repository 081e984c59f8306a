"""The pipeline tour: one batch's path through the DataLoader, drawn from a recorded run.

Twin of nothing in torch; it draws the data-flow diagram in the comment of torch's ``dataloader.py``
(sampler → ``index_queue`` → workers → ``worker_result_queue`` → pin thread → your loop) with one
batch's measured times on it. Input: a run (:class:`loaderlab.trace.result.Run`, whose ``loader`` gives
the settings) or an events table as :func:`loaderlab.record` returns it. Output: :func:`batch_journey` (where one batch was, when),
:func:`journey_notes` (one short line per stage, from templates passed in) and :func:`tour_figure`.
Pure: knows the event vocabulary, pandas and plotly; knows nothing of streamlit, of how the run was made,
or of any language (every word is an argument).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import pairwise

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..engine import events as ev
from ..trace.analysis import main_wait
from ..trace.tables import batch_indices, hand_overs, normal, pair, rows, settings
from .style import BOX_FONT, LINE_SPACING, MIN_FIGURE_PX, STAGE_COLOURS, boxed_lines, text_px

# The boxes, left to right; the two per-worker ones get one box per worker, stacked.
# torch pins in a thread between the result queue and the data queue; main reorders what it reads from there.
BOXES = ("sampler", "batch_sampler", "index_queue", "worker", "result_queue", "pin", "reorder", "loop")
PER_WORKER = ("index_queue", "worker")
# The words tour_figure needs for box names: one per box, plus the two per-worker boxes without workers.
BOX_NAME_KEYS = (*BOXES, "index_queue_none", "worker_main")
# Where the batch spent its time (the lower panel), in pipeline order.
SEGMENTS = ("index_queue", "fetch", "collate", "result_queue", "pin", "data_queue", "reorder", "loop")
SEGMENT_COLOURS = {"index_queue": "#c7c7c7", "fetch": STAGE_COLOURS["fetch"], "collate": STAGE_COLOURS["collate"],
                   "result_queue": "#aec7e8", "pin": STAGE_COLOURS["pin"], "data_queue": "#c5b0d5",
                   "reorder": "#e377c2", "loop": STAGE_COLOURS["consume"]}
# Every template journey_notes may use (the caller passes a dict with these keys).
NOTE_KEYS = ("sampler", "sampler_iterable", "batch_sampler", "index_queue", "no_workers", "worker",
             "result_queue", "reorder_parked", "reorder_direct", "reorder_off", "pin_done", "pin_skipped",
             "pin_off", "loop", "missing")
HIGHLIGHT, HIGHLIGHT_FILL = "#d62728", "#fdecea"
IDLE_LINE, IDLE_TEXT = "#9e9e9e", "#757575"
HALF_W, HALF_H = 0.46, 0.43  # box half-size in column / row units
X_RANGE = (-0.48, len(BOXES) - 0.52)  # the diagram's columns, edge to edge
SIDE_PX, TOP_PX, BOTTOM_PX, GAP_PX = 10, 50, 50, 45  # margins (the title above, the x title below), panel gap
FONT_PX, TICK_PX, PAD_PX = 10, 12, 4  # box text; the lower panel's labels; least room around a box's text
# A box's width in the narrowest figure the pages lay out (its text is wrapped to fit that).
BOX_PX = 2 * HALF_W / (X_RANGE[1] - X_RANGE[0]) * (MIN_FIGURE_PX - 2 * SIDE_PX)
ROW_PX, ONE_ROW_PX = 110, 170  # least height of a row of per-worker boxes / of the one row without them
BAR_PX = 30  # the lower panel: one bar per segment


@dataclass(frozen=True)
class Journey:
    """One task's path. ``worker`` None = made by the main process (``num_workers=0``); times in ``t_s`` seconds;
    ``segments``: ``segment, start_s, end_s`` in :data:`SEGMENTS` order, only those the trace shows."""

    epoch: int
    batch: int
    n_batches: int
    worker: int | None
    position: int | None
    indices: list | None
    samples: int
    num_workers: int
    in_order: bool
    pin_memory: bool
    segments: pd.DataFrame
    moments: dict = field(default_factory=dict)  # sampled_s, put_s, yield_s
    slowest_index: int | None = None
    slowest_s: float = math.nan
    waiting_for: int | None = None  # the earlier task that arrived last while it sat in the reorder buffer
    pin_detail: str = ""
    wait_s: float = math.nan  # how long the loop waited in next() for it
    consume_s: float = math.nan  # the loop body that got it

    def seconds(self, segment: str) -> float:
        s = self.segments[self.segments["segment"] == segment]
        return float((s["end_s"] - s["start_s"]).iloc[0]) if len(s) else math.nan


def handed_batches(frame: pd.DataFrame) -> pd.DataFrame:
    """``epoch, batch, position``: every task that reached the loop, in task order (the tour's choices)."""
    y = hand_overs(normal(frame))
    return y[["epoch", "batch", "position"]].sort_values(["epoch", "batch"]).reset_index(drop=True)


def _first(r: pd.DataFrame, after: float = -math.inf) -> float:
    t = r[r["t_s"] >= after]["t_s"]
    return float(t.iloc[0]) if len(t) else math.nan


def batch_journey(frame: pd.DataFrame, epoch: int, batch: int) -> Journey:
    """Where task ``batch`` of ``epoch`` was, from its events (a stage missing from the trace is left out)."""
    s = settings(frame)
    f = normal(frame)
    mine = f[(f["epoch"] == epoch) & (f["batch"] == batch)]
    num_workers = int(s.get("num_workers") or 0)

    sampled = rows(mine, ev.SAMPLER_YIELD)
    indices = batch_indices(sampled["indices"].iloc[0], sampled["arg0"].iloc[0]) if len(sampled) else None
    put = rows(mine, ev.INDEX_PUT)
    worker_events = mine[(mine["worker"] >= 0) & mine["kind"].isin((ev.INDEX_GET, ev.FETCH_BEGIN, ev.RESULT_PUT))]
    worker = int(put["queue"].iloc[0].split("[")[-1].rstrip("]")) if len(put) and "[" in put["queue"].iloc[0] \
        else int(worker_events["worker"].iloc[0]) if len(worker_events) else None

    spans: list[tuple[str, float, float]] = []
    put_s = _first(put)
    spans.append(("index_queue", put_s, _first(rows(mine, ev.INDEX_GET), put_s)))
    fetch = pair(rows(mine, ev.FETCH_BEGIN), rows(mine, ev.FETCH_END), ["pid", "index"]).dropna(subset=["end_s"])
    fetch = fetch.assign(fetch_s=fetch["end_s"] - fetch["start_s"])
    if len(fetch):
        spans.append(("fetch", float(fetch["start_s"].min()), float(fetch["end_s"].max())))
    collate_s = _first(rows(mine, ev.COLLATE_BEGIN))
    spans.append(("collate", collate_s, _first(rows(mine, ev.COLLATE_END), collate_s)))
    ready_s = _first(rows(mine, ev.RESULT_PUT))
    spans.append(("result_queue", ready_s, _first(rows(mine, ev.PIN_BEGIN, ev.RESULT_GET), ready_s)))
    park = rows(mine, ev.REORDER_PARK)
    park_s = _first(park)
    spans.append(("reorder", park_s, _first(rows(mine, ev.REORDER_RELEASE), park_s)))
    pins = rows(mine, ev.PIN_BEGIN)
    pin_s = _first(pins)
    pinned_s = _first(rows(mine, ev.PIN_END), pin_s)
    spans.append(("pin", pin_s, pinned_s))
    if len(put):  # the pin thread's output waits in data_queue for main
        spans.append(("data_queue", pinned_s, _first(rows(mine, ev.RESULT_GET), pinned_s)))

    handed = hand_overs(f)
    n_batches = int((handed["epoch"] == epoch).sum())
    handed = handed[(handed["epoch"] == epoch) & (handed["batch"] == batch)]
    position = int(handed["position"].iloc[0]) if len(handed) else None
    yield_s = float(handed["t_s"].iloc[0]) if len(handed) else math.nan
    wait_s = consume_s = math.nan
    if position is not None:
        loop = f[(f["epoch"] == epoch) & (f["batch"] == position)]
        end_s = _first(rows(loop, ev.CONSUMER_END), yield_s)
        spans.append(("loop", yield_s, end_s))
        consume_s = end_s - yield_s
        w = main_wait(f)
        w = w[(w["epoch"] == epoch) & (w["position"] == position)]["wait_s"]
        wait_s = float(w.iloc[0]) if len(w) else math.nan

    segments = pd.DataFrame(spans, columns=["segment", "start_s", "end_s"]).dropna()
    slowest = fetch.loc[fetch["fetch_s"].idxmax()] if len(fetch) else None
    waiting = _held_up_by(f, epoch, batch, park_s, park)
    return Journey(
        epoch=int(epoch), batch=int(batch), n_batches=n_batches, worker=worker, position=position, indices=indices,
        samples=len(fetch) if len(fetch) else len(indices or ()), num_workers=num_workers,
        in_order=bool(s.get("in_order", True)), pin_memory=bool(s.get("pin_memory", False)), segments=segments,
        moments={"sampled_s": _first(sampled), "put_s": put_s, "yield_s": yield_s},
        slowest_index=None if slowest is None else int(slowest["index"]),
        slowest_s=math.nan if slowest is None else float(slowest["fetch_s"]),
        waiting_for=waiting,
        pin_detail=str(pins["detail"].iloc[0]) if len(pins) else "", wait_s=wait_s, consume_s=consume_s)


def _held_up_by(f: pd.DataFrame, epoch: int, batch: int, park_s: float, park: pd.DataFrame) -> int | None:
    """The earlier task that arrived last after this one parked: the one that kept it in the buffer.

    (The park event names only the task awaited at that moment; several may have been late.)
    """
    if math.isnan(park_s):
        return None
    gets = rows(f[f["epoch"] == epoch], ev.RESULT_GET)
    later = gets[(gets["batch"] >= 0) & (gets["batch"] < batch) & (gets["t_s"] >= park_s)]
    if len(later):
        return int(later.loc[later["t_s"].idxmax(), "batch"])
    named = park["arg0"][park["arg0"] >= 0]  # the task the parked batch waited for
    return int(named.iloc[0]) if len(named) else None


def _ms(seconds: float) -> float:
    return seconds * 1e3


def journey_notes(j: Journey, templates: dict[str, str]) -> dict[str, str]:
    """One line per box about this batch, from ``templates`` (keys: :data:`NOTE_KEYS`)."""
    def say(key: str, **values) -> str:
        if any(isinstance(v, float) and math.isnan(v) for v in values.values()):
            return templates["missing"]
        return templates[key].format(**values)

    shown = j.indices if j.indices is None or len(j.indices) <= 6 else [*j.indices[:5], "…"]
    notes = {"sampler": templates["sampler_iterable"] if not j.indices or None in j.indices
             else say("sampler", indices=", ".join(str(i) for i in shown)),
             "batch_sampler": say("batch_sampler", batch=j.batch, n_batches=j.n_batches, samples=j.samples,
                                  t=j.moments.get("sampled_s", math.nan))}
    fetch_ms, collate_ms = _ms(j.seconds("fetch")), _ms(j.seconds("collate"))
    made = dict(samples=j.samples, fetch_ms=fetch_ms, collate_ms=collate_ms, index=j.slowest_index,
                slowest_ms=_ms(j.slowest_s), worker=j.worker)
    notes["worker"] = say("worker", **made)
    if j.num_workers == 0:
        notes["index_queue"] = notes["result_queue"] = templates["no_workers"]
    else:
        notes["index_queue"] = say("index_queue", t=j.moments.get("put_s", math.nan),
                                   ms=_ms(j.seconds("index_queue")), worker=j.worker)
        notes["result_queue"] = say("result_queue", ms=_ms(j.seconds("result_queue")))
    parked = j.seconds("reorder")
    if j.num_workers == 0 or not j.in_order:
        notes["reorder"] = templates["reorder_off"]
    elif not math.isnan(parked):
        notes["reorder"] = say("reorder_parked", ms=_ms(parked), waiting_for=j.waiting_for)
    else:
        notes["reorder"] = templates["reorder_direct"]
    if not j.pin_memory:
        notes["pin"] = templates["pin_off"]
    elif j.pin_detail.startswith("skipped"):
        notes["pin"] = templates["pin_skipped"]
    else:
        notes["pin"] = say("pin_done", ms=_ms(j.seconds("pin")))
    notes["loop"] = say("loop", t=j.moments.get("yield_s", math.nan), position=j.position,
                        wait_ms=_ms(j.wait_s), consume_ms=_ms(j.consume_s)) if j.position is not None \
        else templates["missing"]
    return notes


def _unused(j: Journey, box: str) -> bool:
    """A box this run's settings skip (drawn dashed)."""
    return ((j.num_workers == 0 and box in ("index_queue", "result_queue", "reorder"))
            or (box == "reorder" and not j.in_order) or (box == "pin" and not j.pin_memory))


def _boxes(j: Journey, rows_: int) -> list[dict]:
    """Every box: key, k, centre (x, y), half-height, on the batch's path or not, unused or not."""
    out = []
    for x, box in enumerate(BOXES):
        if box in PER_WORKER and j.num_workers > 0:
            for k in range(j.num_workers):
                out.append(dict(box=box, k=k, x=x, y=rows_ - k - 0.5, hh=HALF_H, on=k == j.worker,
                                unused=False))
        else:
            out.append(dict(box=box, k=-1, x=x, y=rows_ / 2, hh=HALF_H * min(rows_, 1.6), on=True,
                            unused=_unused(j, box)))
    return out


def tour_figure(j: Journey, *, box_names: dict[str, str], notes: dict[str, str], segment_names: dict[str, str],
                title: str, x_title: str) -> go.Figure:
    """Top: the pipeline as boxes, the batch's path in red with its measured notes. Bottom: where its time went.

    ``box_names``: keys :data:`BOX_NAME_KEYS`; ``index_queue`` and ``worker`` contain ``{k}``, and with
    ``num_workers=0`` ``index_queue_none`` and ``worker_main`` (the main process makes the batch) name those
    boxes. Shapes are named ``box`` or ``box[k]``; the ones on the path have a thick red outline.
    """
    rows_ = max(1, j.num_workers)
    segs = j.segments
    seg_order = [s for s in SEGMENTS if s in set(segs["segment"])]
    boxes = _boxes(j, rows_)
    for b in boxes:
        name = box_names[b["box"]].format(k=b["k"])
        if j.num_workers == 0 and b["box"] in PER_WORKER:
            name = box_names["worker_main" if b["box"] == "worker" else "index_queue_none"]
        b["lines"] = boxed_lines(name, notes.get(b["box"], "") if b["on"] else "", BOX_PX - 2 * PAD_PX, FONT_PX)
    # Rows tall enough for the box with the most lines: a box is 2·hh rows high and its text must fit inside.
    row_px = max([ONE_ROW_PX if rows_ == 1 else ROW_PX]
                 + [(len(b["lines"]) * FONT_PX * LINE_SPACING + 2 * PAD_PX) / (2 * b["hh"]) for b in boxes])
    top_px = math.ceil(row_px * (rows_ + 0.1))  # the y range is rows_ + 0.1 rows
    bottom_px = BAR_PX * max(1, len(seg_order)) + 20
    plot_px = top_px + GAP_PX + bottom_px
    # With vertical_spacing = gap / plot height, each panel is exactly as tall as asked.
    fig = make_subplots(rows=2, cols=1, row_heights=[top_px, bottom_px], vertical_spacing=GAP_PX / plot_px)
    # Shapes and annotations are collected and set once: plotly's add_shape/add_annotation re-validate the
    # whole list on every call (quadratic; most of this figure's cost on every page change).
    shapes: list[dict] = []
    annotations: list[dict] = []
    for b in boxes:
        on = b["on"] and not b["unused"]
        shapes.append(dict(type="rect", x0=b["x"] - HALF_W, x1=b["x"] + HALF_W, y0=b["y"] - b["hh"],
                           y1=b["y"] + b["hh"], xref="x", yref="y", name=f"{b['box']}[{b['k']}]" if b["k"] >= 0 else b["box"],
                           line=dict(color=HIGHLIGHT if on else IDLE_LINE, width=3 if on else 1,
                                     dash="dash" if b["unused"] else "solid"),
                           fillcolor=HIGHLIGHT_FILL if on else "white", layer="below"))
        annotations.append(dict(x=b["x"], y=b["y"], xref="x", yref="y", showarrow=False, text="<br>".join(b["lines"]),
                                font=dict(size=FONT_PX, color="#222" if on else IDLE_TEXT), align="center"))
    path = [b for b in boxes if b["on"]]
    for a, b in pairwise(path):
        annotations.append(dict(x=b["x"] - HALF_W, y=b["y"], ax=a["x"] + HALF_W, ay=a["y"], xref="x", yref="y",
                                axref="x", ayref="y", text="", showarrow=True, arrowhead=2, arrowwidth=2.5,
                                arrowcolor=HIGHLIGHT))
    for a in boxes:  # the other ways a batch could go, thin and grey
        for b in boxes:
            if b["x"] == a["x"] + 1 and not (a["on"] and b["on"]) and (a["k"] == b["k"] or -1 in (a["k"], b["k"])):
                shapes.append(dict(type="line", x0=a["x"] + HALF_W, y0=a["y"], x1=b["x"] - HALF_W, y1=b["y"],
                                   xref="x", yref="y", line=dict(color="#d0d0d0", width=1), layer="below"))
    fig.update_layout(shapes=shapes, annotations=annotations)
    fig.update_xaxes(range=list(X_RANGE), visible=False, fixedrange=True, row=1, col=1)
    fig.update_yaxes(range=[-0.05, rows_ + 0.05], visible=False, fixedrange=True, row=1, col=1)

    for seg in seg_order:
        s = segs[segs["segment"] == seg]
        fig.add_trace(go.Bar(name=segment_names.get(seg, seg), orientation="h", marker_color=SEGMENT_COLOURS[seg],
                             y=[segment_names.get(seg, seg)] * len(s), base=s["start_s"], x=s["end_s"] - s["start_s"],
                             hovertemplate="%{base:.4f} s + %{x:.4f} s<extra>%{y}</extra>", showlegend=False),
                      row=2, col=1)
    # The lower panel's labels sit in its own left strip (as wide as the longest label needs in the narrowest
    # figure), so the diagram above keeps the full width; automargin widens the figure's margin should a
    # label still not fit (a narrower window).
    labels = [segment_names.get(s, s) for s in seg_order]
    strip = (max((text_px(label, TICK_PX) for label in labels), default=0) + 12) / (MIN_FIGURE_PX - 2 * SIDE_PX)
    fig.update_xaxes(title_text=x_title, title_standoff=8, automargin=True, domain=[min(strip, 0.4), 1], row=2, col=1)
    fig.update_yaxes(categoryorder="array", categoryarray=list(reversed(labels)), automargin=True,
                     tickfont=dict(size=TICK_PX), row=2, col=1)
    fig.update_layout(title=title, barmode="overlay", height=plot_px + TOP_PX + BOTTOM_PX, plot_bgcolor="white",
                      font=dict(family=BOX_FONT), margin=dict(l=SIDE_PX, r=SIDE_PX, t=TOP_PX, b=BOTTOM_PX))
    return fig
