"""What one settings change costs, on both sides, with one attendee: the numbers behind a room's load.

Not part of the test suite. Starts the server as ``classroom_load.py`` does (the workshop caps), opens one
attendee page in headless chromium and changes ``batch_size`` N times, one change at a time, at the places
a room of N clicks in its first round (the same N batch sizes every time this runs). Per change it reports:

- ``server_cpu_s``: the server process's CPU (page script, the run's thread, trace analysis, sending) and
  ``workers_cpu_s``: the run's worker processes';
- ``browser_cpu_s``: chromium's processes (all threads: script, layout, raster, compositor);
- ``task_s`` / ``script_s`` / ``layout_s`` and ``ws_bytes`` / ``ws_frames``: see :mod:`page_meter`.

One change at a time, nothing else of the room's: the numbers depend little on other work on the machine
(CPU times, bytes), unlike a room's waits.

    .venv/bin/python benchmarks/page_change_cost.py [--changes 10] [--page /?lang=en] [--json out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
from pathlib import Path

import psutil

from classroom_load import ARGS, CHROMIUM, WORKSHOP_CAPS, change_and_wait, open_attendee, settle, start_server
from page_meter import PageMeter, delta


def _cpu(proc: psutil.Process) -> float:
    t = proc.cpu_times()
    return t.user + t.system


def tree_cpu(pid: int) -> tuple[float, float]:
    """CPU of ``pid`` itself, and of its descendants (live ones, plus the reaped ones it waited for)."""
    root = psutil.Process(pid)
    t = root.cpu_times()
    kids = t.children_user + t.children_system
    for c in root.children(recursive=True):
        try:
            kids += _cpu(c)
        except psutil.Error:
            pass
    return t.user + t.system, kids


def browser_cpu(browser_pid: int) -> float:
    total = 0.0
    for p in [psutil.Process(browser_pid), *psutil.Process(browser_pid).children(recursive=True)]:
        try:
            total += _cpu(p)
        except psutil.Error:
            pass
    return total


async def main_async(args) -> dict:
    from playwright.async_api import async_playwright

    env = {**os.environ, **WORKSHOP_CAPS, "LOADERLAB_ROOM_DB": str(Path(tempfile.mkdtemp()) / "rooms.sqlite3")}
    url, proc = start_server(env, args.server_log)
    changes = []
    try:
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            chromium = next(p for p in psutil.Process(os.getpid()).children(recursive=True)
                            if "chrom" in p.name() and p.pid != proc.pid)
            warm = await browser.new_page()
            await warm.goto(url)
            await settle(warm, 300)
            await warm.close()
            meter = PageMeter()
            page = await open_attendee(browser, url, args.page, False, meter)
            n = args.changes
            for i in range(n):
                fraction = (i + 0.5) / (n + 1)  # a room of n's first round: attendee i's place
                await page.wait_for_timeout(500)  # the previous change's drawing has ended
                m0, (s0, w0), b0 = await meter.read(), tree_cpu(proc.pid), browser_cpu(chromium.pid)
                got = await change_and_wait(page, fraction)
                await page.wait_for_timeout(500)  # plotly and the browser finish drawing after the page settles
                m1, (s1, w1), b1 = await meter.read(), tree_cpu(proc.pid), browser_cpu(chromium.pid)
                changes.append({"batch_size": got.get("batch_size"), "wait_s": got["wait_s"],
                                "server_cpu_s": round(s1 - s0, 3), "workers_cpu_s": round(w1 - w0, 3),
                                "browser_cpu_s": round(b1 - b0, 3), **delta(m1, m0)})
                print(json.dumps(changes[-1]), file=sys.stderr)
            await browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    changes = [c for c in changes if c["wait_s"] is not None]
    keys = ("server_cpu_s", "workers_cpu_s", "browser_cpu_s", "task_s", "script_s", "layout_s", "ws_bytes",
            "ws_frames")
    summary = {k: round(statistics.mean(c[k] for c in changes), 4) for k in keys}
    return {"page": args.page, "changes": len(changes), "mean_per_change": summary,
            "median_per_change": {k: statistics.median(c[k] for c in changes) for k in keys}, "each": changes}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--changes", type=int, default=10, help="settings changes, one at a time (default 10)")
    parser.add_argument("--page", default="/?lang=en", help="the page (default: the home page)")
    parser.add_argument("--json", help="write every change's numbers here")
    parser.add_argument("--server-log", help="write the server's output here")
    args = parser.parse_args()
    load = os.getloadavg()
    out = asyncio.run(main_async(args))
    out["load_avg_before"] = [round(x, 2) for x in load]
    out["load_avg_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps({k: v for k, v in out.items() if k != "each"}, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
