"""The sidebar's settings survive page switches made as a user makes them: sidebar links, back and forward.

A lesson's settings link seeds the loader; then every page is reached by clicking its sidebar link (never by
URL), and the controls each page draws must show the link's values, in English and in Korean. A change the
user makes afterwards is what every later page shows, and going back to the link's own URL does not apply the
link again. Screenshots at 1440×900 go to tests/artifacts/switch_<page>.png. Same set-up as ``test_browser.py``.
"""

from __future__ import annotations

import pytest

from loaderlab.ui.texts import EN, KO
from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _rerun, _settle, needs_korean_font, server  # noqa: F401

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Every page, in a click order that leaves each one for another; the pages that draw no loader controls
# (lessons, distributed, room) sit between ones that do, so the settings must outlive a page without them.
ORDER = ["1_Event_table", "2_Index_queues", "3_Worker_timelines", "app", "4_Sampling_and_imbalance",
         "0_Lessons", "5_Padding_and_collate", "6_Pinned_memory", "8_Distributed", "7_Your_trace",
         "9_Room", "3_Worker_timelines"]
NO_CONTROLS = {"0_Lessons", "8_Distributed", "9_Room"}


def _shown(page, name: str) -> int:
    """The value the sidebar's slider ``name`` shows (its thumb's text)."""
    slider = page.get_by_test_id("stSidebar").get_by_test_id("stSlider").filter(has_text=name).first
    return int(slider.get_by_test_id("stSliderThumbValue").inner_text())


def _click(page, texts: dict, stem: str) -> None:
    label = texts.get(f"nav.{stem}") or stem.split("_", 1)[1].replace("_", " ")
    page.get_by_test_id("stSidebar").get_by_role("link", name=label, exact=True).click()
    page.wait_for_url(f"**/{'' if stem == 'app' else stem.split('_', 1)[1]}?**", timeout=90_000)
    _settle(page)
    page.wait_for_selector("h1", timeout=90_000)


def _walk(page, texts: dict, want: tuple[int, int], prefix: str) -> dict[str, tuple[int, int]]:
    seen = {}
    for stem in ORDER:
        _click(page, texts, stem)
        page.screenshot(path=str(ARTIFACTS / f"{prefix}_{stem}.png"))
        if stem not in NO_CONTROLS:
            seen[stem] = (_shown(page, "batch_size"), _shown(page, "num_workers"))
    return {stem: got for stem, got in seen.items() if got != want}


def _open_link(pw, url: str, link: str):
    """A 1440×900 page of a new session at ``link`` (after "/": until a session has loaded it, a fresh
    server lists pages/ without app.py)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": 1440, "height": 900})
    for path in ("/?" + link.split("?", 1)[1].split("&", 1)[0], link):
        page.goto(f"{url}{path}")
        _settle(page)
    return browser, page


def test_a_settings_link_survives_every_sidebar_switch_and_back_and_forward(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _ = server
    with sync_playwright() as pw:
        browser, page = _open_link(pw, url, "/Worker_timelines?lang=en&batch_size=24&num_workers=3")
        assert (_shown(page, "batch_size"), _shown(page, "num_workers")) == (24, 3)
        assert _walk(page, EN, (24, 3), "switch") == {}

        # The user's own change wins over the link from now on, on every page and through back/forward.
        thumb = page.get_by_test_id("stSidebar").get_by_test_id("stSlider").filter(has_text="num_workers")
        thumb.get_by_role("slider").focus()
        _rerun(page, lambda: page.keyboard.press("ArrowLeft"))  # 3 → 2, and the app has run with it
        assert _shown(page, "num_workers") == 2
        _click(page, EN, "2_Index_queues")
        assert (_shown(page, "batch_size"), _shown(page, "num_workers")) == (24, 2)
        page.go_back()  # the link's page, whose URL no longer carries the link: the user's change stays
        _settle(page)
        page.wait_for_selector("h1", timeout=90_000)
        assert (_shown(page, "batch_size"), _shown(page, "num_workers")) == (24, 2)
        page.go_forward()
        _settle(page)
        page.wait_for_selector("h1", timeout=90_000)
        assert (_shown(page, "batch_size"), _shown(page, "num_workers")) == (24, 2)
        browser.close()


def test_a_settings_link_survives_sidebar_switches_in_korean(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    needs_korean_font()
    url, _ = server
    with sync_playwright() as pw:
        browser, page = _open_link(pw, url, "/Index_queues?lang=ko&batch_size=12&num_workers=1")
        assert KO["nav.1_Event_table"] in page.get_by_test_id("stSidebar").inner_text()
        assert _walk(page, KO, (12, 1), "switch_ko") == {}
        assert "lang=ko" in page.url
        browser.close()
