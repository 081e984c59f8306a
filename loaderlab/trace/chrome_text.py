"""The Chrome export's text: events of :mod:`.chrome_events`' columns → trace-event JSON, a chunk at a time.

Twin of nothing in torch. Knows the event table's columns, numpy, pandas and Arrow's string kernels (a
Python loop over millions of events would be the export's whole cost); knows nothing of files (see
:mod:`.chrome`), plotly or streamlit. Numbers are written as ``json.dumps`` writes them (microseconds as
``round(ns / 1000, 3)``), so the document equals the one the row-by-row export made.
"""

from __future__ import annotations

import json
import math
from typing import Any, TextIO

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ..engine import events as ev
from . import chrome_events as ce
from .chrome_events import CATEGORY, PH_SIDE, PH_SPAN


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


def write_events(out: TextIO, r: ce.Rows, table: pd.DataFrame, order: np.ndarray, side: list[str], t0: int, *,
                 first: bool, chunk: int) -> None:
    """Write the events of ``table`` in ``order``, ``chunk`` at a time (``first``: no comma before the first).
    The table is never copied in order: only a chunk's rows are, and its text is written before the next is
    made. (Rendering two chunks at once on two threads was tried: no faster on a busy 2-core machine, and
    250 MB more at the peak of a 3 M-event export.)"""
    for at in range(0, len(order), chunk):
        text = _render(r, table.take(order[at:at + chunk]), side, t0)
        out.write(text[1:] if first else text)  # each event comes after a comma
        first = False


def _render(r: ce.Rows, chunk: pd.DataFrame, side: list[str], t0: int) -> str:
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
        text = pc.replace_with_mask(text, pa.array(mask), pa.array(["," + side[i] for i in side_of[mask]]))
    return _joined(text)


def _joined(text: pa.Array) -> str:
    """An Arrow string array → its values end to end (they sit so in its data buffer)."""
    text = pa.concat_arrays([text]) if text.offset else text
    offsets = np.frombuffer(text.buffers()[1], np.int32, len(text) + 1)
    return text.buffers()[2].to_pybytes()[offsets[0]:offsets[-1]].decode("utf-8") if len(text) else ""


def _ints(values: np.ndarray) -> pa.Array:
    return pc.cast(pa.array(np.asarray(values, np.int64)), pa.string())


def _micros(ns: np.ndarray) -> pa.Array:
    """Nanoseconds → microseconds as json.dumps writes ``round(ns / 1000, 3)``: ``12.0``, ``12.5``, ``12.345``."""
    whole, part = np.divmod(np.asarray(ns, np.int64), 1000)
    fraction = pc.utf8_rtrim(pc.utf8_lpad(_ints(part), 3, "0"), "0")
    fraction = pc.if_else(pc.equal(fraction, ""), "0", fraction)
    return pc.binary_join_element_wise(_ints(whole), fraction, ".")


def _optional(say: np.ndarray, key: str, value: pa.Array) -> pa.Array:
    return pc.if_else(pa.array(say), pc.binary_join_element_wise(key, value, ""), "")


def _names(r: ce.Rows, rows: np.ndarray, name_id: np.ndarray, span: np.ndarray, plain: np.ndarray) -> pa.Array:
    out = np.empty(len(rows), dtype=object)
    out[:] = '""'
    named = span & (name_id != ce.SPAN_NAMES.index("batch"))
    out[named] = np.array([json.dumps(n) for n in ce.SPAN_NAMES], dtype=object)[name_id[named]]
    tasks = span & ~named
    if tasks.any():
        out[tasks] = _json_texts(r.batch[rows[tasks]], lambda b: json.dumps(f"batch {b}"))
    lone = plain & ~span
    if lone.any():
        rec = r.frame.iloc[rows[lone]]
        kind = rec["kind"].astype(str).to_numpy(dtype=object)
        queue = rec["queue"].fillna("").astype(str).to_numpy(dtype=object)
        key = pd.Series(kind) + "\x00" + pd.Series(queue)
        names = _json_texts(key.to_numpy(dtype=object), _queue_name)
        special = np.flatnonzero(np.isin(kind, (ev.ERROR, ev.EPOCH_BEGIN, ev.EPOCH_END)))
        for i, one in zip(special, rec.iloc[special].itertuples(index=False)):
            names[i] = json.dumps(_instant_name(one))
        out[lone] = names
    return pa.array(out, pa.string())


def _queue_name(key: str) -> str:
    kind, queue = key.split("\x00")
    return json.dumps(f"{kind} {queue}" if queue and kind.endswith(("_put", "_get")) else kind)


def _json_texts(values: np.ndarray, encode: Any) -> np.ndarray:
    """Each value's text by ``encode``, each distinct value encoded once."""
    codes, uniques = pd.factorize(values)
    return np.array([encode(u) for u in uniques], dtype=object)[codes]


def _args_text(r: ce.Rows, rows: np.ndarray, begins: np.ndarray) -> pa.Array:
    """``_args`` of each row, merged over its span's begin row's (where ``begins`` >= 0), as JSON text."""
    f = r.frame
    has_begin = begins >= 0
    b = np.where(has_begin, begins, rows)
    pieces = ['{"epoch":', _ints(r.epoch[rows])]
    for field in ("batch", "index", "length", "nbytes"):
        values = getattr(r, field) if field in ("batch", "index") else f[field].to_numpy(np.int64)
        absent = 0 if field == "nbytes" else ev.NO_BATCH
        mine, theirs = values[rows], values[b]
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
    """A str or label column → (a code per cell, each code's JSON text; "" where ``_args`` leaves it out)."""
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
