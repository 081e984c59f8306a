"""What following a live trace costs: one look after a new chunk, against reading the whole file again.

Writes a job trace of N events in chunks (as `run` flushes them), then, with a Follower that has read it all,
appends one more chunk and times the look; and times `load_any` of the same file (what a reader without
the follower would pay every refresh). Usage: python benchmarks/follow_trace.py [--events 1000000]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from loaderlab.jobs import follow, read  # noqa: E402
from loaderlab.trace.columnar import TraceWriter  # noqa: E402
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


if __name__ == "__main__":
    main()
