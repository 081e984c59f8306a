"""Suggestions that are measured, not guessed: for a verdict, the one or two setting changes that address it,
each with the speed-up that replaying this trace's measured costs under the new setting gives.

Twin of nothing in torch. :func:`candidates` says which changes address which cause (the table below);
:func:`suggest` replays the trace (:func:`loaderlab.trace.replay.replay`: per-sample fetch time, worker
start-up, collate and step time, and the payload's tensors and bytes) once unchanged and once per change,
and keeps the changes that ran faster, best first. The speed-up compares samples per second of the changed
replay with the unchanged one, so that what the replay itself costs cancels out (a batch_size change moves
the same samples in fewer batches).

    workers       num_workers up to the cores (CPU-bound), or doubled when they are already full
                  (replayed as latency-bound: the trace cannot tell computing from waiting)
    ipc           batch_size x4 (fewer transfers), num_workers=0 (no transfer at all)
    startup       persistent_workers=True (start once), num_workers=0 (nothing to start)
    straggler     in_order=False (hand the others over meanwhile), prefetch_factor x2
    main_process  num_workers = the cores (at least 2)
    pin_memory    pin_memory=False
    consumer, none: nothing (the loader is not what to change)

Knows nothing of plotly or streamlit; words come from :mod:`.finding_texts` (``suggestion.*``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import pandas as pd

from ..engine.cores import cpu_count
from . import finding_texts
from .summary import RunSummary, events, summarise
from .verdict import (CONSUMER, IPC, MAIN_PROCESS, NONE, PIN_MEMORY, STARTUP, STRAGGLER, WORKERS, Verdict,
                      verdict as find_verdict)

MAX_SUGGESTIONS = 2
MIN_SPEEDUP = 1.05  # a replayed gain below 5% is within what two replays of one trace differ by
REPLAY_SAMPLES = 2000  # samples per epoch replayed: enough batches for a steady rate, bounded for big traces


@dataclass(frozen=True)
class Suggestion:
    """One setting change (``{parameter: value}``), the replayed speed-up (samples/s), and the rates."""

    change: dict[str, Any]
    speedup: float
    before_sps: float
    after_sps: float
    io_bound: bool = False

    def change_text(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.change.items())

    def text(self, lang: str = "en") -> str:
        return finding_texts.text("suggestion.change", lang, change=self.change_text(), speedup=self.speedup,
                                  before=self.before_sps, after=self.after_sps)

    def as_dict(self, lang: str = "en") -> dict[str, Any]:
        return {"change": dict(self.change), "speedup": self.speedup, "text": self.text(lang),
                "samples_per_s_before": self.before_sps, "samples_per_s_after": self.after_sps}


def candidates(found: Verdict, summary: RunSummary) -> list[tuple[dict[str, Any], bool]]:
    """``(change, io_bound)`` pairs that address ``found`` (module docstring), in the order to try them."""
    s, n = summary.settings, summary.num_workers
    cores = cpu_count() or 2
    if found.kind == WORKERS:
        return [({"num_workers": min(cores, 2 * n)}, False)] if n < cores else [({"num_workers": 2 * n}, True)]
    if found.kind == IPC:
        measured = 1 if math.isnan(summary.batch_size) else max(1, round(summary.batch_size))
        bs = int(s.get("batch_size") or measured)
        return [({"batch_size": 4 * bs}, False), ({"num_workers": 0}, False)]
    if found.kind == STARTUP:
        out = [({"persistent_workers": True}, False)] if summary.epochs > 1 and not s.get("persistent_workers") else []
        return out + [({"num_workers": 0}, False)]
    if found.kind == STRAGGLER:
        out = [({"in_order": False}, False)] if s.get("in_order", True) else []
        return out + [({"prefetch_factor": 2 * int(s.get("prefetch_factor") or 2)}, False)]
    if found.kind == MAIN_PROCESS:
        return [({"num_workers": max(2, cores)}, False)]
    if found.kind == PIN_MEMORY:
        return [({"pin_memory": False}, False)]
    return []


def _rate(frame: pd.DataFrame) -> float:
    return summarise(frame).samples_per_s


def suggest(frame: pd.DataFrame, found: Verdict | None = None, summary: RunSummary | None = None, *,
            max_samples: int | None = REPLAY_SAMPLES) -> list[Suggestion]:
    """The replayed suggestions for the trace's verdict, best first (at most :data:`MAX_SUGGESTIONS`).

    Empty when the verdict has no loader change (``consumer``, ``none``), when the trace cannot be
    replayed (no per-sample fetch times), or when no change ran at least :data:`MIN_SPEEDUP` faster.
    """
    summary = summarise(frame) if summary is None else summary
    found = find_verdict(frame, summary) if found is None else found
    tries = candidates(found, summary)
    if not tries or not replayable(frame):
        return []
    from .replay import replay  # here: it runs a loader, so it needs torch, which reading a trace does not

    base: dict[bool, float] = {}
    out = []
    for change, io_bound in tries:
        try:
            if io_bound not in base:
                base[io_bound] = _rate(replay(frame, max_samples=max_samples, io_bound=io_bound))
            after = _rate(replay(frame, max_samples=max_samples, io_bound=io_bound, **change))
        except (ValueError, TypeError, RuntimeError):  # a setting the replayed loader refuses: not a suggestion
            continue
        before = base[io_bound]
        speedup = after / before if before > 0 else math.nan
        if speedup >= MIN_SPEEDUP:
            out.append(Suggestion(change, speedup, before, after, io_bound))
    return sorted(out, key=lambda s: -s.speedup)[:MAX_SUGGESTIONS]


def replayable(frame: pd.DataFrame) -> bool:
    """Whether the trace has per-sample fetch events with dataset indices (what a replay re-runs)."""
    f = events(frame)
    return bool(((f["kind"] == "fetch_end") & (f["index"] >= 0)).any())


def why_none(found: Verdict, frame: pd.DataFrame) -> str:
    """The ``suggestion.why.*`` key of an empty suggestion list."""
    if found.kind in (CONSUMER, NONE):
        return f"suggestion.why.{found.kind}"
    return "suggestion.why.no_replay" if not replayable(frame) else "suggestion.why.no_gain"
