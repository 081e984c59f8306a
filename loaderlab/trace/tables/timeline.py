"""The worker timeline as one finished table: every span, idle split where the prefetch cap held a worker
back, and the spans a finding blames marked.

Twin of nothing in torch. Pure: the events table and its findings in, a pandas table out; knows nothing
of plotly (``loaderlab.figures.timeline`` draws this table as it is) or streamlit. The capped idle pieces
are :func:`loaderlab.trace.tables.utilisation.capped_idle`, the same intervals ``worker_utilisation`` sums.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..core.lookups import normal
from ..core import kinds
from .waits import stage_spans as all_spans
from .processes import idle_intervals, worker_processes, worker_tasks
from .utilisation import capped_idle

# Idle with an empty index queue while the main process had prefetch_factor × num_workers tasks out.
CAPPED_IDLE = "idle_capped"
# The findings that blame spans of the timeline (the rest are about data, not time).
STALL_KINDS = (kinds.STRAGGLER, kinds.HEAD_OF_LINE, kinds.STALLED_WORKER, kinds.WORKER_VANISHED,
               kinds.SLOW_FIRST_BATCH, kinds.ERROR)
MARKED_KINDS = (*STALL_KINDS, kinds.SLOW_WORKER)
MARK = "mark"  # the column: NaN, or the order in which the marked spans are outlined (by finding, then span)


def split_idle(spans: pd.DataFrame, capped: pd.DataFrame) -> pd.DataFrame:
    """Each worker's idle spans cut where ``capped`` (:func:`capped_idle`'s table: ``pid, start_s, end_s``)
    says the cap held it back: those pieces get stage :data:`CAPPED_IDLE`, the rest stay ``idle``."""
    pieces: dict[int, list[tuple[float, float]]] = {}
    for pid, a, b in zip(capped["pid"], capped["start_s"], capped["end_s"]):
        pieces.setdefault(int(pid), []).append((a, b))
    out = []
    for row in spans.itertuples(index=False):
        r = row._asdict()
        if r["stage"] != "idle" or r["worker"] < 0:
            out.append(r)
            continue
        lo, hi = r["start_s"], r["end_s"]
        mine = sorted((max(lo, a), min(hi, b)) for a, b in pieces.get(int(r["pid"]), []) if min(hi, b) > max(lo, a))
        cursor = lo
        for a, b in mine + [(hi, hi)]:
            if a > cursor:
                out.append({**r, "start_s": cursor, "end_s": a})
            if b > a:
                out.append({**r, "stage": CAPPED_IDLE, "start_s": a, "end_s": b})
            cursor = max(cursor, b)
    table = pd.DataFrame(out, columns=spans.columns)
    table["duration_s"] = table["end_s"] - table["start_s"]
    return table.astype(spans.dtypes.to_dict())


def _blamed(spans: pd.DataFrame, findings: list) -> pd.Series:
    """The order in which each span is outlined (NaN: not blamed): the slow sample's fetch (else the late
    batch's fetches and collate on its worker) and, for head-of-line blocking, the main process's wait for
    that batch. A straggler finding's other slow samples (``evidence["worst"]``) are outlined too."""
    blames = [(f.kind, f.epoch, f.batch, f.worker, f.index) for f in findings]
    blames += [(f.kind, w["epoch"], w["batch"], w["worker"], w["index"])
               for f in findings for w in f.evidence.get("worst", [])[1:]]
    picked = []
    for kind, epoch, batch, worker, index in blames:
        if pd.isna(batch):
            continue
        mine = spans[(spans["epoch"] == epoch) & (spans["batch"] == batch)]
        if not pd.isna(worker):
            on_worker = mine[mine["worker"] == worker]
            if not pd.isna(index):
                picked.append(on_worker[(on_worker["stage"] == "fetch") & (on_worker["index"] == index)])
            else:
                picked.append(on_worker[on_worker["stage"].isin(("fetch", "collate"))])
        if kind == kinds.HEAD_OF_LINE:
            picked.append(mine[(mine["worker"] < 0) & (mine["stage"] == "wait")])
    order = pd.Series(float("nan"), index=spans.index)
    picked = [p for p in picked if len(p)]
    if picked:
        # One outline per (lane, stage, start): a span blamed twice is outlined once, where first blamed.
        first = pd.concat(picked).drop_duplicates(subset=["worker", "stage", "start_s"])
        order.loc[first.index] = range(len(first))
    return order


def timeline_spans(frame: pd.DataFrame, findings: Iterable = (), *, spans: pd.DataFrame | None = None,
                   max_spans: int | None = None, capped: pd.DataFrame | None = None) -> pd.DataFrame:
    """``analysis.stage_spans(frame)`` (or ``spans``, if at hand), cut to its first ``max_spans`` rows, with each
    worker's idle spans split into ``idle`` and :data:`CAPPED_IDLE` pieces, and a :data:`MARK` column
    saying which spans ``findings`` of :data:`MARKED_KINDS` blame (NaN for the others).

    Without the ``prefetch_factor * num_workers`` cap (no workers, or no loader settings) idle stays whole.
    ``capped``: :func:`~loaderlab.trace.tables.utilisation.capped_idle` of the same run, if already at hand.
    """
    spans = all_spans(frame) if spans is None else spans
    if max_spans is not None:
        spans = spans.head(max_spans)
    if capped is not None:
        if len(capped):
            spans = split_idle(spans, capped)
    elif (spans["stage"] == "idle").any():
        f = normal(frame)
        procs = worker_processes(f)
        tasks = worker_tasks(f, procs=procs)
        capped = capped_idle(frame, procs=procs, tasks=tasks, idle=idle_intervals(f, procs=procs, tasks=tasks))
        if len(capped):
            spans = split_idle(spans, capped)
    found = [f for f in findings if f.kind in MARKED_KINDS]
    return spans.reset_index(drop=True).assign(**{MARK: lambda s: _blamed(s, found)})
