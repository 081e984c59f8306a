"""A real browser on the "Pinned memory" and "Your trace" pages: render, download, upload good and bad files.

Same server and chromium as tests/ui/test_browser.py (its fixture is reused); screenshots go to
tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import json

import pytest

from loaderlab.scenarios.run import RunConfig, run
from loaderlab.trace.files.io import load_trace, save_trace
from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, server  # noqa: F401 (server: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _plots(page) -> list[list[str]]:
    """Each plotly chart's trace names, in page order."""
    return page.evaluate("[...document.querySelectorAll('.js-plotly-plot')].map(p => p._fullData.map(t => t.name))")


def test_pinned_memory_page_draws_modelled_timelines(server):  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _ = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 3200})
        page.goto(f"{url}/Pinned_memory")
        _settle(page)
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        assert page.get_by_text("Modelled, no GPU on this machine").count() == 1
        plots = _plots(page)
        assert len(plots) == 2
        assert set(plots[0]) == {"pin (host, pin thread)", "copy to GPU", "model compute"}
        assert page.get_by_text("skipped: no accelerator").count() >= 1
        page.screenshot(path=str(ARTIFACTS / "pinned_memory.png"), full_page=True)
        browser.close()


def test_your_trace_page_downloads_and_uploads(server, tmp_path):  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _ = server
    good = tmp_path / "tiny.json"
    save_trace(run(RunConfig(n_samples=48, num_workers=2, cost_ms=0.2)), good)
    broken = tmp_path / "broken.json"
    broken.write_bytes(good.read_bytes()[:500])
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 3200}, accept_downloads=True)
        page.goto(f"{url}/Your_trace")
        _settle(page)
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        assert page.get_by_test_id("stDownloadButton").count() == 2
        page.screenshot(path=str(ARTIFACTS / "your_trace.png"), full_page=True)
        with page.expect_download() as info:
            page.get_by_test_id("stDownloadButton").filter(has_text="Perfetto").get_by_role("button").click()
        chrome = json.loads(info.value.path().read_text())
        assert {e["args"]["name"] for e in chrome["traceEvents"] if e.get("name") == "process_name"} >= {"main", "worker 0"}
        with page.expect_download() as info:
            page.get_by_test_id("stDownloadButton").filter(has_text="LoaderLab JSON").get_by_role("button").click()
        assert (load_trace(info.value.path())["kind"] == "batch_yield").sum() == 32  # the sidebar's 512 / 16

        page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(good))
        _settle(page)
        page.get_by_text("Showing tiny.json").wait_for(timeout=90_000)
        _settle(page)
        lanes = page.evaluate("new Set(document.querySelector('.js-plotly-plot')._fullData.flatMap(t => t.y)).size")
        assert lanes == 3  # main, worker 0, worker 1 of the uploaded run
        page.screenshot(path=str(ARTIFACTS / "your_trace_uploaded.png"), full_page=True)

        page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(str(broken))
        _settle(page)
        alert = page.get_by_test_id("stAlert").filter(has_text="broken.json")
        alert.wait_for(timeout=90_000)
        assert "cut short" in alert.inner_text()
        assert page.get_by_text("Traceback").count() == 0
        assert page.locator(".js-plotly-plot").count() == 0
        browser.close()
