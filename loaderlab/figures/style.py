"""Colours, lane names and text wrapping shared by every LoaderLab figure (one place, so figures agree)."""

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


def _columns(text: str) -> int:
    """Display width: a wide character (Hangul, CJK) takes two columns."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken at plain spaces only (a no-break space keeps a
    number with its unit; a longer word keeps its own line)."""
    lines: list[str] = []
    for word in filter(None, text.split(" ")):
        if lines and _columns(lines[-1]) + 1 + _columns(word) <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines


# A slider step or Pause: jump to a frame at once, no easing (frames are moments, not tweens).
STEP = dict(mode="immediate", frame=dict(duration=0, redraw=True), transition=dict(duration=0))


def play_pause(play: str, pause: str, *, frame_ms: int, pad_top: int, from_current: bool) -> dict:
    """The Play/Pause buttons of an animated figure (a ``layout.updatemenus`` entry), bottom left.
    ``from_current``: Play goes on from the slider's frame (else it starts from the first)."""
    return dict(type="buttons", direction="left", x=0, y=0, xanchor="left", yanchor="top", pad=dict(t=pad_top),
                showactive=False, buttons=[
                    dict(label=play, method="animate", args=[None, dict(
                        mode="immediate", fromcurrent=from_current, frame=dict(duration=frame_ms, redraw=True),
                        transition=dict(duration=0))]),
                    dict(label=pause, method="animate", args=[[None], STEP])])
