"""How long a page takes to re-render after a parameter change (the dashboard's quality bar: < 2 s).

Run: ``python -m loaderlab.ui.rerender_timing`` — for each page, AppTest renders it once with the
default scenario (2,000 samples, 2 workers), then moves ``batch_size`` (a new configuration, so a real
run of the engine, not a cache hit) and times that rerun. Prints a markdown table.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import streamlit as st
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ["app.py", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "pages").glob("*.py"))]


def rerender_seconds(page: str, changes: list[int]) -> list[float]:
    st.cache_data.clear()
    at = AppTest.from_file(str(ROOT / page), default_timeout=300).run()
    if at.exception:
        raise RuntimeError(f"{page} failed: {at.exception[0].value}")
    times = []
    for batch_size in changes:
        at.session_state["batch_size"] = batch_size
        start = time.perf_counter()
        at.run()
        times.append(time.perf_counter() - start)
        if at.exception:
            raise RuntimeError(f"{page} failed after batch_size={batch_size}: {at.exception[0].value}")
    return times


def main() -> None:
    changes = [32, 8, 24]
    print("| page | re-render after a change (median of 3, s) | slowest (s) |")
    print("|---|---|---|")
    for page in PAGES:
        times = rerender_seconds(page, changes)
        print(f"| {page} | {statistics.median(times):.2f} | {max(times):.2f} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
