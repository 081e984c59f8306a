"""AppTest runs of the "Lessons" page — every lesson, in English and Korean, answered and explained — and of
a "change it yourself" link's settings arriving on the target page.

Lesson runs are cached (``st.cache_data`` persists across AppTest instances in one process), so the Korean
pass reuses the English pass's runs. No timing is asserted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from loaderlab.texts import wording
from loaderlab.lessons import LESSONS
from loaderlab.ui.query_settings import settings_from_query, to_query
from loaderlab.ui.texts import EN, KO, lessons_a, lessons_b, lessons_c

ROOT = Path(__file__).resolve().parents[2]
PAGE, TIMELINES = str(ROOT / "pages" / "0_Lessons.py"), str(ROOT / "pages" / "3_Worker_timelines.py")
TIMEOUT_S = 120
RIGHT = {1: "per_worker", 2: "short_last", 3: "new", 4: "error", 5: "error", 6: "w1", 7: "cap", 8: "after",
         9: "per_epoch", 10: "different", 11: "balanced", 12: "main_thread", 13: "same", 14: "raises"}


@pytest.fixture(scope="module", autouse=True)
def fresh_cache():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def _fields(template) -> set[str]:
    return {name for name, _, _ in wording.placeholders(template)}


def test_lesson_texts_have_the_same_keys_and_placeholders_in_both_languages():
    for module in (lessons_a, lessons_b, lessons_c):
        for key, entry in module.TEXTS.items():
            assert key.startswith("lessons."), key
            assert set(entry) == {"en", "ko"} and _fields(entry["en"]) == _fields(entry["ko"]), key
    for x in LESSONS:
        for part in ("title", "explain", "question", *(f"choice.{c}" for c in x.choices)):
            assert f"lessons.{x.slug}.{part}" in EN
        assert f"lessons.{x.slug}.why.{RIGHT[x.number]}" in EN
    assert "tour.link.0_Lessons" in EN and "tour.link.0_Lessons" in KO


def _open(number: int, lang: str) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    at.query_params["lesson"] = str(number)
    at.query_params["lang"] = lang
    return at.run()


def _prefix(template: str) -> str:
    """The words of a template before its first placeholder (what the page shows whatever the run measured)."""
    return template.split("{")[0].strip()[:24]


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("number", range(1, 15))
def test_each_lesson_asks_first_then_runs_and_explains_the_answer(number, lang):
    texts, lesson = {"en": EN, "ko": KO}[lang], LESSONS[number - 1]
    at = _open(number, lang)
    assert not at.exception
    assert texts[f"lessons.{lesson.slug}.title"].split("{")[0][:12] in at.header[0].value
    assert at.info[0].value == texts["lessons.waiting"]  # no run before the answer
    assert not at.get("plotly_chart") and not at.success

    right = RIGHT[number]
    picked = right if lang == "en" else next(c for c in lesson.choices if c != right)
    at.radio(key=f"lesson{number}_pick").set_value(picked)
    at.button(key=f"lesson{number}_check").click().run()
    assert not at.exception
    if picked == right:
        assert at.success[0].value.startswith(texts["lessons.right"].split("{")[0])
    else:
        assert any(e.value.startswith(texts["lessons.wrong"].split("{")[0]) for e in at.error)
    why = _prefix(texts[f"lessons.{lesson.slug}.why.{right}"])
    assert any(why in m.value for m in at.markdown), why
    link = next(m.value for m in at.markdown if m.value.startswith("["))  # page run alone: a plain link
    assert f"lang={lang}" in link and link.split("](/")[1].startswith(lesson.page.split("_", 1)[1])


def test_previous_and_next_step_through_the_lessons():
    at = _open(1, "en")
    assert at.button(key="lesson_prev").disabled
    at.button(key="lesson_next").click().run()
    assert not at.exception
    assert at.header[0].value.startswith("Lesson 2 of 14")
    assert at.query_params["lesson"] in ("2", ["2"])
    at.selectbox(key="lesson").set_value(14).run()
    assert at.header[0].value.startswith("Lesson 14 of 14") and at.button(key="lesson_next").disabled


def _browser_holds(box, label: str) -> None:
    """Make the select box ``box`` send ``label`` on the next run, as the browser does with the label it was
    last given (AppTest itself always sends a label of the current options)."""
    from streamlit.proto.WidgetStates_pb2 import WidgetState

    box.__class__ = type("Held", (type(box),), {
        "_widget_state": property(lambda self: WidgetState(id=self.id, string_value=label))})


@pytest.mark.parametrize("first, then", [("en", "ko"), ("ko", "en")])
def test_previous_and_next_after_a_language_switch(first, then):
    """Issue 34: after a switch the browser still holds the box's label in the old language, which is none of
    the new options; streamlit hands that label back as the box's value (a str), and next/previous added
    an int to it."""
    texts = {"en": EN, "ko": KO}[then]
    at = _open(3, first)
    held = at.selectbox(key="lesson").options[2]  # "Lesson 3: …" in the first language
    at.radio(key="language_radio").set_value(then).run()
    assert not at.exception and held not in at.selectbox(key="lesson").options
    for button, number in (("lesson_next", 4), ("lesson_prev", 3)):
        _browser_holds(at.selectbox(key="lesson"), held)
        at.button(key=button).click().run()
        assert not at.exception, at.exception
        assert at.header[0].value.startswith(texts["lessons.heading"].split("{")[0])
        assert f" {number} " in at.header[0].value and at.query_params["lesson"] in (str(number), [str(number)])
        assert at.selectbox(key="lesson").value == number


def test_checking_without_a_choice_asks_for_one():
    at = _open(6, "en")
    at.button(key="lesson6_check").click().run()
    assert at.warning[0].value == EN["lessons.need_choice"]
    assert not at.success and not at.get("plotly_chart")


def test_query_values_are_typed_and_bad_ones_dropped():
    query = to_query({"num_workers": 3, "in_order": False, "cost_ms": 0.5, "kind": "iterable_sharded"})
    assert query == {"num_workers": "3", "in_order": "false", "cost_ms": "0.5", "kind": "iterable_sharded"}
    assert settings_from_query({**query, "lang": "ko", "batch_size": "many", "sampler": "nonsense"}) == {
        "num_workers": 3, "in_order": False, "cost_ms": 0.5, "kind": "iterable_sharded"}


def test_a_change_it_yourself_link_fills_the_target_page_once():
    link = dict(LESSONS[7].link_settings(), num_workers=3, in_order=False)  # lesson 8, changed
    at = AppTest.from_file(TIMELINES, default_timeout=TIMEOUT_S)
    for key, value in {"lang": "ko", **to_query(link)}.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    assert at.slider(key="num_workers").value == 3
    assert at.checkbox(key="in_order").value is False
    assert at.number_input(key="straggler_index").value == 10
    assert at.slider(key="batch_size").value == 4
    assert re.search(r"[가-힣]", at.title[0].value)  # the link's language came along

    at.slider(key="num_workers").set_value(1).run()  # the attendee's own change is not undone
    assert not at.exception
    assert at.slider(key="num_workers").value == 1


def test_the_home_page_links_the_lessons_first_in_the_chosen_language():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S)
    at.query_params["lang"] = "ko"
    for key, value in {"n_samples": 16, "batch_size": 4, "cost_ms": 0.0}.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception
    first = at.main.get("page_link")[0].proto
    assert first.page == "Lessons" and KO["tour.link.0_Lessons"] in first.label


def test_lesson_runs_sample_no_memory_and_are_otherwise_the_lessons_own(monkeypatch):
    from loaderlab.ui import lessons_page
    asked = []
    monkeypatch.setattr(lessons_page, "cached_run", lambda config: asked.append(config) or "run")
    for lesson in [lesson for lesson in LESSONS if lesson.runner is None]:
        assert lessons_page._result(lesson) == "run"
        assert asked[-1].sample_memory is False  # no lesson draws memory; a room of runs skips sampling it
        assert {**vars(asked[-1]), "sample_memory": True} == vars(lesson.config())
