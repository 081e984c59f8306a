"""A `run --tune` trace on the "Your trace" page in a real browser, EN and KO, at the two laptop sizes: the
measured chart draws the same settings and numbers the report prints, with nothing cut off."""

from __future__ import annotations

import pytest

from tests.jobs.runner import cli, run, write
from tests.ui.test_browser import ARGS, ARTIFACTS, CHROMIUM, _settle, server  # noqa: F401 (server: a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCRIPT = '''
import time, torch
from torch.utils.data import DataLoader, Dataset
class Rows(Dataset):
    def __len__(self):
        return 3000
    def __getitem__(self, i):
        t = time.perf_counter()
        while time.perf_counter() - t < 0.0005:
            pass
        return torch.tensor([i]), i % 2
for epoch in range(2):
    for x, y in DataLoader(Rows(), batch_size=10, shuffle=True):
        time.sleep(0.001)
'''


# timing: two settings measured within a 3 s budget depends on how fast the workers start; beside the rest of the
# suite two at a time their start-up slices took the budget (this stop's CI, 2 of 3 runs)
@pytest.mark.timing
def test_a_tuned_trace_shows_its_measured_chart(server, tmp_path):  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _ = server
    write(tmp_path, "job.py", SCRIPT)
    done = run(tmp_path, "--tune", "--tune-budget", "3", "-o", "tuned", "job.py")
    assert done.returncode == 0, done.stderr
    report = cli(tmp_path, "report", "tuned.lltrace").stdout
    lines = report.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("Measured inside your job")))
    table = [line for line in lines[first + 1:] if line.startswith("  ")][:len(lines)]
    table = table[:next((i for i, line in enumerate(lines[first + 1:]) if not line.startswith("  ")), len(table))]
    measured = [line.strip().split(" ", 1)[1].split(":")[0] for line in table if "samples/s (lowest" in line]
    assert len(measured) >= 2, report
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for lang, title in (("en", "Measured inside your job (run --tune)"), ("ko", "작업 안에서 잰 값(run --tune)")):
            for width, height in ((1440, 900), (1280, 720)):
                page = browser.new_page(viewport={"width": width, "height": height})
                page.goto(f"{url}/Your_trace?lang={lang}")
                _settle(page)
                page.locator("[data-testid=stFileUploader] input[type=file]").set_input_files(
                    str(tmp_path / "tuned.lltrace"))
                _settle(page)
                heading = page.get_by_text(title, exact=True)
                heading.wait_for(timeout=90_000)
                heading.scroll_into_view_if_needed()
                chart = page.locator(".js-plotly-plot").first
                chart.wait_for(timeout=90_000)
                bars = page.evaluate("document.querySelector('.js-plotly-plot')._fullData[0].y")
                # the chart's settings are the report's measured rows, in the same order
                assert [b.split(" (")[0] for b in bars] == measured
                box = chart.bounding_box()
                assert box["x"] >= 0 and box["x"] + box["width"] <= width
                page.screenshot(path=str(ARTIFACTS / f"your_trace_tuned_{lang}_{width}.png"))
                page.close()
        browser.close()
