"""A hung worker in a real browser: the stall is shown live, "Stop this run" ends it with no process left,
and SIGTERM to the server mid-hang leaves no process either.

Same set-up as ``test_browser.py`` (Debian chromium driven by playwright's Python package against
``streamlit run app.py``; skipped when either is missing). The page is opened with its settings in the
link (``?fault=hang&fault_index=20&num_workers=2``, see ``loaderlab/ui/query_settings.py``). Waits are on
the page's texts and on processes (``psutil.wait_procs``), never sleeps; the measured durations are
printed (``-s``), not asserted. Screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import os
import re
import signal
import time

import psutil
import pytest

from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, needs_browser, start_streamlit
from tests.ui.test_browser import server  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

HUNG_PAGE = "/Worker_timelines?fault=hang&fault_index=20&num_workers=2&n_samples=400"
STUCK = re.compile(r"worker \d: last event fetch_begin \(index 20\) [\d.]+ s ago")
_MP_HELPERS = ("multiprocessing.resource_tracker", "multiprocessing.forkserver")


def descendants(pid: int) -> list[psutil.Process]:
    """The server's live child processes (engine workers), helpers and zombies left out."""
    out = []
    for p in psutil.Process(pid).children(recursive=True):
        try:
            if p.status() != psutil.STATUS_ZOMBIE and not any(h in " ".join(p.cmdline()) for h in _MP_HELPERS):
                out.append(p)
        except psutil.Error:
            pass
    return out


def _open_hung_page(pw, url: str):
    browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
    page = browser.new_page(viewport={"width": 1400, "height": 1400})
    page.goto(url)  # load "/" first: until then a fresh server lists pages/ without app.py
    _settle(page)
    page.goto(url + HUNG_PAGE)
    page.get_by_text(STUCK).wait_for(timeout=90_000)
    return browser, page


def test_a_stalled_run_is_shown_live_and_stop_leaves_no_worker(server):  # noqa: F811 (the imported fixture)
    from playwright.sync_api import sync_playwright

    url, proc = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser, page = _open_hung_page(pw, url)
        first = page.get_by_text(re.compile(r"No batch for [\d.]+ s")).inner_text()
        workers = descendants(proc.pid)
        assert len(workers) >= 2  # the run is really in progress: its workers exist
        page.screenshot(path=str(ARTIFACTS / "live_stall.png"), full_page=True)
        stop = page.get_by_role("button", name="Stop this run")
        clicked = time.monotonic()
        stop.click(timeout=90_000)  # beside a busy suite the live fragment can take a while to draw it
        page.get_by_text("You stopped this run").wait_for(timeout=60_000)
        shown = time.monotonic()
        _, alive = psutil.wait_procs(workers, timeout=15)
        gone = time.monotonic()
        assert not alive, f"workers outlived Stop: {[p.pid for p in alive]}"
        _settle(page)
        assert page.get_by_text(re.compile(r"Worker 1 \(pid \d+\) was stuck inside dataset\[20\]")).count() == 1
        page.get_by_text("Where worker 1 was stuck").click()  # open the stack
        page.get_by_text("inject_fault").first.wait_for(timeout=10_000)
        assert page.get_by_role("button", name="Stop this run").count() == 0
        page.screenshot(path=str(ARTIFACTS / "live_stopped.png"), full_page=True)
        browser.close()
    assert descendants(proc.pid) == []
    print(f"\nfirst stall status: {first!r}; Stop → report shown {shown - clicked:.2f} s, "
          f"→ no worker left {gone - clicked:.2f} s")


def test_sigterm_to_the_server_mid_hang_leaves_no_process():
    from playwright.sync_api import sync_playwright

    needs_browser()
    url, proc = start_streamlit()
    try:
        with sync_playwright() as pw:
            browser, _ = _open_hung_page(pw, url)
            family = descendants(proc.pid)
            assert len(family) >= 2
            family.append(psutil.Process(proc.pid))
            sent = time.monotonic()
            os.kill(proc.pid, signal.SIGTERM)  # the process group leader: the server itself
            _, alive = psutil.wait_procs(family, timeout=30)
            gone = time.monotonic()
            assert not [p for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE], \
                f"outlived SIGTERM: {[p.pid for p in alive]}"
            browser.close()
        print(f"\nSIGTERM → server and all {len(family) - 1} workers gone in {gone - sent:.2f} s")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
