"""The dashboard in Korean (AppTest): every page runs with ``?lang=ko``, titles and figures are Korean, and
the choice survives a page switch and the sidebar's radio.

The real-browser twin is ``test_browser_korean.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from loaderlab.ui.texts import EN, KO

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 180
PAGES = ["app.py", *sorted(f"pages/{p.name}" for p in (ROOT / "pages").glob("*.py"))]
HANGUL = re.compile(r"[가-힣]")
SMALL = dict(n_samples=200)  # a short run: these tests are about words, not timing

pytestmark = pytest.mark.usefixtures("fresh_cache")


def _korean(page: str, **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / page), default_timeout=TIMEOUT_S)
    at.query_params["lang"] = "ko"
    for key, value in {**SMALL, **state}.items():
        at.session_state[key] = value
    return at.run()


def _title_keys() -> dict[str, str]:
    """Each page's title key, from the page module's own ``page_setup("<prefix>")`` (which titles the page
    with ``<prefix>.title``) or ``st.title(t(...))`` call."""
    keys = {}
    for page in PAGES:
        source = (ROOT / page).read_text()
        module = re.search(r"from loaderlab\.ui\.(\w+) import main", source).group(1)
        code = (ROOT / "loaderlab" / "ui" / f"{module}.py").read_text()
        setup = re.search(r'page_setup\("([\w.]+)"\)', code)
        keys[page] = f"{setup.group(1)}.title" if setup else re.search(r'st\.title\(t\("([\w.]+)"\)\)', code).group(1)
    return keys


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES)
def test_every_page_runs_in_korean(page):
    at = _korean(page)
    assert not at.exception, at.exception
    key = _title_keys()[page]
    assert at.title[0].value == KO[key] != EN[key]
    assert HANGUL.search(KO[key])
    assert at.query_params["lang"] == "ko"
    for chart in at.get("plotly_chart"):  # axis titles and legends follow the language too
        spec = json.loads(chart.proto.spec)
        words = [trace.get("name") or "" for trace in spec["data"]]
        words += [v.get("title", {}).get("text", "") for k, v in spec["layout"].items()
                  if k.startswith(("xaxis", "yaxis")) and isinstance(v, dict)]
        words += [a.get("text", "") for a in spec["layout"].get("annotations", [])]
        assert any(HANGUL.search(w) for w in words if w), (page, words)


def test_the_choice_survives_a_page_switch_and_the_radio_switches_back():
    at = _korean("app.py")
    assert at.title[0].value == KO["app.title"]
    assert at.sidebar.radio(key="language_radio").value == "ko"
    links = [link.proto for link in at.sidebar.get("page_link")]
    assert {link.label for link in links} >= {KO["nav.app"], KO["nav.3_Worker_timelines"]}
    assert all(link.query_string == "lang=ko" for link in links)

    at.query_params.clear()  # a page link leaves the URL without ?lang=; the session keeps the choice
    at.switch_page("pages/1_Event_table.py").run()
    assert not at.exception
    assert at.title[0].value == KO["events.title"]
    assert at.query_params["lang"] == "ko"  # written back to the URL

    at.sidebar.radio(key="language_radio").set_value("en").run()
    assert at.title[0].value == EN["events.title"]
    at.switch_page("app.py").run()
    assert at.title[0].value == EN["app.title"]
    assert at.query_params["lang"] == "en"


def test_an_unknown_language_in_the_url_falls_back_to_english():
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=TIMEOUT_S)
    at.query_params["lang"] = "xx"
    at.session_state["n_samples"] = 200
    at.run()
    assert not at.exception
    assert at.title[0].value == EN["events.title"]
    assert at.query_params["lang"] == "en"


def test_torchs_rejection_is_wrapped_in_korean_and_findings_are_korean():
    at = _korean("pages/3_Worker_timelines.py", num_workers=0, persistent_workers=True)
    assert [e.value for e in at.sidebar.error] == [
        KO["error.invalid"].format(message="persistent_workers option needs num_workers > 0")]

    at = _korean("pages/3_Worker_timelines.py", num_workers=2, straggler_index=5, straggler_ms=300.0)
    assert not at.exception
    kinds = at.table[0].value.iloc[:, 0].tolist()
    assert KO["timelines.kind.straggler"] in kinds
    details = " ".join(at.table[0].value.iloc[:, -1])
    assert "가장 느린 샘플: 인덱스 5(배치 " in details  # the finding's own sentence, in Korean
