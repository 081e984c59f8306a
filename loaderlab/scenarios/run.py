"""The one place where a frozen configuration becomes a recorded run.

Twin of nothing in torch. ``RunConfig`` holds every DataLoader argument the dashboard offers plus the
workload (where labels and lengths come from, per-sample cost, a straggler, a slow worker, the training
step's time). It is frozen and hashable, so a UI can cache runs by it. ``build_loader`` raises torch's
own errors for invalid combinations; ``run`` records the run. Knows nothing of plotly or streamlit.

A run on a shared server is bounded (:mod:`.limits`): beyond ``LOADERLAB_MAX_RUN_SECONDS`` it is stopped,
its workers shut down, and the run so far returned with ``Run.stop`` saying why (a named type of
:mod:`loaderlab.trace.core.run`; for a worker stuck in ``__getitem__``, its stack). A run whose loader fails raises ``RunFailed``: its ``report``
names the worker and the index (or batch) that failed, keeps torch's own message, and holds the trace up
to the failure. ``fault`` injects such failures on purpose, for a workshop (:func:`.datasets.inject_fault`).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import asdict, dataclass, replace
from typing import Any

import pandas as pd
import torch

from ..engine.collate import default_collate
from ..engine.interrupt import RunGuard, UnsentResult
from ..engine.loader import DataLoader
from ..engine.sampler import WeightedRandomSampler
from ..trace.tables.faults import failure_site, Site, site_sentence, stop_report, unsent_site
from ..trace.core.run import Run
from ..trace.core import kinds
from ..trace.recording.session import record_session
from . import sources
from .datasets import (FAULTS, IN_WORKERS_ONLY, BucketBatchSampler, FaultCollate, TableDataset, TableStream,
                       Workload, inverse_frequency_weights, label_and_length, pad_collate)
from .limits import check_run, limits

MEMORY_INTERVAL_S = 0.1  # how often a run samples its workers' memory and /dev/shm

SOURCES = ("synthetic", "stdlib_files", "stdlib_docstrings", "uploaded")
NOT_CONTROLS = ("sample_memory",)  # RunConfig fields that no widget, preset or link sets: the page decides
KINDS = ("map", "iterable_unsharded", "iterable_sharded")
SAMPLERS = ("default", "weighted")
BATCH_SAMPLERS = ("default", "bucket")
COLLATES = ("default", "pad")


@dataclass(frozen=True)
class RunConfig:
    # workload
    source: str = "synthetic"
    n_samples: int = 512  # synthetic only; files have their own size. 32 batches of 16 draw every view (a
    # classroom runs one per attendee and setting: 2,000 took 3× as long and drew nothing more)
    imbalance: float = 0.5  # synthetic: share of label 0 (the rest is label 1)
    length: int = 8  # synthetic: every sample's length
    length_spread: int = 0  # synthetic: lengths vary uniformly in length ± spread
    uploaded_labels: tuple = ()
    uploaded_lengths: tuple = ()
    cost_ms: float = 0.5
    straggler_index: int = -1  # -1: none
    straggler_ms: float = 0.0
    slow_worker: int = -1  # -1: none
    slow_factor: float = 1.0
    consumer_ms: float = 1.0
    kind: str = "map"
    fault: str = "none"  # FAULTS: none, raise, kill, hang, unpicklable (at dataset index fault_index)
    fault_index: int = 0
    # DataLoader
    batch_size: int = 16
    shuffle: bool = False
    sampler: str = "default"
    replacement: bool = True
    batch_sampler: str = "default"
    collate: str = "default"
    drop_last: bool = False
    num_workers: int = 2
    prefetch_factor: int = 2
    in_order: bool = True
    persistent_workers: bool = False
    pin_memory: bool = False
    timeout: float = 0.0
    seed: int = 0
    # Not a control (NOT_CONTROLS): whether the run samples its workers' memory every MEMORY_INTERVAL_S. Each
    # sample reads every worker's /proc/<pid>/smaps_rollup, which for workers forked from the dashboard's
    # server was a quarter of the server's CPU on a home-page change; only the event table's memory chart
    # draws it, so pages that draw no memory ask for their runs without it.
    sample_memory: bool = True
    epochs: int = 1

    def __post_init__(self) -> None:
        for name, allowed in (("source", SOURCES), ("kind", KINDS), ("sampler", SAMPLERS),
                              ("batch_sampler", BATCH_SAMPLERS), ("collate", COLLATES), ("fault", FAULTS)):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")


PRESETS: dict[str, dict[str, Any]] = {
    "one slow worker": dict(num_workers=2, slow_worker=1, slow_factor=6.0, cost_ms=1.0, n_samples=600),
    # one batch in flight, of 2 ms: the worker idles at the cap while each batch and the next task cross between
    # the processes (2 ms samples kept it busy: the verdict was "more workers", and prefetch_factor changed nothing)
    "prefetch starved": dict(num_workers=1, prefetch_factor=1, batch_size=4, cost_ms=0.5, consumer_ms=0.0,
                             n_samples=400),
    "95/5 imbalance": dict(imbalance=0.95, shuffle=True, n_samples=1000, cost_ms=0.5),
    "unsharded IterableDataset": dict(kind="iterable_unsharded", num_workers=2, n_samples=200, cost_ms=0.5),
    # a 10 ms step: at 5 ms the verdict read "moving batches" on a machine loaded 5x over (2 cores, load 10)
    "padding waste": dict(source="stdlib_docstrings", collate="pad", shuffle=True, batch_size=8, cost_ms=0.2,
                          consumer_ms=10.0),
}


# What each preset is for: the finding kind (loaderlab.trace.diagnosis.findings) its run demonstrates, and the page
# (file stem in pages/) meant to show it. tests/scenarios/test_preset_findings.py runs every preset and checks.
PRESET_FINDINGS: dict[str, tuple[str, str]] = {
    "one slow worker": (kinds.SLOW_WORKER, "3_Worker_timelines"),
    "prefetch starved": (kinds.LOADER_BOUND, "3_Worker_timelines"),
    "95/5 imbalance": (kinds.CLASS_IMBALANCE, "4_Sampling_and_imbalance"),
    "unsharded IterableDataset": (kinds.ITERABLE_DUPLICATES, "3_Worker_timelines"),
    "padding waste": (kinds.PADDING_WASTE, "5_Padding_and_collate"),
}


def preset(name: str, base: RunConfig | None = None) -> RunConfig:
    if name not in PRESETS:
        raise ValueError(f"preset must be one of {', '.join(PRESETS)}; got {name!r}")
    return replace(base or RunConfig(), **PRESETS[name])


def draws_only(config: RunConfig) -> RunConfig:
    """``config`` without what cannot change which samples a map-style loader draws and batches: workers,
    costs, faults. torch draws the base seed from the generator with or without workers, so the sampler
    sees the same generator state either way (tests/scenarios/test_run.py checks against torch); pages that
    show only the draws (sampling, padding) run this, in a fraction of the time."""
    return replace(config, num_workers=0, persistent_workers=False, cost_ms=0.0, straggler_ms=0.0, slow_factor=1.0,
                   slow_worker=-1, consumer_ms=0.0, fault="none", timeout=0.0)


def labels_and_lengths(config: RunConfig) -> tuple[list[int], list[int]]:
    if config.source == "synthetic":
        return sources.synthetic(config.n_samples, config.imbalance, config.length, config.length_spread, config.seed)
    if config.source == "uploaded":
        return list(config.uploaded_labels), list(config.uploaded_lengths)
    return sources.sample_file(config.source)


def build_loader(config: RunConfig) -> DataLoader:
    """The loader for ``config``; torch's own ValueError/TypeError for invalid combinations."""
    labels, lengths = labels_and_lengths(config)
    n = len(labels)
    if config.fault in IN_WORKERS_ONLY and config.num_workers == 0:
        raise ValueError(f"fault={config.fault!r} needs num_workers > 0: in the main process it would "
                         f"{config.fault} the server itself")
    check_run(config.num_workers, n)
    workload = Workload(labels, lengths, config.cost_ms / 1000,
                        config.straggler_index if 0 <= config.straggler_index < n else None,
                        config.straggler_ms / 1000,
                        config.slow_worker if config.slow_worker >= 0 else None, config.slow_factor,
                        config.fault, config.fault_index)
    kwargs: dict[str, Any] = dict(num_workers=config.num_workers, pin_memory=config.pin_memory,
                                  timeout=config.timeout, in_order=config.in_order,
                                  persistent_workers=config.persistent_workers)
    if config.num_workers > 0:
        # fork: ~0.1 s per worker, and a Streamlit page script is never re-run in the child.
        kwargs.update(prefetch_factor=config.prefetch_factor, multiprocessing_context="fork")
    if config.fault == "unpicklable":
        kwargs["collate_fn"] = FaultCollate(pad_collate if config.collate == "pad" else default_collate)
    elif config.collate == "pad":
        kwargs["collate_fn"] = pad_collate
    if config.kind != "map":
        return DataLoader(TableStream(workload, shard=config.kind == "iterable_sharded"),
                          batch_size=config.batch_size, drop_last=config.drop_last, shuffle=config.shuffle or None,
                          **kwargs)
    dataset = TableDataset(workload)
    generator = torch.Generator().manual_seed(config.seed)
    if config.batch_sampler == "bucket":
        bucket = BucketBatchSampler(lengths, config.batch_size, config.drop_last, config.seed)
        return DataLoader(dataset, batch_sampler=bucket, shuffle=config.shuffle, **kwargs)
    sampler = None
    if config.sampler == "weighted":
        sampler = WeightedRandomSampler(inverse_frequency_weights(labels), n, config.replacement, generator)
    return DataLoader(dataset, batch_size=config.batch_size, shuffle=config.shuffle, sampler=sampler,
                      drop_last=config.drop_last, generator=generator, **kwargs)


class Consumer:
    """Stands in for the training step: holds the main process for ``seconds`` per batch."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __call__(self, batch) -> None:
        if self.seconds > 0:
            time.sleep(self.seconds)


@dataclass
class FailureReport:
    """Where and how a run failed, with the trace recorded up to the failure."""

    site: Site  # which worker, which index or batch, which pid and signal
    kind: str  # the exception's type name (``RuntimeError``)
    message: str  # the loader's full message: torch's wording, with the worker's original traceback
    run: Run  # the run up to the failure (its config and warnings too)

    @property
    def frame(self) -> pd.DataFrame:
        """The events recorded up to the failure."""
        return self.run.events

    @property
    def summary(self) -> str:
        last = (self.message.strip().splitlines() or [""])[-1]
        return f"{site_sentence(self.site)}: {last if last.startswith(self.kind) else f'{self.kind}: {last}'}"


class RunFailed(Exception):
    """The loader failed during :func:`run`; ``report`` keeps the partial trace and torch's message."""

    def __init__(self, report: FailureReport) -> None:
        super().__init__(report.summary)
        self.report = report

    def __reduce__(self):
        return (RunFailed, (self.report,))


def stamp_run(run: Run, config: RunConfig, caught: list[warnings.WarningMessage]) -> Run:
    """``run`` with what every recorded dashboard run carries: its ``config`` (without the uploaded tables,
    which can be large) and the text of each warning ``caught`` during the run, once, in order."""
    return replace(run, config={k: v for k, v in asdict(config).items() if not k.startswith("uploaded_")},
                   warnings=tuple(dict.fromkeys(str(w.message) for w in caught)))


def run(config: RunConfig, *, max_seconds: float | None = None, guard: RunGuard | None = None,
        live: Any = None) -> Run:
    """Record ``config``'s run: a :class:`~loaderlab.trace.core.run.Run` (events, loader settings, epochs,
    torch's warnings as text in order, ``config``).

    The run stops after ``max_seconds`` (default: ``LOADERLAB_MAX_RUN_SECONDS``) or when ``guard`` is
    stopped; it then returns the run so far with ``stop`` set (a :class:`~loaderlab.trace.core.run.Stop`, see
    :func:`loaderlab.trace.tables.faults.stop_report`). Raises ``RunFailed`` when the loader fails. ``live``: a
    :class:`loaderlab.trace.recording.live.LiveView` other threads can read while the run goes on.
    """
    guard = guard or RunGuard(limits().max_run_seconds if max_seconds is None else max_seconds)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        recording = record_session(build_loader(config), epochs=config.epochs,
                                   consumer=Consumer(config.consumer_ms / 1000), sample_info=label_and_length,
                                   guard=guard, memory_interval_s=MEMORY_INTERVAL_S if config.sample_memory else None,
                                   live=live)
    result = stamp_run(recording.run, config, caught)
    frame, error, stopped = result.events, recording.error, recording.stopped
    if error is not None:
        report = FailureReport(failure_site(frame, error), type(error).__name__, str(error), result)
        raise RunFailed(report) from error
    if isinstance(stopped, UnsentResult):
        kind, _, message = stopped.message.partition(": ")
        site = unsent_site(frame, stopped)
        raise RunFailed(FailureReport(site, kind, message, result))
    if stopped is not None:
        result = replace(result, stop=stop_report(frame, stopped, recording.stopped_at_ns))
    return result
