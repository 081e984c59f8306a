"""The workshop's lesson path: one lesson per DataLoader concept, in teaching order.

Each :class:`~.lesson.Lesson` holds its settings, its question's choice ids and a pure ``answer`` that reads
the recorded run; the lessons live in :mod:`.basics` (1–5), :mod:`.workers` (6–10) and :mod:`.advanced`
(11–14), the runs ``RunConfig`` cannot express in :mod:`.runs`. Words and widgets live in
``loaderlab.ui`` (``lessons_page``, ``texts/lessons_*``); this package knows nothing of plotly or streamlit.
"""

from __future__ import annotations

from . import advanced, basics, workers
from .lesson import BASE, Lesson, Outcome, frame_of, try_run

LESSONS: tuple[Lesson, ...] = (*basics.LESSONS, *workers.LESSONS, *advanced.LESSONS)

__all__ = ["BASE", "LESSONS", "Lesson", "Outcome", "frame_of", "lesson", "try_run"]


def lesson(number: int) -> Lesson:
    """Lesson ``number`` (1-based)."""
    if not 1 <= number <= len(LESSONS):
        raise ValueError(f"lesson must be between 1 and {len(LESSONS)}; got {number!r}")
    return LESSONS[number - 1]
