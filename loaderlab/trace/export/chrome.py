"""Chrome trace export: an event table → trace-event JSON that Perfetto (ui.perfetto.dev) and chrome://tracing open.

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

A big table is exported without building the document: :mod:`loaderlab.trace.export.chrome_events` works out every span,
instant and wait as columns, they are sorted by time and :mod:`loaderlab.trace.export.chrome_text` writes them ``CHUNK`` at a
time. ``start_s``/``end_s``/``epoch`` cut a window or one epoch out (``export --from/--to/--epoch``).
"""

from __future__ import annotations

import io
import json
import math
import os
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pyarrow as pa

from ...engine import events as ev
from . import chrome_events as ce
from .chrome_events import (CATEGORY, MAIN_PID, PH_INSTANT, PH_SIDE, PH_SPAN, PIN_TID)  # noqa: F401 (PIN_TID: public)
from .chrome_text import event_args, flow_texts, instant_name, write_events
from ..files.cuts import LOOP_KINDS, task_ranges, window_keeps
from ..core.frame import arg_column
from ..core.groups import firsts, key_ids, tie_sorted
from ..core.run import as_run

SEED = arg_column(ev.WORKER_READY, "seed")
WORKER_PID = arg_column(ev.WORKER_START, "worker_pid")
USS, SHM_USED = arg_column(ev.MEMORY, "uss"), arg_column(ev.MEMORY, "shm_used")

CHUNK = 200_000  # output events rendered and written at a time: bounds the text held in memory


def to_chrome_trace(frame: pd.DataFrame, *, start_s: float | None = None, end_s: float | None = None,
                    epoch: int | None = None) -> dict[str, Any]:
    """The Chrome trace-event document (``{"traceEvents": [...], ...}``) for an event table (see :func:`write_chrome`)."""
    out = io.StringIO()
    write_chrome(frame, out, start_s=start_s, end_s=end_s, epoch=epoch)
    return json.loads(out.getvalue())


def save_chrome_trace(frame: pd.DataFrame, path: str | os.PathLike, *, start_s: float | None = None,
                      end_s: float | None = None, epoch: int | None = None, origin_ns: int | None = None) -> None:
    """Write the Chrome trace of ``frame`` to ``path`` (streamed; see :func:`write_chrome`); open it at
    https://ui.perfetto.dev."""
    with open(path, "w", encoding="utf-8") as f:
        write_chrome(frame, f, start_s=start_s, end_s=end_s, epoch=epoch, origin_ns=origin_ns)


def write_chrome(frame: pd.DataFrame, out: TextIO, *, start_s: float | None = None, end_s: float | None = None,
                 epoch: int | None = None, origin_ns: int | None = None) -> None:
    """Stream the Chrome trace of ``frame`` to ``out``, ``CHUNK`` events at a time, sorted by time.

    ``epoch``: only that epoch's events. ``start_s`` / ``end_s`` (seconds on the table's ``t_s`` axis): only
    what overlaps that window; a span crossing an edge is kept whole. Times stay on the whole table's axis
    (microseconds since its first event), so a cut lines up with the full export. ``origin_ns``: that first
    event's ``t_ns`` when ``frame`` holds only the rows a cut needs (:func:`loaderlab.trace.files.cut_read.read_cut`), not the whole
    table; the cuts are then the same as on the whole table, and so is the output.
    """
    run = as_run(frame)
    events = run.events
    meta = {"loader": dict(run.loader) or None, "epochs": run.epochs}
    t0 = origin_ns if origin_ns is not None else int(events["t_ns"].min()) if len(events) else 0
    events = _cut(events, t0, start_s, end_s, epoch)
    out.write('{"traceEvents":[')
    if len(events):
        r = ce.table_rows(events)
        table, order, side = _event_table(r, t0)
        if start_s is not None or end_s is not None:
            lo = -math.inf if start_s is None else start_s * 1e9
            hi = math.inf if end_s is None else end_s * 1e9
            ts, dur = table["ts"].to_numpy(), table["dur"].to_numpy()
            order = order[((ts + np.maximum(dur, 0) >= lo) & (ts <= hi))[order]]
        head = ",".join(json.dumps(e, separators=(",", ":")) for e in _metadata(*_tracks(r)))
        out.write(head)
        write_events(out, r, table, order, side, t0, first=not head, chunk=CHUNK)
    out.write('],"displayTimeUnit":"ms","otherData":')
    out.write(json.dumps(meta, separators=(",", ":"), allow_nan=False))
    out.write("}\n")


def _cut(events: pd.DataFrame, t0: int, start_s: float | None, end_s: float | None, epoch: int | None) -> pd.DataFrame:
    """The rows an export with these cuts needs: the epoch's rows; for a window, those of
    :func:`loaderlab.trace.files.cuts.window_keeps`."""
    if epoch is not None:
        events = events[events["epoch"].to_numpy() == epoch]
    if start_s is None and end_s is None:
        return events
    t = events["t_ns"].to_numpy() - t0
    batch = events["batch"].to_numpy()
    codes = key_ids({"epoch": events["epoch"].to_numpy(), "batch": batch}, ["epoch", "batch"])
    first, last = task_ranges(codes, t, int(codes.max()) + 1 if len(codes) else 0)
    loop = events["kind"].isin(LOOP_KINDS).to_numpy()
    return events[window_keeps(t, first[codes], last[codes], loop, batch, start_s, end_s)]


def _event_table(r: ce.Rows, t0: int) -> tuple[pd.DataFrame, np.ndarray, pa.Array]:
    """Every output event as numbers: ts and dur (ns; dur -1 for none), what made it, its rows; and the
    order the export writes them in (positions in the table). Rare events (counters, start-ups, unfinished spans, arrows) are rendered here as text
    (``side``); the many (spans, instants, waits) are rendered in chunks by :func:`_render`."""
    parts, side = [], []
    p = ce.pair_spans(r)
    parts.append(_part(r.t[p.begin], r.t[p.end] - r.t[p.begin], PH_SPAN, p.name, p.begin, p.end, p.end, ce.SUB_SPAN))
    parts.append(_part(r.t[p.unmatched_ends], None, PH_INSTANT, -1, -1, p.unmatched_ends, p.unmatched_ends,
                       ce.SUB_SPAN))
    frm, to, name = ce.waits(r)
    parts.append(_part(r.t[frm], r.t[to] - r.t[frm], PH_SPAN, name, -1, to, to, ce.SUB_WAIT))
    lone = ce.instants(r)
    parts.append(_part(r.t[lone], None, PH_INSTANT, -1, -1, lone, lone, ce.SUB_INSTANT))
    n = len(r.t)
    side_t, side_dur, side_trigger = [], [], []

    def add(event: dict, t: int, dur: int | None, trigger: int) -> None:
        side.append(json.dumps(event, separators=(",", ":"), allow_nan=False))
        side_t.append(t)
        side_dur.append(-1 if dur is None else dur)
        side_trigger.append(trigger)

    memory = np.flatnonzero(~r.shown)
    for row, rec in zip(memory, r.rows(memory)):
        for e in _memory_counters(rec, (int(r.tpid[row]), int(r.ttid[row])), _us(int(r.t[row]) - t0)):
            add(e, int(r.t[row]), None, int(row))
    rare = _rare_events(r, p, t0)
    for k, (e, t, dur) in enumerate(rare):
        add(e, t, dur, n + k)
    flow_text, flow_t = flow_texts(r, ce.flows(r), t0)  # one arrow per batch: too many to build one by one
    side_t = np.r_[np.asarray(side_t, np.int64), flow_t]
    side_trigger = np.r_[np.asarray(side_trigger, np.int64), n + len(rare) + np.arange(len(flow_t))]
    part = _part(side_t, None, PH_SIDE, -1, -1, np.full(len(side_t), -1), side_trigger, 0)
    part["dur"] = np.r_[np.asarray(side_dur, np.int64), np.full(len(flow_t), -1, np.int64)]
    part["side"] = np.arange(len(side_t), dtype=np.int32)
    parts.append(part)
    side = pa.concat_arrays([pa.array(side, pa.string()), flow_text])
    table = pd.DataFrame({c: _joined_column(parts, c) for c in list(parts[0])}, copy=False)
    table["ts"] -= t0
    return table, _time_order(table), side


def _joined_column(parts: list[dict], column: str) -> np.ndarray:
    """One column of all ``parts`` end to end, each part's piece let go as it is copied (a whole-table concat
    held the parts and the table at once: 250 MB more at a 10 M-event export's peak)."""
    joined = np.concatenate([np.asarray(p[column]) for p in parts])
    for p in parts:
        del p[column]
    return joined


def _time_order(table: pd.DataFrame) -> np.ndarray:
    """The write order: by ts, then the longer span first (so spans nest), then what made them. The same as
    one lexsort of those four keys (see :func:`loaderlab.trace.core.groups.tie_sorted`)."""
    sub, trigger, dur = (table[c].to_numpy() for c in ("sub", "trigger", "dur"))
    return tie_sorted(table["ts"].to_numpy(), lambda rows: [-np.maximum(dur[rows], 0), trigger[rows], sub[rows]])


def _part(t, dur, ph, name, begin, row, trigger, sub) -> dict:
    n = len(t)  # rows, names and side texts number far fewer than 2**31: int32 halves a big export's table
    return {"ts": np.asarray(t, np.int64), "dur": np.full(n, -1, np.int64) if dur is None
            else np.maximum(np.asarray(dur, np.int64), 0), "ph": np.full(n, ph, np.int8),
            "name": np.broadcast_to(np.asarray(name, np.int32), (n,)),
            "begin": np.broadcast_to(np.asarray(begin, np.int32), (n,)), "row": np.asarray(row, np.int32),
            "trigger": np.asarray(trigger, np.int64), "sub": np.full(n, sub, np.int8),
            "side": np.full(n, -1, np.int32)}


def _rare_events(r: ce.Rows, p: ce.Pairs, t0: int) -> list[tuple[dict, int, int | None]]:
    """Unfinished spans and worker start-ups, as (event, t_ns, dur_ns): few per trace, built one by one."""
    out = []
    t_last = int(r.t[-1])
    track_rows: dict[tuple[int, int], np.ndarray] = {}

    def log(where: tuple[int, int]) -> np.ndarray:
        if where not in track_rows:
            track_rows[where] = np.flatnonzero(r.shown & (r.tpid == where[0]) & (r.ttid == where[1]))
        return track_rows[where]

    def span(where, name, t_begin, t_end, args) -> None:
        dur = max(0, int(t_end) - int(t_begin))
        out.append(({"ph": "X", "name": name, "cat": CATEGORY, "pid": where[0], "tid": where[1],
                     "ts": _us(int(t_begin) - t0), "dur": round(dur / 1000, 3), "args": args}, int(t_begin), dur))

    for row, b in zip(p.unfinished, r.rows(p.unfinished)):
        where = (int(r.tpid[row]), int(r.ttid[row]))
        rows = log(where)
        later = [(int(r.t[i]), int(r.kind[i])) for i in rows[np.searchsorted(rows, row) + 1:]]
        name = f"batch {b.batch}" if b.kind == ev.INDEX_GET else ce.SPANS[b.kind][1]
        span(where, name, int(b.t_ns), _cut_short(b.kind, later, t_last), event_args(b) | {"unfinished": True})
    lifecycle = np.flatnonzero(r.shown & ((r.kind == ce.code(ev.WORKER_START)) | (r.kind == ce.code(ev.WORKER_READY))))
    for start, ready in _startups(r.rows(lifecycle)):
        if ready is None:  # the worker never got ready: its start-up lasts as long as its track shows it
            where = (ce.MAIN_PID if start.worker < 0 else int(start.worker) + 2,) * 2
            rows = log(where)
            t_end = int(r.t[rows[-1]]) if len(rows) else t_last
            span(where, "start-up", int(start.t_ns), t_end, event_args(start) | {"unfinished": True})
        elif start is None:
            where = _track(ready)
            out.append((_instant(ready, where, _us(int(ready.t_ns) - t0)), int(ready.t_ns), None))
        else:
            # the epoch comes from main's worker_start: a worker reports the epoch it last served, which
            # for a fresh worker is 0
            span(_track(ready), "start-up", int(start.t_ns), int(ready.t_ns),
                 event_args(start) | {"seed": int(getattr(ready, SEED)), "pid": int(ready.pid)})
    return out


def _track(row: Any) -> tuple[int, int]:
    pid = ce.MAIN_PID if int(row.worker) < 0 else int(row.worker) + 2
    return pid, pid  # start-ups and worker_ready: never on the pin thread


def _us(t_ns: int) -> float:
    return round(t_ns / 1000, 3)


def _tracks(r: ce.Rows) -> tuple[dict[int, list[int]], bool]:
    """Each track's OS pids (in order of appearance) and whether the pin thread has a track."""
    shown = np.flatnonzero(r.shown)
    main_os = np.unique(r.pid[r.worker < 0])
    # main speaks about workers too (worker_start, its worker_exit): those rows carry main's OS pid
    own = (r.tpid[shown] == ce.MAIN_PID) | ~np.isin(r.pid[shown], main_os)
    keys = {"track": r.tpid[shown][own], "pid": r.pid[shown][own]}
    # distinct (track, pid) pairs in order of appearance, numbered through the keys folded into one int (no
    # DataFrame of the ~10 M shown rows for drop_duplicates: that cost 400 MB at 10 M events)
    code = key_ids(keys, ["track", "pid"])
    first = firsts(code, np.arange(len(code)), int(code.max()) + 1) if len(code) else np.zeros(0, np.int64)
    os_pids: dict[int, list[int]] = {int(t): [] for t in pd.unique(r.tpid[shown])}
    for track, pid in zip(keys["track"][first].tolist(), keys["pid"][first].tolist()):
        os_pids[track].append(pid)
    return os_pids, bool((r.ttid[shown] == ce.PIN_TID).any())


def _startups(rows: list) -> list[tuple[Any, Any]]:
    """Main's ``worker_start`` paired with the worker's ``worker_ready`` (either may be None).

    Paired by OS pid (worker_start's ``worker_pid``), whichever was recorded first: a forked worker
    can be ready before main has noted that it started. Starts without a pid pair in order, per slot.
    """
    starts = [r for r in rows if r.kind == ev.WORKER_START]
    by_pid = {int(getattr(s, WORKER_PID)): s for s in starts if int(getattr(s, WORKER_PID)) >= 0}
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


def _cut_short(kind: str, later: list[tuple[int, int]], t_last: int) -> int:
    """Where a span whose end event never came is drawn to end, so that it still nests with its neighbours.

    A worker's task ends when it takes the next task or exits; a stage inside it (fetch, collate, …) ends at
    the next thing its track records (an error, usually).
    """
    if kind == ev.INDEX_GET:
        stops = (ce.code(ev.INDEX_GET), ce.code(ev.WORKER_EXIT))
        return next((t for t, k in later if k in stops), later[-1][0] if later else t_last)
    return later[0][0] if later else t_last


def _memory_counters(r: Any, where: tuple[int, int], t_us: float) -> list[dict[str, Any]]:
    """A ``memory`` event → Chrome counter events: the worker's RSS/USS (MB) on its process, /dev/shm on main."""
    mb = 2 ** 20  # the numbers of loaderlab.engine.memory
    memory = {"rss_MB": round(int(r.nbytes) / mb, 3)}
    if int(getattr(r, USS)) >= 0:
        memory["uss_MB"] = round(int(getattr(r, USS)) / mb, 3)
    out = [{"ph": "C", "name": "memory", "cat": CATEGORY, "pid": where[0], "ts": t_us, "args": memory}]
    if int(getattr(r, SHM_USED)) >= 0:
        out.append({"ph": "C", "name": "/dev/shm used (MB)", "cat": CATEGORY, "pid": MAIN_PID, "ts": t_us,
                    "args": {"used": round(int(getattr(r, SHM_USED)) / mb, 3)}})
    return out


def _instant(r: Any, where: tuple[int, int], t_us: float) -> dict[str, Any]:
    return {"ph": "i", "s": "t", "name": instant_name(r), "cat": CATEGORY, "pid": where[0], "tid": where[1],
            "ts": t_us, "args": event_args(r)}


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
