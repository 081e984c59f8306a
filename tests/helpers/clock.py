"""A clock the test moves by hand, for code that takes an injectable ``clock`` (the run queue, the room store)."""

from __future__ import annotations


class Clock:
    """Returns ``now``; a test advances it (``clock.now += 5``) instead of sleeping."""

    def __init__(self, now: float = 100.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
