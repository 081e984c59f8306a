"""The Lessons page's previous/next after a click on the sidebar's language radio, in a real browser.

Issue 34: after a switch the browser still held the lesson select box's label in the old language; it sent
that label back on the next click, streamlit handed it over as the box's value (a str, matching none of
the new labels) and "next lesson" raised ``TypeError: can only concatenate str (not "int") to str``.
AppTest cannot show it (it always sends a label of the current options), so this drives chromium: both
directions, EN→KO and KO→EN, each from a fresh session. Same set-up as ``test_browser.py``; screenshots
go to tests/artifacts/lessons_switch_<from>_<to>.png.
"""

from __future__ import annotations

import pytest

from loaderlab.lessons import LESSONS
from loaderlab.ui.texts import EN, KO
from tests.ui.test_browser import (ARGS, ARTIFACTS, CHROMIUM, _settle, needs_korean_font,  # noqa: F401
                                 server)  # (server: the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

TEXTS = {"en": EN, "ko": KO}
RADIO = {"en": "English", "ko": "한국어"}
START = 3  # a lesson with both neighbours, so previous and next are both enabled


def _heading(texts: dict, n: int) -> str:
    return texts["lessons.heading"].format(n=n, total=len(LESSONS), title="").rstrip(": ")


def _shows(page, texts: dict, n: int) -> None:
    """The page shows lesson ``n`` in ``texts``' language, with no exception and its sidebar still there."""
    # the click's rerun may start after _settle's first look: wait for its heading or an exception
    page.wait_for_selector(f"h2:has-text('{_heading(texts, n)}'), [data-testid=stException]", timeout=90_000)
    _settle(page)
    assert page.get_by_test_id("stException").count() == 0, page.get_by_test_id("stException").first.inner_text()
    assert "Traceback" not in page.get_by_test_id("stMain").inner_text()
    assert page.locator("h2").first.inner_text().startswith(_heading(texts, n))
    # the box shows this language's label: the one the browser sends back on the next click
    label = texts["lessons.option"].format(n=n, title=texts[f"lessons.{LESSONS[n - 1].slug}.title"].replace("`", ""))
    assert page.get_by_test_id("stSelectbox").first.get_by_role("combobox").input_value() == label
    assert page.get_by_test_id("stSidebar").get_by_text(RADIO["ko"]).is_visible()
    assert f"lesson={n}" in page.url


def _switch_then_step(page, url: str, first: str, then: str) -> None:
    page.goto(f"{url}/?lang={first}")  # "/" first: until then a fresh server lists pages/ without app.py
    _settle(page)
    page.goto(f"{url}/Lessons?lang={first}&lesson={START}")
    _settle(page)
    page.wait_for_selector("h2", timeout=90_000)
    _shows(page, TEXTS[first], START)
    page.get_by_test_id("stSidebar").get_by_text(RADIO[then], exact=True).click()
    _shows(page, TEXTS[then], START)
    assert f"lang={then}" in page.url
    page.get_by_role("button", name=TEXTS[then]["lessons.next"]).click()
    _shows(page, TEXTS[then], START + 1)
    page.screenshot(path=str(ARTIFACTS / f"lessons_switch_{first}_{then}.png"))
    page.get_by_role("button", name=TEXTS[then]["lessons.prev"]).click()
    _shows(page, TEXTS[then], START)
    page.get_by_role("button", name=TEXTS[then]["lessons.prev"]).click()
    _shows(page, TEXTS[then], START - 1)


@pytest.mark.parametrize("first, then", [("en", "ko"), ("ko", "en")])
def test_previous_and_next_work_after_switching_the_language(server, first, then):  # noqa: F811 (the fixture)
    from playwright.sync_api import sync_playwright

    needs_korean_font()
    url, _ = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        _switch_then_step(page, url, first, then)
        browser.close()
