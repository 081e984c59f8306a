"""A page whose run finds every slot taken waits in line, then runs (AppTest), and the words of its place.

The only slot is held by the test itself; a helper thread waits until the page has joined the line (the
queue's own count), reads its place, then gives the slot back — the page's run must then start by itself.
"""

from __future__ import annotations

import threading
from pathlib import Path

from streamlit.testing.v1 import AppTest

from loaderlab.ui.texts import set_language
from tests.helpers.processes import baseline, still_alive
from loaderlab.ui.waiting_line import place_text

ROOT = Path(__file__).resolve().parents[2]


def test_the_place_is_worded_in_both_languages():
    set_language("en")
    assert place_text(1, 0.2, 2).startswith("**Next in line**: your run starts in about 1 s.")
    assert place_text(3, 3.2, 2).startswith("**Number 3 in line**: your run starts in about 4 s.")
    assert "2 at a time on this server" in place_text(3, 3.2, 2)
    set_language("ko")
    assert place_text(3, 3.2, 2).startswith("**대기 3번째**입니다. 약 4초 뒤에")
    set_language("en")


def test_a_page_waits_its_turn_then_runs_by_itself(fresh_cache):
    from loaderlab.ui.live_run import live_registry

    before = baseline()
    queue = live_registry().queue
    held = queue.join(object(), abandonable=False)  # someone else's run holds a slot…
    others = [queue.join(object(), abandonable=False) for _ in range(queue.size - 1)]  # …every slot
    seen: dict = {}

    def give_back_when_the_page_waits() -> None:
        for _ in range(600):
            if queue.waiting():
                ticket = queue._waiting[0]
                seen["place"], seen["estimate"] = queue.place(ticket), queue.estimate_s(ticket)
                break
            threading.Event().wait(0.1)  # bounded: the page joins within a second or two
        for t in (held, *others):
            queue.release(t)

    helper = threading.Thread(target=give_back_when_the_page_waits, daemon=True)
    helper.start()
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=120)
    at.session_state["n_samples"] = 64
    at.run()
    helper.join(60)
    assert seen["place"] == 1 and seen["estimate"] >= 0
    assert not at.exception and at.dataframe  # the run started when the slot came free, and was drawn
    assert queue.running() == 0 and queue.waiting() == 0
    assert not still_alive(before, 10.0)  # the run's workers are gone


class _Line:
    """A queue where the page stays 2nd in line, about 3 s, for four looks; then its turn comes."""

    size = 2

    def __init__(self, ticket) -> None:
        self.ticket, self.touches = ticket, 0

    def place(self, ticket) -> int:
        return 2

    def estimate_s(self, ticket) -> float:
        return 3.0

    def touch(self, ticket) -> None:
        self.touches += 1
        if self.touches == 4:
            ticket.result = "the run"
            ticket.granted.set()

    def leave(self, ticket) -> None:
        raise AssertionError("a granted ticket does not leave")


def test_the_place_is_drawn_again_only_when_its_words_change(monkeypatch):
    """Every poll looks at the place and touches the ticket; the box is sent to the browser once while the
    words stay the same (each redraw costs the attendee's browser a render); the other polls only pass a
    checkpoint, where a rerun would stop the wait."""
    from loaderlab.scenarios.queue import Ticket
    from loaderlab.ui import waiting_line

    drawn, checkpoints = [], []

    class Box:
        def info(self, text: str) -> None:
            drawn.append(text)

        def empty(self) -> None:
            pass

    class Registry:
        def __init__(self) -> None:
            self.queue = _Line(ticket)

        def request(self, config, seconds):
            return ticket

    ticket = Ticket("settings", 0.0, None, abandonable=True)
    monkeypatch.setattr(waiting_line.st, "empty", Box)
    monkeypatch.setattr(waiting_line, "checkpoint", lambda: checkpoints.append(1))
    monkeypatch.setattr(waiting_line, "POLL_S", 0.0)
    set_language("en")
    registry = Registry()
    assert waiting_line.wait_turn(registry, "settings", 30.0) == "the run"
    assert registry.queue.touches == 4
    assert drawn == [place_text(2, 3.0, 2)] and len(checkpoints) == 3
