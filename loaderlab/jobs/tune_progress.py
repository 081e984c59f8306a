"""``run --tune``'s progress on stderr while it tunes: one line, rewritten in place on a terminal.

Twin of nothing in torch. Formats what the tuner hands it (:mod:`.tuner`); knows nothing of how it chooses,
of files, plotly or streamlit.
"""

from __future__ import annotations

import sys


def progress_text(name: str, spent_s: float, budget_s: float | None, setting: str, round_: int | None = None,
                  left: int = 0, tried: int = 0) -> str:
    """Where the tuning stands: the round and the next ``setting`` (``round_`` counted from 0), or, where
    ``round_`` is None (the end), how many settings were tried and the ``setting`` the job runs with;
    ``spent_s``: what the tuning has cost the job so far (:func:`.tune_pace.cost_s`), which ``budget_s`` bounds."""
    budget = f"cost {spent_s:.1f} of {budget_s:.1f} s" if budget_s else f"cost {spent_s:.1f} s"
    if round_ is None:
        return f"loaderlab run --tune: {name}: tried {tried} settings, {budget}; the rest of the job runs with {setting}"
    return f"loaderlab run --tune: {name}: round {round_ + 1}, next {setting} ({left} settings left), {budget}"


def progress(text: str, final: bool = False) -> None:
    """Write a :func:`progress_text` line to stderr: in place on a terminal, a line each in a log."""
    sys.stderr.write(f"\r{text}\033[K" + ("\n" if final else "") if sys.stderr.isatty() else f"{text}\n")
    sys.stderr.flush()
