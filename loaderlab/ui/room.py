"""An attendee's side of a workshop room: joining (``?room=CODE`` or the sidebar), sending lesson answers,
and waiting for the teacher to reveal a lesson's run. Also the server-wide room store and teacher key.

Wiring only: :mod:`loaderlab.classroom.store` → streamlit. The joined code lives in session state (like the
language, it survives page switches); the attendee is a random id made per browser session, with an
optional nickname: nothing else about them is stored. When the store cannot be used (:class:`RoomsOff`)
the room says so in one sentence and everything else goes on without it. Words: :mod:`.texts.classroom`.
"""

from __future__ import annotations

import hmac
import os
import secrets
import sys

import streamlit as st

from ..classroom.store import RoomsOff, RoomStore, UnknownRoom, normalise_code
from .texts import t

CODE = "room_code"  # session state: the joined room
INPUT = "room_code_input"  # the sidebar's code box
NICK = "room_nickname"
ATTENDEE = "room_attendee"
KEY_ENV = "LOADERLAB_TEACHER_KEY"
REVEAL_POLL_S = 2.0  # an attendee waiting for the reveal asks the store this often


@st.cache_resource
def teacher_key() -> str:
    """The server's teacher key: ``LOADERLAB_TEACHER_KEY``, or one made now and printed in the server's
    terminal (once per server process, when its first page is opened)."""
    key = os.environ.get(KEY_ENV, "").strip()
    if not key:
        key = secrets.token_urlsafe(9)
        print(f"LoaderLab teacher key: {key}  (the Room page asks for it; set {KEY_ENV} to choose one)",
              file=sys.stderr, flush=True)
    return key


def is_teacher_key(given: str) -> bool:
    return hmac.compare_digest(given.strip().encode(), teacher_key().encode())


@st.cache_resource
def _store() -> RoomStore:
    return RoomStore()  # RoomsOff is raised, not cached: a later page tries again


def store() -> RoomStore:
    """The server's room store; raises RoomsOff (the caller says why in one sentence)."""
    return _store()


def show_off(exc: RoomsOff, where=st) -> None:
    where.warning(t("room.off", detail=str(exc).removeprefix("rooms are off: ").rstrip(".")))


def joined() -> str | None:
    return st.session_state.get(CODE)


def _attendee() -> str:
    if ATTENDEE not in st.session_state:
        st.session_state[ATTENDEE] = secrets.token_hex(8)
    return st.session_state[ATTENDEE]


def _join(code: str, where) -> None:
    code = normalise_code(code)
    if not code:
        return
    try:
        store().room(code)
    except UnknownRoom:
        where.error(t("room.unknown", code=code))
        return
    except RoomsOff as exc:
        show_off(exc, where)
        return
    st.session_state[CODE] = code


def _leave() -> None:
    st.session_state.pop(CODE, None)
    st.session_state[INPUT] = ""
    if "room" in st.query_params:
        del st.query_params["room"]


def _typed() -> None:
    st.session_state["room_typed"] = st.session_state.get(INPUT, "")


def room_sidebar() -> None:
    """The sidebar's room box: the joined room (nickname, leave) or a code box. Reads ``?room=`` on arrival."""
    teacher_key()  # made (and printed) when the server's first page opens
    box = st.sidebar.container()
    asked = st.query_params.get("room")
    if asked and joined() != normalise_code(asked) and not st.session_state.get("room_asked") == asked:
        st.session_state["room_asked"] = asked  # a link is read once: leaving the room is not undone by it
        _join(asked, box)
    typed = st.session_state.pop("room_typed", "")
    if typed:
        _join(typed, box)
    code = joined()
    if code is None:
        box.text_input(t("room.code_input"), key=INPUT, help=t("room.code_help"), on_change=_typed, max_chars=12)
        return
    if st.query_params.get("room") != code:
        st.query_params["room"] = code  # a copied link keeps the room
    box.success(t("room.joined", code=code))
    box.text_input(t("room.nickname"), key=NICK, max_chars=24)
    box.button(t("room.leave"), key="room_leave", on_click=_leave)


def send_answer(lesson: int, choice: str) -> None:
    """The attendee pressed Check: their answer goes to the joined room (the latest counts)."""
    code = joined()
    if code is None:
        return
    try:
        store().answer(code, _attendee(), lesson, choice, st.session_state.get(NICK, ""))
    except UnknownRoom:
        st.error(t("room.unknown", code=code))
        st.session_state.pop(CODE, None)
    except RoomsOff as exc:
        show_off(exc)


def run_shown(lesson: int) -> bool:
    """Whether the lesson page may show the run and the answer now: always outside a room (or with rooms
    off); in a room, once the teacher revealed it. Until then it says the answer went to the room and
    waits for the reveal (a fragment asks the store every ``REVEAL_POLL_S``)."""
    code = joined()
    if code is None:
        return True
    try:
        if lesson in store().revealed(code):
            return True
    except UnknownRoom:  # closed by the teacher, or expired: the lesson goes on without the room
        st.session_state.pop(CODE, None)
        return True
    except RoomsOff as exc:
        show_off(exc)
        return True
    st.info(t("room.sent", code=code))
    st.caption(t("room.sent.change"))
    _await_reveal(code, lesson)
    return False


@st.fragment(run_every=REVEAL_POLL_S)
def _await_reveal(code: str, lesson: int) -> None:
    try:
        revealed = lesson in store().revealed(code)
    except (UnknownRoom, RoomsOff):
        revealed = True  # the page's next full run says why
    if revealed:
        st.rerun()
