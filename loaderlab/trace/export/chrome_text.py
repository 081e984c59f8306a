"""The Chrome export's text: events of :mod:`loaderlab.trace.export.chrome_events`' columns → trace-event JSON, a chunk at a time.

Twin of nothing in torch. Knows the event table's columns, numpy, pandas and Arrow's string kernels (a
Python loop over millions of events would be the export's whole cost); knows nothing of files (see
:mod:`loaderlab.trace.export.chrome`), plotly or streamlit. Numbers are written as ``json.dumps`` writes them (microseconds as
``round(ns / 1000, 3)``), so the document equals the one the row-by-row export made.
"""

from __future__ import annotations

import json
import math
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ...engine import events as ev
from . import chrome_events as ce
from .chrome_events import CATEGORY, PH_SIDE, PH_SPAN

RENDER_THREADS = 2  # chunks rendered at once


def event_args(row: Any) -> dict[str, Any]:
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


def instant_name(row: Any) -> str:
    if row.kind == ev.ERROR:
        return f"error: {row.detail}" if row.detail else "error"
    if row.kind in (ev.EPOCH_BEGIN, ev.EPOCH_END):
        return f"epoch {row.epoch} {row.kind.split('_')[1]}s"
    if row.queue and row.kind.endswith(("_put", "_get")):
        return f"{row.kind} {row.queue}"
    return row.kind


def write_events(out: TextIO, r: ce.Rows, table: pd.DataFrame, order: np.ndarray, side: pa.Array, t0: int, *,
                 first: bool, chunk: int) -> None:
    """Write the events of ``table`` in ``order``, ``chunk`` at a time (``first``: no comma before the first).
    The table is never copied in order: only a chunk's rows are. Two chunks are rendered at once on two
    threads while the one before them is written (Arrow's and numpy's kernels let go of the GIL): on 2
    quiet cores a 10 M-event export's text takes 5.9 s instead of 8.0 s, for two chunks' text more in memory."""
    binary = getattr(out, "buffer", None)  # a file's bytes take the text as Arrow made it (no str, no encoding)
    if binary is not None:
        out.flush()
    with ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="loaderlab-chrome") as pool:
        pending: deque = deque()
        for at in range(0, len(order), chunk):
            pending.append(pool.submit(_render, r, table.take(order[at:at + chunk]), side, t0))
            if len(pending) > RENDER_THREADS:
                first = _write(out, binary, pending.popleft().result(), first)
        while pending:
            first = _write(out, binary, pending.popleft().result(), first)


def _write(out: TextIO, binary: Any, text: memoryview, first: bool) -> bool:
    text = text[1:] if first else text  # each event comes after a comma
    if binary is not None:
        binary.write(text)
    else:
        out.write(bytes(text).decode("utf-8"))
    return False


def _render(r: ce.Rows, chunk: pd.DataFrame, side: pa.Array, t0: int) -> memoryview:
    """``chunk`` of the event table → its events as JSON text, each after a comma (in order).

    Built a column at a time with Arrow's string kernels: a Python loop over millions of events would be
    the export's whole cost."""
    ph, name_id, row, begin, side_of = (chunk[c].to_numpy() for c in ("ph", "name", "row", "begin", "side"))
    plain = ph != PH_SIDE
    rows, begins = np.where(plain, row, 0), np.where(plain, begin, -1)
    span = ph == PH_SPAN
    text = pc.binary_join_element_wise(
        pc.if_else(pa.array(span), ',{"ph":"X","name":', ',{"ph":"i","s":"t","name":'),
        _names(r, rows, name_id, span, plain), ',"cat":"' + CATEGORY + '","pid":', _ints(r.tpid[rows]), ',"tid":',
        _ints(r.ttid[rows]), ',"ts":', _micros(chunk["ts"].to_numpy()),
        _optional(span, ',"dur":', _micros(np.maximum(chunk["dur"].to_numpy(), 0))),
        ',"args":', _args_text(r, rows, np.where(span, begins, -1)), "}", "")
    if not plain.all():
        mask = ~plain
        their = pc.binary_join_element_wise(",", pc.take(side, pa.array(side_of[mask])), "")
        text = pc.replace_with_mask(text, pa.array(mask), their)
    return _joined(text)


def flow_texts(r: ce.Rows, flows: pd.DataFrame, t0: int) -> tuple[pa.Array, np.ndarray]:
    """Each batch's arrow (``ce.flows``' rows) → its three events' texts (start, step, end, batch after batch)
    and their times (ns)."""
    rows = flows[["start", "step", "end"]].to_numpy(np.int64).reshape(-1)
    # the step lies 1 ns into the worker's span, to bind to it
    t = r.t[rows] + np.tile(np.array([0, 1, 0], np.int64), len(flows))
    ids, epochs, batches = (np.repeat(flows[c].to_numpy(np.int64), 3) for c in ("id", "epoch", "batch"))
    ph = pa.array(np.tile(np.array(['{"ph":"s","pid":', '{"ph":"t","pid":', '{"ph":"f","pid":'], object), len(flows)),
                  pa.string())
    text = pc.binary_join_element_wise(
        ph, _ints(r.tpid[rows]), ',"tid":', _ints(r.ttid[rows]), ',"ts":', _micros(t - t0),
        ',"name":"batch","cat":"' + CATEGORY + '","id":', _ints(ids), ',"args":{"epoch":', _ints(epochs),
        ',"batch":', _ints(batches), "}}", "")
    return text, t


def _joined(text: pa.Array) -> memoryview:
    """An Arrow string array → its values end to end, as UTF-8 (they sit so in its data buffer: no copy)."""
    text = pa.concat_arrays([text]) if text.offset else text
    if not len(text):
        return memoryview(b"")
    offsets = np.frombuffer(text.buffers()[1], np.int32, len(text) + 1)
    return memoryview(text.buffers()[2])[offsets[0]:offsets[-1]]


def _ints(values: np.ndarray) -> pa.Array:
    values = np.asarray(values, np.int64)
    if len(values) >= 4096:
        low, high = int(values.min()), int(values.max())
        if high - low < len(values) // 16:  # few values (a track, an epoch): picked from their texts
            return pc.take(pa.array([str(v) for v in range(low, high + 1)], pa.string()), pa.array(values - low))
    return pc.cast(pa.array(values), pa.string())


# json.dumps's digits after the point of round(ns / 1000, 3), for each ns % 1000: "0", "001", "5", "25", …
_FRACTIONS = pa.array([f"{p:03d}".rstrip("0") or "0" for p in range(1000)], pa.string())


def _micros(ns: np.ndarray) -> pa.Array:
    """Nanoseconds → microseconds as json.dumps writes ``round(ns / 1000, 3)``: ``12.0``, ``12.5``, ``12.345``."""
    whole, part = np.divmod(np.asarray(ns, np.int64), 1000)
    return pc.binary_join_element_wise(_ints(whole), pc.take(_FRACTIONS, pa.array(part)), ".")


def _optional(say: np.ndarray, key: str, value: pa.Array) -> pa.Array:
    return pc.if_else(pa.array(say), pc.binary_join_element_wise(key, value, ""), "")


def _names(r: ce.Rows, rows: np.ndarray, name_id: np.ndarray, span: np.ndarray, plain: np.ndarray) -> pa.Array:
    """Each output event's ``name`` as JSON text: picked by code from a short table of texts, tasks' "batch N"
    joined by Arrow (no Python string per event)."""
    texts = [json.dumps(n) for n in ce.SPAN_NAMES] + ['""']
    which = np.full(len(rows), len(ce.SPAN_NAMES), np.int32)  # '""' unless named below
    named = span & (name_id != ce.SPAN_NAMES.index("batch"))
    which[named] = name_id[named]
    lone = plain & ~span
    if lone.any():
        rec = r.frame.iloc[rows[lone]]
        kind = rec["kind"].astype(str).to_numpy(dtype=object)
        queue = rec["queue"].fillna("").astype(str).to_numpy(dtype=object)
        key = pd.Series(kind) + "\x00" + pd.Series(queue)
        names = _json_texts(key.to_numpy(dtype=object), _queue_name)
        special = np.flatnonzero(np.isin(kind, (ev.ERROR, ev.EPOCH_BEGIN, ev.EPOCH_END)))
        for i, one in zip(special, rec.iloc[special].itertuples(index=False)):
            names[i] = json.dumps(instant_name(one))
        codes, uniques = pd.factorize(names)
        which[lone] = len(texts) + codes
        texts += list(uniques)
    out = pc.take(pa.array(texts, pa.string()), pa.array(which))
    tasks = span & ~named
    if tasks.any():
        task_names = pc.binary_join_element_wise('"batch ', _ints(r.batch[rows[tasks]]), '"', "")
        out = pc.replace_with_mask(out, pa.array(tasks), task_names)
    return out


def _queue_name(key: str) -> str:
    kind, queue = key.split("\x00")
    return json.dumps(f"{kind} {queue}" if queue and kind.endswith(("_put", "_get")) else kind)


def _json_texts(values: np.ndarray, encode: Any) -> np.ndarray:
    """Each value's text by ``encode``, each distinct value encoded once."""
    codes, uniques = pd.factorize(values)
    return np.array([encode(u) for u in uniques], dtype=object)[codes]


def _args_text(r: ce.Rows, rows: np.ndarray, begins: np.ndarray) -> pa.Array:
    """``event_args`` of each row, merged over its span's begin row's (where ``begins`` >= 0), as JSON text."""
    f = r.frame
    has_begin = begins >= 0
    b = np.where(has_begin, begins, rows)
    pieces = ['{"epoch":', _ints(r.epoch[rows])]
    for field in ("batch", "index", "length", "nbytes"):
        values = getattr(r, field) if field in ("batch", "index") else f[field].to_numpy()  # int32 stays so
        absent = 0 if field == "nbytes" else ev.NO_BATCH
        mine, theirs = values[rows].astype(np.int64, copy=False), values[b].astype(np.int64, copy=False)
        say_mine = mine != absent
        say = say_mine | (has_begin & (theirs != absent))
        if say.any():
            pieces.append(_optional(say, f',"{field}":', _ints(np.where(say_mine, mine, theirs))))
    for field in ("queue", "detail", "label"):
        codes, texts = r.texts(field, _value_texts)  # texts[-1] is "": what code -1 (missing) stands for
        blank = len(texts) - 1
        empty = np.array([t == "" for t in texts], dtype=bool)  # a handful of texts: chosen by code, not by text
        mine = np.where(codes[rows] < 0, blank, codes[rows])
        theirs = np.where(has_begin, np.where(codes[b] < 0, blank, codes[b]), blank) if has_begin.any() else mine
        value = np.where(empty[mine], theirs, mine)
        say = ~empty[value]
        if say.any():
            pieces.append(_optional(say, f',"{field}":', pc.take(pa.array(list(texts), pa.string()), pa.array(value))))
    return pc.binary_join_element_wise(*pieces, "}", "")


def _value_texts(column: pd.Series, field: str) -> tuple[np.ndarray, np.ndarray]:
    """A str or label column → (a code per cell, each code's JSON text; "" where ``event_args`` leaves it out)."""
    # a str column is factorized as it is (no Python string per cell); labels are objects already
    values = column.to_numpy(dtype=object) if field == "label" else column
    codes, uniques = pd.factorize(values, use_na_sentinel=True)
    codes = codes.astype(np.int32)
    texts = [_arg_json(u, field) for u in np.asarray(uniques, dtype=object)]
    if field == "label" and len(uniques):  # 1, 1.0 and True factorize as one: tell them apart per cell
        if pd.api.types.infer_dtype(uniques, skipna=True) not in ("integer", "string", "floating", "boolean"):
            texts = pd.Series([_arg_json(v, field) for v in values])
            codes, uniques = pd.factorize(texts)
            texts = list(uniques)
    return codes, np.array(texts + [""], dtype=object)  # code -1 (missing) → the last: ""


def _arg_json(value: Any, field: str) -> str:
    if field != "label":
        return json.dumps(value) if isinstance(value, str) and value else ""
    label = value.item() if hasattr(value, "item") else value  # numpy scalars → Python
    if label is None or (isinstance(label, float) and math.isnan(label)):  # NaN: missing, in a float column
        return ""
    return json.dumps(label if isinstance(label, (int, float, str, bool)) else str(label), allow_nan=False)
