"""The "Sampling & class imbalance" and "Padding & collate" pages in a real browser.

Same set-up as ``test_browser.py`` (Debian chromium driven by playwright's Python package against
``streamlit run app.py``; skipped when either is missing). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import psutil
import pytest

from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, server  # noqa: F401 (server: fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = "document.querySelectorAll('.js-plotly-plot')"


def _pick(page, box: str, option: str) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text=box).click()
    page.get_by_role("option", name=option).click()
    _settle(page)


def test_sampling_and_padding_pages_draw_from_real_runs(server):  # noqa: F811 (the imported fixture)
    from playwright.sync_api import sync_playwright

    url, proc = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 4000})
        page.goto(url)  # load "/" first: until then a fresh server lists pages/ without app.py
        _settle(page)
        page.goto(f"{url}/Sampling_and_imbalance")
        _settle(page)
        page.wait_for_function(f"{PLOT}.length === 3", timeout=90_000)
        assert page.evaluate(f"{PLOT}[0]._transitionData._frames.length") == 32  # 512 samples / 16
        _pick(page, "workshop preset", "95/5 imbalance")
        page.wait_for_function(f"{PLOT}.length === 3 && {PLOT}[0]._transitionData._frames.length === 63",
                               timeout=90_000)  # 1000 samples / 16
        page.screenshot(path=str(ARTIFACTS / "sampling.png"), full_page=True)

        animation = f"{PLOT}[0]"
        start = page.evaluate(f"{animation}.layout.sliders[0].active")
        page.get_by_text("▶ Play").first.click()
        page.wait_for_function(f"{animation}.layout.sliders[0].active < {start}", timeout=30_000)  # restarted
        page.wait_for_function(f"{animation}.layout.sliders[0].active > 5", timeout=30_000)  # and advancing
        page.get_by_text("❚❚ Pause").first.click()

        page.goto(f"{url}/Padding_and_collate")
        _settle(page)
        _pick(page, "workshop preset", "padding waste")
        page.wait_for_function(f"{PLOT}.length === 3", timeout=90_000)
        page.get_by_text("RuntimeError: stack expects each tensor to be equal size").wait_for(timeout=30_000)
        assert page.evaluate(f"{PLOT}[0]._fullData[0].type") == "heatmap"
        page.screenshot(path=str(ARTIFACTS / "padding.png"), full_page=True)
        browser.close()
    workers = [p for p in psutil.Process(proc.pid).children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
    assert workers == []  # runs finished: no worker left behind the server
