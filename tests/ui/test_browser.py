"""A real browser (Debian chromium driven by playwright's Python package) against `streamlit run app.py`.

Skipped when chromium or playwright is missing (CI's .ci/run installs both). Screenshots go to
tests/artifacts/ for a person to look at.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_streamlit(env: dict | None = None) -> tuple[str, subprocess.Popen]:
    """``streamlit run app.py`` on a free port, in its own process group; returns once it is healthy."""
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
                             "--server.port", str(port), "--server.headless", "true"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env=env)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).status == 200:
                return url, proc
        except OSError:
            time.sleep(0.2)  # waiting for the server to listen (a bounded poll, not synchronisation)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    pytest.fail("streamlit did not become healthy within 60 s")


def needs_browser() -> None:
    if not os.path.exists(CHROMIUM):
        pytest.skip("chromium is not installed")
    pytest.importorskip("playwright.sync_api")


def korean_font_present() -> bool:
    """Whether the system has a font with Hangul (without one chromium draws Korean as empty boxes)."""
    fc_list = shutil.which("fc-list")
    if fc_list:
        return bool(subprocess.run([fc_list, ":lang=ko", "family"], capture_output=True, text=True).stdout.strip())
    fonts = Path("/usr/share/fonts")
    return fonts.is_dir() and any(fonts.rglob("*CJK*"))


def needs_korean_font() -> None:
    """A Korean page in the browser needs a Hangul font: skipped only where it cannot be installed (no apt),
    otherwise a missing font fails the test instead of passing on screenshots of empty boxes."""
    if korean_font_present():
        return
    if shutil.which("apt-get") is None:
        pytest.skip("no font with Hangul and no apt-get to install fonts-noto-cjk: Korean would render as empty boxes")
    pytest.fail("no font with Hangul (`fc-list :lang=ko` lists none): chromium would draw Korean as empty boxes. "
                "Install fonts-noto-cjk (the README's test command does: apt-get install fonts-noto-cjk)")


@pytest.fixture(scope="module")
def server():
    needs_browser()
    url, proc = start_streamlit()
    yield url, proc
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)


def _settle(page) -> None:
    page.wait_for_timeout(150)
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]", timeout=90_000)
    page.wait_for_function("document.querySelectorAll('[data-testid=stSkeleton]').length === 0", timeout=90_000)


def _rerun(page, act) -> None:
    """Do ``act`` (a widget change) and wait for the rerun it asks for to finish. A slider sends its value
    ~200 ms after a key press (Streamlit debounces it), so ``_settle`` alone can return before the rerun has
    begun; a MutationObserver set first sees the script state turn to running however short the run."""
    page.evaluate("""() => {
        const app = document.querySelector('[data-testid=stApp]');
        window.__reran = false;
        new MutationObserver(() => { if (app.dataset.testScriptState === 'running') window.__reran = true; })
            .observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
    }""")
    act()
    page.wait_for_function("window.__reran === true", timeout=90_000)
    _settle(page)


def test_pages_render_and_a_control_reruns_the_loader(server):
    from playwright.sync_api import sync_playwright

    url, proc = server
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url)
        _settle(page)
        page.wait_for_selector(".js-plotly-plot", timeout=90_000)
        workers = "document.querySelector('.js-plotly-plot').layout.shapes.filter(s => (s.name||'').startsWith('worker[')).length"
        assert page.evaluate(workers) == 2  # the tour draws one worker box per worker
        page.screenshot(path=str(ARTIFACTS / "home.png"), full_page=True)

        slider = page.get_by_test_id("stSlider").filter(has_text="num_workers").get_by_role("slider")
        slider.focus()
        page.keyboard.press("ArrowLeft")  # 2 → 1 worker
        _settle(page)
        page.wait_for_function(workers + " === 1", timeout=90_000)
        page.screenshot(path=str(ARTIFACTS / "home_one_worker.png"), full_page=True)

        page.goto(f"{url}/Event_table")
        _settle(page)
        page.wait_for_selector("[data-testid=stDataFrame]", timeout=90_000)
        page.screenshot(path=str(ARTIFACTS / "event_table.png"), full_page=True)
        browser.close()
    workers = [p for p in psutil.Process(proc.pid).children(recursive=True) if p.status() != psutil.STATUS_ZOMBIE]
    assert workers == []  # runs finished: no worker left behind the server
