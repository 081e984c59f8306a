"""What to try: for a verdict, the one or two changes that address it, ranked by the trace's own cost model
(:mod:`loaderlab.trace.diagnosis.costs` measures, :mod:`loaderlab.trace.diagnosis.predict` models). A model is a
guess, so a suggestion prints none of its numbers (issue 33): it says which way to move the setting, the range
where the model has one, and the command that measures it (``python -m loaderlab run --tune``); its JSON keeps
``change`` and ``speedup`` (null) with ``measured`` false.

Twin of nothing in torch. A pure function of the trace: no re-runs, so the report, its JSON and the
dashboard say the same. A change is suggested only when the model covers every cost it touches and ranks it
at least :data:`MIN_SPEEDUP` ahead; ``num_workers=0`` never where its costs are unseen
(:func:`~loaderlab.trace.diagnosis.bottleneck.in_loop_unseen`: the loop's torch threads unknown, slow samples
that would serialise); the changes a verdict points at that the model cannot cover are named instead.

    every verdict with workers: num_workers=0 (collate in the loop, no shared memory, no move), where seen
    workers, main_process   the fewest workers that keep up with the step (the cores cap it when
                            fetching computes; beyond them when it waits), or the most that still help
    ipc                     batch_size x2, x4 (fewer moves; the step assumed to grow with the batch)
    startup                 persistent_workers=True
    pin_memory              pin_memory=False (a pageable copy charged to the step), else 4x fewer bytes
                            per batch (uint8 samples normalised on the GPU: no loader setting)
    straggler, slow_worker  in_order=False, prefetch_factor: not modelled (said so)
    consumer                num_workers=0 or fewer workers, when the cores are shared too thinly

Knows nothing of plotly or streamlit; words come from :mod:`loaderlab.texts.words` (``suggestion.*``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from ...texts import text
from .costs import ASSUMED, Costs, measured_costs, usable
from .predict import calibrated, keeps_up, shortens_steady, speedup, worker_limit
from .summary import events, RunSummary, summarise
from .tuning import tuned_trace
from ..core.cache import shared_tables
from ..core.run import as_run
from .bottleneck import (CONSUMER, IPC, MAIN_PROCESS, NONE, PIN_MEMORY, PREFETCH, SLOW_WORKER, STARTUP, STRAGGLER,
                         Verdict, verdict as find_verdict, WORKERS)
from .unseen import in_loop_unseen, workers_unseen

MAX_SUGGESTIONS = 2
MIN_SPEEDUP = 1.05  # below it the model's own error (a few %) could turn the gain into a loss
FEWER_BYTES = 0.25  # float32 → uint8 samples, normalised on the GPU
RANGE_MIN = 1.10  # a claim's high end this far above its low end is printed as a range


@dataclass(frozen=True)
class Suggestion:
    """One change (``{parameter: value}``), the predicted speed-up (samples/s), the rates, and notes
    (``suggestion.note.*`` keys and their numbers) saying what the prediction leaned on."""

    change: dict[str, Any]
    speedup: float  # the model's rank, never printed: a model's "N x faster" is a guess (issue 33)
    before_sps: float
    after_sps: float
    speedup_up_to: float = math.nan  # where the main process's heap reusing a batch's pages would make it faster
    notes: tuple[str, ...] = ()
    note_args: dict[str, Any] = field(default_factory=dict)
    span: tuple[Any, Any] | None = None  # the range of the changed setting worth trying, where the model has one
    direction: str = ""  # suggestion.direction.<direction>: which way the setting moves

    def change_text(self, lang: str = "en") -> str:
        if "bytes_factor" in self.change:
            return text("suggestion.fewer_bytes", lang, factor=1 / self.change["bytes_factor"])
        return ", ".join(f"{k}={v}" for k, v in self.change.items())

    def text(self, lang: str = "en") -> str:
        """A direction, the range where the model has one, and the command that measures it: no number of the
        model's (it ranks what to try; only ``run --tune`` measures)."""
        way = text(f"suggestion.direction.{self.direction}", lang) if self.direction else ""
        if self.span is not None:
            out = text("suggestion.try_range", lang, name=next(iter(self.change)), low=self.span[0],
                       high=self.span[1], direction=way)
        else:
            out = text("suggestion.try", lang, change=self.change_text(lang), direction=way)
        return " ".join([out, *(text(n, lang, **self.note_args) for n in self.notes), text("suggestion.measure", lang)])

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        """``speedup`` is null and ``measured`` false: the model measured nothing (``run --tune`` does)."""
        return {"change": dict(self.change), "speedup": None, "measured": False,
                "range": list(self.span) if self.span is not None else None, "text": self.text(lang),
                "samples_per_s_before": self.before_sps, "loader_setting": "bytes_factor" not in self.change}


def _direction(change: dict[str, Any], summary: RunSummary) -> str:
    key, value = next(iter(change.items()))
    if key == "num_workers":
        return "no_workers" if value == 0 else "more_workers" if value > summary.num_workers else "fewer_workers"
    return {"batch_size": "bigger_batches", "persistent_workers": "persistent", "pin_memory": "pageable",
            "bytes_factor": "fewer_bytes"}.get(key, "")


def candidates(found: Verdict, summary: RunSummary, costs: Costs | None = None,
               frame: pd.DataFrame | None = None) -> list[tuple[dict[str, Any], str]]:
    """``(change, note key)`` pairs the model weighs for ``found`` (module docstring), in order; never
    ``num_workers=0`` where its costs are unseen (:func:`~loaderlab.trace.diagnosis.bottleneck.in_loop_unseen`,
    or no ``frame`` to ask)."""
    s, n = summary.settings, summary.num_workers
    if found.kind in (NONE, SLOW_WORKER, STRAGGLER, PREFETCH) or costs is None:
        return []
    out: list[tuple[dict[str, Any], str]] = []
    if found.kind in (WORKERS, MAIN_PROCESS):
        count, binds = keeps_up(costs, worker_limit(costs))
        if count != n and _more_workers_seen(frame, count, n, costs.computing):
            out.append(({"num_workers": count}, f"suggestion.note.workers_{binds}"))
    if found.kind == IPC:
        bs = costs.batch_size
        out += [({"batch_size": 2 * bs}, "suggestion.note.batch"), ({"batch_size": 4 * bs}, "suggestion.note.batch")]
    if found.kind == STARTUP and summary.epochs > 1 and not s.get("persistent_workers"):
        out.append(({"persistent_workers": True}, ""))
    if found.kind == PIN_MEMORY:
        out += [({"pin_memory": False}, "suggestion.note.pageable"), ({"bytes_factor": FEWER_BYTES}, "")]
    if n and found.kind == CONSUMER and n > 1:
        out.append(({"num_workers": n - 1}, "suggestion.note.cores"))
    if n and frame is not None and in_loop_unseen(frame, summary) is None:
        out.append(({"num_workers": 0}, "suggestion.note.in_loop"))
    if s.get("iterable"):  # each worker replays the whole stream unless its __iter__ shards: no count is safe
        out = [(change, note) for change, note in out if "num_workers" not in change]
    return out


def _more_workers_seen(frame: pd.DataFrame | None, count: int, n: int, computing: bool) -> bool:
    """Whether the model sees what ``count`` workers would cost where the run had ``n`` (fewer workers take
    nothing from the step; more need a ``frame`` that says how many cores the step keeps busy)."""
    return count < n or (frame is not None and workers_unseen(frame, count, n, computing) is None)


def _note_args(costs: Costs, change: dict, bandwidth: dict[str, Any]) -> dict[str, Any]:
    cores = int(costs.cores) if float(costs.cores).is_integer() else round(costs.cores, 1)
    tensors = 0 if math.isnan(costs.tensors) else int(costs.tensors)
    pageable = bandwidth.get("pageable_bps")
    return {"cores": cores, "tensors": tensors, "workers": change.get("num_workers", costs.num_workers),
            "step_ms": costs.step_s * 1e3,
            "pageable_gbps": pageable / 1e9 if pageable else ASSUMED["pageable_gbps"],
            "device": bandwidth.get("device") or "", "shm_gbps": ASSUMED["shm_gbps"], "copy_gbps": ASSUMED["copy_gbps"],
            "drop_gbps": ASSUMED["drop_gbps"]}


def measured_bandwidth(frame: pd.DataFrame) -> dict[str, Any]:
    """The GPU's copy bandwidths the recording measured (``recording.bandwidth``), ``{}`` where none was."""
    kept = as_run(frame).extra.get("bandwidth")
    return dict(kept) if isinstance(kept, dict) and (kept.get("pageable_bps") or 0) > 0 else {}


def suggest(frame: pd.DataFrame, found: Verdict | None = None, summary: RunSummary | None = None) -> list[Suggestion]:
    """The predicted suggestions for the trace's verdict, best first (at most :data:`MAX_SUGGESTIONS`).

    Empty when the verdict has no change the model covers, when the trace lacks per-batch costs, or when
    no change is predicted at least :data:`MIN_SPEEDUP` faster.
    """
    with shared_tables():  # the verdict and the suggestions read one measurement of the costs
        summary = summarise(frame) if summary is None else summary
        found = find_verdict(frame, summary) if found is None else found
        costs = measured_costs(frame, summary=summary)
    if not usable(costs):
        return []
    costs = calibrated(costs)
    bandwidth = measured_bandwidth(frame)
    pageable = bandwidth.get("pageable_bps")
    before = summary.samples_per_s
    out, seen = [], []
    spans = _spans(found, summary, costs)
    for change, note in candidates(found, summary, costs, frame):
        if change in seen:
            continue
        seen.append(change)
        gain = speedup(costs, change, pageable)
        if found.kind == CONSUMER and not shortens_steady(costs, change):
            continue
        if gain >= MIN_SPEEDUP:
            notes = (note,) if note else ()
            if not costs.num_workers and change.get("num_workers"):  # no worker here measured a move
                notes += ("suggestion.note.assumed_move",)
            if pageable and "suggestion.note.pageable" in notes:
                notes = tuple("suggestion.note.pageable_measured" if n == "suggestion.note.pageable" else n
                              for n in notes)
            if any(k in spans and k in s.change for s in out for k in change):
                continue  # one suggestion per setting: its range says how far to go
            out.append(Suggestion(change, gain, before, before * gain if not math.isnan(before) else math.nan,
                                  notes=notes, note_args=_note_args(costs, change, bandwidth),
                                  speedup_up_to=speedup(replace(costs, reused=True), change, pageable),
                                  span=spans.get(next(iter(change))) if change.get("num_workers") != 0 else None,
                                  direction=_direction(change, summary)))
    return sorted(out, key=lambda s: -s.speedup)[:MAX_SUGGESTIONS]


def _spans(found: Verdict, summary: RunSummary, costs: Costs) -> dict[str, tuple[Any, Any]]:
    """The ranges the model has: more workers from one more up to the fewest that keep up; batches 2 to 4 times
    as big."""
    out: dict[str, tuple[Any, Any]] = {}
    if found.kind in (WORKERS, MAIN_PROCESS):
        count, _ = keeps_up(costs, worker_limit(costs))
        if count > summary.num_workers + 1:
            out["num_workers"] = (summary.num_workers + 1, count)
    if found.kind == IPC:
        out["batch_size"] = (2 * costs.batch_size, 4 * costs.batch_size)
    return out


def has_sample_costs(frame: pd.DataFrame) -> bool:
    """Whether the trace has per-sample fetch events with dataset indices (what the model's costs are read from)."""
    f = events(frame)
    return bool(((f["kind"] == "fetch_end") & (f["index"] >= 0)).any())


def why_none(found: Verdict, frame: pd.DataFrame) -> str:
    """The ``suggestion.why.*`` key of an empty suggestion list: ``unseen_<reason>`` where the verdict points
    at more workers whose costs the trace cannot show (:func:`~loaderlab.trace.diagnosis.unseen.workers_unseen`),
    ``unseen_in_loop_<reason>`` where the step is the slow part and ``num_workers=0``'s costs are not in it
    (:func:`~loaderlab.trace.diagnosis.unseen.in_loop_unseen`)."""
    return _why(found, frame)[0]


def why_none_said(found: Verdict, frame: pd.DataFrame, lang: str = "en") -> tuple[str, str]:
    """Why the suggestion list is empty: its ``suggestion.why.*`` key (:func:`why_none`) and its words
    (``suggestion.none``; where more workers' costs are unseen, with the range ``run --tune`` would measure),
    worked out once."""
    key, more = _why(found, frame)
    low, high = (more[1], more[2]) if more else (0, 0)
    measure = "suggestion.measure." + ("tuned" if tuned_trace(frame) else "workers" if more else "it")
    said = text(key, lang, low=low, high=high, measure=text(measure, lang, low=low, high=high))
    return key, text("suggestion.none", lang, why=said)


def why_none_text(found: Verdict, frame: pd.DataFrame, lang: str = "en") -> str:
    """The words of :func:`why_none_said`."""
    return why_none_said(found, frame, lang)[1]


def _why(found: Verdict, frame: pd.DataFrame) -> tuple[str, tuple[str, int, int] | None]:
    more = _unseen_workers(found, frame)
    if more:
        return f"suggestion.why.unseen_{more[0]}", more
    summary = summarise(frame)
    if found.kind == CONSUMER and summary.num_workers:
        reason = in_loop_unseen(frame, summary)
        if reason:
            return f"suggestion.why.unseen_in_loop_{reason}", None
    if found.kind in (CONSUMER, NONE):
        return f"suggestion.why.{found.kind}", None
    if found.kind in (STRAGGLER, SLOW_WORKER, PREFETCH):
        return f"suggestion.why.unmodelled_{found.kind}", None
    return ("suggestion.why.no_costs" if not usable(measured_costs(frame)) else "suggestion.why.no_gain"), None


def _unseen_workers(found: Verdict, frame: pd.DataFrame) -> tuple[str, int, int] | None:
    """``(reason, low, high)`` where the verdict points at more workers (one more up to the fewest that keep
    up) and the model cannot see their costs; None otherwise."""
    if found.kind not in (WORKERS, MAIN_PROCESS):
        return None
    summary = summarise(frame)
    costs = measured_costs(frame, summary=summary)
    if summary.settings.get("iterable") or not usable(costs):
        return None
    costs = calibrated(costs)
    count, _ = keeps_up(costs, worker_limit(costs))
    reason = workers_unseen(frame, count, costs.num_workers, costs.computing) if count > costs.num_workers else None
    return (reason, costs.num_workers + 1, count) if reason else None
