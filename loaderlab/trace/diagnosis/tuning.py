"""What ``run --tune`` measured inside the job: each setting's samples per second, and the measured best.

Twin of nothing in torch. Reads a loader's ``tuning`` record (written by :mod:`loaderlab.jobs.tuner`):

``{"own": SETTING, "candidates": [{"setting": SETTING, "startup_s": S | null, "slices": [SLICE...]}],
"budget_s", "spent_s", "slices_s", "slice_batches", "stopped", "adopted": INDEX | null, "rematch": INDEX | null}``
(``spent_s``: what the tuning cost the job, its slices' time beyond the fastest setting's pace, which the budget
bounds: :func:`loaderlab.jobs.tune_pace.cost_s`; ``slices_s``: the slices' wall time, absent from older records;
rematch: the setting a later epoch's share tried alone against the job's own, their first rounds split) where a
SETTING is
``{"num_workers", "prefetch_factor", "pin_memory"}`` and a SLICE is ``{"round", "samples", "seconds",
"warm", "all_samples", "elapsed_s", "stalls", "stall_s", "window_stall_s"}``: ``samples`` handed to the job in
``seconds`` of its steady part (between receipts of whole waves of batches, the user's step included:
:meth:`loaderlab.jobs.tune_slices.Slice.steady`), the whole slice's samples and seconds (from the request of its
first batch to the end of the step on its last), and its stalls: gaps between receipts of more than ten times
its usual pace, their count and excess seconds in the whole slice and in the steady part (:meth:`loaderlab.
jobs.tune_slices.Slice.stalls`). A pause (the rest of an epoch whose share was spent) served by a setting whose
workers ran already is one of its SLICEs, with ``"pause": true``; a candidate that served other pauses (untimed:
they started its workers, or had no steady part) has ``"pauses": {"samples", "batches", "stalls",
"stall_s"}``: their stalls, counted the same way.
``epoch_samples``: the samples of one of the job's epochs; ``persistent_workers``: the
job's own (its workers then start once a job, not once an epoch). A warm slice started its
workers: they come up one after another, so the first ones work ahead while the last start, and the batches
after the fill arrive faster than the steady rate: a warm slice is never a rate. Its first batch's wait,
beside the later slices', gives the start-up.

The choice is one function (:func:`tuning_choice`): the tuner adopts with it and the report prints it, so
the two cannot disagree. A speed-up is a claim about one epoch of the job as the plain script would run it
(:func:`epoch_seconds`): the epoch's samples at the setting's median steady rate plus its start-up, the time
its first slice took beyond its batches at that rate (starting the workers, filling the pipeline, fresh
workers' first batches), which a plain job pays in every epoch whose workers it starts: every term a
measurement of this job. A steady rate alone leaves that out; for a short epoch (600 batches of 1 ms
reads: 0.06-0.1 s of start-up in a 0.8 s epoch) that overstated a deep pipeline. Without those terms (the
loader-only trials, an older record) the speed-up is the ratio of median rates. A setting wins only where
it also beat the job's own in most of the rounds both ran: each one's measured turns paired in order, where
taken in the same round or the next (the machine's drift falls alike on turns taken one after the other). The report's words on it are in
:mod:`.tuning_report`. Knows nothing of torch, plotly or streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median
from typing import Any, TYPE_CHECKING

from .tuning_noise import least_told

if TYPE_CHECKING:
    import pandas as pd


MIN_SPEEDUP = 1.05  # below this a measured difference is not worth an edit of the script
MIN_ROUNDS = 2
FAR_BELOW = 0.5  # a setting whose one measured round is under this share of the fastest is dropped after it
STALL_X = 10  # a gap between receipts this many × a slice's usual wave of batches: a stall, not its pace


@dataclass(frozen=True)
class TuningChoice:
    """The measured best: ``best`` indexes ``candidates`` (0 is the job's own); ``keep``: no change wins."""

    best: int
    speedup: float | None  # median samples/s of best ÷ the job's own; None where either was not measured
    wins: int  # rounds in which best beat the job's own setting
    paired: int  # rounds both ran
    keep: bool
    epoch_s: tuple[float, float] | None = None  # one epoch with best and with the job's own: the speed-up's terms
    floor: float = MIN_SPEEDUP  # the least speed-up told (:func:`.tuning_noise.least_told`)
    busy: float = 0.0  # the loop's other threads' cores while it waited in the slices with workers


def _steady_s(s: dict[str, Any]) -> float:
    """A slice's steady seconds without its stalls (those are :func:`stall_tail`'s)."""
    return s.get("seconds", 0) - s.get("window_stall_s", 0.0)


def rates(candidate: dict[str, Any]) -> list[float]:
    """Samples per second of each measured slice, its stalls apart (never a warm one: see the module
    docstring)."""
    return [rate for _, rate in measured_turns(candidate)]


def steady_rates(candidate: dict[str, Any]) -> list[float]:
    """Samples per second of the steady part of every slice, warm ones too (a warm slice's reads its workers'
    fill: a guess of its pace before it has a rate, never a rate reported)."""
    return [s["samples"] / _steady_s(s) for s in candidate.get("slices", ()) if _steady_s(s) > 0]


def measured_turns(candidate: dict[str, Any]) -> list[tuple[int, float]]:
    """``(round, samples/s)`` of each measured slice, in the order they ran."""
    return [(s["round"], s["samples"] / _steady_s(s)) for s in candidate.get("slices", ())
            if _steady_s(s) > 0 and not s.get("warm")]


@dataclass(frozen=True)
class Stalls:
    """The stalls the slices and pauses met (warm slices apart: their gaps are the workers' start): ``count``
    in ``samples``, ``excess_s`` beyond their pace in all."""

    count: int
    samples: int
    excess_s: float

    def per_epoch(self, epoch_samples: int, candidate: dict[str, Any]) -> float:
        """Seconds one epoch of ``epoch_samples`` spends in stalls with ``candidate``: as many as the slices of
        all settings met per sample (how often a slow sample comes is the dataset's, not a setting's), each
        as long as this setting's own were where it met some (a deep pipeline hides part of one), else as
        the slices' were on average."""
        if not self.count or not self.samples:
            return 0.0
        its = _stall_parts(candidate)
        count = sum(s.get("stalls", 0) for s in its)
        each = sum(s.get("stall_s", 0.0) for s in its) / count if count else self.excess_s / self.count
        return epoch_samples * self.count / self.samples * each


def _stall_parts(candidate: dict[str, Any]) -> list[dict[str, Any]]:
    """Where a candidate's stalls were counted: its measured slices (the warm ones' gaps are its workers'
    start) and its pauses' tally (``{"samples", "batches", "stalls", "stall_s"}``: the untimed rest of each
    epoch whose share was spent, most of a tuned epoch's samples)."""
    parts = [{**s, "samples": s.get("all_samples", 0)} for s in candidate.get("slices", ()) if not s.get("warm")]
    return parts + ([candidate["pauses"]] if candidate.get("pauses") else [])


def stall_tail(record: dict[str, Any]) -> Stalls:
    """The stalls of every setting's measured slices and pauses, pooled (see :class:`Stalls`)."""
    parts = [p for c in record.get("candidates") or () for p in _stall_parts(c)]
    return Stalls(sum(p.get("stalls", 0) for p in parts), sum(p.get("samples", 0) for p in parts),
                  sum(p.get("stall_s", 0.0) for p in parts))


def paired_turns(own: list[tuple[int, float]], theirs: list[tuple[int, float]]) -> list[tuple[float, float]]:
    """``(own rate, their rate)`` pairs of turns taken in the same round, or else one round apart (such turns
    share the machine's drift): each of their turns in order takes the job's own turn of its round, or of the
    next, or of the one before, that no earlier turn took. (By round number alone a job's own first turn,
    which starts its workers, left its pair out: two measured turns of each made one pair. Zipped in order, a
    setting that joined the turns in a later epoch's share paired its round 8 with the own's round 0: a job
    whose ``num_workers=4`` measured 3.5x its own in 2 of 2 rounds read "too few rounds".)"""
    free = dict.fromkeys(range(len(own)))
    pairs = []
    for b, rate in theirs:
        j = next((j for d in (0, 1, -1) for j in free if own[j][0] == b + d), None)
        if j is not None:
            del free[j]
            pairs.append((own[j][1], rate))
    return pairs


def paired_rounds(record: dict[str, Any], i: int) -> int:
    """How many of candidate ``i``'s measured turns pair with the job's own (:func:`paired_turns`)."""
    cands = record.get("candidates") or []
    return len(paired_turns(measured_turns(cands[0]), measured_turns(cands[i]))) if cands else 0


def epoch_seconds(candidate: dict[str, Any], record: dict[str, Any]) -> float | None:
    """Seconds of one epoch of the job (``record["epoch_samples"]``) with this setting, composed of its own
    measurements: the epoch's samples at its median steady rate, plus its start-up: how much longer its first
    slice took than its samples at that rate, its stalls apart (with workers: starting them, the first fill,
    fresh workers' first batches; without: the first batches' own extra), plus the epoch's stalls
    (:func:`stall_tail`). Where the job's workers persist (``record["persistent_workers"]``) a setting with
    workers starts them once for the whole job, not each epoch: its epochs are the steady part and the stalls
    (the start-up stays in the table, apart). None where a term was not measured."""
    epoch_samples, persistent = record.get("epoch_samples"), bool(record.get("persistent_workers"))
    r = rates(candidate)
    slices = candidate.get("slices") or ()
    if not r or not epoch_samples or not slices or slices[0].get("elapsed_s") is None:
        return None
    rate = median(r)
    steady = epoch_samples / rate + stall_tail(record).per_epoch(epoch_samples, candidate)
    if persistent and candidate["setting"].get("num_workers"):
        return steady
    first = slices[0]
    return steady + max(0.0, first["elapsed_s"] - first.get("stall_s", 0.0) - first.get("all_samples", 0) / rate)


def tuning_choice(record: dict[str, Any]) -> TuningChoice:
    cands = record.get("candidates") or []
    own = rates(cands[0]) if cands else []
    measured = [(median(r), i) for i, c in enumerate(cands) if len(r := rates(c)) >= MIN_ROUNDS]
    if len(own) >= MIN_ROUNDS and not [i for _, i in measured if i != 0] and _all_far_behind(cands, median(own)):
        return TuningChoice(0, 1.0, 0, 0, True)  # each other measured setting dropped after one round, far behind
    if len(own) < MIN_ROUNDS or not [i for _, i in measured if i != 0]:  # nothing to weigh the own against
        return TuningChoice(0, None, 0, 0, True)
    epochs = {i: epoch_seconds(cands[i], record) for _, i in measured}
    composed = all(t is not None for t in epochs.values())
    best = min((t, i) for i, t in epochs.items())[1] if composed else max(measured)[1]
    if best == 0:
        return TuningChoice(0, 1.0, 0, 0, True)
    rounds = paired_turns(measured_turns(cands[0]), measured_turns(cands[best]))
    wins = sum(theirs > mine for mine, theirs in rounds)
    speedup = epochs[0] / epochs[best] if composed else median(rates(cands[best])) / median(own)
    floor, busy = least_told(record, cands[best], MIN_SPEEDUP)
    keep = speedup < floor or len(rounds) < MIN_ROUNDS or wins * 3 < len(rounds) * 2
    return TuningChoice(best, speedup, wins, len(rounds), keep, (epochs[best], epochs[0]) if composed else None,
                        floor, busy)


def _all_far_behind(cands: list[dict[str, Any]], own: float) -> bool:
    """Some setting besides the job's own was measured, and each one measured read under ``FAR_BELOW`` × the
    job's own median (the tuning drops such a setting after one round): your settings are the measured best,
    not "too few rounds"."""
    others = [max(r) for c in cands[1:] if (r := rates(c))]
    return bool(others) and max(others) < FAR_BELOW * own


def tuned_trace(frame: Any) -> bool:
    """Whether ``frame`` (a trace) holds settings ``run --tune`` tried inside the job (not a skipped tuning)."""
    return bool(((getattr(frame, "attrs", None) or {}).get("tuning") or {}).get("candidates"))


def workers_measured_slower(record: dict[str, Any] | None) -> bool:
    """True where ``run --tune`` measured settings with workers inside the job and chose one without: the job's
    own ``num_workers=0`` kept (no setting measured 1.05x faster), or ``num_workers=0`` adopted over the job's
    workers. The ``main_process`` verdict then says so rather than that workers would help (a job of 0.01 ms
    steps: the slices measured 2 workers at 0.77x of none, and the verdict read "workers would load while your
    step runs")."""
    cands = (record or {}).get("candidates") or []
    if not cands:
        return False
    choice = tuning_choice(record)
    workers = [i for i, c in enumerate(cands) if c["setting"].get("num_workers") and len(rates(c)) >= MIN_ROUNDS]
    if not choice.keep:
        return not cands[choice.best]["setting"].get("num_workers") and bool(workers)
    # kept: told only where no setting came within reach of a gain (too few rounds, or a gain under a busy
    # process's noise, says nothing either way)
    return choice.speedup is not None and choice.speedup < MIN_SPEEDUP and \
        not cands[0]["setting"].get("num_workers") and bool(workers)


def change_of(setting: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``{"num_workers": 4}`` — the arguments that differ from the job's own (prefetch_factor only with workers),
    as ``report --json``'s suggestions give every ``change``, measured or the model's."""
    return {k: v for k, v in setting.items()
            if v != own.get(k) and not (k == "prefetch_factor" and not setting.get("num_workers"))}


def change_text(setting: dict[str, Any], own: dict[str, Any]) -> str:
    """``num_workers=4`` — :func:`change_of` as the report prints it."""
    return ", ".join(f"{k}={v}" for k, v in change_of(setting, own).items())


def setting_text(setting: dict[str, Any]) -> str:
    text = f"num_workers={setting['num_workers']}"
    if setting.get("num_workers"):
        text += f", prefetch_factor={setting.get('prefetch_factor')}"
    return text + (", pin_memory=True" if setting.get("pin_memory") else "")


def tuning_table(record: dict[str, Any]) -> "pd.DataFrame":
    """One row per tried setting, the job's own first: its measured samples/s (median, lowest, highest over
    its rounds), the rounds it got, its ratio to the job's own median, its start-up, and whether it is the
    job's own, the measured best, or the setting the rest of the job ran with; its epoch and the stalls in it."""
    import pandas as pd  # here: the tuner in a job's process (no pandas) reads only this module's numbers

    cands = record.get("candidates") or []
    choice = tuning_choice(record)
    own_rates = rates(cands[0]) if cands else []
    own_median = median(own_rates) if own_rates else None
    stalls, epochs = stall_tail(record), record.get("epoch_samples")
    rows = []
    for i, c in enumerate(cands):
        r = rates(c)
        mid = median(r) if r else None
        rows.append({
            "setting": setting_text(c["setting"]),
            "num_workers": c["setting"]["num_workers"],
            "prefetch_factor": c["setting"].get("prefetch_factor"),
            "pin_memory": bool(c["setting"].get("pin_memory")),
            "own": i == 0,
            "best": i == choice.best and not choice.keep,
            "adopted": i == record.get("adopted"),
            "rounds": len(r),
            "samples_per_s": mid,
            "low": min(r) if r else None,
            "high": max(r) if r else None,
            "vs_own": (mid / own_median) if (mid is not None and own_median) else None,
            "startup_s": c.get("startup_s"),
            "epoch_s": epoch_seconds(c, record),
            "stall_s": stalls.per_epoch(epochs, c) if epochs and r else None,
        })
    return pd.DataFrame(rows, columns=["setting", "num_workers", "prefetch_factor", "pin_memory", "own", "best",
                                       "adopted", "rounds", "samples_per_s", "low", "high", "vs_own",
                                       "startup_s", "epoch_s", "stall_s"])
