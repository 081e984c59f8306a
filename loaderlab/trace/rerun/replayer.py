"""Replay ("what if"): re-run the engine on a stand-in for the recorded dataset, with new loader settings.

Twin of nothing in torch. From a trace we take what was measured — each sample's fetch time, label,
length and size, the collate time per batch, the training step's time, how many tensors a batch carries,
a worker's start-up (:mod:`loaderlab.trace.rerun.workload`, :mod:`loaderlab.trace.rerun.costs`) — and build a dataset that costs
the same, then record the loaderlab engine on it with the trace's settings overridden by the caller's.
So "what would num_workers=4, in_order=False do to *my* loader?" is answered by a real run, not a model.

Samples are visited in the recorded order (the sampler's order of each recorded epoch), so a straggler
stays where it was. Waiting stands for the measured cost, and waiting does not compete for cores: eight
sleeping workers on two cores run eight at once, which CPU-bound loading never does. So by default each
sample's (and each collate's) wait holds one of ``cores`` slots shared by all workers (``cores``: this
machine's usable cores, as torch counts them for its worker-count warning): at most that many run at
once, the CPU-bound case. The trace cannot tell computing from waiting; ``io_bound=True`` says the
recorded time was waiting (disk, network) and lifts the cap. The result's run (``as_run(out)``) has
``extra["replay_model"]``, which says
which model ran (``model_note`` words it). The training step is not capped (it may run on a GPU).

Torch warns about too many workers when the loader is built and again at each ``iter()``; a replay shows
each distinct warning once. Knows nothing of plotly/streamlit.
"""

from __future__ import annotations

import multiprocessing
import warnings
from typing import Any

import pandas as pd
import torch

from ...engine import loader as engine_loader
from ...engine.loader import DataLoader
from ...texts import text
from ..recording.recorder import record
from .calibration import beyond, in_worker
from .costs import ReplayStartup, shared_release_s
from .standin import RecordedOrder, ReplayCollate, ReplayConsumer, ReplayDataset, ReplayInfo
from .workload import measured_workload
from ..core.run import as_run, Run, to_frame

# record() of a stock torch DataLoader drops the previous batch before batch_yield (not in the step's span)
STOCK_RECORD = "torch.utils.data.DataLoader"
REPLAYABLE = ("batch_size", "drop_last", "num_workers", "prefetch_factor", "in_order", "persistent_workers",
              "pin_memory", "timeout", "multiprocessing_context")


def replay(frame: pd.DataFrame | Run, *, epochs: int | None = None, io_bound: bool = False, max_samples: int | None = None,
           **loader_args: Any) -> pd.DataFrame:
    """Record the engine on the trace's measured workload, with ``loader_args`` replacing recorded settings.

    Returns the replay's events like :func:`loaderlab.record` (its ``attrs`` carry the run's metadata:
    ``loader``, ``epochs``, ``replay_of`` — the recorded settings — and ``replay_model``).

    ``io_bound``: the recorded sample time was waiting, not computing, so workers beyond this machine's
    cores still overlap (default False: at most ``cores`` samples or collates at once; see the module).
    """
    unknown = sorted(set(loader_args) - set(REPLAYABLE))
    if unknown:
        raise TypeError(f"replay() got unexpected loader arguments {unknown}; allowed: {', '.join(REPLAYABLE)}")
    if not isinstance(io_bound, bool):
        raise TypeError(f"io_bound should be True or False, but got io_bound={io_bound!r}")
    work = measured_workload(frame)
    if not work["orders"]:
        raise ValueError("this trace has no per-sample fetch events with dataset indices, so there is nothing "
                         "to replay (record it with loaderlab.record, which times every sample)")
    recorded = as_run(frame)
    settings = {k: v for k, v in recorded.loader.items() if k in REPLAYABLE}
    settings.update(loader_args)
    if not settings.get("num_workers"):
        settings.pop("prefetch_factor", None)
        settings.pop("persistent_workers", None)
    if settings.get("batch_size") is None:
        settings["batch_size"] = 1
    if max_samples is not None:  # a long trace: the first samples of each epoch tell the rate
        work["orders"] = [o[:max_samples] for o in work["orders"]]
    dataset = ReplayDataset(work["cost_s"], work["labels"], work["lengths"], work["sample_floats"],
                            tensors=work["tensors"])
    if settings.get("num_workers") and work["startup_extra_s"] > 0:
        settings["worker_init_fn"] = ReplayStartup(work["startup_extra_s"])
    collate = ReplayCollate(work["collate_s"])
    consumer = ReplayConsumer(work["consume_s"])
    stock = recorded.loader.get("recorded_from") == STOCK_RECORD
    if work["in_workers"] and not settings.get("num_workers"):
        # Recorded in workers, replayed without: only the work beyond what the stand-in costs in a worker
        # (its surroundings there: shared memory, waking for each task), spent on top of its own payload.
        own = in_worker(dataset, recorded.loader, epochs=len(work["orders"]),
                        samples=max(len(o) for o in work["orders"]))
        dataset.cost_s, dataset.on_top = beyond(dataset.cost_s, own["sample_s"]), True
        collate.cost_s, collate.on_top = max(0.0, collate.cost_s - own["collate_s"]), True
        if not stock:  # record()'s stock loop drops the batch outside the loop body's span: nothing to take
            consumer.cost_s = max(0.0, consumer.cost_s - own["step_s"])
    elif work["in_workers"] and not stock:
        # The recorded loop body dropped the previous batch, held in shared memory; the replay's own batches
        # pay that again when they come from workers, so the step is replayed without it.
        recorded_size = recorded.loader.get("batch_size") or 1
        consumer.cost_s = max(0.0, consumer.cost_s - shared_release_s(dataset, recorded_size))
    # Torch warns about too many workers when the loader is built and again at each iter(): one replay is
    # one question, so each distinct warning is shown once, after the run (or the failure).
    caught: list = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loader = DataLoader(dataset, sampler=RecordedOrder(work["orders"]), collate_fn=collate, **settings)
            model = replay_model(loader.num_workers, io_bound)  # after torch has validated num_workers
            if model["capped"]:  # set before iter(): the workers inherit the slots when they start
                dataset.cores = collate.cores = _core_slots(model["cores"], settings.get("multiprocessing_context"))
            out = record(loader, epochs=epochs or len(work["orders"]), consumer=consumer,
                         sample_info=ReplayInfo(dataset.labels, dataset.lengths) if work["labelled"] else None)
    finally:
        _warn_once(caught)  # the caller's own filters are back: it sees each warning as it chose
    run = as_run(out)
    return to_frame(Run(run.events, loader=run.loader, epochs=run.epochs, warnings=run.warnings,
                        extra={**run.extra, "replay_of": dict(recorded.loader), "replay_model": model}))


def replay_model(num_workers: int, io_bound: bool) -> dict[str, Any]:
    """Which model a replay with ``num_workers`` runs on this machine (its run's ``extra["replay_model"]``):
    ``cores`` (usable cores as torch counts them, None if unknown), ``over_cores`` (more workers than
    that), ``capped`` (their samples then share ``cores`` slots), ``io_bound``."""
    cores = engine_loader.cpu_count()  # the count torch's worker-count warning uses
    over = cores is not None and num_workers > cores
    return {"num_workers": num_workers, "cores": cores, "over_cores": over, "io_bound": io_bound,
            "capped": over and not io_bound}


def _core_slots(cores: int, start_method: str | None):
    """A semaphore of ``cores`` slots from the context the workers start in (so they inherit it)."""
    ctx = multiprocessing.get_context(start_method) if start_method else torch.multiprocessing
    return ctx.BoundedSemaphore(cores)


def _warn_once(caught: list) -> None:
    seen: set = set()
    for w in caught:
        key = (w.category, str(w.message))
        if key not in seen:
            seen.add(key)
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)


def model_note(model: dict[str, Any], lang: str = "en") -> str:
    """One sentence saying what ``model`` (a replay's ``extra["replay_model"]``) assumed about cores."""
    if model["num_workers"] == 0:
        key = "main"
    elif model["cores"] is None:
        key = "unknown"
    elif model["capped"]:
        key = "capped"
    elif model["over_cores"]:
        key = "io_bound"
    else:
        key = "fits"
    return text(f"replay.model.{key}", lang, **model)
