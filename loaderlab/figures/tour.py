"""The pipeline tour: one batch's path through the DataLoader, drawn from a recorded run.

Twin of nothing in torch; it draws the data-flow diagram in the comment of torch's ``dataloader.py``
(sampler → ``index_queue`` → workers → ``worker_result_queue`` → pin thread → your loop) with one
batch's measured times on it. Input: a :class:`loaderlab.trace.tables.journey.Journey` (where one batch was, and
when, read from a run by :func:`loaderlab.trace.tables.journey.batch_journey`). Output: :func:`journey_notes` (one
short line per stage, from templates passed in) and :func:`tour_figure`. Pure: knows pandas and plotly;
knows nothing of streamlit, of how the run was made, or of any language (every word is an argument).
"""

from __future__ import annotations

import math
from itertools import pairwise

import plotly.graph_objects as go

from ..trace.tables.journey import Journey  # the batch's path, read in the trace layer; this module draws it
from .style import BARE_TEMPLATE, BOX_FONT, LINE_SPACING, MIN_FIGURE_PX, STAGE_COLOURS, boxed_lines, text_px

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
TIME_END_PX = 24  # the lower panel's time axis stops this short of the right margin: half a number's width


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
    bars = [dict(type="bar", name=segment_names.get(seg, seg), orientation="h", marker_color=SEGMENT_COLOURS[seg],
                 y=[segment_names.get(seg, seg)] * len(s), base=s["start_s"].tolist(),
                 x=(s["end_s"] - s["start_s"]).to_numpy(), hovertemplate="%{base:.4f} s + %{x:.4f} s<extra>%{y}</extra>",
                 showlegend=False, xaxis="x2", yaxis="y2")
            for seg in seg_order for s in [segs[segs["segment"] == seg]]]
    # The lower panel's labels sit in its own left strip (as wide as the longest label needs in the narrowest
    # figure), so the diagram above keeps the full width; automargin widens the figure's margin should a
    # label still not fit (a narrower window).
    labels = [segment_names.get(s, s) for s in seg_order]
    strip = (max((text_px(label, TICK_PX) for label in labels), default=0) + 12) / (MIN_FIGURE_PX - 2 * SIDE_PX)
    # Two panels stacked, each exactly as tall as asked (what make_subplots(rows=2, row_heights=...) lays out).
    # The time axis ends TIME_END_PX short of the figure's edge, room for half its last number: with automargin
    # instead, that number widened the right margin by a few px, and plotly drew the whole figure again (40 %
    # of the browser's work on it, on every page change). The labels' automargin only guards a narrow window.
    layout = dict(
        template=BARE_TEMPLATE, title=dict(text=title), barmode="overlay", height=plot_px + TOP_PX + BOTTOM_PX,
        plot_bgcolor="white", font=dict(family=BOX_FONT), margin=dict(l=SIDE_PX, r=SIDE_PX, t=TOP_PX, b=BOTTOM_PX),
        shapes=shapes, annotations=annotations,
        xaxis=dict(anchor="y", domain=[0.0, 1.0], range=list(X_RANGE), visible=False, fixedrange=True),
        yaxis=dict(anchor="x", domain=[(bottom_px + GAP_PX) / plot_px, 1.0], range=[-0.05, rows_ + 0.05],
                   visible=False, fixedrange=True),
        xaxis2=dict(anchor="y2", domain=[min(strip, 0.4), 1 - TIME_END_PX / (MIN_FIGURE_PX - 2 * SIDE_PX)],
                    title=dict(text=x_title, standoff=8)),
        yaxis2=dict(anchor="x2", domain=[0.0, bottom_px / plot_px], categoryorder="array",
                    categoryarray=list(reversed(labels)), tickfont=dict(size=TICK_PX), automargin=True))
    # Built as one spec, not validated again piece by piece: plotly re-checks every property on every
    # update_layout / add_trace (most of this figure's server cost); tests check the spec validates.
    return go.Figure(dict(data=bars, layout=layout), skip_invalid=False, _validate=False)
