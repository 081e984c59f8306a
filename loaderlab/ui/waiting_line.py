"""Waiting for a run slot, on the page: "2nd in line, about 3 s", redrawn as the line moves.

The script thread's side of :mod:`loaderlab.scenarios.queue`. :func:`wait_turn` asks the registry for a
config's run; when every slot is taken it shows the ticket's place and estimate and polls (touching the
ticket, so the queue knows the page is still there) until the run starts, then returns it. A rerun (changed
settings) or a closed tab interrupts the poll at its next ``st.*`` call: the ``finally`` leaves the line.
Words come from :mod:`.texts.classroom`.
"""

from __future__ import annotations

import math

import streamlit as st

from ..scenarios.background import BackgroundRun, RunRegistry
from ..scenarios.queue import Ticket
from .texts import t

POLL_S = 0.5  # how often the place is looked at (and the ticket touched: well within the queue's ABANDON_S)
CHECKPOINT_KEY = "_loaderlab_waiting"  # read on every poll: see checkpoint()


def place_text(place: int, seconds: float, slots: int) -> str:
    """The status line, in the page's language."""
    about = max(1, math.ceil(seconds))
    key = "line.next" if place == 1 else "line.place"
    return t(key, place=place, seconds=about) + "  \n" + t("line.why", slots=slots)


def checkpoint() -> None:
    """Where a rerun (the attendee changed settings again) or a closed tab stops this script, sending nothing
    to the page: Streamlit checks for both on every session-state access, as on every ``st.*`` call."""
    st.session_state.get(CHECKPOINT_KEY)


def wait_turn(registry: RunRegistry, config, seconds: float) -> BackgroundRun:
    """``config``'s run, started now or when its turn in the line comes (the place shown meanwhile)."""
    got = registry.request(config, seconds)
    if isinstance(got, BackgroundRun):
        return got
    ticket: Ticket = got
    queue, box, shown = registry.queue, st.empty(), None
    try:
        while not ticket.granted.is_set():
            place = queue.place(ticket)
            if place == 0 and not ticket.granted.is_set() and ticket.dropped:  # dropped while this page slept
                ticket = queue.join(config, ticket.on_grant)
                continue
            # redrawn only when the words change: each redraw cost the attendee's browser about 18 ms of CPU
            # (a room of 20 waiting redrew some 15 times a change). A rerun (the attendee changed settings
            # again) interrupts this loop at the next st.* call or checkpoint(); the finally gives the place up
            text = place_text(max(place, 1), queue.estimate_s(ticket), queue.size)
            if text != shown:
                box.info(text)
                shown = text
            else:
                checkpoint()
            queue.touch(ticket)
            ticket.granted.wait(POLL_S)
    finally:
        if not ticket.granted.is_set():
            queue.leave(ticket)
    box.empty()
    if isinstance(ticket.result, BaseException):
        raise ticket.result
    return ticket.result
