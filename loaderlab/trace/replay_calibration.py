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
:mod:`.replay_workload` reads the recording's: what the recording measured beyond that is the recorded
work. Replayed in the main process, the stand-in builds and collates its payload (what that costs there)
and then spends the work on top.

Knows the engine, the recorder and the stand-in; nothing of plotly or streamlit.
"""

from __future__ import annotations

from typing import Any

from ..engine.loader import DataLoader
from .recorder import record
from .replay_standin import ReplayCollate, ReplayConsumer, ReplayDataset
from .replay_workload import collate_s, sample_costs, step_s

CALIBRATION_BATCHES = 32  # per epoch: enough for the quiet quantiles, a fraction of a second with two workers
CALIBRATION_EPOCHS = 2  # each worker started twice: a worker's first batch is told apart from two of them


def in_worker(dataset: ReplayDataset, recorded: dict[str, Any]) -> dict[str, float]:
    """``sample_s``, ``collate_s``, ``step_s``: the stand-in's own sample, collate and loop body (seconds),
    recorded with ``recorded``'s settings (its ``num_workers``, ``batch_size``, ``prefetch_factor``, start
    method) and read as the recording's costs are."""
    batch_size = int(recorded.get("batch_size") or 1)
    n = CALIBRATION_BATCHES * batch_size
    probe = ReplayDataset({i: 0.0 for i in range(n)}, {}, {}, dataset.sample_floats, tensors=dataset.tensors)
    loader = DataLoader(probe, batch_size=batch_size, num_workers=int(recorded.get("num_workers") or 1),
                        prefetch_factor=recorded.get("prefetch_factor") or 2,
                        multiprocessing_context=recorded.get("multiprocessing_context"),
                        collate_fn=ReplayCollate(0.0))
    frame = record(loader, epochs=CALIBRATION_EPOCHS, consumer=ReplayConsumer(0.0))
    costs = sample_costs(frame)["cost_s"]
    return {"sample_s": float(costs.median()) if len(costs) else 0.0, "collate_s": collate_s(frame),
            "step_s": step_s(frame)}


def beyond(costs: dict[int, float], own_s: float) -> dict[int, float]:
    """Each cost less ``own_s``, never below zero."""
    return {i: max(0.0, c - own_s) for i, c in costs.items()}
