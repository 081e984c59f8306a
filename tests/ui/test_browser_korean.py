"""The dashboard in Korean in a real browser: every page opened with ``?lang=ko`` reads as Korean, the choice
survives a click on a sidebar page link, and a screenshot of each page goes to tests/artifacts/ko_<page>.png.

Same set-up as ``test_browser.py`` (Debian chromium driven by playwright's Python package against
``streamlit run app.py``; skipped when either is missing). "Reads as Korean": Hangul makes up most letters
of the main block's text, leaving out code (``code``, ``pre``, st.json) where parameter names and torch
code stay as they are, and data tables, whose cells are event kinds, queue names and other identifiers of
the trace schema (how many of a table's rows the grid has put in the DOM depends on timing: the Event table
page once read 35 % Hangul in CI and 60 % locally). Without a Hangul font the test fails (skips only where apt-get cannot install
fonts-noto-cjk): Hangul counted in the DOM would pass while chromium draws empty boxes.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loaderlab.ui.texts import KO
from tests.ui.test_browser import (ARGS, ARTIFACTS, CHROMIUM, _settle, needs_korean_font,  # noqa: F401
                                 server)  # (server: the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"app": ""} | {p.stem: p.stem.split("_", 1)[1] for p in sorted((ROOT / "pages").glob("*.py"))}
MIN_HANGUL_SHARE = 0.5

# Letters of the main block's visible text outside code: Hangul syllables vs Latin letters.
LETTERS = """() => {
  const main = document.querySelector('[data-testid=stMain]');
  const skip = 'code, pre, [data-testid=stCode], [data-testid=stJson], [data-testid=stSidebar], ' +
               '[data-testid=stDataFrame], [data-testid=stTable]';
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  let hangul = 0, latin = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest(skip)) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    hangul += (node.textContent.match(/[\\uac00-\\ud7a3]/g) || []).length;
    latin += (node.textContent.match(/[A-Za-z]/g) || []).length;
  }
  return [hangul, latin];
}"""


def _open(page, url: str) -> None:
    page.goto(url)
    _settle(page)
    page.wait_for_selector("h1", timeout=90_000)


def test_every_page_reads_as_korean_and_the_choice_survives_a_page_switch(server):  # noqa: F811 (the fixture)
    from playwright.sync_api import sync_playwright

    needs_korean_font()
    url, _ = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shares = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2400})
        _open(page, f"{url}/?lang=ko")  # "/" first: until then a fresh server lists pages/ without app.py
        for stem, path in PAGES.items():
            _open(page, f"{url}/{path}?lang=ko")
            hangul, latin = page.evaluate(LETTERS)
            shares[stem] = hangul / max(1, hangul + latin)
            page.screenshot(path=str(ARTIFACTS / f"ko_{stem}.png"), full_page=True)
            assert "lang=ko" in page.url, stem
        assert {stem: s for stem, s in shares.items() if s <= MIN_HANGUL_SHARE} == {}, shares

        # A click on a sidebar page link keeps Korean: the session keeps the choice, the link carries ?lang=ko.
        _open(page, f"{url}/?lang=ko")
        assert KO["app.title"] in page.locator("h1").first.inner_text()
        page.get_by_test_id("stSidebar").get_by_role("link", name=KO["nav.3_Worker_timelines"]).click()
        page.wait_for_url("**/Worker_timelines**", timeout=90_000)
        _settle(page)
        page.wait_for_selector(f"h1:has-text('{KO['timelines.title']}')", timeout=90_000)
        assert "lang=ko" in page.url

        # The sidebar's radio switches to English, and that choice survives the next switch as well.
        page.get_by_test_id("stSidebar").get_by_text("English", exact=True).click()
        _settle(page)
        page.wait_for_selector("h1:has-text('Worker timelines')", timeout=90_000)
        page.get_by_test_id("stSidebar").get_by_role("link", name="Event table").click()
        page.wait_for_url("**/Event_table**", timeout=90_000)
        _settle(page)
        page.wait_for_selector("h1:has-text('Every event of the run')", timeout=90_000)
        assert "lang=en" in page.url
        browser.close()
