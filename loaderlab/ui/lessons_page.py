"""The "Lessons" page: one DataLoader concept at a time — the idea, a question asked before the run, the
run, the answer read from what it recorded, the same code in torch, and a link to change it yourself.

Wiring only: ``?lesson=N`` / the select box / previous-next → :mod:`loaderlab.lessons` (settings, runs and
answers) → the existing figure builders. Words come from ``texts/lessons_a``, ``_b`` and ``_c``.

The lesson's number is kept under its own session key, not the select box's: a select box's value travels
between browser and server as its option's label, which follows the language. After a language switch the
browser still holds the old language's label, matches none of the new labels, and streamlit hands the
label back as the value (a ``str``), so the number is written into the box every run and read back from it
only when the user picks (the same split as the sidebar's language radio in :mod:`.language`).
"""

from __future__ import annotations

from dataclasses import replace

from pathlib import Path
from urllib.parse import urlencode

import streamlit as st
from streamlit.errors import StreamlitAPIException

from ..figures.label_counts import label_counts_figure
from ..figures.padding import padding_fraction_figure
from ..figures.queues import queue_depth_figure
from ..figures.timeline import timeline_figure
from ..lessons import frame_of, Lesson, LESSONS
from ..trace.tables.audits import label_audit, padding_audit
from ..trace.tables.stays import queue_depths
from ..trace.tables.waits import stage_spans, STAGES
from ..trace.core.lookups import normal, prefetch_cap, trace_end
from .language import page_setup
from .outcome import show_warnings
from .query_settings import to_query
from .room import room_sidebar, run_shown, send_answer
from .settings import cached_run, run_lock, running, torch_code
from .texts import bound, EN, language, t

KEY = "lesson"  # the select box's key and the query parameter (1-based)
NUMBER = "lesson_number"  # the kept number (an int): the select box shows it, previous/next and a pick change it
TOTAL = len(LESSONS)
PAGES = Path(__file__).resolve().parents[2] / "pages"


def _init_number() -> None:
    if NUMBER not in st.session_state:
        try:
            asked = int(st.query_params.get(KEY, 1))
        except ValueError:
            asked = 1
        st.session_state[NUMBER] = min(max(asked, 1), TOTAL)


def _step(delta: int) -> None:
    st.session_state[NUMBER] = min(max(st.session_state[NUMBER] + delta, 1), TOTAL)


def _picked() -> None:
    picked = st.session_state[KEY]
    if isinstance(picked, int) and 1 <= picked <= TOTAL:  # not another language's label (see the docstring)
        st.session_state[NUMBER] = picked


def _choose() -> Lesson:
    _init_number()
    number = st.session_state[NUMBER]
    st.session_state[KEY] = number  # sent to the browser as this language's label
    tt = bound()  # format_func may run later, in another thread
    # An option label is plain text: the titles' markdown backticks would show as such.
    st.selectbox(t("lessons.pick"), range(1, TOTAL + 1), key=KEY, on_change=_picked, format_func=lambda n: tt(
        "lessons.option", n=n, title=tt(f"lessons.{LESSONS[n - 1].slug}.title").replace("`", "")))
    left, right = st.columns(2)
    left.button(t("lessons.prev"), key="lesson_prev", on_click=_step, args=(-1,), disabled=number == 1)
    right.button(t("lessons.next"), key="lesson_next", on_click=_step, args=(1,), disabled=number == TOTAL)
    if st.query_params.get(KEY) != str(number):
        st.query_params[KEY] = str(number)
    return LESSONS[number - 1]


@st.cache_data(max_entries=16, show_spinner=False)  # running() shows the spinner
def _lesson_run(number: int):
    """A lesson with its own run (not a RunConfig): cached by lesson, one run at a time per server."""
    with run_lock():
        return LESSONS[number - 1].execute()


def _result(lesson: Lesson):
    if lesson.runner is None:  # no lesson draws memory: a room's runs skip sampling it (0.04 s of CPU a run)
        return cached_run(replace(lesson.config(), sample_memory=False))
    with running():
        return _lesson_run(lesson.number)


def _figure(lesson: Lesson, frame) -> None:
    if lesson.figure == "timeline":
        fig = timeline_figure(stage_spans(frame), title=t("lessons.figure.timeline"), x_title=t("timeline.x"),
                              stage_names={s: t(f"stage.{s}") for s in STAGES})
    elif lesson.figure == "depths":
        fig = queue_depth_figure(
            queue_depths(frame), cap=prefetch_cap(frame), end_s=trace_end(normal(frame)),
            names={q: t(f"lessons.figure.depth.{q}") for q in ("outstanding", "result_queue", "data_queue", "reorder")},
            panel_titles={p: t(f"lessons.figure.panel.{p}") for p in ("outstanding", "index", "result", "reorder")},
            cap_name=t("lessons.figure.cap"), x_title=t("timeline.x"), y_title=t("lessons.figure.depth_y"))
    elif lesson.figure == "labels":
        fig = label_counts_figure(label_audit(frame).per_epoch, x_title=t("lessons.figure.labels_x"),
                                  y_title=t("lessons.figure.labels_y"), epoch_name=t("lessons.figure.epoch"))
    elif lesson.figure == "padding":
        fig = padding_fraction_figure({t("lessons.figure.run"): padding_audit(frame)},
                                      title=t("lessons.figure.padding_title"), x_title=t("lessons.figure.padding_x"),
                                      y_title=t("lessons.figure.padding_y"),
                                      overall_name=t("lessons.figure.padding_overall"),
                                      hover=t("lessons.figure.padding_hover"))
    else:
        return
    st.plotly_chart(fig, theme=None, key=f"lesson{lesson.number}_figure")


def _table(lesson: Lesson, result) -> None:
    table = lesson.table(result) if lesson.table else None
    if table is None or not len(table):
        return
    names = {c: t(f"lessons.col.{c}") for c in table.columns if f"lessons.col.{c}" in EN}
    st.dataframe(table.rename(columns=names), hide_index=True)


def _run_and_explain(lesson: Lesson, picked: str, prompt: dict) -> None:
    result = _result(lesson)
    correct, params = lesson.answer(result)
    choice = t(f"lessons.{lesson.slug}.choice.{correct}", **prompt)
    if picked == correct:
        st.success(t("lessons.right", choice=choice))
    else:
        st.error(t("lessons.wrong", picked=t(f"lessons.{lesson.slug}.choice.{picked}", **prompt), choice=choice))
    st.markdown(t(f"lessons.{lesson.slug}.why.{correct}", **params))
    st.subheader(t("lessons.run.title"))
    frame = frame_of(result)
    if frame is None:
        st.error(t("lessons.run.error", message=getattr(result, "error", "")))
    else:
        show_warnings(frame)
        _figure(lesson, frame)
    _table(lesson, result)


def _code_and_link(lesson: Lesson) -> None:
    with st.expander(t("lessons.code.title")):
        code = lesson.code(lesson.settings) if lesson.code else torch_code(lesson.config())
        st.code(code, language="python")
    key = f"tour.link.{lesson.page}"
    page = t(key) if key in EN else lesson.page.split("_", 1)[-1].replace("_", " ")
    label, query = t("lessons.try", page=page), {"lang": language(), **to_query(lesson.link_settings())}
    try:
        st.page_link(str(PAGES / f"{lesson.page}.py"), label=label, query_params=query)
    except StreamlitAPIException:  # the page runs alone (AppTest of one page file): a plain link instead
        st.markdown(f"[{label}](/{lesson.page.split('_', 1)[-1]}?{urlencode(query)})")


def main() -> None:
    page_setup()
    room_sidebar()  # ?room=CODE or the sidebar's code: answers go to the teacher's room
    st.title(t("lessons.title"))
    st.write(t("lessons.intro"))
    lesson = _choose()
    slug, prompt = lesson.slug, lesson.prompt_params()
    st.header(t("lessons.heading", n=lesson.number, total=TOTAL, title=t(f"lessons.{slug}.title")))
    st.markdown(t(f"lessons.{slug}.explain"))
    st.subheader(t("lessons.question"))
    st.markdown(t(f"lessons.{slug}.question", **prompt))
    tt = bound()
    picked = st.radio(t("lessons.question"), lesson.choices, index=None, key=f"lesson{lesson.number}_pick",
                      format_func=lambda c: tt(f"lessons.{slug}.choice.{c}", **prompt), label_visibility="collapsed")
    answered_key = f"lesson{lesson.number}_answered"
    if st.button(t("lessons.check"), key=f"lesson{lesson.number}_check", type="primary"):
        if picked is None:
            st.warning(t("lessons.need_choice"))
        else:
            st.session_state[answered_key] = picked
            send_answer(lesson.number, picked)
    answered = st.session_state.get(answered_key)
    if answered is None:
        st.info(t("lessons.waiting"))
    elif run_shown(lesson.number):  # in a room: once the teacher reveals it
        _run_and_explain(lesson, answered, prompt)
    _code_and_link(lesson)
