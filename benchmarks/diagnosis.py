"""Diagnosis against reality: per planted cause, the verdict, and each suggestion's replayed speed-up
against the speed-up of re-running the real workload with that setting (goal: within 25%).

Run: ``python benchmarks/diagnosis.py`` (``--rounds N``: the real runs are repeated N times and the median
ratio counts; ``--issue`` adds the issue's measured case, a 200,000-sample epoch of 8-sample batches with
2 workers, which takes a minute or two). The planted workloads are ``tests/trace/planted.py``'s. Prints
one row per (cause, suggestion): verdict, replayed x, real x, and the gap (replayed / real - 1).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from loaderlab.trace.suggestions import suggest  # noqa: E402
from loaderlab.trace.summary import summarise  # noqa: E402
from loaderlab.trace.verdict import verdict  # noqa: E402
from tests.trace.planted import Tiny, record_cause  # noqa: E402

CAUSES = ("ipc", "ipc_torch", "workers", "main_process", "startup", "straggler", "consumer")


def real_speedup(cause: str, change: dict, rounds: int, **base) -> float:
    ratios = []
    for _ in range(rounds):
        before = summarise(record_cause(cause, **base)).samples_per_s
        after = summarise(record_cause(cause, **base, **change)).samples_per_s
        ratios.append(after / before)
    return statistics.median(ratios)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--issue", action="store_true", help="also the issue's 200,000-sample epoch")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    cases = [(c, {}) for c in CAUSES]
    if args.issue:
        cases.append(("ipc", {"dataset": Tiny(200_000)}))
    print(f"{'cause':<14}{'verdict':<14}{'change':<22}{'replayed':>9}{'real':>9}{'gap':>8}  seconds")
    for cause, base in cases:
        started = time.perf_counter()
        frame = record_cause(cause, **base)
        found = verdict(frame)
        label = cause + (" 200k" if base else "")
        found_suggestions = suggest(frame, found)
        if not found_suggestions:
            print(f"{label:<14}{found.kind:<14}{'(none)':<22}{'':>9}{'':>9}{'':>8}  {time.perf_counter() - started:.1f}")
            continue
        for s in found_suggestions:
            real = real_speedup(cause, s.change, args.rounds, **base)
            gap = s.speedup / real - 1
            print(f"{label:<14}{found.kind:<14}{s.change_text():<22}{s.speedup:>8.2f}x{real:>8.2f}x{gap:>+8.0%}"
                  f"  {time.perf_counter() - started:.1f}")


if __name__ == "__main__":
    main()
