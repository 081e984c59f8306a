"""``run --tune``'s pieces that serve a slice: a candidate's plain torch DataLoader over the user's dataset,
the batch sampler it is fed, and one slice's timings.

Twin of nothing in torch. A :class:`Candidate` keeps its workers between its slices (persistent workers, so a
setting's start-up is paid once and measured once); its generator is private, so its seeds never touch the
user's random streams. Knows nothing of which candidate runs when (:mod:`.tuner`), of plotly or streamlit.
"""

from __future__ import annotations

import time
import warnings
from statistics import median
from typing import Any, Iterator

import torch
import torch.utils.data

from ..trace.diagnosis.tuning import STALL_X
from .candidates import Setting
from .patch import torch_iter

# the share of a slice at its start that is left out of its rate: the switch from another setting is paid
# there and a plain epoch pays it once (num_workers=0 collating 2.4 MB batches after a worker setting's slice:
# its first 5 batches took 0.75-1.35 ms against 0.2 ms, the allocator's free memory gone to the other's pattern,
# and its rate read 9,300 samples/s where its later batches and the plain script read 19,000-22,000)
SWITCH_IN = 0.25
RARE = 10  # at most one gap in this many of a slice is a stall (besides one in any slice, however short)


class Feed:
    """A candidate's batch sampler: the slice it is given, once (torch asks ``iter()`` at each reset)."""

    def __init__(self) -> None:
        self.items: list = []

    def __iter__(self) -> Iterator:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def plain_loader(loader: torch.utils.data.DataLoader, setting: Setting, feed: Any, batched: bool = True,
                 in_order: bool | None = None) -> torch.utils.data.DataLoader:
    """A plain torch DataLoader over the user's dataset, collate_fn, worker_init_fn and context with
    ``setting``, fed by ``feed`` (a batch sampler, or a sampler where ``batched`` is False). Its generator is
    private: the worker seed torch draws at each ``iter()`` never comes from the user's streams. Its workers
    persist, so they start once however many slices it serves."""
    workers = setting.num_workers
    common = dict(num_workers=workers, collate_fn=loader.collate_fn, pin_memory=setting.pin_memory,
                  timeout=loader.timeout if workers else 0, generator=torch.Generator().manual_seed(0),
                  in_order=loader.in_order if in_order is None else in_order)
    if workers:
        common.update(prefetch_factor=setting.prefetch_factor, persistent_workers=True,
                      worker_init_fn=loader.worker_init_fn, multiprocessing_context=loader.multiprocessing_context)
    with warnings.catch_warnings():  # torch's worker-count warning is the tuner's business, not the job's
        warnings.simplefilter("ignore")
        if batched:
            return torch.utils.data.DataLoader(loader.dataset, batch_sampler=feed, **common)
        return torch.utils.data.DataLoader(loader.dataset, sampler=feed, batch_size=None, **common)


class Candidate:
    """A plain torch DataLoader with one candidate setting over the user's dataset (see the docstring)."""

    def __init__(self, loader: torch.utils.data.DataLoader, setting: Setting) -> None:
        self.setting = setting
        self.feed = Feed()
        self.loader = plain_loader(loader, setting, self.feed, batched=loader.batch_sampler is not None)
        self.iterator: Any = None
        self.slices: list[dict[str, Any]] = []
        self.first_waits: list[float] = []  # each slice's wait for its first batch
        self.warm: list[bool] = []  # each slice's: did it start the workers
        self.batch_s: float | None = None  # seconds a batch in its last slice's steady part
        self.failed: str | None = None  # what it raised, where it failed
        # the stalls of the untimed slices it served (pauses: the rest of an epoch whose share is spent), which
        # hold most of a tuned epoch's samples: how often a rare slow sample comes is read from them too
        self.pauses = {"samples": 0, "batches": 0, "stalls": 0, "stall_s": 0.0}

    def start(self, items: list, timed: bool = True) -> bool:
        """Hand it the slice; True where this starts its workers (a warm slice: start-up, never a rate).
        An untimed slice (a pause in the tuning) leaves the start-up's record alone."""
        warm = self.setting.num_workers > 0 and self.loader._iterator is None
        self.feed.items = items
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.iterator = torch_iter(self.loader)
        if timed:
            self.warm.append(warm)
        return warm

    def paused(self, s: "Slice") -> None:
        """A pause it served ended: its batches handed to the job and its stalls join :attr:`pauses`."""
        stalls = s.stalls(self.setting.num_workers, self.setting.prefetch_factor, self.batch_s)
        self.pauses["samples"] += s.samples(0, s.handed)
        self.pauses["batches"] += s.handed
        self.pauses["stalls"] += len(stalls)
        self.pauses["stall_s"] = round(self.pauses["stall_s"] + sum(x for _, x in stalls), 6)

    def close(self) -> None:
        it, self.iterator = self.iterator, None
        it = it or self.loader._iterator
        if hasattr(it, "_shutdown_workers"):
            it._shutdown_workers()
        self.loader._iterator = None

    def record(self) -> dict[str, Any]:
        cold = [w for w, started in zip(self.first_waits, self.warm) if started]
        later = [w for w, started in zip(self.first_waits, self.warm) if not started]
        startup = None
        if cold and later and self.setting.num_workers:
            startup = round(max(0.0, median(cold) - median(later)), 6)
        out = {"setting": self.setting.as_dict(), "startup_s": startup, "slices": list(self.slices)}
        if self.pauses["samples"]:
            out["pauses"] = dict(self.pauses)
        if self.failed:
            out["failed"] = self.failed
        return out


class Slice:
    """One candidate's turn: its batches, the times the job asked for each, and when its last step ended."""

    def __init__(self, who: int, items: list, started: float, round_: int) -> None:
        self.who, self.items, self.started, self.round = who, items, started, round_
        self.receipts: list[float] = []  # time the job received each batch
        self.handed = 0
        self.warm = False  # it started its setting's workers
        self.pause = False  # served outside the tuning (the epoch's share spent): never timed
        self.wait_s = 0.0  # the loop's waits for its batches past the first (a start's set-up is in that one)
        self.busy_s = 0.0  # its process's other threads' CPU in those waits (torch's threads spinning)

    def waited(self, before: tuple[float, int, int]) -> None:
        """A wait for a batch ended (``before``: :func:`clocks` as it began): past the slice's first, its wall
        time and the CPU time the process spent beyond the loop's own thread (see
        :mod:`loaderlab.trace.diagnosis.busy_wait`)."""
        if self.handed:
            at, process, own = before
            self.wait_s += time.perf_counter() - at
            self.busy_s += max(0, (time.process_time_ns() - process) - (time.thread_time_ns() - own)) / 1e9

    def entry(self, steady: tuple[int, float] | None, now: float, workers: int = 0,
              prefetch: int | None = None, batch_s: float | None = None) -> dict[str, Any]:
        """The slice as its candidate's record keeps it (:mod:`loaderlab.trace.diagnosis.tuning`), with its
        stalls (:meth:`stalls`): their count and excess seconds in the whole slice and in its steady window."""
        stalls = self.stalls(workers, prefetch, batch_s)
        window = self.window(workers, prefetch) if steady else None
        inside = [x for i, x in stalls if window and window[0] < i <= window[1]]
        return {"round": self.round, "samples": steady[0] if steady else 0,
                "seconds": round(steady[1], 6) if steady else 0.0, "warm": self.warm, "batches": len(self.items),
                "all_samples": self.samples(0), "elapsed_s": round(now - self.started, 6),
                "wait_s": round(self.wait_s, 6), "busy_s": round(self.busy_s, 6),
                "stalls": len(stalls), "stall_s": round(sum(x for _, x in stalls), 6),
                "window_stall_s": round(sum(inside), 6)}

    def samples(self, lo: int, hi: int | None = None) -> int:
        return sum(count(b) for b in self.items[lo:hi])

    def window(self, workers: int, prefetch: int | None) -> tuple[int, int] | None:
        """The receipts ``(lo, hi)`` that bound the steady part (:meth:`steady`); None where the slice is too
        short. It starts past the batches sent at the start and past the slice's switch-in (its first
        ``SWITCH_IN`` share), and it ends where the last task was sent (:func:`last_send`)."""
        first = sent_first(workers, prefetch)
        lo = max(first, int(len(self.items) * SWITCH_IN))
        wave = max(1, workers)  # workers hand batches over in waves: both ends at a wave's head
        hi = lo + wave * ((last_send(len(self.items), workers, prefetch) - lo) // wave)
        if hi - lo < 2 or len(self.receipts) <= hi or self.receipts[hi] <= self.receipts[lo]:
            return None
        return lo, hi

    def steady(self, workers: int, prefetch: int | None) -> tuple[int, float] | None:
        """(samples, seconds) of the slice's steady part, between receipts of batches: from the first batch
        whose task was sent after a batch came back (``workers × prefetch_factor`` are sent at the start, and
        run faster than the loop's own round trips allow), past the switch-in, to the head of a later wave
        (whole waves of ``workers`` batches) no later than the last task's send. Timing from a receipt to a receipt,
        never from a request, keeps a wave the step drains from counting in less time than it took; a window
        that ends inside a wave counts its first batches in no time. None where the slice is too short."""
        window = self.window(workers, prefetch)
        if window is None:
            return None
        lo, hi = window
        return self.samples(lo, hi), self.receipts[hi] - self.receipts[lo]

    def stalls(self, workers: int, prefetch: int | None, batch_s: float | None = None) -> list[tuple[int, float]]:
        """``(receipt, excess seconds)`` of each stall: a gap between two receipts past the slice's first of
        more than ``STALL_X`` × its usual wave (the median over its steady receipts of a wave's time), less that
        wave. A rare slow sample is one: an in-order loader cannot hide a wait longer than its pipeline, so it
        costs every setting alike, and a slice of a few hundred samples meets one by chance (``flaky_reads_nw0``,
        0.3 s in one read of 300: the job's own four slices met none, and the worker slices that met one were
        cut right after it, outside their windows; the composed epochs left 2.4 s of a 6 s epoch out). The wave
        is the shorter of the slice's own median and its setting's earlier time a batch, ``batch_s`` (its pace
        with the stalls apart), where there is one: a slice cut right after a slow read is too short for a median
        of its own (3 batches, 8 samples in 0.31 s, read as a round at 26 samples/s), or the stall is in as many
        of its waves as it has workers (4 workers, 20 batches: half its 8 waves, and one round read 104
        samples/s)."""
        wave = max(1, workers)
        r = self.receipts
        lo = sent_first(workers, prefetch)
        usual = sorted(r[i + wave] - r[i] for i in range(max(1, lo), len(r) - wave))
        paces = ([usual[len(usual) // 2]] if len(usual) >= 3 else []) + ([wave * batch_s] if batch_s else [])
        if not paces:
            return []
        found = _beyond(r, min(paces))
        if len(paces) == 2 and len(found) > max(1, (len(r) - 1) // RARE):
            # a stall is rare: where the earlier pace makes more of this slice's gaps stalls, the setting's pace
            # has changed since (beside a CPU burner a setting served 2,842 samples/s in one slice and 100 in
            # its next, whose 49 gaps of 50 then read as stalls and its rate as the first's), and its own
            # median tells it
            found = _beyond(r, paces[0])
        return found


def _beyond(receipts: list[float], typical: float) -> list[tuple[int, float]]:
    """``(receipt, excess seconds)`` of each gap over ``STALL_X`` × ``typical``."""
    return [(i, gap - typical) for i in range(1, len(receipts))
            if (gap := receipts[i] - receipts[i - 1]) > STALL_X * max(typical, 1e-6)]


def last_send(batches: int, workers: int, prefetch: int | None) -> int:
    """The receipt that sends a slice's last task: torch sends one task at each receipt, so up to it the
    loader runs as in a plain epoch, and after it the workers drain what they hold, with no task behind it,
    faster than the job's pace (2 workers on torch ops: the last waves' batches came 1.5 ms apart against
    8 ms, and a window that held them read the setting 15 % fast)."""
    return batches - 1 - sent_first(workers, prefetch)


def sent_first(workers: int, prefetch: int | None) -> int:
    """The batches a slice's workers are sent at its start (``workers × prefetch_factor``): they come back
    faster than the loop's round trips allow, so a slice's pace is read after them."""
    return workers * (prefetch or 0) if workers else 0


def clocks() -> tuple[float, int, int]:
    """The wall clock, the process's CPU clock and the loop's thread's, as a wait for a batch begins."""
    return time.perf_counter(), time.process_time_ns(), time.thread_time_ns()


def count(indices: Any) -> int:
    return len(indices) if isinstance(indices, (list, tuple)) else 1
