"""Text that must fit its figure, checked on the figure objects: axis numbers get room (automargin and a
margin that is not 10 px), axis titles keep clear of the numbers, the pipeline tour's boxes hold their
text in English and Korean, side-by-side panel titles stay inside their panels.

Widths are :func:`loaderlab.figures.style.text_px` estimates in the narrowest figure the pages are laid out
for (:data:`~loaderlab.figures.style.MIN_FIGURE_PX`); tests/ui/test_browser_fit.py checks the same
things on what chromium draws.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest

from loaderlab.figures.labels import share_figure
from loaderlab.figures.memory import memory_figure
from loaderlab.figures.partitions import partition_figure
from loaderlab.figures.style import LINE_SPACING, MIN_FIGURE_PX, text_px, wrap_px
from loaderlab.figures.tour import BOX_NAME_KEYS, NOTE_KEYS, SEGMENTS, tour_figure
from loaderlab.trace.tables.journey import Journey
from loaderlab.ui.texts import EN, KO

LEAST_MARGIN = 40  # px beside an axis that carries numbers, before automargin grows it
MB = 2 ** 20
# Numbers as large as a slow run gives (a 12-second fetch, six-digit indices), so every line is its longest.
BIG = dict(indices="100000, 100001, 100002, 100003, 100004, …", batch=1234, n_batches=9999, samples=256,
           t=1234.567, ms=12345.6, worker=15, fetch_ms=12345.6, collate_ms=1234.5, index=999999,
           slowest_ms=9999.9, waiting_for=1233, position=1234, wait_ms=12345.6, consume_ms=1234.5)


def _memory_table() -> pd.DataFrame:
    rows = [(t / 10, w, 100 + w, (300 + 40 * w) * MB, (20 + t) * MB, 64 * MB, 1024 * MB)
            for t in range(12) for w in range(2)]
    return pd.DataFrame(rows, columns=["t_s", "worker", "pid", "rss_bytes", "uss_bytes", "shm_used_bytes",
                                       "shm_total_bytes"])


def _assignments() -> pd.DataFrame:
    rows = [(e, i % 2, i // 2, i, (7 * i + e) % 75, i % 3, False) for e in range(2) for i in range(75)]
    return pd.DataFrame(rows, columns=["epoch", "rank", "position", "global_position", "index", "label", "padded"])


def test_the_memory_chart_leaves_room_for_its_numbers_and_keeps_the_title_off_them():
    fig = memory_figure(_memory_table(), x_title="seconds since the run started", y_title="MB")
    layout = fig.layout
    assert layout.xaxis.automargin and layout.yaxis.automargin
    assert layout.margin.l >= LEAST_MARGIN and layout.margin.b >= LEAST_MARGIN  # was 10 px: numbers cut off
    assert layout.xaxis.title.standoff > 0  # without it plotly squeezes the title into the margin, over the numbers


def test_the_partition_figure_leaves_room_for_rank_names_and_places_in_the_epoch():
    fig = partition_figure(_assignments(), dataset_len=75, rank_name="rank {rank}", padded_name="pad",
                           x_title="dataset index", strip_title="who", order_title="place in epoch", hover="h",
                           epoch_prefix="epoch ", play="Play", pause="Pause")
    layout = fig.layout
    assert layout.yaxis.automargin and layout.yaxis2.automargin  # rank names; places in the epoch
    assert layout.xaxis2.automargin
    assert layout.margin.l >= LEAST_MARGIN


def _journey(num_workers: int, *, pin_memory: bool = True, in_order: bool = True) -> Journey:
    segments = pd.DataFrame([(s, 0.1 * k, 0.1 * k + 0.05) for k, s in enumerate(SEGMENTS)],
                            columns=["segment", "start_s", "end_s"])
    return Journey(epoch=0, batch=0, n_batches=9999, worker=0 if num_workers else None, position=0,
                   indices=list(range(16)), samples=16, num_workers=num_workers, in_order=in_order,
                   pin_memory=pin_memory, segments=segments)


def _notes(texts: dict, pin: str, reorder: str) -> dict[str, str]:
    say = {k: texts[f"tour.note.{k}"].format(**BIG) for k in NOTE_KEYS}
    return say | {"pin": say[pin], "reorder": say[reorder]}


def _px(axis_range, domain, span_px: float, a: float, b: float) -> float:
    return abs(b - a) / (axis_range[1] - axis_range[0]) * (domain[1] - domain[0]) * span_px


def _lines(text: str) -> list[tuple[str, bool]]:
    return [(re.sub(r"</?b>", "", line), "<b>" in line) for line in text.split("<br>")]


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("num_workers, pin, reorder", [(2, "pin_off", "reorder_parked"),
                                                        (0, "pin_skipped", "reorder_off"),
                                                        (4, "pin_done", "reorder_direct")])
def test_every_tour_box_holds_its_text_in_the_narrowest_figure(lang, num_workers, pin, reorder):
    texts = {"en": EN, "ko": KO}[lang]
    fig = tour_figure(_journey(num_workers), box_names={b: texts[f"tour.box.{b}"] for b in BOX_NAME_KEYS},
                      notes=_notes(texts, pin, reorder),
                      segment_names={s: texts[f"tour.segment.{s}"] for s in SEGMENTS}, title="t", x_title="x")
    layout = fig.layout
    width = MIN_FIGURE_PX - layout.margin.l - layout.margin.r
    height = layout.height - layout.margin.t - layout.margin.b
    boxes = [s for s in layout.shapes if s.type == "rect"]
    assert len(boxes) == 8 + (2 * (num_workers - 1) if num_workers else 0)
    for box in boxes:
        (label,) = [a for a in layout.annotations if not a.showarrow
                    and a.x == pytest.approx((box.x0 + box.x1) / 2) and a.y == pytest.approx((box.y0 + box.y1) / 2)]
        size = label.font.size
        box_w = _px(layout.xaxis.range, layout.xaxis.domain, width, box.x0, box.x1)
        box_h = _px(layout.yaxis.range, layout.yaxis.domain, height, box.y0, box.y1)
        lines = _lines(label.text)
        widest = max(text_px(line, size, bold=bold) for line, bold in lines)
        assert widest <= box_w - 4, (box.name, lines)
        assert len(lines) * size * LINE_SPACING <= box_h - 4, (box.name, len(lines), box_h)
    # The lower panel's labels fit the strip left of it.
    strip = layout.xaxis2.domain[0] * width
    assert max(text_px(texts[f"tour.segment.{s}"], layout.yaxis2.tickfont.size) for s in SEGMENTS) < strip
    assert layout.yaxis2.automargin  # and a narrower window widens the margin rather than cut them


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_side_by_side_panel_titles_stay_inside_their_panels(lang):
    texts = {"en": EN, "ko": KO}[lang]
    names = [texts[f"sampling.run.{k}"] for k in ("random", "inverse", "yours")]
    per_epoch = pd.DataFrame({"epoch": [0, 0], "label": [0, 1], "count": [5, 5], "share": [0.5, 0.5],
                              "intended_share": [0.5, 0.5]})
    fig = share_figure({n: per_epoch for n in names}, label_names={0: "a", 1: "b"}, data={0: 0.5, 1: 0.5},
                       data_name="d", intended_name="i", epoch_name="e{epoch}", x_title="x", y_title="y")
    layout = fig.layout
    plot_w = MIN_FIGURE_PX - layout.margin.l - layout.margin.r - 60  # the y axis's numbers and title
    for axis, title in zip((layout.xaxis, layout.xaxis2, layout.xaxis3), layout.annotations):
        panel = (axis.domain[1] - axis.domain[0]) * plot_w
        assert max(text_px(line, title.font.size) for line, _ in _lines(title.text)) <= panel, title.text
    lines = max(len(_lines(a.text)) for a in layout.annotations)
    assert layout.legend.yref == "container"  # the legend at the top edge, the titles below it
    assert layout.margin.t >= 30 + lines * 13 * LINE_SPACING


@pytest.mark.parametrize("play, pause", [("▶ Play", "❚❚ Pause"), ("▶ 재생", "❚❚ 일시정지")])
def test_an_animated_figure_s_slider_starts_right_of_its_play_and_pause_buttons(play, pause):
    fig = partition_figure(_assignments(), dataset_len=75, rank_name="rank {rank}", padded_name="pad",
                           x_title="x", strip_title="who", order_title="when", hover="h", epoch_prefix="epoch ",
                           play=play, pause=pause)
    slider = fig.layout.sliders[0]
    buttons_px = sum(text_px(label, 12) + 24 for label in (play, pause))  # a plotly button: its label + padding
    plot_px = MIN_FIGURE_PX - fig.layout.margin.l - fig.layout.margin.r - 60  # less the y axis's labels
    assert slider.x * plot_px > buttons_px  # (x=0.16 left the handle under Pause)
    assert slider.x + slider.len == pytest.approx(1)


def test_wrapping_by_width_counts_hangul_wide_and_cuts_a_long_name_after_its_equals_sign():
    assert text_px("가나다", 10) > text_px("abc", 10) * 1.5
    assert text_px("worker", 10, bold=True) > text_px("worker", 10)
    assert wrap_px("not pinned: pin_memory=False", 80, 10) == ["not pinned:", "pin_memory=", "False"]
    assert wrap_px("fetch: 52.9\u00a0ms", 45, 10) == ["fetch:", "52.9\u00a0ms"]  # a number keeps its unit
    for text, width, size in (("샘플 16개 가져오기: 52.9\u00a0ms 가장 느린 샘플: 인덱스 6", 80, 10),
                              ("WeightedRandomSampler, inverse class frequency", 120, 13),
                              ("a_very_long_identifier_without_spaces_at_all", 60, 10)):
        lines = wrap_px(text, width, size)
        assert len(lines) > 1 and all(text_px(line, size) <= width for line in lines), lines
        assert "".join(lines).replace(" ", "") == text.replace(" ", "")  # nothing lost
