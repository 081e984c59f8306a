"""The teacher's "Room" page: start a room, give its link, see per lesson how many chose each answer, reveal.

Wiring only: the teacher key (:func:`.room.teacher_key`) → :mod:`loaderlab.classroom.store` → the answer
chart (:mod:`loaderlab.figures.room_answers`). The counts refresh every ``REFRESH_S`` in a fragment. The
teacher's room lives in this browser session; after a server restart the teacher opens it again by code
(the answers are in the SQLite file). Words: :mod:`.texts.classroom` and the lessons' own choice texts.
"""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

import streamlit as st

from ..classroom.store import RoomsOff, UnknownRoom
from ..figures.room_answers import answer_counts_figure
from ..lessons import LESSONS
from .language import page_setup
from .room import is_teacher_key, show_off, store, teacher_key
from .texts import bound, language, t

TEACHER = "room_teacher"  # session state: this session gave the right key
ROOM = "room_teacher_code"  # session state: the room this teacher shows
REFRESH_S = 2.0


def _check_key() -> None:
    if is_teacher_key(st.session_state.get("room_key", "")):
        st.session_state[TEACHER] = True
    else:
        st.session_state["room_key_wrong"] = True


def _login() -> None:
    st.text_input(t("room.teacher.key"), type="password", key="room_key", help=t("room.teacher.key_help"))
    st.button(t("room.teacher.enter"), key="room_key_enter", on_click=_check_key, type="primary")
    if st.session_state.pop("room_key_wrong", False):
        st.error(t("room.teacher.wrong"))


def _start() -> None:
    st.session_state[ROOM] = store().open_room().code


def _choose_room() -> None:
    st.button(t("room.teacher.start"), key="room_start", on_click=_start, type="primary")
    st.text_input(t("room.teacher.reopen"), key="room_reopen", max_chars=12)
    if st.button(t("room.teacher.reopen_button"), key="room_reopen_button"):
        try:
            st.session_state[ROOM] = store().room(st.session_state.get("room_reopen", "")).code
            st.rerun()
        except UnknownRoom:
            st.error(t("room.unknown", code=st.session_state.get("room_reopen", "")))


def _link(code: str) -> str:
    parts = urlsplit(st.context.url or "")
    base = f"{parts.scheme}://{parts.netloc}" if parts.netloc else "http://<server>:8501"
    return f"{base}/Lessons?{urlencode({'room': code, 'lang': language()})}"


def _close(code: str) -> None:
    store().close_room(code)
    st.session_state.pop(ROOM, None)
    st.session_state["room_closed"] = code


@st.fragment(run_every=REFRESH_S)
def _answers(code: str, number: int) -> None:
    lesson = LESSONS[number - 1]
    prompt, tt = lesson.prompt_params(), bound()
    counts = store().counts(code, number)
    total = sum(counts.values())
    st.caption(t("room.teacher.count", count=total, n=number))
    if not total:
        st.info(t("room.teacher.none"))
        return
    labels = [tt(f"lessons.{lesson.slug}.choice.{c}", **prompt).replace("`", "") for c in lesson.choices]
    fig = answer_counts_figure(labels, [counts.get(c, 0) for c in lesson.choices],
                               title=t("room.teacher.chart"), x_title=t("room.teacher.chart_x"))
    st.plotly_chart(fig, theme=None, key="room_chart")
    names = store().nicknames(code, number)
    if names:
        with st.expander(t("room.teacher.nicknames")):
            for choice in lesson.choices:
                if names.get(choice):
                    st.markdown(f"**{labels[lesson.choices.index(choice)]}**: {', '.join(names[choice])}")


def _room(code: str) -> None:
    st.subheader(t("room.teacher.code", code=code))
    st.caption(t("room.teacher.link"))
    st.code(_link(code), language="text")
    tt = bound()
    number = st.selectbox(t("room.teacher.lesson"), range(1, len(LESSONS) + 1), key="room_lesson",
                          format_func=lambda n: tt("lessons.option", n=n,
                                                   title=tt(f"lessons.{LESSONS[n - 1].slug}.title").replace("`", "")))
    _answers(code, number)
    shown = number in store().revealed(code)
    if shown:
        st.success(t("room.teacher.revealed"))
        st.button(t("room.teacher.hide"), key="room_hide", on_click=lambda: store().reveal(code, number, False))
    else:
        st.warning(t("room.teacher.hidden"))
        st.button(t("room.teacher.reveal"), key="room_reveal", type="primary",
                  on_click=lambda: store().reveal(code, number))
    st.markdown(f"[{t('room.teacher.open_lesson', n=number)}](/Lessons?"
                f"{urlencode({'lesson': number, 'lang': language()})})")
    st.divider()
    st.button(t("room.teacher.close"), key="room_close", on_click=_close, args=(code,))


def main() -> None:
    page_setup("room.page")
    teacher_key()  # made (and printed in the server's terminal) if this is the server's first page
    try:
        store()
    except RoomsOff as exc:
        show_off(exc)
        return
    closed = st.session_state.pop("room_closed", None)
    if closed:
        st.info(t("room.teacher.closed", code=closed))
    if not st.session_state.get(TEACHER):
        _login()
        return
    try:
        code = st.session_state.get(ROOM)
        if code is None:
            _choose_room()
            return
        try:
            store().room(code)
        except UnknownRoom:
            st.session_state.pop(ROOM, None)
            st.error(t("room.unknown", code=code))
            _choose_room()
            return
        _room(code)
    except RoomsOff as exc:
        show_off(exc)
