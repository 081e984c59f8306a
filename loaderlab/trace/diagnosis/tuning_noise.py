"""What makes a gain that ``run --tune`` measured in one run of the job say less than its rounds' spread: the
loop's other threads at work while it waits for its workers' batches (issue 33).

Twin of nothing in torch. Where torch's intra-op threads spin after each op of the step (OpenMP's wait
policy), they take the cores the workers need, and where they land moves a whole process's rates: one SQLite
job with an MLP step and 1 or 2 workers read 7,603-14,015 samples/s within a process and its three ``--tune``
runs measured ``num_workers=2`` at 1.63x, 0.55x and 1.11x the job's own rate where plain re-runs gave 1.03x
(the same job's slices with ``OMP_WAIT_POLICY=PASSIVE``: within 5 %). Slices in one process share that luck,
so their spread cannot show it: a gain between settings with workers, measured in such a process, is told
only above :data:`BUSY_SPEEDUP`. Pure functions of a ``tuning`` record (:mod:`.tuning`); knows nothing of
pandas, plotly or streamlit (the job's process imports it).
"""

from __future__ import annotations

from typing import Any

BUSY_CORES = 0.3  # the other threads' cores while waiting: 0.02-0.07 where nothing spins, 0.9-1.0 spinning
BUSY_SPEEDUP = 1.65  # above the largest rate ratio one such process measured where plain runs gave 1.03x


def busy_cores(record: dict[str, Any]) -> float:
    """The loop's other threads' CPU over its waits in the slices of settings with workers, each slice past its
    first batch (:meth:`loaderlab.jobs.tune_slices.Slice.waited`; 0.0 where there were none)."""
    slices = [s for c in record.get("candidates") or () if c["setting"].get("num_workers")
              for s in c.get("slices", ())]
    wait_s = sum(s.get("wait_s", 0.0) for s in slices)
    return sum(s.get("busy_s", 0.0) for s in slices) / wait_s if wait_s > 0 else 0.0


def least_told(record: dict[str, Any], best: dict[str, Any], floor: float) -> tuple[float, float]:
    """``(floor, cores)``: the least speed-up told for ``best`` (a candidate), and the busy cores read: above
    ``floor``, :data:`BUSY_SPEEDUP` where the loop's threads were busy and ``best`` runs workers."""
    cores = busy_cores(record)
    if cores >= BUSY_CORES and best["setting"].get("num_workers"):
        return max(floor, BUSY_SPEEDUP), cores
    return floor, cores
