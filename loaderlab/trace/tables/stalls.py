"""Stall checks: where a run lost time — head-of-line blocking, stalled or vanished workers, slow first
batches, errors (stragglers, slow workers and pauses of the whole machine: :mod:`loaderlab.trace.tables.slow`). Whether
the loop waited on the loader or the loader on the loop is the verdict's call
(:mod:`loaderlab.trace.diagnosis.bottleneck`), and its finding is derived from it there.

Twin of nothing in torch. Pure functions over a normalised events table (see :mod:`loaderlab.trace.core.lookups`); each check
makes :class:`~loaderlab.trace.core.findings.Finding` objects (worded from :mod:`loaderlab.texts`), which
:mod:`loaderlab.trace.diagnosis.findings` gathers with the others.
Knows nothing of plotly or streamlit.

Every threshold has a relative and an absolute part, so that the scheduling noise of a tiny, fast run
never reads as a problem.
"""

from __future__ import annotations

import math

import pandas as pd

from ...engine import events as ev
from ..core.findings import Finding, finding
from ..core.lookups import main_pid, named_rows, rows, trace_end
from ..core import kinds
from .waits import batch_latency, loop_wait, main_wait
from .slow import fetches, machine_stall_findings, machine_stalls, sample_fetches, slow_workers, stragglers
from .processes import worker_processes, worker_tasks

HOL_RATIO, HOL_MIN_S = 5.0, 0.1  # blocked for × the median task time, and at least this long
HOL_CORE_SHARE = 0.5  # a late batch whose worker waited for a core this share of the block: the machine's
STALL_MIN_S = 1.0  # a fetch silent this long at the end of a live trace counts as stalled
SLOW_START_RATIO, SLOW_START_MIN_S = 5.0, 1.0  # first wait vs a typical wait, and at least this long
STARTUP_SHARE = 0.5  # … of which worker start-up must be at least this share


def _head_of_line(f: pd.DataFrame) -> list[Finding]:
    """Batches that held ready batches in the reorder buffer while they were the one to hand over next."""
    parks = rows(f, ev.REORDER_PARK)
    if not len(parks):
        return []
    end = trace_end(f)
    lat = batch_latency(f)
    released = rows(f, ev.REORDER_RELEASE).drop_duplicates(["epoch", "batch"])[["epoch", "batch", "t_s"]]
    parks = parks.drop_duplicates(["epoch", "batch"])[["epoch", "batch", "t_s"]].merge(
        released.rename(columns={"t_s": "release_s"}), on=["epoch", "batch"], how="left")
    parks["release_s"] = parks["release_s"].fillna(end)
    epoch_starts = rows(f, ev.EPOCH_BEGIN).drop_duplicates("epoch").set_index("epoch")["t_s"]
    tasks, spans, candidates = None, None, []
    for epoch, g in lat.sort_values("batch").groupby("epoch"):
        held_since = g["yield_s"].shift(1)  # when each became next in line (never, if its predecessor wasn't)
        held_since.iloc[0] = epoch_starts.get(epoch, 0.0)
        mine = parks[parks["epoch"] == epoch]  # plain arrays: one pandas filter per batch costs seconds
        parked_at, left_at, parked = (mine[c].to_numpy() for c in ("t_s", "release_s", "batch"))
        for row, since in zip(g.itertuples(), held_since):
            if since != since:
                continue
            arrived = row.received_s if row.received_s == row.received_s else end
            held = (parked_at < arrived) & (left_at >= arrived)
            if held.any():
                candidates.append((row, arrived - max(since, parked_at[held].min()),
                                   sorted(int(b) for b in parked[held])))
    out, waited = [], None
    for row, blocked, held in candidates:
        if blocked < HOL_MIN_S:
            continue
        if tasks is None:  # the costlier tables, only once something is worth naming
            tasks, spans = worker_tasks(f), fetches(f, still_running=True)
            waited = _core_waits(f)
        if len(tasks) and blocked < HOL_RATIO * float((tasks["end_s"] - tasks["start_s"]).median()):
            continue
        if waited.get((row.epoch, row.batch), 0.0) >= HOL_CORE_SHARE * blocked:
            continue  # its worker waited for a core, held by other programs: the machine's, not the batch's
        worker = None if pd.isna(row.worker) else int(row.worker)
        mine = spans[(spans["epoch"] == row.epoch) & (spans["batch"] == row.batch) & (spans["worker"] == worker)]
        base = dict(batch=row.batch, worker=worker, epoch=row.epoch, parked=len(held), blocked_s=float(blocked),
                    parked_batches=held)
        slowest = mine.nlargest(1, "fetch_s")
        if len(slowest) and slowest["fetch_s"].iloc[0] >= 0.5 * blocked:  # the sample explains the delay
            out.append(finding(kinds.HEAD_OF_LINE, "warning", index=int(slowest["index"].iloc[0]),
                           fetch_s=float(slowest["fetch_s"].iloc[0]), **base))
        else:
            out.append(finding(kinds.HEAD_OF_LINE, "warning", key="head_of_line_worker", index=None, **base))
    return out


def _core_waits(f: pd.DataFrame) -> dict[tuple[int, int], float]:
    """``(epoch, batch) → seconds`` its worker waited for a core while making it (``collate_end``'s run-queue
    clock; batches whose trace has none are left out)."""
    clock = named_rows(f, ev.COLLATE_END, ["epoch", "batch", "worker", "runqueue_ns"])
    clock = clock.loc[(clock["worker"] >= 0) & (clock["runqueue_ns"] >= 0), ["epoch", "batch", "runqueue_ns"]]
    return {(int(e), int(b)): float(ns) / 1e9 for e, b, ns in clock.drop_duplicates(["epoch", "batch"]).itertuples(
        index=False)}


def _silent_workers(f: pd.DataFrame) -> list[Finding]:
    out, end = [], trace_end(f)
    for p in worker_processes(f).itertuples():
        if not math.isnan(p.exit_s):
            continue
        silent = end - p.last_s
        if p.last_kind == ev.FETCH_BEGIN and (not math.isnan(p.main_exit_s) or silent >= STALL_MIN_S):
            last = f[(f["pid"] == p.pid) & (f["kind"] == ev.FETCH_BEGIN)].iloc[-1]
            out.append(finding(kinds.STALLED_WORKER, "error", worker=p.worker, pid=p.pid, index=int(last["index"]),
                           batch=int(last["batch"]), epoch=int(last["epoch"]), silent_s=silent))
        elif not math.isnan(p.main_exit_s):
            out.append(finding(kinds.WORKER_VANISHED, "error", worker=p.worker, pid=p.pid, epoch=p.epoch,
                           last_kind=p.last_kind, last_s=p.last_s))
    return out


def _slow_first_batches(f: pd.DataFrame, persistent: bool) -> list[Finding]:
    waits, procs = main_wait(f), worker_processes(f)
    out = []
    for epoch, g in waits.groupby("epoch"):
        first, rest = g[g["position"] == 0]["wait_s"], g[g["position"] > 0]["wait_s"]
        if not len(first) or pd.isna(first.iloc[0]):
            continue
        first_s, typical = float(first.iloc[0]), float(rest.median()) if len(rest) else 0.0
        started = procs[(procs["epoch"] == epoch) & procs["ready_s"].notna()]
        if first_s < max(SLOW_START_MIN_S, SLOW_START_RATIO * typical) or not len(started):
            continue
        last = started.loc[started["ready_s"].idxmax()]
        startup = min(float(last["ready_s"]) - float(g["start_s"].iloc[0]), first_s)
        if startup >= STARTUP_SHARE * first_s:
            out.append(finding(kinds.SLOW_FIRST_BATCH, "warning", key="slow_first_batch_once" if persistent else None,
                           epoch=epoch, batch=int(g[g["position"] == 0]["batch"].iloc[0]),
                           worker=int(last["worker"]), first_wait_s=first_s, startup_s=startup,
                           typical_wait_s=typical, ratio=first_s / max(typical, 1e-9) if typical else math.inf))
    return out


def _errors(f: pd.DataFrame) -> list[Finding]:
    mp = main_pid(f)
    errors = rows(f, ev.ERROR)
    # A worker's exception is reported by the worker and again by main on receipt: keep the worker's.
    by_worker = set(zip(*[errors[errors["pid"] != mp][c] for c in ("epoch", "batch")]))
    echoes = (errors["pid"] == mp) & pd.Series([(e, b) in by_worker for e, b in zip(errors["epoch"], errors["batch"])],
                                               index=errors.index, dtype=bool)
    failed = named_rows(f, ev.FETCH_END, ["pid", "epoch", "batch", "index", "samples"])
    failed = failed[failed["samples"] == 0]  # a sample that raised (its detail names the exception)
    out = []
    for r in errors[~echoes].itertuples():
        in_main = r.pid == mp and r.worker < 0
        where = "the main process" if in_main else f"worker {r.worker}"  # where_worker: the same, in any language
        sample = failed[(failed["pid"] == r.pid) & (failed["epoch"] == r.epoch) & (failed["batch"] == r.batch)]
        index = int(sample["index"].iloc[-1]) if r.batch >= 0 and len(sample) else None
        key = "error" if r.batch < 0 else "error_in_batch" if index is None else "error_in_sample"
        out.append(finding(kinds.ERROR, "error", key=key, where=where,
                       where_worker=None if in_main else int(r.worker), detail=r.detail, epoch=r.epoch, index=index,
                       batch=r.batch if r.batch >= 0 else None, worker=r.worker if r.worker >= 0 else None))
    return out


def stall_checks(f: pd.DataFrame, persistent: bool) -> list[Finding]:
    """Every stall check on a normalised table; ``persistent`` = the loader's ``persistent_workers``."""
    loop, samples = loop_wait(f), sample_fetches(f)
    paused = machine_stalls(f, samples)
    return (_errors(f) + _silent_workers(f) + _head_of_line(f) + stragglers(f, samples, paused)
            + slow_workers(f, loop, samples) + _slow_first_batches(f, persistent) + machine_stall_findings(f, samples, paused))
