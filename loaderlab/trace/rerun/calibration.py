"""What the replay's stand-in itself costs inside a worker, measured by running it there: so that a replay
*without* workers of a trace recorded *with* them keeps only the work the recorded dataset, collate and
loop body did, and not what being in a worker added to them.

Twin of nothing in torch. A cost a worker records is the work plus the worker's surroundings, and those are
large beside microsecond work. Measured (8-sample batches of 2 µs samples, two workers, a 2-core machine at
load average 2-5): a sample 2.3 µs in a worker against 1.6 µs in the main process; a default collate 120-140
µs against 14 µs (a batch tensor allocated in shared memory, ~50 µs, and a worker that has just woken from
waiting for its task: the same collate after a 1.5 ms sleep takes 105 µs instead of 67 µs in a worker's
shoes); the loop body 27 µs against 2 µs (dropping a batch held in shared memory, 24 µs). No span of the
trace tells the work from its surroundings, so :func:`in_worker` runs the stand-in, costing nothing beyond
its own payload, in real workers with the recorded settings and reads its spans exactly as
:mod:`loaderlab.trace.rerun.workload` reads the recording's: what the recording measured beyond that is the recorded
work (for the samples, in total: each sample's own noise in either run is not its work). Replayed in the main process, the stand-in builds and collates its payload (what that costs there)
and then spends the work on top.

Knows the engine, the recorder and the stand-in; nothing of plotly or streamlit.
"""

from __future__ import annotations

from typing import Any

from ...engine.loader import DataLoader
from ..recording.recorder import record
from .standin import ReplayCollate, ReplayConsumer, ReplayDataset
from .workload import collate_s, sample_costs, step_s

CALIBRATION_SAMPLES = 512  # per epoch at most: a fraction of a second with two workers


def in_worker(dataset: ReplayDataset, recorded: dict[str, Any], epochs: int = 1,
              samples: int | None = None) -> dict[str, float]:
    """``sample_s`` (the mean), ``collate_s``, ``step_s``: the stand-in's own sample, collate and loop body
    (seconds), recorded as the trace was — ``recorded``'s settings (``num_workers``, ``batch_size``,
    ``prefetch_factor``, ``persistent_workers``, start method), ``epochs`` epochs of ``samples`` samples (at
    most :data:`CALIBRATION_SAMPLES`), so each worker lives as long and starts as often — and read as the
    recording's costs are."""
    batch_size = int(recorded.get("batch_size") or 1)
    n = min(samples or CALIBRATION_SAMPLES, CALIBRATION_SAMPLES)
    probe = ReplayDataset({i: 0.0 for i in range(n)}, {}, {}, dataset.sample_floats, tensors=dataset.tensors)
    loader = DataLoader(probe, batch_size=batch_size, num_workers=int(recorded.get("num_workers") or 1),
                        prefetch_factor=recorded.get("prefetch_factor") or 2,
                        persistent_workers=bool(recorded.get("persistent_workers")),
                        multiprocessing_context=recorded.get("multiprocessing_context"),
                        collate_fn=ReplayCollate(0.0))
    frame = record(loader, epochs=max(1, epochs), consumer=ReplayConsumer(0.0))
    costs = sample_costs(frame)["cost_s"]
    return {"sample_s": float(costs.mean()) if len(costs) else 0.0, "collate_s": collate_s(frame),
            "step_s": step_s(frame)}


def beyond(costs: dict[int, float], own_s: float) -> dict[int, float]:
    """The costs less ``own_s`` a sample in total, taken as one level off every cost (none below zero):
    their sum falls by ``own_s`` per sample where it can, and a slow sample stays slower by what it was."""
    if not costs or own_s <= 0:
        return dict(costs)
    values = sorted(costs.values(), reverse=True)
    keep = max(0.0, sum(values) - own_s * len(values))
    level, above = 0.0, 0.0  # the level L with sum(max(0, c - L)) == keep
    for k, c in enumerate(values, start=1):
        above += c
        level = (above - keep) / k
        if k == len(values) or values[k] <= level:
            break
    level = max(level, 0.0)
    return {i: max(0.0, c - level) for i, c in costs.items()}
