"""Replay against reality where it was furthest off (issue 17's benchmark, ``benchmarks/diagnosis.py``): the
replayed speed-up of ``num_workers=0`` against re-running the planted workload with it, both on this machine
now, taken in turn so that both see the same load, the least-disturbed of five of each (each round records the
cause anew).

Before the replay kept only the recorded work when it replays a trace recorded with workers in the main
process (the loop body's span held next()'s GIL hand-over to the loader's threads; a worker's wake-up and
warm-up, its own threads' GIL and what the stand-in itself costs in a worker stayed in the costs), these
replayed at 0.27-0.45x (8-sample batches) and 0.07-0.22x (the start-up cause) of the real speed-up: the bands
exclude that. They are wide because the real ratio itself moves with the machine's load (the 8-sample row
measured 10x to 34x real on a shared 2-core machine within an hour). ``batch_size=32``, the third case of the
benchmark, replayed within the noise before as after (0.9-1.1x of real in turn on this machine): what was
wrong in it is the stand-in's payload, tested exactly in ``test_replay.py``.
"""

from __future__ import annotations

import warnings

import pytest

from loaderlab.trace.rerun.replayer import replay
from loaderlab.trace.diagnosis.summary import summarise

from tests.helpers.planted import record_cause

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)

ROUNDS = 5

# cause, change, the band the replayed / real speed-up must land in
CASES = [("ipc", {"num_workers": 0}, 0.55, 1.8),
         # 16 batches in 2 ms: one pre-emption doubles a run. The CI's box replayed 69-140x against a real
         # 330-390x in all five rounds (0.28x; 0.5x here, alone or after the timing suite): the band's floor stays
         # above the 0.07-0.22x of the bug it guards against.
         ("startup", {"num_workers": 0}, 0.25, 3.0)]


def _rate(frame) -> float:
    return summarise(frame).samples_per_s


@pytest.mark.slow
@pytest.mark.parametrize("cause, change, low, high", CASES, ids=[c[0] for c in CASES])
def test_the_replayed_speedup_lands_near_the_real_one(cause, change, low, high):
    rates: dict[str, list[float]] = {"replayed": [], "replayed_changed": [], "real": [], "real_changed": []}
    for _ in range(ROUNDS):  # taken in turn, so that both see the same load
        # a fresh recording each round: one noisy recording of the 8-sample cause replayed at 7-9x in every
        # round while the real ratio was 12-36x (the same spread before and after the body carried its faults)
        frame = record_cause(cause)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rates["replayed_changed"].append(_rate(replay(frame, **change)))
            rates["replayed"].append(_rate(replay(frame)))
        rates["real_changed"].append(_rate(record_cause(cause, **change)))
        rates["real"].append(_rate(record_cause(cause)))
    # the least-disturbed run of each of the four: a disturbance only ever slows a run. Not the best of five
    # ratios: one slowed run as the denominator makes the largest ratio (the CI once read a replayed 96.9x
    # against a real 14.6-30x), and not medians: a replay of the 2 ms start-up cause is bimodal (replays of
    # 70-140x and of 300-330x against a real 330-400x, round to round on one machine)
    best = {name: max(values) for name, values in rates.items()}
    replayed = best["replayed_changed"] / best["replayed"]
    real = best["real_changed"] / best["real"]
    assert low <= replayed / real <= high, f"replayed {replayed:.1f}x, real {real:.1f}x, rates {rates}"
