"""Links and the server's caps compose: every page opened by every lesson's "change it yourself" link under
the README's workshop caps shows the page, never a Streamlit exception; a link value above a cap is clamped
and said so; a malformed one is ignored and said so (issue 12, item 2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from loaderlab.texts import wording, words
from loaderlab.lessons import LESSONS
from loaderlab.scenarios.limits import Limits
from loaderlab.ui.control_ranges import clamp, fit_link, ranges
from loaderlab.ui.query_settings import to_query
from loaderlab.ui.texts import EN, KO

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
WORKSHOP = {"LOADERLAB_MAX_WORKERS": "2", "LOADERLAB_MAX_SAMPLES": "2000", "LOADERLAB_MAX_RUN_SECONDS": "20",
            "LOADERLAB_MAX_CONCURRENT_RUNS": "2"}
CAPS = Limits(max_workers=2, max_samples=2000, max_run_seconds=20, max_concurrent_runs=2)
PAGES = ["app.py", "pages/0_Lessons.py", "pages/1_Event_table.py", "pages/2_Index_queues.py",
         "pages/3_Worker_timelines.py", "pages/4_Sampling_and_imbalance.py", "pages/5_Padding_and_collate.py",
         "pages/6_Pinned_memory.py", "pages/7_Your_trace.py", "pages/8_Distributed.py"]
SIDEBAR_PAGES = [p for p in PAGES if not p.endswith(("0_Lessons.py", "8_Distributed.py"))]  # draw the sidebar
SIDEBAR_ONLY = """
from loaderlab.ui.language import page_setup
from loaderlab.ui.settings import sidebar_config
page_setup()
sidebar_config()
"""

pytestmark = pytest.mark.usefixtures("fresh_cache")


@pytest.fixture
def workshop_caps(monkeypatch):
    for name, value in WORKSHOP.items():
        monkeypatch.setenv(name, value)


def _open(script: str, query: dict[str, str], lang: str = "en", *, source: bool = False) -> AppTest:
    at = (AppTest.from_string(script, default_timeout=TIMEOUT_S) if source
          else AppTest.from_file(str(ROOT / script), default_timeout=TIMEOUT_S))
    for key, value in {"lang": lang, **query}.items():
        at.query_params[key] = value
    return at.run()


# The diagnosis box (ui/diagnosis_view.py) leads with the run's verdict in bold; it is about the run, not the link.
VERDICT_TITLES = tuple(f"**{wording.lookup(words.WORDS, key, lang)}**" for key in words.WORDS
                       if key.startswith("verdict.title.") for lang in wording.LANGUAGES)


def _texts(at: AppTest) -> list[str]:
    """The page's warnings about the link (the verdict box left out)."""
    return [w.value for w in at.warning if not w.value.startswith(VERDICT_TITLES)]


def _exceptions(at: AppTest) -> list[str]:
    return [e.message for e in at.exception]


# the pure fit ----------------------------------------------------------------------------------------------

def test_a_value_above_a_cap_is_clamped_and_noted():
    found, notes = fit_link({"num_workers": "8", "n_samples": "5000", "batch_size": "9"}, CAPS)
    assert found == {"num_workers": 2, "n_samples": 2000, "batch_size": 9}
    assert [(n.what, n.key, n.used) for n in notes] == [("clamped", "num_workers", "2"),
                                                       ("clamped", "n_samples", "2000")]


@pytest.mark.parametrize("key, value, allowed", [
    ("batch_size", "abc", "1 … 64"), ("num_workers", "-3", "0 … 2"), ("shuffle", "maybe", "true, false"),
    ("sampler", "nonsense", "default, weighted"), ("cost_ms", "nan", "0 … 20"), ("n_samples", "2.5", "8 … 2000"),
])
def test_a_malformed_value_is_ignored_and_names_what_is_allowed(key, value, allowed):
    found, notes = fit_link({key: value}, CAPS)
    assert found == {}
    assert [(n.what, n.key, n.allowed) for n in notes] == [("ignored", key, allowed)]


def test_unknown_keys_are_noted_and_the_apps_own_keys_pass():
    found, notes = fit_link({"lang": "ko", "lesson": "3", "bogus": "1", "seed": "7"}, CAPS)
    assert found == {"seed": 7}
    assert [(n.what, n.key) for n in notes] == [("unknown", "bogus")]
    assert "batch_size" in notes[0].allowed


def test_every_lesson_link_fits_the_workshop_caps_untouched():
    for lesson in LESSONS:
        query = to_query(lesson.link_settings())
        found, notes = fit_link(query, CAPS)
        assert notes == [], lesson.number
        assert found == fit_link(query, Limits())[0]


def test_defaults_and_presets_are_moved_into_the_capped_ranges():
    assert clamp({"n_samples": 2000, "num_workers": 2}, Limits(max_workers=1, max_samples=500)) == {
        "n_samples": 500, "num_workers": 1}
    tiny = Limits(max_workers=0, max_samples=3)
    assert ranges(tiny)["n_samples"] == (3, 3) and ranges(tiny)["slow_worker"] == (-1, -1)


# the sidebar under every lesson link, both languages ----------------------------------------------------------

@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_sidebar_takes_every_lesson_link_under_the_workshop_caps(workshop_caps, lang):
    for lesson in LESSONS:
        at = _open(SIDEBAR_ONLY, to_query(lesson.link_settings()), lang, source=True)
        assert _exceptions(at) == [], lesson.number
        assert _texts(at) == [], lesson.number
        assert at.sidebar.slider(key="n_samples").value == lesson.link_settings()["n_samples"]


@pytest.mark.parametrize("page", ["pages/3_Worker_timelines.py", "app.py"])
def test_the_issues_link_opens_under_the_workshop_caps(workshop_caps, page):
    """``/Worker_timelines?batch_size=9``: the other settings go back to their defaults (512 samples), which
    the capped sample slider must hold — it showed StreamlitValueAboveMaxError (2000 > 500)."""
    at = _open(page, {"batch_size": "9"})
    assert _exceptions(at) == [] and _texts(at) == []
    assert at.sidebar.slider(key="n_samples").value == 512  # the default dataset (RunConfig.n_samples)
    assert at.sidebar.slider(key="n_samples").max == 2000 and at.sidebar.slider(key="batch_size").value == 9


def test_the_default_dataset_fits_a_cap_below_it(monkeypatch):
    monkeypatch.setenv("LOADERLAB_MAX_SAMPLES", "500")
    monkeypatch.setenv("LOADERLAB_MAX_WORKERS", "0")
    at = _open(SIDEBAR_ONLY, {"batch_size": "9"}, source=True)
    assert _exceptions(at) == []
    assert at.sidebar.slider(key="n_samples").value == 500
    assert at.sidebar.number_input(key="num_workers").value == 0


@pytest.mark.parametrize("lang, table", [("en", EN), ("ko", KO)])
def test_an_over_cap_link_is_clamped_and_the_page_says_so(workshop_caps, lang, table):
    at = _open(SIDEBAR_ONLY, {"num_workers": "8", "n_samples": "9000"}, lang, source=True)
    assert _exceptions(at) == []
    assert at.sidebar.slider(key="num_workers").value == 2
    assert at.sidebar.slider(key="n_samples").value == 2000
    assert _texts(at) == [table["link.clamped"].format(name="num_workers", value="8", allowed="0 … 2", used="2"),
                          table["link.clamped"].format(name="n_samples", value="9000", allowed="8 … 2000", used="2000")]
    at.run()  # the note is for the link's arrival; the attendee's next change does not repeat it
    assert _texts(at) == []


@pytest.mark.parametrize("lang, table", [("en", EN), ("ko", KO)])
def test_malformed_link_values_are_ignored_and_the_page_says_so(workshop_caps, lang, table):
    at = _open(SIDEBAR_ONLY, {"batch_size": "abc", "num_workers": "-3", "bogus": "1", "shuffle": "true"}, lang,
               source=True)
    assert _exceptions(at) == []
    assert at.sidebar.slider(key="batch_size").value == 16 and at.sidebar.checkbox(key="shuffle").value
    warnings = _texts(at)
    assert warnings[:2] == [table["link.ignored"].format(name="batch_size", value="abc", allowed="1 … 64"),
                            table["link.ignored"].format(name="num_workers", value="-3", allowed="0 … 2")]
    assert warnings[2].startswith(table["link.unknown"].split("{allowed}")[0].format(name="bogus", value="1"))


# every page × every lesson link ------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.slug)
def test_every_page_opens_from_every_lesson_link_under_the_workshop_caps(workshop_caps, lesson):
    # one lesson's link on every page: pages that draw the same run share it, as on the server
    for page in PAGES:
        at = _open(page, to_query(lesson.link_settings()))
        assert _exceptions(at) == [], (page, lesson.number)
        assert not [w for w in _texts(at) if w.startswith("The link")], (page, lesson.number)


@pytest.mark.parametrize("page", SIDEBAR_PAGES)
def test_every_page_shows_the_readmes_link_and_malformed_values_without_an_exception(workshop_caps, page):
    at = _open(page, {"batch_size": "9", "n_samples": "64", "num_workers": "abc", "epochs": "9"})
    assert _exceptions(at) == []
    warnings = _texts(at)
    assert EN["link.ignored"].format(name="num_workers", value="abc", allowed="0 … 2") in warnings
    assert EN["link.clamped"].format(name="epochs", value="9", allowed="1 … 3", used="3") in warnings
    assert at.sidebar.slider(key="batch_size").value == 9
