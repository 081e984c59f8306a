"""The measured costs a prediction must reproduce, read from one trace: a pure function of its events.

Twin of nothing in torch. :func:`measured_costs` returns a :class:`Costs`: per batch, what a worker spends
(fetching its samples, collating them into shared memory), what the main process spends receiving a batch
from a worker (as a function of the batch's bytes and tensors), the pin thread's time per byte, the
training step's own time (a median, the first step of each epoch apart: a first CUDA step drags a mean
up), and a worker's start-up. :mod:`loaderlab.trace.diagnosis.predict` turns them into samples per second under other settings.

Where the trace cannot tell a cost apart, a stated assumption (``ASSUMED``) stands in and the costs say
which (``assumed``), so that the words can say so. Knows nothing of torch's runtime, plotly or streamlit;
no re-runs, no clocks: the same trace gives the same costs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ...engine import events as ev
from ...engine.cores import cpu_count
from .steps import step_medians, touch_s
from .summary import events, RunSummary, summarise
from ..core.cache import shared
from ..core.lookups import hand_overs, named_rows, normal, paired_rows, rows

# Assumed where the trace cannot measure it, each on the slower side so that a claim may fall short, never
# overshoot; the measurements behind them: docs/performance.md, "The cost model's assumed figures".
COPY_BPS = 10e9  # the main process's collate: a plain copy
SHM_BPS = 1e9  # a worker's collate into fresh shared memory
# A freshly allocated batch above glibc's first mmap threshold may fault its pages in anew each batch (whether
# it does depends on the heap's history, which no trace shows): the model charges the faults, the slower case.
FAULT_ABOVE = 128 * 2**10
MMAP_MAX = 32 * 2**20  # past glibc's highest mmap threshold every batch is mapped afresh, whatever the heap did
FAULT_BPS = 4e9
RECV_TENSOR_S = 50e-6  # receiving one tensor from a worker: its file descriptor, a mapping (no bytes copied)
SHM_TENSOR_S = 100e-6  # a worker's collate sets each tensor's shared memory up before writing the bytes
# With workers the loop body lets the last batch go (its shared pages freed) and maps the next in as it reads
# it (steps.touch_s): both are moves, gone without workers.
DROP_TENSOR_S = 15e-6
DROP_BPS = 5.5e9
PAGEABLE_BPS = 6e9  # a pageable host→GPU copy (loaderlab.scenarios.transfer's assumption)
ASSUMED = {"copy_gbps": COPY_BPS / 1e9, "shm_gbps": SHM_BPS / 1e9, "pageable_gbps": PAGEABLE_BPS / 1e9,
           "drop_gbps": DROP_BPS / 1e9}
COMPUTING = 0.5  # a batch on CPU at least half its own time computes: the cores cap how many run at once
CONTENDED = 0.2  # workers that waited for a core this share of their batches' wall time did not get the cores
RECV_MIN_BPS = 1e9  # receiving maps and unmaps, copying nothing: a measured receive slower than this waited


def _counted(tensors: float) -> float:
    """A batch's tensor count, 0 where the trace could not count them (NaN)."""
    return 0.0 if math.isnan(tensors) else tensors


def copy_s(nbytes: float, reused: bool = False) -> float:
    """A plain copy of ``nbytes`` into freshly allocated memory in one process (the main process's collate);
    ``reused``: the heap hands back the last batch's pages (no faults below :data:`MMAP_MAX`)."""
    if not nbytes > 0:
        return 0.0
    return nbytes / COPY_BPS + (nbytes / FAULT_BPS if nbytes > (MMAP_MAX if reused else FAULT_ABOVE) else 0.0)


def drop_s(nbytes: float, tensors: float) -> float:
    """Letting a received batch of ``nbytes`` bytes and ``tensors`` tensors go in the loop body (its shared
    memory's pages freed)."""
    return _counted(tensors) * DROP_TENSOR_S + max(nbytes, 0.0) / DROP_BPS


@dataclass(frozen=True)
class Costs:
    """Seconds per batch (at the recorded ``batch_size``) unless named otherwise; NaN: not measured."""

    batch_size: int
    samples: float  # per epoch
    epochs: int
    num_workers: int
    cores: float  # the cores the run's processes had (see _cores)
    pin_memory: bool
    persistent: bool
    fetch_s: float  # a batch's samples, the worker's own time (its waits for a core taken out)
    collate_s: float  # as collated where recorded (in a worker: into shared memory)
    computing: bool  # fetching computes (cores cap the workers) rather than waits
    nbytes: float
    tensors: float
    recv_s: float  # main's receive of a ready batch from a worker (0 without workers)
    pin_s: float  # the pin stage per batch (0 when nothing was pinned)
    step_s: float  # median step, first steps apart, without what the body spent on shared memory (touch_s, drop)
    first_step_s: float
    startup_s: float  # one worker's start-up (median)
    spawn_s: float = 0.0  # the main process's time to start one more worker (median gap between workers' starts)
    cold_s: float = 0.0  # a fresh worker's first batch beyond a warm one (imports, caches, shared memory set up)
    reused: bool = False  # the main process's heap reuses a collated batch's pages (see copy_s): the fast case
    cpu_share: float = 1.0  # of a worker's own time per batch, its CPU time (the rest: its feeder thread's GIL)
    touch_s: float = 0.0  # with workers: the body's first reads of a batch in shared memory (its page faults)
    body_room: float = 1.0  # of the body's modelled shared-memory work, the share its measured time had room for
    observed_s: float = math.nan  # the loop's steady time per batch (its waits and steps, first waits apart)
    handover_s: float = 0.0  # with workers: what the other costs leave of observed_s (see predict.calibrated)
    assumed: tuple[str, ...] = field(default=())  # which ASSUMED figures the costs lean on

    def move_s(self, nbytes: float, tensors: float | None = None) -> float:
        """Main's receive of a batch of ``nbytes`` bytes and ``tensors`` tensors: a part per tensor and a part
        per byte, the per-byte part scaled from the measured receive of this trace's batches."""
        tensors = self.tensors if tensors is None else tensors
        t = _counted(tensors)
        by_bytes = self.handover_bytes_s
        rest = self.handover_s - by_bytes
        per_byte = by_bytes / self.nbytes if self.nbytes > 0 else 0.0
        return t * RECV_TENSOR_S + nbytes * (self.recv_per_byte + per_byte) + rest

    def body_shm_s(self, nbytes: float) -> float:
        """With workers, what the loop body spends on a batch of ``nbytes`` bytes in shared memory: mapping its
        pages in as it reads them (measured faults, scaled by bytes) and letting it go (:func:`drop_s`); no
        more, at the recorded bytes, than was taken out of :attr:`step_s`."""
        touch = self.touch_s * nbytes / self.nbytes if self.nbytes > 0 else 0.0
        return (touch + drop_s(nbytes, self.tensors)) * self.body_room

    @property
    def handover_bytes_s(self) -> float:
        """The part of the hand-over that scales with bytes: at most the batch's bytes at RECV_MIN_BPS."""
        return min(self.handover_s, self.nbytes / RECV_MIN_BPS) if self.nbytes > 0 else 0.0

    @property
    def recv_per_byte(self) -> float:
        t = _counted(self.tensors)
        if self.num_workers and not math.isnan(self.recv_s) and self.nbytes > 0:
            return max(0.0, self.recv_s - t * RECV_TENSOR_S) / self.nbytes
        return 0.0  # no worker measured it: the receive maps, copying nothing (the unmapping: body_shm_s)

    @property
    def shm_s(self) -> float:
        """The part of a worker's collate that shared memory costs: each tensor's set-up and writing the bytes
        into fresh pages (assumed: :data:`SHM_TENSOR_S`, :data:`SHM_BPS`)."""
        if not self.nbytes > 0:
            return 0.0
        t = _counted(self.tensors)
        shm = t * SHM_TENSOR_S + self.nbytes / SHM_BPS
        return min(self.collate_s, shm) if self.num_workers else shm

    @property
    def shm_fixed_s(self) -> float:
        """The part of :attr:`shm_s` paid per tensor, whatever its bytes."""
        return min(self.shm_s, _counted(self.tensors) * SHM_TENSOR_S)

    @property
    def main_collate_s(self) -> float:
        """The batch's collate in the main process (no shared memory: a plain copy)."""
        if not self.num_workers:
            return self.collate_s
        return min(self.collate_s, self.collate_s - self.shm_s + copy_s(self.nbytes, self.reused))

    @property
    def main_copy_s(self) -> float:
        """The bytes-bound part of the main process's collate (a plain copy)."""
        return min(self.main_collate_s, copy_s(self.nbytes, self.reused)) if self.nbytes > 0 else 0.0

    @property
    def worker_collate_s(self) -> float:
        if self.num_workers:
            return self.collate_s
        return max(self.collate_s, self.collate_s - copy_s(self.nbytes, self.reused) + self.shm_s)


def batch_costs(frame) -> pd.DataFrame:
    """The one measurement of each batch's costs, which the cost model and ``replay`` both read: per batch
    (``pid, epoch, batch``), ``fetch_s`` (its samples' sum), ``collate_s``, ``factor`` (the share of its wall
    time that was its own: its waits for a core, ``collate_end``'s ``runqueue_ns``, taken out), ``cpu`` (its
    CPU time's share of that own time, ``cpu_ns``; NaN where the trace has no usage numbers), ``computed``
    (it computes: ``cpu`` at least :data:`COMPUTING`) and ``first`` (its process's first batch)."""
    return _worker_batches(normal(events(frame)))


def _worker_batches(f: pd.DataFrame) -> pd.DataFrame:
    keys = ["pid", "epoch", "batch"]
    fetch = paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, ["pid", "worker", "epoch", "batch", "index"])
    start = fetch.groupby(keys)["start_s"].min().rename("first_s")
    fetch = fetch.assign(d=fetch["end_s"] - fetch["start_s"]).groupby(keys)["d"].sum().rename("fetch_s")
    col = paired_rows(f, ev.COLLATE_BEGIN, ev.COLLATE_END, ["pid", "worker", "epoch", "batch"])
    col = col.assign(collate_s=col["end_s"] - col["start_s"]).groupby(keys).agg(
        collate_s=("collate_s", "sum"), end_s=("end_s", "max"))
    out = pd.concat([fetch, start, col], axis=1).reset_index()
    out[["fetch_s", "collate_s"]] = out[["fetch_s", "collate_s"]].fillna(0.0)
    usage = named_rows(f, ev.COLLATE_END, keys + ["cpu_ns", "runqueue_ns"])
    usage = usage[usage["cpu_ns"] >= 0].drop_duplicates(keys)
    out = out.merge(usage, on=keys, how="left")
    wall = (out["end_s"] - out["first_s"].fillna(out["end_s"] - out["collate_s"])).clip(lower=1e-9)
    own = (wall - out["runqueue_ns"].clip(lower=0) / 1e9).clip(lower=out["cpu_ns"] / 1e9, upper=wall)
    # No usage numbers (an older trace, the main process): the wall time counts in full.
    out["factor"] = (own / wall).fillna(1.0).clip(0.0, 1.0)
    out["cpu"] = (out["cpu_ns"] / 1e9 / own).clip(upper=1.0)
    out["computed"] = (out["cpu"] >= COMPUTING).where(out["cpu"].notna())  # NaN: not known
    out["first"] = out["first_s"].fillna(out["end_s"]) == out.groupby("pid")["first_s"].transform("min").fillna(
        out["end_s"])  # each worker process's first batch: its warm-up
    return out


def _warm(wb: pd.DataFrame) -> tuple[pd.DataFrame, float]:
    """The workers' warm batches (each process's first batch apart, where at least a third of the batches
    are warm) and what a first batch cost beyond a warm one: start-up a fresh worker pays again each epoch
    unless it persists, not a cost of every batch."""
    warm = wb[~wb["first"]]
    if len(warm) < max(1, len(wb) / 3):
        return wb, 0.0
    own = (wb["fetch_s"] + wb["collate_s"]) * wb["factor"]
    return warm, max(0.0, float(own[wb["first"]].median()) - float(own[~wb["first"]].median()))


def _receive_s(f: pd.DataFrame) -> float:
    """Main's receive of a batch that was ready when it was asked for: the previous step's end → the
    hand-over, for batches whose collate had ended before that step did (so no waiting is counted)."""
    ends = rows(f, ev.CONSUMER_END)[["epoch", "batch", "t_s"]].rename(columns={"batch": "position", "t_s": "asked_s"})
    ends = ends.assign(position=ends["position"] + 1)
    ready = rows(f, ev.COLLATE_END)
    ready = ready[ready["worker"] >= 0].groupby(["epoch", "batch"], as_index=False)["t_s"].max()
    got = hand_overs(f).merge(ends, on=["epoch", "position"]).merge(
        ready.rename(columns={"t_s": "ready_s"}), on=["epoch", "batch"])
    got = got[got["ready_s"] <= got["asked_s"]]
    return float((got["t_s"] - got["asked_s"]).median()) if len(got) else math.nan


def _receive_cap(nbytes: float, tensors: float) -> float:
    """The most a receive can cost (:data:`RECV_MIN_BPS`): beyond it the loop waited for the worker to send
    (a worker's sending thread waits for its GIL while the dataset computes in Python)."""
    return _counted(tensors) * RECV_TENSOR_S + max(nbytes, 0.0) / RECV_MIN_BPS


def _cores(wb: pd.DataFrame, s: RunSummary, step_s: float, recv_s: float) -> float:
    """The cores the run had: this machine's count (as torch counts them) or, where the workers waited for
    a core (``runqueue_ns``) at least :data:`CONTENDED` of their time, the cores the run's processes really got —
    the workers' CPU time plus the main process's steps and receives, over the loop's wall time (other
    programs, or too many processes for the cores, took the rest)."""
    count = float(cpu_count() or 1)
    used = wb.dropna(subset=["cpu_ns"]) if len(wb) else wb
    if not len(used) or s.wall_s <= 0:
        return count
    wall = (used["end_s"] - used["first_s"]).clip(lower=1e-9)
    if float((used["runqueue_ns"].clip(lower=0) / 1e9 / wall).median()) < CONTENDED:
        return count
    main = s.batches * ((0.0 if math.isnan(step_s) else step_s) + (0.0 if math.isnan(recv_s) else recv_s))
    got = (float(used["cpu_ns"].sum()) / 1e9 + main) / s.wall_s
    return min(count, max(got, 0.5))


@shared(settings=True, at_hand=("summary",))
def measured_costs(frame, summary: RunSummary | None = None) -> Costs:
    """The trace's :class:`Costs` (module docstring); ``summary``: the trace's, where the caller has it. Inside
    :func:`~loaderlab.trace.core.cache.shared_tables` (a report, a diagnosis) computed once: the verdict and
    the suggestions read the same costs."""
    s = summarise(frame) if summary is None else summary
    f = normal(events(frame))
    n = s.num_workers
    bs = int(s.settings.get("batch_size") or (1 if math.isnan(s.batch_size) else max(1, round(s.batch_size))))
    per_epoch = s.samples / max(s.epochs, 1) if not math.isnan(s.samples) else float(s.batches * bs)
    wb = _worker_batches(f)
    if n:
        wb = wb[wb["pid"].isin(rows(f, ev.COLLATE_END).query("worker >= 0")["pid"].unique())]
    warm, cold = _warm(wb) if n and len(wb) else (wb, 0.0)
    fetch = float((warm["fetch_s"] * warm["factor"]).median()) if len(warm) else math.nan
    collate = float((warm["collate_s"] * warm["factor"]).median()) if len(warm) else math.nan
    cpu = wb["cpu"].dropna() if len(wb) else pd.Series([], dtype=float)
    computing = bool(cpu.median() >= COMPUTING) if len(cpu) else True  # unknown: cores cap it (the safe side)
    warm_cpu = warm["cpu"].dropna() if len(warm) else cpu
    step, first = step_medians(frame)
    pin = s.stage("pin")
    recv = min(_receive_s(f), _receive_cap(s.payload.nbytes, s.payload.tensors)) if n else 0.0
    assumed = ["copy_gbps", "shm_gbps"] if s.payload.nbytes > 0 else []
    if n and math.isnan(recv):
        assumed.append("recv")
    startup = s.stage("startup")
    observed = (s.loop.wait_s + s.loop.consume_s) / s.batches if s.batches else math.nan
    touch, room = 0.0, 1.0
    if n and not math.isnan(step):  # the body's shared-memory work is a move: out of the step num_workers=0 runs
        touch = touch_s(frame, s.payload.nbytes, s.payload.tensors)
        modelled = touch + drop_s(s.payload.nbytes, s.payload.tensors)
        room = min(1.0, step / modelled) if modelled > 0 else 1.0
        step = max(0.0, step - modelled)
    return Costs(observed_s=observed, batch_size=bs, samples=per_epoch, epochs=max(s.epochs, 1), num_workers=n,
                 cores=_cores(wb, s, step, recv), pin_memory=bool(s.settings.get("pin_memory")),
                 persistent=bool(s.settings.get("persistent_workers")), fetch_s=fetch, collate_s=collate,
                 computing=computing, nbytes=float(s.payload.nbytes), tensors=float(s.payload.tensors),
                 recv_s=recv, pin_s=float(pin.p50_s) if pin.count else 0.0, step_s=step, first_step_s=first,
                 startup_s=float(startup.p50_s) if startup.count else 0.0, spawn_s=_spawn_s(f), cold_s=cold,
                 cpu_share=float(warm_cpu.median()) if computing and len(warm_cpu) else 1.0,
                 touch_s=touch, body_room=room, assumed=tuple(assumed))


def _spawn_s(f: pd.DataFrame) -> float:
    """The median gap between consecutive workers' starts within an epoch: what starting one more worker
    adds to an epoch's first wait (the main process forks them one after another)."""
    starts = rows(f, ev.WORKER_START)
    if len(starts) < 2:
        return 0.0
    gaps = starts.sort_values("t_s").groupby("epoch")["t_s"].diff().dropna()
    return float(gaps.median()) if len(gaps) else 0.0


def usable(c: Costs) -> bool:
    """Whether the costs are complete enough to predict from (per-batch fetch, collate and step times)."""
    return all(not math.isnan(x) for x in (c.fetch_s, c.collate_s, c.step_s)) and not np.isnan(c.samples)
