"""``run --tune``'s progress on stderr while it tunes: one line, rewritten in place on a terminal.

Twin of nothing in torch. Reads a :class:`~loaderlab.jobs.tuner.Tuner`'s state; knows nothing of how it
chooses, of files, plotly or streamlit.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from ..trace.diagnosis.tuning import setting_text

if TYPE_CHECKING:
    from .tuner import Tuner


def progress_text(tuner: "Tuner", final: bool = False) -> str:
    """Where the tuning stands: the round and the next setting, or, at the end, what the job runs with."""
    spent, budget_s = tuner.spent, tuner.budget_s
    budget = f"{spent:.1f} of {budget_s:.1f} s" if budget_s else f"{spent:.1f} s"
    if final:
        return (f"loaderlab run --tune: {tuner.name}: tried {len(tuner.cands)} settings in {budget}; "
                f"the rest of the job runs with {setting_text(tuner.adopted_setting().as_dict())}")
    who = tuner.settings[tuner.order[tuner.turn]] if tuner.order else tuner.own
    return (f"loaderlab run --tune: {tuner.name}: round {tuner.round + 1}, next {setting_text(who.as_dict())} "
            f"({len(tuner.order)} settings left), {budget}")


def progress(tuner: "Tuner", final: bool = False) -> None:
    """Write :func:`progress_text` to stderr: in place on a terminal, a line each in a log."""
    text = progress_text(tuner, final)
    sys.stderr.write(f"\r{text}\033[K" + ("\n" if final else "") if sys.stderr.isatty() else f"{text}\n")
    sys.stderr.flush()
