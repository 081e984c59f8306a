"""What following a live trace costs: one look after a new chunk, against reading the whole file again.

Writes a job trace of N events in chunks (as `run` flushes them), then, with a Follower that has read it all,
appends one more chunk and times the look; and times `load_any` of the same file (what a reader without
the follower would pay every refresh). Usage: python benchmarks/follow_trace.py [--events 1000000]; with ``--page``, the
dashboard page's rerun on a live trace instead (AppTest, no browser).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loaderlab.jobs import follow, read  # noqa: E402
from loaderlab.trace.files.columnar import TraceWriter  # noqa: E402
from tests.jobs.test_follow import META, chunk  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=5_000, help="events per flush")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "live.lltrace")
        writer = TraceWriter(path, META)
        for start in range(0, args.events, args.chunk):
            writer.write_frame(chunk(start, args.chunk))
        follower = follow.Follower(path)
        began = time.perf_counter()
        follower.poll()
        first = time.perf_counter() - began
        looks = []
        for k in range(5):
            writer.write_frame(chunk(args.events + k * args.chunk, args.chunk))
            began = time.perf_counter()
            frame = follower.poll()
            looks.append(time.perf_counter() - began)
        began = time.perf_counter()
        follower.poll()
        unchanged = time.perf_counter() - began
        began = time.perf_counter()
        whole = read.load_any(path)
        full = time.perf_counter() - began
        assert len(whole) == len(frame)
        writer.close()
        size = os.path.getsize(path) / 1e6
    print(f"{len(frame):,} events, {size:.1f} MB on disk, chunks of {args.chunk:,}")
    print(f"first look (reads everything):      {first:.3f} s")
    print(f"a look after one new chunk:         {min(looks):.3f} s min, {max(looks):.3f} s max (5 looks)")
    print(f"a look at an unchanged file:        {unchanged * 1e3:.2f} ms")
    print(f"load_any of the whole file instead: {full:.3f} s")


def page(events: int, chunk_rows: int) -> None:
    """The "Your trace" page following a live trace of ``events`` events (benchmarks/big_trace.py's shape, a
    loader column, this process posing as the job): the first render, then a rerun after each new chunk."""
    import json
    import shutil

    import streamlit as st
    from streamlit.testing.v1 import AppTest

    from benchmarks.big_trace import big_frame
    from loaderlab.jobs import stacks

    frame = big_frame(events).assign(loader="train_loader")
    settings = frame.attrs["loader"]
    frame.attrs = {}
    tail = frame.iloc[-5 * chunk_rows:]
    head = frame.iloc[:-5 * chunk_rows]
    folder = stacks.stacks_dir(os.getpid())
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, f"{os.getpid()}.who"), "w") as f:
        json.dump({"role": "main", "pid": os.getpid(), "trace": ""}, f)
    meta = {"job": {"pid": os.getpid(), "rank": 0, "world_size": 1},
            "loaders": {"train_loader": {"site": "train.py:1", "settings": settings, "sampler": {}, "epochs": 2}}}
    try:
        with tempfile.TemporaryDirectory() as work:
            path = os.path.join(work, "live.lltrace")
            writer = TraceWriter(path, meta)
            for start in range(0, len(head), chunk_rows):
                writer.write_frame(head.iloc[start:start + chunk_rows])
            st.cache_resource.clear()
            at = AppTest.from_file(str(ROOT / "pages" / "7_Your_trace.py"), default_timeout=600).run()
            began = time.perf_counter()
            at.text_input(key="trace_follow").set_value(path).run()
            first = time.perf_counter() - began
            assert not at.exception and not at.error, [e.value for e in at.error]
            reruns = []
            for k in range(5):
                writer.write_frame(tail.iloc[k * chunk_rows:(k + 1) * chunk_rows])
                began = time.perf_counter()
                at.run()
                reruns.append(time.perf_counter() - began)
            assert at.info[0].value.startswith("Live"), at.info[0].value
            began = time.perf_counter()
            at.run()
            same = time.perf_counter() - began
            writer.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print(f"page following a live trace of {len(frame):,} events (chunks of {chunk_rows:,}):")
    print(f"first render:                        {first:.2f} s")
    print(f"a rerun after one new chunk:         {min(reruns):.2f} s min, {max(reruns):.2f} s max (5 reruns)")
    print(f"a rerun with nothing new:            {same:.2f} s")


if __name__ == "__main__":
    if "--page" in sys.argv:
        sys.argv.remove("--page")
        parsed = argparse.ArgumentParser()
        parsed.add_argument("--events", type=int, default=1_000_000)
        parsed.add_argument("--chunk", type=int, default=5_000)
        known = parsed.parse_args()
        page(known.events, known.chunk)
    else:
        main()
