"""The home page's pipeline tour and the "Worker timelines" page in a real browser.

Same set-up as ``test_browser.py`` (Debian chromium driven by playwright's Python package against
``streamlit run app.py``; skipped when either is missing). Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import psutil
import pytest

from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, server  # noqa: F401 (server: fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PLOT = "document.querySelectorAll('.js-plotly-plot')"
TITLE = f"{PLOT}[0].layout.title.text"


def _set_number(page, label: str, value: str) -> None:
    box = page.get_by_test_id("stNumberInput").filter(has_text=label).get_by_role("spinbutton")
    box.fill(value)
    box.press("Enter")
    _settle(page)


def test_tour_steps_through_batches_and_timelines_show_the_straggler(server):  # noqa: F811 (the imported fixture)
    from playwright.sync_api import sync_playwright

    url, proc = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 2400})
        page.goto(url)
        _settle(page)
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        assert page.evaluate(TITLE).startswith("Batch 0 of epoch 0, made by worker 0")
        slider = page.get_by_test_id("stSlider").filter(has_text="batch (task number").get_by_role("slider")
        slider.focus()
        page.keyboard.press("ArrowRight")  # batch 0 → 1: round robin gives it to worker 1
        _settle(page)
        page.wait_for_function(f"{TITLE}.startsWith('Batch 1 of epoch 0, made by worker 1')", timeout=90_000)
        page.screenshot(path=str(ARTIFACTS / "tour.png"), full_page=True)

        page.goto(f"{url}/Worker_timelines")
        _settle(page)
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        assert page.evaluate(f"new Set({PLOT}[0]._fullData.flatMap(t => t.y)).size") == 3  # main, worker 0, worker 1
        _set_number(page, "straggler: dataset index", "40")
        page.get_by_test_id("stSlider").filter(has_text="straggler: extra cost").get_by_role("slider").focus()
        for _ in range(3):  # 0 → 300 ms: PageUp moves a slider a tenth of its range
            page.keyboard.press("PageUp")
        _settle(page)
        page.wait_for_selector("[data-testid=stTable]", timeout=90_000)
        assert "slow sample" in page.get_by_test_id("stTable").inner_text()
        page.get_by_role("button", name="Run the sweep").click()
        _settle(page)
        page.wait_for_function(f"{PLOT}.length === 2", timeout=120_000)
        page.screenshot(path=str(ARTIFACTS / "worker_timelines.png"), full_page=True)
        browser.close()
    workers = [p for p in psutil.Process(proc.pid).children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
    assert workers == []  # runs finished: no worker left behind the server
