"""Colours, lane names, text wrapping and room for text shared by every LoaderLab figure (one place, so
figures agree). Knows plotly's layout vocabulary and nothing of streamlit."""

import unicodedata

STAGE_COLOURS = {
    "startup": "#9e9e9e",
    "fetch": "#1f77b4",
    "collate": "#ff7f0e",
    "pin": "#9467bd",
    "wait": "#d62728",
    "consume": "#2ca02c",
    "idle": "#e0e0e0",
}


def lane_name(worker: int) -> str:
    return "main" if worker < 0 else f"worker {worker}"


# Text that must fit a box (the pipeline tour) is drawn in Arial or its metric twin, so that text_px's
# estimate holds on every machine (plotly's default list starts with Open Sans and Verdana, which are wider);
# Hangul falls back to the system's CJK font.
BOX_FONT = "Arial, 'Liberation Sans', Helvetica, sans-serif"
# The narrowest chart the pages are laid out for: a 1280×720 window with the sidebar open gives 820 px.
MIN_FIGURE_PX = 800
LINE_SPACING = 1.3  # plotly draws a line of multi-line text every 1.3 font sizes
# Least room around the plot area, so axis numbers and titles show even before automargin has measured them
# (a 10 px margin cut the numbers off); automargin grows these when the labels need more.
MARGIN = dict(l=50, r=20, t=40, b=50)
TITLE_STANDOFF = 8  # px between an axis's tick labels and its title (automargin then makes room for both)
TITLE_PAD = 10  # px between a left-anchored figure title and the figure's edge

# A figure with every colour its own: plotly.js's defaults and nothing else, as in the app (Streamlit makes its
# template the default: colour scales and a colorway these figures do not use, 3.4 KB of JSON with each one;
# plotly's own "plotly" template, the default without Streamlit, is 7 KB and makes every axis automargin). A
# figure that names it looks the same in the app and in tests, and says itself which axes automargin.
BARE_TEMPLATE = {"layout": {"xaxis": {"automargin": False}, "yaxis": {"automargin": False}}}

# Widths in ems of Arial's characters, by kind (a narrow estimate is the one that overflows, so round up).
_THIN = set("iljtfrI.,:;'|!()[]{}/\\ ")
_WIDE = set("mwMW%@")
_UPPER = set("ABCDEFGHJKLNOPQRSTUVXYZ&")


def _em(c: str) -> float:
    if unicodedata.east_asian_width(c) in "WF":
        return 1.0
    if c in _THIN:
        return 0.34
    if c in _WIDE:
        return 0.9
    if c in _UPPER:
        return 0.72
    return 0.56


def text_px(text: str, size: float, *, bold: bool = False) -> float:
    """About how wide ``text`` is drawn in :data:`BOX_FONT` at ``size`` px (a little wider, never narrower,
    for ordinary text: Hangul counts a full em, bold 6 % more)."""
    return sum(_em(c) for c in text) * size * (1.06 if bold else 1.0)


def _split_long(word: str, width_px: float, size: float, bold: bool) -> list[str]:
    """A word wider than the line, cut after ``=``, ``_``, ``/``, ``,`` or ``.`` where one fits, else anywhere."""
    pieces: list[str] = []
    rest = word
    while text_px(rest, size, bold=bold) > width_px and len(rest) > 1:
        fits = max(n for n in range(1, len(rest) + 1) if n == 1 or text_px(rest[:n], size, bold=bold) <= width_px)
        cut = max((n for n in range(1, fits + 1) if rest[n - 1] in "=_/,."), default=fits)
        pieces.append(rest[:cut])
        rest = rest[cut:]
    return [*pieces, rest]


def wrap_px(text: str, width_px: float, size: float, *, bold: bool = False) -> list[str]:
    """``text`` in lines no wider than ``width_px`` (by :func:`text_px`), broken at plain spaces (a no-break
    space keeps a number with its unit); a word wider than a line is cut (:func:`_split_long`)."""
    lines: list[str] = []
    for word in filter(None, text.split(" ")):
        if lines and text_px(lines[-1] + " " + word, size, bold=bold) <= width_px:
            lines[-1] += " " + word
        elif text_px(word, size, bold=bold) <= width_px:
            lines.append(word)
        else:
            lines += _split_long(word, width_px, size, bold)
    return lines


def boxed_lines(title: str, body: str, width_px: float, size: float) -> list[str]:
    """The text of a box ``width_px`` wide, line by line (plotly's ``<br>`` joins them): ``title`` in bold,
    then ``body`` (whose own newlines also break lines)."""
    lines = [f"<b>{w}</b>" for w in wrap_px(title, width_px, size, bold=True)]
    for part in body.split("\n"):
        lines += wrap_px(part, width_px, size)
    return lines


def margin(**least) -> dict:
    """:data:`MARGIN` with some sides changed (``t=70`` for a legend above the plot…)."""
    return {**MARGIN, **least}


def fit_axes(fig):
    """Every axis grows the figure's margin to fit its tick labels and title (automargin), and keeps its title
    :data:`TITLE_STANDOFF` px clear of its tick labels (without a standoff plotly squeezes the title into the
    margin, over the numbers). Returns ``fig``."""
    fig.update_xaxes(automargin=True, title_standoff=TITLE_STANDOFF)
    fig.update_yaxes(automargin=True, title_standoff=TITLE_STANDOFF)
    return fig


# A slider step or Pause: jump to a frame at once, no easing (frames are moments, not tweens).
STEP = dict(mode="immediate", frame=dict(duration=0, redraw=True), transition=dict(duration=0))


def slider_beside(play: str, pause: str) -> dict:
    """``x`` and ``len`` of a slider that starts right of the Play/Pause buttons (:func:`play_pause`), so the
    buttons never cover its handle: each button is its label (12 px) and about 24 px of padding wide, and the
    plot area is at least :data:`MIN_FIGURE_PX` less the margins and the y axis's labels."""
    buttons_px = sum(text_px(label, 12) + 30 for label in (play, pause)) + 10
    x = round(min(0.4, buttons_px / (MIN_FIGURE_PX - 150)), 3)
    return dict(x=x, len=round(1 - x, 3))


def play_pause(play: str, pause: str, *, frame_ms: int, pad_top: int, from_current: bool) -> dict:
    """The Play/Pause buttons of an animated figure (a ``layout.updatemenus`` entry), bottom left.
    ``from_current``: Play goes on from the slider's frame (else it starts from the first)."""
    return dict(type="buttons", direction="left", x=0, y=0, xanchor="left", yanchor="top", pad=dict(t=pad_top),
                showactive=False, buttons=[
                    dict(label=play, method="animate", args=[None, dict(
                        mode="immediate", fromcurrent=from_current, frame=dict(duration=frame_ms, redraw=True),
                        transition=dict(duration=0))]),
                    dict(label=pause, method="animate", args=[[None], STEP])])
