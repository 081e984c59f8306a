"""A room of attendees changing settings at once, in real browsers: how long each waits for their page.

Not part of the test suite (it takes a minute or two and measures time). It starts ``streamlit run app.py``
with the README's workshop caps (``LOADERLAB_MAX_CONCURRENT_RUNS=2`` …) on a free port, opens N attendee
pages in headless chromium (one browser context each: N separate sessions), waits until every page has
drawn its first run, then — all at the same moment — each attendee clicks the ``batch_size`` slider at a
different place (N different settings, so N different runs: the worst case; identical settings would share
one). Each attendee's *wait* is the time from their click until their page has finished its script run and
drawn the figure again. It counts errors (an exception box, "server is busy") and how many attendees saw
their place in line; per round, the CPU of the server, the browsers and everything else, and per page change
(``per_change``) the server's and browsers' CPU and each page's own counts (:mod:`page_meter`).

    .venv/bin/python benchmarks/classroom_load.py --attendees 20 [--rounds 2] [--page /] [--json out.json]

Needs playwright's Python package and Debian's chromium (/usr/bin/chromium), as the browser tests do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import psutil

from page_meter import PageMeter, delta

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"]
WORKSHOP_CAPS = {"LOADERLAB_MAX_WORKERS": "2", "LOADERLAB_MAX_SAMPLES": "2000", "LOADERLAB_MAX_RUN_SECONDS": "20",
                 "LOADERLAB_MAX_CONCURRENT_RUNS": "2"}
SETTLED = """() => {
  const app = document.querySelector('[data-testid=stApp]');
  return app && app.getAttribute('data-test-script-state') === 'notRunning'
    && document.querySelectorAll('[data-testid=stSkeleton]').length === 0
    && document.querySelector('.js-plotly-plot') !== null;
}"""
ERRORS = """() => document.querySelectorAll('[data-testid=stException]').length
  + (document.body.textContent.includes('server is busy') ? 1 : 0)"""
# Installed once per page after its first run. Everything a wait needs is noted by the page itself: the
# time of the attendee's pointerdown (the event's own timestamp), that the script started running (a quick
# rerun may end between two looks), and whether the page showed a place in line. The script only asks the
# page to wait (one in-page poll, no round trip per look): with 20 pages, polling each over the DevTools
# protocol every 50 ms — and reading innerText, which forces a layout — cost the browsers more than the
# server's whole work.
WATCH = """() => {
  const s = window.__ll = {ran: false, inLine: false, clickAt: null};
  const app = document.querySelector('[data-testid=stApp]');
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'running') s.ran = true;
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  document.addEventListener('pointerdown', e => { if (s.clickAt === null) s.clickAt = e.timeStamp; }, true);
}"""
ARM = "() => { Object.assign(window.__ll, {ran: false, inLine: false, clickAt: null, doneAt: null}); }"
# True when the page has run and drawn again (then __ll.doneAt is when this look saw it), or 'unchanged'
# when after 3 s the slider still shows the value it had (the click changed nothing: no rerun comes).
DONE = """([before]) => {
  const s = window.__ll, settled = %s;
  const main = document.querySelector('[data-testid=stMain]');
  if (main && main.textContent.includes(' in line')) s.inLine = true;
  if (s.ran && settled()) { s.doneAt = performance.now(); return true; }
  const slider = [...document.querySelectorAll('[data-testid=stSlider]')]
    .find(e => e.textContent.includes('batch_size'));
  const thumb = slider && slider.querySelector('input');
  if (s.clickAt !== null && performance.now() - s.clickAt > 3000 && thumb
      && thumb.getAttribute('aria-valuetext') === before) return 'unchanged';
  return false;
}""" % SETTLED
# No animation in the attendees' browsers (the spinner, the stale-element fade): on their own laptops these
# cost nothing of the server's, here they would take the server's cores. prefers-reduced-motion is set too.
NO_ANIMATION = """document.addEventListener('DOMContentLoaded', () => {
  const style = document.createElement('style');
  style.textContent = '*, *::before, *::after { animation: none !important; transition: none !important; }';
  document.head.appendChild(style);
});"""
args_timeout_s = 180.0  # an attendee who waits longer counts as not served


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(env: dict, log: str | None = None) -> tuple[str, subprocess.Popen]:
    port = free_port()
    out = open(log, "w") if log else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"), "--server.port",
                             str(port), "--server.headless", "true",
                             # as in a workshop, nobody edits the source meanwhile: on this shared machine other
                             # people's edits would make the watcher rescan the tree and rerun pages
                             "--server.fileWatcherType", "none"], cwd=ROOT, env=env, start_new_session=True,
                            stdout=out, stderr=out)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=1).status == 200:
                return url, proc
        except OSError:
            time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit("streamlit did not become healthy within 60 s")


async def settle(page, timeout_s: float = 120) -> None:
    await page.wait_for_timeout(150)  # the rerun request reaches the server before we look
    await page.wait_for_function(SETTLED, timeout=timeout_s * 1000, polling=50)


async def open_attendee(browser, url: str, path: str, animations: bool, meter: PageMeter | None = None):
    context = await browser.new_context(viewport={"width": 1280, "height": 900},
                                        reduced_motion="no-preference" if animations else "reduce")
    if not animations:
        await context.add_init_script(NO_ANIMATION)
    page = await context.new_page()
    if meter is not None:
        await meter.attach(page)  # before the page opens its websocket
    await page.goto(url + path)
    await settle(page, 300)
    await page.evaluate(WATCH)
    return page


async def change_and_wait(page, fraction: float) -> dict:
    """Click the batch_size slider at ``fraction`` of its track; the wait lasts until the page is drawn.

    The wait is the page's own clock: from the pointerdown event of the click to the first look (every
    50 ms, in the page) that finds its rerun over and the figure drawn."""
    slider = page.get_by_test_id("stSlider").filter(has_text="batch_size")
    box = await slider.locator("[role=group] > div[data-orientation=horizontal]").bounding_box()
    before = await slider.locator("input").get_attribute("aria-valuetext")
    await page.evaluate(ARM)
    start = time.monotonic()
    await page.mouse.click(box["x"] + box["width"] * fraction, box["y"] + box["height"] / 2)
    try:
        handle = await page.wait_for_function(DONE, arg=[before], polling=50,
                                              timeout=args_timeout_s * 1000)
        done = await handle.json_value()
    except Exception:  # noqa: BLE001 - playwright's TimeoutError: not served in time
        text = await page.evaluate("() => document.querySelector('[data-testid=stMain]')?.textContent || ''")
        state = await page.evaluate("() => window.__ll")
        return {"wait_s": None, "errors": 1, "in_line": state["inLine"], "page_text": text[:600]}
    state = await page.evaluate("() => window.__ll")
    if done == "unchanged":
        return {"wait_s": None, "errors": 0, "in_line": False, "unchanged": before}  # the click hit the value it had
    value = await slider.locator("input").get_attribute("aria-valuetext")
    wait = (state["doneAt"] - state["clickAt"]) / 1000
    return {"wait_s": wait, "seen_by_script_s": round(time.monotonic() - start, 3), "batch_size": value,
            "errors": await page.evaluate(ERRORS), "in_line": state["inLine"]}


def cpu_seconds(root: int, without: int | None = None) -> float:
    """CPU time (user + system) of ``root`` and its live descendants, leaving out ``without``'s process tree
    (the server is this script's child too: counted with the browsers, it was counted twice)."""
    total = 0.0
    try:
        procs = [psutil.Process(root), *psutil.Process(root).children(recursive=True)]
        if without is not None:
            skip = {without, *(c.pid for c in psutil.Process(without).children(recursive=True))}
            procs = [p for p in procs if p.pid not in skip]
    except psutil.Error:
        return 0.0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system + t.children_user + t.children_system
        except psutil.Error:
            pass
    return total


def busy_seconds() -> float:
    """CPU time the whole machine has spent busy (all cores, all processes), stolen time included: on a
    virtual machine the kernel charges a process for the time the host took from it. Processes' own times
    are counted in clock ticks, so the difference (others_cpu_s) is good to about a second per round."""
    t = psutil.cpu_times()
    return sum(getattr(t, name, 0.0) for name in ("user", "nice", "system", "irq", "softirq", "steal"))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


async def main_async(args) -> dict:
    from playwright.async_api import async_playwright

    global args_timeout_s
    args_timeout_s = args.timeout
    env = {**os.environ, **WORKSHOP_CAPS, "LOADERLAB_ROOM_DB": str(Path(tempfile.mkdtemp()) / "rooms.sqlite3")}
    url, proc = start_server(env, args.server_log)
    results: list[dict] = []
    cpu: list[dict] = []
    try:
        async with async_playwright() as pw:
            executable = CHROMIUM
            if args.browser_nice:  # the browsers stand in for the attendees' own laptops: they yield the cores
                wrapper = Path(tempfile.mkdtemp()) / "chromium"
                wrapper.write_text(f'#!/bin/sh\nexec nice -n {args.browser_nice} {CHROMIUM} "$@"\n')
                wrapper.chmod(0o755)
                executable = str(wrapper)
            browser = await pw.chromium.launch(executable_path=executable, args=ARGS)
            warm = await browser.new_page()
            await warm.goto(url)  # a fresh server lists pages/ without app.py until "/" has loaded once
            await settle(warm, 300)
            await warm.close()
            pages, meters = [], [PageMeter() for _ in range(args.attendees)]
            for k in range(0, args.attendees, 5):  # open in fives: a room arrives over a minute, not at once
                pages += await asyncio.gather(*(open_attendee(browser, url, args.page, args.animations, meters[i])
                                                for i in range(k, min(k + 5, args.attendees))))
            for round_ in range(args.rounds):
                # attendee i clicks at a place of their own: N different batch sizes, N different runs. Each
                # round shifts everyone half a place (new settings, no cache hits) and half the room along
                # (nobody clicks on their own slider's thumb, which would not move it)
                n = args.attendees
                fractions = [((i + round_ * (n // 2)) % n + 0.5 + 0.5 * (round_ % 2)) / (n + 1) for i in range(n)]
                t0, server0, browser0 = time.monotonic(), cpu_seconds(proc.pid), cpu_seconds(os.getpid(), proc.pid)
                machine0, read0 = busy_seconds(), await asyncio.gather(*(m.read() for m in meters))
                got = await asyncio.gather(*(change_and_wait(p, f) for p, f in zip(pages, fractions)))
                read1 = await asyncio.gather(*(m.read() for m in meters))
                cpu.append({"round": round_, "wall_s": round(time.monotonic() - t0, 2),
                            "server_cpu_s": round(cpu_seconds(proc.pid) - server0, 2),  # pages, runs, workers
                            "browser_cpu_s": round(cpu_seconds(os.getpid(), proc.pid) - browser0, 2)})  # chromium + this
                # what everything else on the machine took meanwhile (other people's work on a shared machine)
                cpu[-1]["others_cpu_s"] = round(busy_seconds() - machine0 - cpu[-1]["server_cpu_s"]
                                                - cpu[-1]["browser_cpu_s"], 2)
                for i, g in enumerate(got):
                    results.append({"round": round_, "attendee": i, **g, **delta(read1[i], read0[i])})
                # per page change, the browser's own counts (page_meter.py): they hold on a shared machine
                changed = [r for r in results[-n:] if "unchanged" not in r] or [{}]
                cpu[-1]["per_change"] = {
                    "server_cpu_s": round(cpu[-1]["server_cpu_s"] / len(changed), 3),
                    "browser_cpu_s": round(cpu[-1]["browser_cpu_s"] / len(changed), 3),
                    **{k: round(statistics.mean(r.get(k, 0) for r in changed), 3) for k in ("task_s", "script_s", "ws_bytes", "ws_frames")}}
                print(f"round {round_ + 1}: all {args.attendees} served in {time.monotonic() - t0:.1f} s",
                      file=sys.stderr)
            await browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
    results = [r for r in results if "unchanged" not in r]  # no new setting, no run: not a request
    waits = [r["wait_s"] for r in results if r["wait_s"] is not None]
    summary = {
        "attendees": args.attendees, "rounds": args.rounds, "page": args.page, "cores": os.cpu_count(),
        "browser_nice": args.browser_nice, "animations": args.animations,
        "served": len(waits), "requests": len(results), "errors": sum(r["errors"] for r in results),
        "saw_place_in_line": sum(r["in_line"] for r in results),
        "distinct_settings": len({(r["round"], r.get("batch_size")) for r in results}),
        "p50_s": round(statistics.median(waits), 2) if waits else None,
        "p95_s": round(percentile(waits, 0.95), 2) if waits else None,
        "max_s": round(max(waits), 2) if waits else None,
        "load_avg_before": None,
        "cpu_per_round": cpu,
    }
    return {"summary": summary, "results": results}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attendees", type=int, default=20, help="browser sessions (default 20)")
    parser.add_argument("--rounds", type=int, default=2, help="times everyone changes settings at once (default 2)")
    parser.add_argument("--page", default="/?lang=en", help="the page attendees use (default: the home page)")
    parser.add_argument("--json", help="write every attendee's numbers here")
    parser.add_argument("--timeout", type=float, default=120.0, help="an attendee waiting longer is not served")
    parser.add_argument("--server-log", help="write the server's output here")
    parser.add_argument("--browser-nice", type=int, default=0,
                        help="run chromium at this nice level (19: the browsers only take what the server leaves, "
                             "as if they ran on the attendees' laptops); default 0: they compete as equals")
    parser.add_argument("--animations", action="store_true",
                        help="keep the browsers' animations (default: off, and prefers-reduced-motion)")
    args = parser.parse_args()
    if args.attendees < 1 or args.rounds < 1:
        parser.error("--attendees and --rounds must be at least 1")
    load = os.getloadavg()
    out = asyncio.run(main_async(args))
    out["summary"]["load_avg_before"] = [round(x, 2) for x in load]
    out["summary"]["load_avg_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out["summary"], indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
