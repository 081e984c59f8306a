"""``run --tune``'s paces and costs, from the candidates' records so far: the fastest setting's pace, a setting's
rate over the leader's, and what the tuning has cost the job (:func:`cost_s`), which the budget bounds.

Twin of nothing in torch. Reads the records :mod:`.tune_slices` keeps (rates by
:mod:`loaderlab.trace.diagnosis.tuning`); knows nothing of which setting runs when (:mod:`.tune_plan`,
:mod:`.tuner`), of files, plotly or streamlit.
"""

from __future__ import annotations

from statistics import median
from typing import Any

from ..trace.diagnosis.tuning import rates, steady_rates


def cost_s(record: dict[str, Any]) -> float:
    """What the tuning has cost the job so far, from the whole ``tuning`` record: the seconds its slices took
    beyond the pace of the fastest setting measured so far (:func:`lead_pace`) for the same samples, their stalls
    apart (a slow sample costs every setting alike), summed for each setting and each at least nothing. The job's
    own first slice costs nothing: the plain job starts with it too, and the tuning is planned from it. Where
    nothing has a pace yet, the other settings' slices' whole time. Tuning that costs the job this much takes it
    that much longer than a job run with the best setting from its start. (Counted as the slices' wall time, the
    job's own and the leader's slices spent it too: a 4-epoch job at 10 %, whose own 4 workers took 0.57 s a
    slice and whose shares were 0.42 s an epoch, ran three slices in its four shares, two of them its own, and
    `num_workers=0` got one: "too few rounds", where it re-runs about 2x as fast. Counted against the job's own pace
    alone, the job's own slices cost nothing, and the same job's tuning cost 0.08 s of its 0.31 s share while it
    took every batch of all four epochs in slices, 1.84x the time of the job with its best setting.)"""
    cands = record.get("candidates") or []
    pace = lead_pace(cands)
    cost = 0.0
    for i, cand in enumerate(cands):
        slices = list(cand.get("slices") or ())[1 if i == 0 else 0:]
        if pace is None:
            cost += 0.0 if i == 0 else sum(_took(s) for s in slices)
        else:
            cost += max(0.0, sum(_took(s) - s.get("all_samples", 0) * pace for s in slices))
    return cost


def _took(s: dict[str, Any]) -> float:
    """A slice's seconds without its stalls."""
    return (s.get("elapsed_s") or 0.0) - s.get("stall_s", 0.0)


def lead_pace(cands: list[dict[str, Any]]) -> float | None:
    """Seconds a sample at the fastest setting measured so far, step included (each setting's median rate; the
    job's own, before it has a rate, by the steady part of its first slice, which started its workers); None
    where none has a pace."""
    paces = [median(r) for c in cands if (r := rates(c))] + ([own] if (own := own_guess(cands)) else [])
    return 1.0 / max(paces) if paces else None


def pace_share(cands: list[dict[str, Any]], i: int) -> float:
    """Setting ``i``'s median rate over the fastest setting's (the job's own, before it has a rate, by the
    steady part of its first slice: :func:`own_guess`), at most 1; 1 where ``i`` or no other has a pace."""
    paces = {j: median(r) for j, c in enumerate(cands) if (r := rates(c))}
    if 0 not in paces and (own := own_guess(cands)):
        paces[0] = own
    if i not in paces or len(paces) < 2:
        return 1.0
    return min(1.0, paces[i] / max(paces.values()))


def own_guess(cands: list[dict[str, Any]]) -> float | None:
    """The job's own samples/s before it has a rate: the steady part of the slices it ran (their workers' fill
    reads fast, so a faster setting's lead is understated, never made up); None where it has a rate or no pace."""
    if not cands or rates(cands[0]):
        return None
    r = steady_rates(cands[0])
    return median(r) if r else None
