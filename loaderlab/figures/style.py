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
