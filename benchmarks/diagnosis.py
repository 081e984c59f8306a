"""Diagnosis against reality: per planted cause, the verdict, and each suggestion's replayed speed-up
against the speed-up of re-running the real workload with that setting (goal: within 25%).

Run: ``python benchmarks/diagnosis.py`` (``--rounds N``: per suggestion, N rounds each of one replayed
speed-up — the changed replay against an unchanged one, as ``suggest`` measures it — and one real re-run
pair, taken in turn so that both see the same load; the medians count. ``--causes``: only those; ``--issue``
adds the issue's measured case, a 200,000-sample epoch of 8-sample batches with 2 workers, which takes a
minute or two). The planted workloads are ``tests/helpers/planted.py``'s. Prints one row per (cause,
suggestion): verdict, replayed x, real x, and the gap (replayed / real - 1).

``--ablation`` instead replays ``num_workers=0`` for the IPC-bound and start-up causes twice on the *same*
recorded trace, with and without taking off what the stand-in itself costs in a worker
(``replay_calibration.in_worker``), beside the real re-run: on a busy shared machine the real ratio moves
with the load, the difference between the two replays of one trace does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from loaderlab.trace.rerun.calibration import in_worker
from loaderlab.trace.rerun.replayer import replay
from loaderlab.trace.diagnosis.suggestions import suggest  # noqa: E402
from loaderlab.trace.diagnosis.summary import summarise  # noqa: E402
from loaderlab.trace.diagnosis.bottleneck import verdict  # noqa: E402
from tests.helpers.planted import Tiny, record_cause  # noqa: E402

REPLAY_SAMPLES = 2000  # a long trace: the first samples of each epoch tell the rate
CAUSES = ("ipc", "ipc_torch", "workers", "main_process", "startup", "straggler", "consumer")


def speedups(frame, cause: str, suggestion, rounds: int, **base) -> tuple[float, float]:
    """(replayed, real): medians over ``rounds`` of the suggestion's replayed speed-up on ``frame`` and of
    re-running the real workload with it, taken in turn so that both see the same load."""
    replays, reals = [], []
    for _ in range(rounds):
        kwargs = dict(max_samples=REPLAY_SAMPLES)
        replays.append(rate(replay(frame, **kwargs, **suggestion.change))
                       / rate(replay(frame, **kwargs)))
        reals.append(rate(record_cause(cause, **base, **suggestion.change)) / rate(record_cause(cause, **base)))
    return statistics.median(replays), statistics.median(reals)


def rate(frame) -> float:
    return summarise(frame).samples_per_s


def _uncorrected(on: bool, kept={}) -> None:
    """Switch replay's measure of the stand-in's own costs in a worker (``replay_calibration.in_worker``)
    off (``on``: nothing is taken off the recorded costs) or back on."""
    kept.setdefault("in_worker", in_worker)
    if on:
        in_worker = lambda dataset, recorded, **shape: {"sample_s": 0.0, "collate_s": 0.0, "step_s": 0.0}
    else:
        in_worker = kept["in_worker"]


def ablation(rounds: int) -> None:
    print(f"{'cause':<14}{'change':<16}{'uncorrected':>12}{'corrected':>10}{'real':>9}{'gap before':>11}{'gap now':>9}")
    for cause in ("ipc", "ipc_torch", "startup"):
        found = {"uncorrected": [], "corrected": [], "real": []}
        for _ in range(rounds):
            frame = record_cause(cause)
            for mode in ("uncorrected", "corrected"):
                _uncorrected(mode == "uncorrected")
                found[mode].append(rate(replay(frame, num_workers=0)) / rate(replay(frame)))
            _uncorrected(False)
            found["real"].append(rate(record_cause(cause, num_workers=0)) / rate(frame))
        m = {k: statistics.median(v) for k, v in found.items()}
        print(f"{cause:<14}{'num_workers=0':<16}{m['uncorrected']:>11.2f}x{m['corrected']:>9.2f}x{m['real']:>8.2f}x"
              f"{m['uncorrected'] / m['real'] - 1:>+11.0%}{m['corrected'] / m['real'] - 1:>+9.0%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--issue", action="store_true", help="also the issue's 200,000-sample epoch")
    parser.add_argument("--ablation", action="store_true",
                        help="num_workers=0 replayed with and without the pre-emption corrections, same traces")
    parser.add_argument("--causes", nargs="+", choices=CAUSES, default=list(CAUSES),
                        help="only these planted causes (default: all)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    if args.ablation:
        return ablation(args.rounds)
    cases = [(c, {}) for c in args.causes]
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
            replayed, real = speedups(frame, cause, s, args.rounds, **base)
            gap = replayed / real - 1
            print(f"{label:<14}{found.kind:<14}{s.change_text():<22}{replayed:>8.2f}x{real:>8.2f}x{gap:>+8.0%}"
                  f"  {time.perf_counter() - started:.1f}", flush=True)


if __name__ == "__main__":
    main()
