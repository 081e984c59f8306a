"""The Chrome export as it was before it was vectorised (a row-by-row loop): the oracle test_chrome_cuts compares with.

Twin of what ``torch.profiler``'s ``export_chrome_trace`` gives for a DataLoader, with far more in it: one
track per process of the loader, a span per sample fetch, per collate, per pin, per loop body, per wait for
a batch and per worker start-up, and an arrow following each batch from the main process to its worker and
back. Knows the event vocabulary (:mod:`loaderlab.engine.events`) and the recorder's table; knows nothing
of plotly or streamlit, and reads no files.

Layout. Chrome process ids are slots, not OS pids (a slot's worker gets a new OS pid each epoch unless
workers persist; the OS pids are listed in the track's label): ``main`` is pid 1, ``worker k`` is pid k+2.
The pin-memory thread of a multi-process loader runs beside the main thread, so its spans go on a second
thread of ``main`` (tid ``PIN_TID``) where they cannot overlap the loop's spans. Timestamps are microseconds
since the table's first event. Begin events whose end never came (a run cut short) become spans reaching
the last event, with ``"unfinished": true`` in their args.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict
from typing import Any

import pandas as pd

from loaderlab.engine import events as ev

MAIN_PID = 1
# tids must differ from every pid used: importers treat a tid seen under two pids as one recycled thread
PIN_TID = 1_000_000
CATEGORY = "loaderlab"

# begin kind → (end kind, span name, what pairs a begin with its end besides the track)
_SPANS = {
    ev.FETCH_BEGIN: (ev.FETCH_END, "fetch", ("pid", "epoch", "batch", "index")),
    ev.COLLATE_BEGIN: (ev.COLLATE_END, "collate", ("pid", "epoch", "batch")),
    ev.PIN_BEGIN: (ev.PIN_END, "pin", ("epoch", "batch")),
    ev.CONSUMER_BEGIN: (ev.CONSUMER_END, "consume", ("epoch", "batch")),
    ev.INDEX_GET: (ev.RESULT_PUT, "batch", ("pid", "epoch", "batch")),  # a worker's time on one task
}
_ENDS = {end: begin for begin, (end, _, _) in _SPANS.items()}
# kinds shown as span edges only; every other kind (unknown future ones too) becomes an instant
_FLOW_KINDS = (ev.INDEX_PUT, ev.SAMPLER_YIELD, ev.INDEX_GET, ev.COLLATE_BEGIN, ev.BATCH_YIELD)
_NOT_INSTANTS = {*_SPANS, *_ENDS, ev.BATCH_YIELD, ev.WORKER_START, ev.WORKER_READY} - {ev.INDEX_GET, ev.RESULT_PUT}


def _pid(worker: int) -> int:
    return MAIN_PID if worker < 0 else worker + 2


def _args(row: Any) -> dict[str, Any]:
    """The fields of an event that say something (defaults left out), as JSON values."""
    args: dict[str, Any] = {"epoch": int(row.epoch)}
    for field in ("batch", "index", "length"):
        if int(getattr(row, field)) != ev.NO_BATCH:
            args[field] = int(getattr(row, field))
    if int(row.nbytes):
        args["nbytes"] = int(row.nbytes)
    for field in ("queue", "detail"):
        value = getattr(row, field)
        if isinstance(value, str) and value:
            args[field] = value
    label = row.label.item() if hasattr(row.label, "item") else row.label  # numpy scalars → Python
    if label is not None and not (isinstance(label, float) and math.isnan(label)):  # NaN: missing, in a float column
        args["label"] = label if isinstance(label, (int, float, str, bool)) else str(label)
    return args


def _instant_name(row: Any) -> str:
    if row.kind == ev.ERROR:
        return f"error: {row.detail}" if row.detail else "error"
    if row.kind in (ev.EPOCH_BEGIN, ev.EPOCH_END):
        return f"epoch {row.epoch} {row.kind.split('_')[1]}s"
    if row.queue and row.kind.endswith(("_put", "_get")):
        return f"{row.kind} {row.queue}"
    return row.kind


def to_chrome_trace(frame: pd.DataFrame) -> dict[str, Any]:
    """The Chrome trace-event document (``{"traceEvents": [...], ...}``) for an event table."""
    rows = list(frame.sort_values("t_ns", kind="stable").itertuples(index=False))
    out: list[dict[str, Any]] = []
    meta = {"loader": frame.attrs.get("loader"), "epochs": frame.attrs.get("epochs")}
    if not rows:
        return {"traceEvents": out, "displayTimeUnit": "ms", "otherData": meta}
    t0, t_last = int(rows[0].t_ns), int(rows[-1].t_ns)
    has_workers = any(int(r.worker) >= 0 for r in rows)
    # main speaks about workers too (worker_start, its worker_exit): those rows carry main's OS pid
    main_os_pids = {int(r.pid) for r in rows if int(r.worker) < 0}

    def ts(t_ns: int) -> float:
        return round((int(t_ns) - t0) / 1000, 3)

    def track(r: Any) -> tuple[int, int]:
        pid = _pid(int(r.worker))
        if r.kind in (ev.PIN_BEGIN, ev.PIN_END) and pid == MAIN_PID and has_workers:
            return MAIN_PID, PIN_TID
        return pid, pid

    def span(where: tuple[int, int], name: str, t_begin: int, t_end: int, args: dict) -> None:
        out.append({"ph": "X", "name": name, "cat": CATEGORY, "pid": where[0], "tid": where[1],
                    "ts": ts(t_begin), "dur": round(max(0, int(t_end) - int(t_begin)) / 1000, 3), "args": args})

    open_spans: dict[tuple, list] = defaultdict(list)  # (begin kind, track, key…) → [(row, position in log)]
    log: dict[tuple[int, int], list[tuple[int, str]]] = defaultdict(list)  # track → its (t_ns, kind), in order
    flows: dict[tuple[int, int], dict[str, Any]] = defaultdict(dict)  # (epoch, batch) → kind → (track, t_ns)
    os_pids: dict[int, list[int]] = defaultdict(list)
    next_called: int | None = None  # when the user's loop last asked main for a batch
    for r in rows:
        where, kind, t = track(r), r.kind, int(r.t_ns)
        if kind == ev.MEMORY:  # counter tracks, not instants: the worker's memory and /dev/shm
            out += _memory_counters(r, where, ts(t))
            continue
        known = os_pids[where[0]]  # creates the track even if only main speaks of this worker
        if int(r.pid) not in known and (where[0] == MAIN_PID or int(r.pid) not in main_os_pids):
            known.append(int(r.pid))
        log[where].append((t, kind))
        if kind in _SPANS:
            key = _SPANS[kind][2]
            open_spans[(kind, where, *(getattr(r, k) for k in key))].append((r, len(log[where]) - 1))
        if kind in _ENDS:
            begin = _ENDS[kind]
            _, name, key = _SPANS[begin]
            pending = open_spans.get((begin, where, *(getattr(r, k) for k in key)))
            if pending:
                b, _ = pending.pop(0)
                args = _args(b) | _args(r)
                span(where, f"batch {r.batch}" if begin == ev.INDEX_GET else name, int(b.t_ns), t, args)
            elif kind != ev.RESULT_PUT:
                out.append(_instant(r, where, ts(t)))
        if where[0] == MAIN_PID and where[1] == MAIN_PID:
            if kind in (ev.EPOCH_BEGIN, ev.CONSUMER_END):
                next_called = t
            elif kind in (ev.BATCH_YIELD, ev.EPOCH_END) and next_called is not None:
                name = "wait for batch" if kind == ev.BATCH_YIELD else "wait: epoch ends"
                span(where, name, next_called, t, _args(r))
                next_called = None
        if kind in _FLOW_KINDS:
            flows[(int(r.epoch), int(r.batch))].setdefault(kind, (where, t))
        if kind not in _NOT_INSTANTS:
            out.append(_instant(r, where, ts(t)))

    for (_, where, *_), pending in open_spans.items():
        for b, position in pending:
            name = f"batch {b.batch}" if b.kind == ev.INDEX_GET else _SPANS[b.kind][1]
            span(where, name, int(b.t_ns), _cut_short(b.kind, log[where], position, t_last), _args(b) | {"unfinished": True})
    for start, ready in _startups(rows):
        if ready is None:  # the worker never got ready: its start-up lasts as long as its track shows it
            where = (_pid(int(start.worker)),) * 2
            t_end = log[where][-1][0] if log[where] else t_last
            span(where, "start-up", int(start.t_ns), t_end, _args(start) | {"unfinished": True})
        elif start is None:
            out.append(_instant(ready, track(ready), ts(int(ready.t_ns))))
        else:
            # the epoch comes from main's worker_start: a worker reports the epoch it last served, which
            # for a fresh worker is 0
            span(track(ready), "start-up", int(start.t_ns), int(ready.t_ns),
                 _args(start) | {"seed": int(ready.arg0), "pid": int(ready.pid)})
    out += _flow_events(flows, ts)
    out.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
    pin_thread = (MAIN_PID, PIN_TID) in log
    return {"traceEvents": _metadata(os_pids, pin_thread) + out, "displayTimeUnit": "ms", "otherData": meta}


def _startups(rows: list) -> list[tuple[Any, Any]]:
    """Main's ``worker_start`` paired with the worker's ``worker_ready`` (either may be None).

    Paired by OS pid (worker_start's ``arg0``), whichever was recorded first: a forked worker
    can be ready before main has noted that it started. Starts without a pid pair in order, per slot.
    """
    starts = [r for r in rows if r.kind == ev.WORKER_START]
    by_pid = {int(s.arg0): s for s in starts if int(s.arg0) >= 0}
    pairs, unmatched_ready = [], []
    for ready in (r for r in rows if r.kind == ev.WORKER_READY):
        start = by_pid.pop(int(ready.pid), None)
        if start is None:
            unmatched_ready.append(ready)
        else:
            pairs.append((start, ready))
    paired = {id(s) for s, _ in pairs}
    left = [s for s in starts if id(s) not in paired]
    for ready in unmatched_ready:
        start = next((s for s in left if s.worker == ready.worker and s.t_ns <= ready.t_ns), None)
        if start is not None:
            left.remove(start)
        pairs.append((start, ready))
    return pairs + [(s, None) for s in left]


def _cut_short(kind: str, log: list[tuple[int, str]], position: int, t_last: int) -> int:
    """Where a span whose end event never came is drawn to end, so that it still nests with its neighbours.

    A worker's task ends when it takes the next task or exits; a stage inside it (fetch, collate, …) ends at
    the next thing its track records (an error, usually).
    """
    later = log[position + 1:]
    if kind == ev.INDEX_GET:
        return next((t for t, k in later if k in (ev.INDEX_GET, ev.WORKER_EXIT)), later[-1][0] if later else t_last)
    return later[0][0] if later else t_last


def _memory_counters(r: Any, where: tuple[int, int], t_us: float) -> list[dict[str, Any]]:
    """A ``memory`` event → Chrome counter events: the worker's RSS/USS (MB) on its process, /dev/shm on main."""
    mb = 2 ** 20  # arg0..arg3: the worker's pid, USS, /dev/shm used and total (loaderlab.engine.memory)
    memory = {"rss_MB": round(int(r.nbytes) / mb, 3)}
    if int(r.arg1) >= 0:
        memory["uss_MB"] = round(int(r.arg1) / mb, 3)
    out = [{"ph": "C", "name": "memory", "cat": CATEGORY, "pid": where[0], "ts": t_us, "args": memory}]
    if int(r.arg2) >= 0:
        out.append({"ph": "C", "name": "/dev/shm used (MB)", "cat": CATEGORY, "pid": MAIN_PID, "ts": t_us,
                    "args": {"used": round(int(r.arg2) / mb, 3)}})
    return out


def _instant(r: Any, where: tuple[int, int], t_us: float) -> dict[str, Any]:
    return {"ph": "i", "s": "t", "name": _instant_name(r), "cat": CATEGORY, "pid": where[0], "tid": where[1],
            "ts": t_us, "args": _args(r)}


def _flow_events(flows: dict, ts: Any) -> list[dict[str, Any]]:
    """One arrow per batch: main sends its indices → a worker starts on it → main hands the batch to the loop.

    A trace of a stock torch loader has no queue events: its arrows run from the sampler to the collate.
    """
    out = []
    for flow_id, ((epoch, batch), seen) in enumerate(sorted(flows.items()), start=1):
        start = seen.get(ev.INDEX_PUT) or seen.get(ev.SAMPLER_YIELD)
        step = seen.get(ev.INDEX_GET) or seen.get(ev.COLLATE_BEGIN)
        end = seen.get(ev.BATCH_YIELD)
        if start is None or end is None or step is None or step[0][0] == MAIN_PID:
            continue  # no worker in between (single-process loading): nothing to draw
        common = {"name": "batch", "cat": CATEGORY, "id": flow_id, "args": {"epoch": epoch, "batch": batch}}
        # the step lies 1 ns into the worker's span so that it binds to that span, not to the one before;
        # the end has no "bp", so it binds to main's next span: the loop body that receives the batch
        for ph, ((pid, tid), t) in (("s", start), ("t", (step[0], step[1] + 1)), ("f", end)):
            out.append({"ph": ph, "pid": pid, "tid": tid, "ts": ts(t), **common})
    return out


def _metadata(os_pids: dict[int, list[int]], pin_thread: bool) -> list[dict[str, Any]]:
    out = []
    for pid in sorted(os_pids):
        name = "main" if pid == MAIN_PID else f"worker {pid - 2}"
        threads = [(pid, name)] + ([(PIN_TID, "pin_memory thread")] if pid == MAIN_PID and pin_thread else [])
        pids = ", ".join(str(p) for p in os_pids[pid]) or "unknown"
        out += [{"ph": "M", "name": "process_name", "pid": pid, "tid": pid, "args": {"name": name}},
                {"ph": "M", "name": "process_sort_index", "pid": pid, "tid": pid, "args": {"sort_index": pid}},
                {"ph": "M", "name": "process_labels", "pid": pid, "tid": pid, "args": {"labels": f"os pid {pids}"}}]
        for sort_index, (tid, thread) in enumerate(threads):
            out += [{"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": thread}},
                    {"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid, "args": {"sort_index": sort_index}}]
    return out


def save_chrome_trace(frame: pd.DataFrame, path: str | os.PathLike) -> None:
    """Write :func:`to_chrome_trace` of ``frame`` to ``path``; open it at https://ui.perfetto.dev."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(to_chrome_trace(frame), f, separators=(",", ":"), allow_nan=False)
        f.write("\n")
