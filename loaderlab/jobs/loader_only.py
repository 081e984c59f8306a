"""``run --tune``'s trials of the settings that change the batches, measured on the loader alone.

Twin of nothing in torch. ``batch_size`` and ``in_order=False`` change which samples form a batch or when it
comes, so they are never switched inside the job (its batches must stay its own). Here they are tried after
the in-job tuning, in the job's process, on loaders over the user's own dataset and collate_fn with the
adopted setting, each batch followed by a *stand-in* for the user's step: it spins the step's measured CPU
time and sleeps its measured idle time, per sample (:class:`StepCost`, measured by the tuner on the real
step), so a batch twice as big gets a step twice as long. Each variant draws its own index batches from a
private generator (the user's sampler and random streams are untouched) and covers the same number of
samples per slice; variants take turns, as the in-job candidates do. Every result is labelled "measured
without your step". Knows nothing of files, plotly or streamlit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from statistics import median
from typing import Any

import torch
import torch.utils.data

from ..trace.diagnosis.tuning import MIN_ROUNDS
from .candidates import Setting
from .patch import torch_iter
from .tune_plan import FIRST_SLICE, SlicePlan
from .tune_slices import Candidate, plain_loader, Slice

ROUNDS = 3


@dataclass(frozen=True)
class StepCost:
    """The user's step per sample: its CPU time (at most its wall time), and the rest of its wall time."""

    cpu_per_sample: float
    idle_per_sample: float

    @classmethod
    def from_steps(cls, steps: list[tuple[int, float, float]]) -> "StepCost | None":
        """``steps``: ``(samples, wall_s, cpu_s)`` of real steps; None without any."""
        steps = [s for s in steps if s[0] > 0]
        if not steps:
            return None
        # the stand-in spins on one thread: CPU beyond the wall time (several intra-op threads) is capped at
        # the wall time, so the stand-in takes the step's wall time and at least its main thread's CPU
        cpu = median(min(c, w) / n for n, w, c in steps)
        idle = median(max(0.0, w - c) / n for n, w, c in steps)
        return cls(cpu, idle)

    def run(self, samples: int) -> None:
        """Spin the CPU part on this thread (its own clock, not the wall's), then sleep the idle part."""
        cpu_end = time.thread_time() + self.cpu_per_sample * samples
        while time.thread_time() < cpu_end:
            pass
        time.sleep(self.idle_per_sample * samples)

    def as_dict(self) -> dict[str, float]:
        return {"cpu_per_sample_s": round(self.cpu_per_sample, 9), "idle_per_sample_s": round(self.idle_per_sample, 9)}


def variants(loader: torch.utils.data.DataLoader, adopted: Setting) -> list[dict[str, Any]]:
    """The job's own batch_size first, then half and twice it, and ``in_order=False`` where workers hand
    batches over in order. None where the loader has no plain batch_size (a batch_sampler of the user's)."""
    size = loader.batch_size
    if not size or isinstance(loader.dataset, torch.utils.data.IterableDataset):
        return []
    out = [{"batch_size": size}]
    if size >= 2:
        out.append({"batch_size": size // 2})
    out.append({"batch_size": size * 2})
    if adopted.num_workers > 0 and loader.in_order:
        out.append({"batch_size": size, "in_order": False})
    return out


class _Feed(list):
    """A trial loader's batch sampler: the slice it is given (a list, refilled before each ``iter()``)."""


def measure_loader_only(loader: torch.utils.data.DataLoader, adopted: Setting, step: StepCost,
                        budget_s: float, slice_samples: int, slice_s: float = 0.0,
                        start_s: float = 0.0) -> dict[str, Any] | None:
    """Each variant's samples/s per slice, in turns, until ``budget_s`` is spent or ``ROUNDS`` rounds ran.
    ``slice_s``, ``start_s``: a slice's and a start of the adopted setting's workers' seconds in the job. Where
    the budget cannot give each variant two measured slices (after the one that starts its workers), none
    runs: a trial that could measure nothing only costs the job (a job of 3 workers spent 1.3 s starting one
    variant's workers, its first slice no rate, with 0.25 s of budget left)."""
    found = variants(loader, adopted)
    if len(found) < 2 or budget_s <= 0:
        return None
    warm = 1 if adopted.num_workers else 0
    if len(found) * ((MIN_ROUNDS + warm) * slice_s + warm * start_s) > budget_s:
        return {"stand_in": step.as_dict(), "slice_samples": slice_samples, "unaffordable": True,
                "variants": [{"change": v, "slices": []} for v in found]}
    n = len(loader.dataset)
    gen = torch.Generator().manual_seed(0)
    feeds = [_Feed() for _ in found]
    trials = [plain_loader(loader, adopted, f, in_order=v.get("in_order")) for v, f in zip(found, feeds)]
    slices: list[list[dict[str, Any]]] = [[] for _ in found]
    started = time.perf_counter()
    try:
        for r in range(ROUNDS):
            for i, (variant, feed, trial) in enumerate(zip(found, feeds, trials)):
                if time.perf_counter() - started > budget_s:
                    raise TimeoutError
                order = torch.randint(0, n, (slice_samples,), generator=gen).tolist()
                size = variant["batch_size"]
                feed[:] = [order[j:j + size] for j in range(0, len(order), size)]
                slices[i].append(_one_slice(trial, feed, step, adopted, r))
    except TimeoutError:
        pass
    finally:
        for trial in trials:
            it = trial._iterator
            if hasattr(it, "_shutdown_workers"):
                it._shutdown_workers()
            trial._iterator = None
    return {"stand_in": step.as_dict(), "slice_samples": slice_samples,
            "variants": [{"change": v, "slices": s} for v, s in zip(found, slices)]}


def after_tuning(loader: torch.utils.data.DataLoader, adopted: Setting, steps: list[tuple[int, float, float]],
                 plan: SlicePlan, left_s: float, tried: Candidate | None) -> dict[str, Any] | None:
    """The trials once the in-job tuning is done, with the ``adopted`` setting: ``left_s`` of budget, slices as
    long as the job's (``plan``), a stand-in for the step its real ``steps`` measured (None without a step);
    ``tried``: the adopted setting's candidate, whose first slice's wait is a start of its workers."""
    step = StepCost.from_steps(steps)
    if step is None:
        return None
    start_s = tried.first_waits[0] if tried is not None and tried.first_waits else 0.0
    batches = plan.slice_batches or FIRST_SLICE
    return measure_loader_only(loader, adopted, step, left_s, batches * (loader.batch_size or 1),
                               slice_s=batches * plan.per_batch, start_s=start_s)


def _one_slice(trial, feed: list, step: StepCost, adopted: Setting, round_: int) -> dict[str, Any]:
    """One variant's slice, timed as the in-job tuner times its slices (:meth:`.tune_slices.Slice.steady`);
    its first slice started its workers and is start-up, never a rate."""
    s = Slice(0, list(feed), time.perf_counter(), round_)
    s.warm = adopted.num_workers > 0 and trial._iterator is None
    it = torch_iter(trial)
    for indices in feed:
        next(it)
        s.receipts.append(time.perf_counter())
        step.run(len(indices))
    steady = s.steady(adopted.num_workers, adopted.prefetch_factor)
    return {"round": round_, "samples": steady[0] if steady else 0, "seconds": round(steady[1], 6) if steady else 0.0,
            "warm": s.warm, "batches": len(feed)}
