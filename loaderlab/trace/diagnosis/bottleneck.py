"""The bottleneck verdict: which one cause held the training loop back, named from a fixed vocabulary.

Twin of nothing in torch (TensorFlow's input-pipeline analyzer says "input-bound" but not why). Reads a
:class:`~loaderlab.trace.diagnosis.summary.RunSummary` (and the straggler check of :mod:`loaderlab.trace.tables.slow`) and decides, in this
order, with the numbers that decided it kept as the verdict's evidence:

1. ``none``: fewer than :data:`MIN_BATCHES` batches, or no loop time at all: too short to say.
2. ``startup``: the waits before each epoch's first batch, as far as worker start-up explains them (at
   most the epochs × the 90th-percentile start-up), are at least :data:`STARTUP_SHARE` of the loop's time
   (those waits + the later waits + the loop body).
3. ``consumer``: the loop waited at most :data:`LOADER_BOUND_SHARE` of its time (the one wait share,
   :func:`~loaderlab.trace.tables.waits.loop_wait`): the step is the slow part; the loader keeps up, so more
   loading power does not help. Whether fewer workers would (their hand-overs and cores given back to the
   step) is the suggestions' to say, from the same cost model, or to name as unseen
   (:mod:`loaderlab.trace.diagnosis.unseen`): one source, no second wording. But where the model says the
   workers that keep up would shorten each batch (the body waited for a core a worker held), it is ``workers``.
4. ``main_process``: ``num_workers=0`` and the loop mostly waited: fetching inside the loop dominates.
5. ``pin_memory``: the pin thread was busy at least :data:`PIN_SHARE` of the loop's time.
6. ``straggler``: slow samples (:func:`~loaderlab.trace.tables.slow.stragglers`) cost at least
   :data:`STRAGGLER_SHARE` of the loop's wait: in order, one slow sample holds every batch behind it.
7. ``slow_worker``: one worker's samples take :data:`~loaderlab.trace.tables.slow.SLOW_WORKER_RATIO` × the
   others' (:func:`~loaderlab.trace.tables.slow.slow_workers`) and waiting for its batches cost at least
   :data:`STRAGGLER_SHARE` of the loop's wait: more workers do not fix a worker that is slow itself. No
   setting is suggested (the replay cannot model what makes one worker slow).
8. ``prefetch``: the workers sat idle at the prefetch cap (``prefetch_factor × num_workers`` batches in
   flight, all made) at least :data:`PREFETCH_CAPPED` of their lives while the loop waited: each batch's trip
   to the loop and the next task's trip back leave a worker with nothing to do; a larger ``prefetch_factor``
   keeps it working meanwhile. Only with ``prefetch_factor=1``: with 2 or more each worker holds its next task
   while its last batch travels, and workers idle at the cap wait for a loop slow to take their batches (on
   an overloaded machine, the landing setups' workers: 0.2-0.3), which no deeper prefetch shortens. The
   workers must also be busy at least :data:`PREFETCH_BUSY` of their lives
   (1 worker, ``prefetch_factor=1``, 4 ms batches beside a CPU-bound process: 0.41-0.44 of its life at the
   cap, 254 samples/s; ``prefetch_factor=4``: 810).
9. ``workers``: the workers were busy at least :data:`WORKERS_BUSY` of their lives: fetching is the slow
   part, more workers help (CPU-bound up to the cores, latency-bound beyond them).
10. ``ipc``: otherwise: the loop waited while the workers mostly idled, so the time went between them —
   moving each batch from a worker to the main process (tiny batches, many tensors per batch).

The step time it quotes (``step_ms``) is the step's own time: a median without each epoch's first step (a first
CUDA step drags a mean up) and without what it waited for a core (:func:`~loaderlab.trace.diagnosis.steps.step_times`);
beside it, where they differ, ``step_wall_ms``: the summary's median step on the clock (``stages.step.p50_s``), so
that each number is named for what it is, in the text and in the JSON alike.
Knows nothing of words (:mod:`loaderlab.texts.words` words each kind: ``verdict.<key>``), plotly or streamlit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ...engine.cores import cpu_count
from ...texts import text
from ..core.lookups import normal
from ..core.payload import size_text
from .costs import measured_costs, usable
from .steps import step_medians
from .predict import calibrated, keeps_up, shortens_steady, STEADY_MIN, worker_limit
from ..tables.slow import sample_fetches, slow_workers, stragglers
from .summary import events, RunSummary, summarise
from .tuning import tuned_trace, workers_measured_slower
from .unseen import workers_unseen

WORKERS, IPC, STARTUP, STRAGGLER, SLOW_WORKER, CONSUMER, MAIN_PROCESS, PIN_MEMORY, PREFETCH, NONE = (
    "workers", "ipc", "startup", "straggler", "slow_worker", "consumer", "main_process", "pin_memory", "prefetch",
    "none")
VERDICT_KINDS = (WORKERS, IPC, STARTUP, STRAGGLER, SLOW_WORKER, CONSUMER, MAIN_PROCESS, PIN_MEMORY, PREFETCH, NONE)

MIN_BATCHES = 8
LOADER_BOUND_SHARE = 0.5  # the loader-bound finding's threshold: above it the loop mostly waited
STARTUP_SHARE = 0.5
PIN_SHARE = 0.5
STRAGGLER_SHARE = 0.5  # slow samples must explain half the waiting: on a busy machine a few sleeps stretch
WORKERS_BUSY = 0.6  # below it the workers mostly idled while the loop waited: the time went elsewhere
# Of their lives idle at the prefetch cap while the loop mostly waited, and busy: 1 worker, prefetch_factor=1, 2 ms
# batches: 0.28-0.46 at the cap, 0.41-0.61 busy (0.0 at the cap with prefetch_factor=4); the other landing setups'
# workers: under 0.1 at the cap. Workers mostly idle (tiny batches, a loop slow to take them) are not starved:
# the time went between the processes (ipc), which a deeper prefetch does not shorten.
PREFETCH_CAPPED, PREFETCH_BUSY = 0.2, 0.35
CORES_SHORT = 0.5  # the run got at least half a core fewer than the machine has: other programs held them
# More workers shorten a batch by at most the loop's wait for it: below this wait share they cannot reach STEADY_MIN
WAIT_FOR_MORE_WORKERS = 1 - 1 / STEADY_MIN
STEP_CLOCK_SHARE = 1.05  # the step on the clock this × its own time: the text names both (it waited for cores)


@dataclass(frozen=True)
class Verdict:
    """The cause (``kind``, one of :data:`VERDICT_KINDS`), the wording's ``key`` and the deciding numbers.

    Not a :class:`~loaderlab.trace.core.findings.Finding`, though it looks like one: a run has exactly one
    verdict, decided in the order above and carrying no severity, while findings are many, each with its
    severity; the loader-bound / model-bound finding is derived from the verdict
    (:func:`~loaderlab.trace.diagnosis.findings.bound_findings`), never decided again."""

    kind: str
    key: str
    evidence: dict[str, Any] = field(default_factory=dict)
    batch: int | None = None
    worker: int | None = None
    index: int | None = None

    def text(self, lang: str = "en") -> str:
        return text(f"verdict.{self.key}", lang, **self.evidence, step_note=self._step_note(lang))

    def _step_note(self, lang: str) -> str:
        """Where the step on the clock was longer than its own time (it waited for a core), both numbers."""
        own, wall = self.evidence.get("step_ms", math.nan), self.evidence.get("step_wall_ms", math.nan)
        if not (own == own and wall == wall) or wall <= STEP_CLOCK_SHARE * own:
            return ""
        return text("verdict.step_clock", lang, step_wall_ms=wall)

    def title(self, lang: str = "en") -> str:
        return text(f"verdict.title.{self.kind}", lang)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        out = {"kind": self.kind, "key": self.key, "text": self.text(lang), **self.evidence}
        out.update({k: getattr(self, k) for k in ("batch", "worker", "index") if getattr(self, k) is not None})
        return out


def _ms(seconds: float) -> float:
    return seconds * 1e3 if not math.isnan(seconds) else math.nan


def more_workers_help(frame: Any, s: RunSummary) -> bool:
    """Whether, though the loop waited at most :data:`LOADER_BOUND_SHARE` of its time, the cost model says the
    workers that keep up with the step shorten each batch by :data:`~loaderlab.trace.diagnosis.predict.STEADY_MIN`:
    the loop's body also waited for a core a worker held (a 1-worker CPU job on 2 cores: 44 % waiting, and
    2 workers ran it 1.41x faster), so the loader did not keep up."""
    if not s.num_workers or not s.loop.share >= WAIT_FOR_MORE_WORKERS:
        return False
    c = measured_costs(frame, summary=s)
    if not usable(c):
        return False
    c = calibrated(c)
    count, binds = keeps_up(c, worker_limit(c))
    return (count > s.num_workers and workers_unseen(frame, count, s.num_workers, c.computing) is None
            and shortens_steady(c, {"num_workers": count}))


def _workers(frame: Any, s: RunSummary, common: dict[str, Any], busy: float, work_ms: float,
             step_waited: bool = False) -> Verdict:
    """The ``workers`` verdict; ``step_waited``: the loop waited under half its time (see
    :func:`more_workers_help`), which the words then explain."""
    cores = cpu_count()
    key = "workers_latency" if cores is not None and s.num_workers >= cores else "workers_cpu"
    if key == "workers_cpu" and step_waited:
        key = "workers_step_waited"
    got = measured_costs(frame, summary=s).cores  # fewer than the machine's where the workers waited for a core
    if cores is not None and got <= cores - CORES_SHORT:
        key = "workers_contended"
    return Verdict(WORKERS, key, {**common, "busy": busy, "workers": s.num_workers,
                                  "cores": cores if cores is not None else 0, "work_ms": work_ms, "got": got})


def verdict(frame: Any, summary: RunSummary | None = None) -> Verdict:
    """The run's :class:`Verdict` (see the module docstring for the order of the checks)."""
    s = summarise(frame) if summary is None else summary
    loop = s.loop
    total = loop.first_wait_s + loop.wait_s + loop.consume_s
    batches = max(s.batches, 1)
    common = {"share": loop.share if not math.isnan(loop.share) else 0.0, "wait_s": loop.wait_s,
              "step_ms": _ms(step_medians(frame)[0]), "step_wall_ms": _ms(s.stage("step").p50_s),
              "batches": s.batches, "wall_s": s.wall_s}
    if s.batches < MIN_BATCHES or total <= 0:
        # run --tune's timed slices go untraced: a short job can be all slices, which is no short run
        return Verdict(NONE, "none_tuned" if tuned_trace(frame) else NONE,
                       {"batches": s.batches, "min_batches": MIN_BATCHES, "wall_s": s.wall_s})
    started = s.stage("startup")  # the first waits, as far as worker start-up explains them
    startup_s = min(loop.first_wait_s, s.epochs * started.p90_s) if started.count else 0.0
    if s.num_workers and startup_s >= STARTUP_SHARE * total:
        return Verdict(STARTUP, STARTUP, {**common, "first_s": loop.first_wait_s,
                                          "first_share": loop.first_wait_s / total, "epochs": s.epochs,
                                          "startup_ms": _ms(started.p50_s)})
    work_ms = _ms((s.stage("fetch").total_s + s.stage("collate").total_s) / batches)
    busy = s.worker_busy_share if not math.isnan(s.worker_busy_share) else 0.0
    if math.isnan(loop.share) or loop.share <= LOADER_BOUND_SHARE:
        if more_workers_help(frame, s):
            return _workers(frame, s, common, busy, work_ms, step_waited=True)
        return Verdict(CONSUMER, CONSUMER,
                       {**common, "wait_ms": _ms(loop.wait_s / batches), "workers": s.num_workers,
                        "cores": cpu_count() or 0})
    if not s.num_workers:  # where run --tune measured workers slower in this job, the words say that instead
        measured = workers_measured_slower((getattr(frame, "attrs", None) or {}).get("tuning"))
        return Verdict(MAIN_PROCESS, "main_process_measured" if measured else MAIN_PROCESS,
                       {**common, "work_ms": work_ms})
    pin = s.stage("pin")
    if pin.count and pin.total_s >= PIN_SHARE * total:
        return Verdict(PIN_MEMORY, PIN_MEMORY, {**common, "pin_ms": _ms(pin.p50_s), "pin_share": pin.total_s / total})
    table = normal(events(frame))
    samples = sample_fetches(table)
    slow = stragglers(table, samples)
    if slow and slow[0].evidence["lost_s"] >= STRAGGLER_SHARE * loop.wait_s:
        found, lost_s = slow[0], slow[0].evidence["lost_s"]
        return Verdict(STRAGGLER, STRAGGLER, {**common, "count": int(found.evidence["count"]), "lost_s": lost_s,
                                              "lost_share": lost_s / max(loop.wait_s, 1e-12)},
                       batch=found.batch, worker=found.worker, index=found.index)
    paid = [w for w in slow_workers(table, loop, samples)
            if w.key == "slow_worker" and w.evidence["cost_s"] >= STRAGGLER_SHARE * loop.wait_s]
    if paid:
        found = max(paid, key=lambda w: w.evidence["cost_s"])
        said = found.evidence
        return Verdict(SLOW_WORKER, SLOW_WORKER, {**common, "worker": found.worker, "ratio": said["ratio"],
                                                  "median_ms": said["median_ms"], "others_ms": said["others_ms"],
                                                  "lost_s": said["cost_s"],
                                                  "lost_share": said["cost_s"] / max(loop.wait_s, 1e-12)},
                       worker=found.worker)
    capped = s.worker_capped_share if not math.isnan(s.worker_capped_share) else 0.0
    pf = int(s.settings.get("prefetch_factor") or 2)
    if capped >= PREFETCH_CAPPED and busy >= PREFETCH_BUSY and pf == 1:
        return Verdict(PREFETCH, PREFETCH, {**common, "capped": capped, "busy": busy, "prefetch_factor": pf,
                                            "workers": s.num_workers, "in_flight": pf * s.num_workers,
                                            "work_ms": work_ms, "move_ms": _ms(s.stage("move").p50_s)})
    if busy >= WORKERS_BUSY:
        return _workers(frame, s, common, busy, work_ms)
    move = s.stage("move")
    tensors = s.payload.tensors
    return Verdict(IPC, IPC if not math.isnan(tensors) else "ipc_unknown_tensors",
                   {**common, "busy": busy, "move_ms": _ms(move.p50_s), "work_ms": work_ms,
                    "tensors": int(tensors) if not math.isnan(tensors) else 0,
                    "kib": (s.payload.nbytes / 1024) if not math.isnan(s.payload.nbytes) else 0.0,
                    "size": size_text(s.payload.nbytes)})
