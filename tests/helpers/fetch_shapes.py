"""Streams of fetch rows bent into the shapes a pairing must handle (for the pairing tests)."""

from __future__ import annotations

import numpy as np

# plain: as a recording makes it; no_last_end: a last begin with no end; end_first: an end before its begin;
# two_begins: a begin twice in a row; other_key: an end whose keys differ from its begin's; lone_end: an end
# that no begin opened
SHAPES = ("plain", "no_last_end", "end_first", "two_begins", "other_key", "lone_end")


def bend(rows: list[dict], shape: str, last_end: int = -1) -> list[dict]:
    """``rows`` (begin, end, begin, end… of one process, in order) bent into ``shape``; ``last_end``: where
    the stream's last fetch end is."""
    if shape == "no_last_end":
        rows.pop(last_end)
    elif shape == "end_first":
        rows[2], rows[3] = rows[3], rows[2]
    elif shape == "two_begins":
        rows.insert(4, dict(rows[4]))
    elif shape == "other_key":
        rows[5] = dict(rows[5], index=rows[5]["index"] + 1)
    elif shape == "lone_end":
        rows.insert(0, dict(rows[1]))
    return rows


def interleave(streams: list[list[dict]], rng: np.random.Generator) -> list[dict]:
    """The streams' rows interleaved at random, each stream's own order kept (processes running at once)."""
    merged = []
    while any(streams):
        live = [s for s in streams if s]
        merged.append(live[rng.integers(len(live))].pop(0))
    return merged
