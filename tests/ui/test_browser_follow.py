"""In a real browser, the "Your trace" page follows a running `python -m loaderlab run` job: the fragment's timer
(which AppTest never fires) refreshes the counts while the job writes, and the view says the job ended once it
is stopped. Same set-up as ``test_browser.py``."""

from __future__ import annotations

import re
import signal

import psutil
import pytest

from tests.jobs.runner import read_until, start, write
from tests.ui.test_browser import ARGS, CHROMIUM, _settle
from tests.ui.test_browser import server  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SLOW_JOB = '''
import time
import torch
from torch.utils.data import DataLoader, Dataset

class Slow(Dataset):
    def __len__(self):
        return 100_000
    def __getitem__(self, i):
        time.sleep(0.01)
        return torch.tensor([i])

train_loader = DataLoader(Slow(), batch_size=4, num_workers=1)
for batch in train_loader:
    pass
'''

LIVE = re.compile(r"Live: the job is running; ([\d,]+) events")


def test_the_page_refreshes_while_the_job_runs_and_stops_when_it_ends(server, tmp_path):  # noqa: F811
    from playwright.sync_api import sync_playwright

    url, _ = server
    write(tmp_path, "slow.py", SLOW_JOB)
    job = start(tmp_path, "-o", "trace", "slow.py", LOADERLAB_RUN_PROGRESS_S="0")
    try:
        assert read_until(job.stderr, "loaderlab run:")  # the first chunk is on disk
        workers = psutil.Process(job.pid).children(recursive=True)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1200})
            page.goto(f"{url}/Your_trace")
            _settle(page)
            box = page.get_by_test_id("stTextInputField").and_(page.get_by_label("trace path on this machine"))
            box.fill(str(tmp_path / "trace.lltrace"))
            box.press("Enter")
            _settle(page)
            first = page.get_by_text(LIVE).first.inner_text(timeout=60_000)
            count = int(LIVE.search(first).group(1).replace(",", ""))
            # the timer reruns the fragment: the count grows with no interaction at all
            page.wait_for_function(
                "n => [...document.querySelectorAll('[data-testid=stAlert]')].some(e => {"
                " const m = e.innerText.match(/Live: the job is running; ([\\d,]+) events/);"
                " return m && Number(m[1].replaceAll(',', '')) > n; })", arg=count, timeout=60_000)
            job.send_signal(signal.SIGTERM)
            job.communicate(timeout=60)
            page.get_by_text("The job ended with exit status 143").wait_for(timeout=60_000)
            browser.close()
    finally:
        job.kill()
        job.wait(timeout=60)
    _, alive = psutil.wait_procs(workers, timeout=60)
    assert not alive
