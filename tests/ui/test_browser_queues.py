"""The "Index queues" page in a real browser: the animation plays, a preset and num_workers rerun it.

Same set-up as ``test_browser.py`` (Debian chromium driven by playwright's Python package against
``streamlit run app.py``; skipped when either is missing). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import psutil
import pytest

from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, server  # noqa: F401 (server: fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = "document.querySelector('.js-plotly-plot')"
ROWS = f"{PLOT}.layout.yaxis.categoryarray"


def test_queue_animation_plays_and_follows_the_settings(server):  # noqa: F811 (the imported fixture)
    from playwright.sync_api import sync_playwright

    url, proc = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2300})
        page.goto(url)  # load "/" first: until then a fresh server lists pages/ without app.py
        _settle(page)
        page.goto(f"{url}/Index_queues")
        _settle(page)
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        assert page.evaluate(f"{PLOT}._transitionData._frames.length") > 10
        assert page.evaluate(f"{ROWS}.filter(r => r.startsWith('index_queue')).length") == 2
        page.screenshot(path=str(ARTIFACTS / "index_queues.png"), full_page=True)

        start = page.evaluate(f"{PLOT}.layout.sliders[0].active")
        page.get_by_text("▶ Play").first.click()
        page.wait_for_function(f"{PLOT}.layout.sliders[0].active > {start}", timeout=30_000)  # frames advance
        page.get_by_text("❚❚ Pause").first.click()

        page.get_by_test_id("stSelectbox").filter(has_text="workshop preset").click()
        page.get_by_role("option", name="one slow worker").click()
        _settle(page)
        page.wait_for_function(  # worker 1 is 6x slower: worker 0's batches wait for it in the reorder buffer
            f"{PLOT}._transitionData._frames.some(f => f.data.some(t => t.y.includes('reorder buffer')))",
            timeout=90_000)
        page.screenshot(path=str(ARTIFACTS / "index_queues_slow_worker.png"), full_page=True)

        slider = page.get_by_test_id("stSlider").filter(has_text="num_workers").get_by_role("slider")
        slider.focus()
        page.keyboard.press("ArrowRight")  # 2 → 3 workers
        _settle(page)
        page.wait_for_function(f"{ROWS}.filter(r => r.startsWith('index_queue')).length === 3", timeout=90_000)
        browser.close()
    workers = [p for p in psutil.Process(proc.pid).children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
    assert workers == []  # runs finished: no worker left behind the server
