"""From a recording's events to the tidy table every view reads, and the loader settings that travel with it.

Twin of nothing in torch. Knows the event vocabulary of :mod:`loaderlab.engine.events`, pandas and a
loader's public attributes; knows nothing of how the events were recorded, of plotly or of streamlit.
The table has one row per event, sorted by ``t_ns`` and, among events of the same nanosecond, by ``pid`` (two
processes' clocks can meet; without the second key the order of such a pair would depend on which process's
records arrived first); its columns are ``EVENT_COLUMNS`` (see the README).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from ...engine import events as ev, records as rec
from .groups import tie_sorted

EVENT_COLUMNS = (*ev.FIELDS, "t_s")  # t_s: seconds since the first event of the recording
INT_COLUMNS = ("t_ns", "pid", "worker", "epoch", "batch", "index", "nbytes", "length", "arg0", "arg1", "arg2", "arg3")
ARG_COLUMNS = ("arg0", "arg1", "arg2", "arg3")  # each kind's numbers, named by engine.events.ARGS
TYPED_COLUMNS = (*ARG_COLUMNS, "indices")  # since format version 1 (older files: trace/files/old_details.py)


def arg_column(kind: str, name: str) -> str:
    """The column that holds ``name`` for events of ``kind`` (``arg_column("collate_end", "runqueue_ns")`` is
    ``"arg2"``), as :data:`loaderlab.engine.events.ARGS` says: the analysis reads names, the file keeps argN."""
    names = ev.ARGS.get(kind, ())
    if name not in names:
        raise KeyError(f"{kind} events carry no {name!r}; they carry {', '.join(names) or 'no numbers'}")
    return ARG_COLUMNS[names.index(name)]


def events_frame(events: list[ev.Event]) -> pd.DataFrame:
    """Events (any order) → a DataFrame sorted by time, with ``t_s`` relative to the first event."""
    frame = pd.DataFrame.from_records(list(events), columns=list(ev.FIELDS))
    frame = time_sorted(frame)
    start = int(frame["t_ns"].iloc[0]) if len(frame) else 0
    frame["t_s"] = (frame["t_ns"] - start) / 1e9
    for column in INT_COLUMNS:
        frame[column] = frame[column].astype("int64")
    frame["indices"] = frame["indices"].astype(object)
    return frame


# --- from a RecordTracer's arrays (loaderlab.engine.records), with numpy --------------------------------

_FETCH = (rec.CODE[ev.FETCH_BEGIN], rec.CODE[ev.FETCH_END])


def tracer_frame(tracer: rec.RecordTracer) -> pd.DataFrame:
    """What ``events_frame(tracer.snapshot())`` gives, built column by column from the tracer's arrays."""
    return chunks_frame(tracer.parts())


def _ints(data: bytes, stride: int) -> np.ndarray:
    return np.frombuffer(data, dtype=np.int64).reshape(-1, stride)


def _joined(chunks: list[rec.Chunk], field: str, stride: int) -> tuple[np.ndarray, np.ndarray]:
    """Every chunk's ``field`` as one (n, stride) table, and the chunk each row came from."""
    data = b"".join(getattr(c, field) for c in chunks)
    table = np.frombuffer(data, dtype=np.int64).reshape(-1, stride)
    sizes = [len(getattr(c, field)) // (8 * stride) for c in chunks]
    return table, np.repeat(np.arange(len(chunks)), sizes)


def _strings(texts: list[str] | tuple[str, ...], codes: np.ndarray) -> pd.api.extensions.ExtensionArray:
    """``texts[codes]`` as pandas' ``str`` array, gathered by Arrow (a fifth of the time of an object array's
    conversion: a table of 100,000 events has three such columns)."""
    return pd.array(pa.array(list(texts), pa.large_string()).take(pa.array(codes)), dtype="str")


def by_time(t_ns: np.ndarray, pid: np.ndarray) -> np.ndarray:
    """The table's order: stable by ``(t_ns, pid)``; only rows that share a nanosecond are sorted by pid."""
    return tie_sorted(t_ns, lambda rows: [pid[rows]])


def time_sorted(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` in the table's order (:func:`by_time`), on a fresh index; ``attrs`` kept (``take`` copies them)."""
    return frame.take(by_time(frame["t_ns"].to_numpy(), frame["pid"].to_numpy())).reset_index(drop=True)


def chunks_frame(chunks: list[rec.Chunk], labels_as_given: bool = False) -> pd.DataFrame:
    """Chunks (records, fetch headers, samples, objects) → the events table: one row per record, two per
    sample (its fetch_begin and fetch_end), repeats of a sample reported early dropped, sorted by time.
    Every step is a numpy operation on all chunks at once, but for the few records that carry objects.
    ``labels_as_given``: the label column holds the dataset's own objects (a job's trace file writes each
    chunk so, whatever the labels of other chunks), else one inferred dtype."""
    rows, row_chunk = _joined(chunks, "rows", rec.STRIDE)
    heads, head_chunk = _joined(chunks, "heads", rec.HEAD_STRIDE)
    samples = _joined(chunks, "samples", 3)[0]
    n_rows, n = len(rows), len(samples)
    total = n_rows + 2 * n
    # rows first, then each sample's begin row (n), then its end row (n); its batch's header repeated
    per = np.repeat(heads, heads[:, 4], axis=0)
    col = {}
    col["kind"] = np.concatenate((rows[:, 0], np.full(n, _FETCH[0]), np.full(n, _FETCH[1])))
    col["t_ns"] = np.concatenate((rows[:, 1], samples[:, 1], samples[:, 2]))
    for name, at in (("pid", 0), ("worker", 1), ("epoch", 2), ("batch", 3)):
        col[name] = np.concatenate((rows[:, rec.SLOTS.index(name)], per[:, at], per[:, at]))
    col["index"] = np.concatenate((rows[:, 6], samples[:, 0], samples[:, 0]))
    col["queue"] = np.concatenate((rows[:, 7], np.full(2 * n, -1)))
    col["nbytes"] = np.concatenate((rows[:, 8], np.zeros(2 * n, np.int64)))
    col["length"] = np.concatenate((rows[:, 9], np.full(2 * n, -1)))
    col["arg0"] = np.concatenate((rows[:, 10], np.ones(2 * n, np.int64)))  # one sample each (0: it raised)
    for k in (1, 2, 3):
        col[f"arg{k}"] = np.concatenate((rows[:, 10 + k], np.full(2 * n, -1)))
    objects = []  # (position, label, detail, indices, queue name) of the few rows that carry objects
    for at in np.flatnonzero(rows[:, 14] != rec.NO_REF):
        objects.append((int(at), *chunks[row_chunk[at]].objs[int(rows[at, 14])]))
    starts = np.cumsum(heads[:, 4]) - heads[:, 4]
    sample_labels, labelled = [], []  # every labelled batch's labels, and their end rows: placed with numpy
    for h in np.flatnonzero(heads[:, 5] != rec.NO_REF):
        batch_labels, lengths, failed, prints = rec.batch_objects(chunks[head_chunk[h]].objs[int(heads[h, 5])])
        end, count = n_rows + n + int(starts[h]), int(heads[h, 4])  # the batch's first end row
        if prints is not None:  # fetch_end's arg1: an IterableDataset sample's content fingerprint
            col["arg1"][end:end + count] = prints[:count]
        if batch_labels is not None:
            col["length"][end:end + count] = lengths[:count]
            sample_labels += batch_labels[:count]
            labelled.append(np.arange(end, end + len(batch_labels[:count])))
        for k, name in (failed or {}).items():
            if k < count:
                col["arg0"][end + k] = 0
                objects.append((end + k, None, name, None, None))
    order = by_time(col["t_ns"], col["pid"])
    # A slow sample reported early (a worker's fetch_begin record of one sample) comes again with its batch:
    # keep its first copy. Without such a record there is nothing to drop.
    reported = ((rows[:, 0] == _FETCH[0]) & (rows[:, 6] != ev.NO_BATCH)).any()
    fetches = np.isin(col["kind"][order], _FETCH) if reported else np.zeros(0, dtype=bool)
    if fetches.any():
        key = pd.DataFrame({c: col[c][order[fetches]] for c in ("kind", "pid", "t_ns", "index")})
        repeat = np.zeros(total, dtype=bool)
        repeat[np.flatnonzero(fetches)[key.duplicated().to_numpy()]] = True
        order = order[~repeat]
    where = np.full(total, -1, dtype=np.int64)  # each position's row in the table
    where[order] = np.arange(len(order))
    label = np.full(len(order), None, dtype=object)
    index_lists = np.full(len(order), None, dtype=object)
    details, detail_code = [""], np.zeros(len(order), dtype=np.int64)  # the few texts, and which row has which
    queue_codes = col["queue"][order]
    low = int(queue_codes.min()) if len(order) else 0
    queue_texts = [rec.queue_name(c) for c in range(low, int(queue_codes.max()) + 1)] if len(order) else []
    queue_codes = queue_codes - low
    for at, lab, det, idx, que in objects:
        row = where[at]
        if row < 0:
            continue
        if lab is not None:
            label[row] = lab
        if det:
            detail_code[row] = len(details)
            details.append(det)
        index_lists[row] = idx
        if que is not None:
            queue_codes[row] = len(queue_texts)
            queue_texts.append(que)
    if sample_labels:
        rows_of = where[np.concatenate(labelled)]
        placed = rows_of >= 0
        label[rows_of[placed]] = np.fromiter(sample_labels, dtype=object, count=len(sample_labels))[placed]
    has_label = any(o[1] is not None for o in objects) or any(v is not None for v in sample_labels)
    columns: dict[str, Any] = {"kind": _strings(rec.KINDS, col["kind"][order])}
    for name in ("t_ns", "pid", "worker", "epoch", "batch", "index"):
        columns[name] = col[name][order]
    columns["queue"] = _strings(queue_texts, queue_codes)
    columns["nbytes"] = col["nbytes"][order]
    columns["label"] = pd.Series(label.tolist()).array if has_label and not labels_as_given else label
    columns["length"] = col["length"][order]
    columns["detail"] = _strings(details, detail_code)
    for k in range(4):
        columns[f"arg{k}"] = col[f"arg{k}"][order]
    columns["indices"] = index_lists
    frame = pd.DataFrame(columns, copy=False)  # fresh arrays: no copy into one block (4 ms at 100,000 events)
    if labels_as_given and has_label:  # the constructor would infer str for a column of str labels
        frame["label"] = pd.Series(label, dtype=object)
    start = int(frame["t_ns"].iloc[0]) if len(frame) else 0
    frame["t_s"] = (frame["t_ns"] - start) / 1e9
    return frame



# --- the compact table: the same events in about a third of the memory ----------------------------

CATEGORY_COLUMNS = ("kind", "queue", "detail")  # few distinct strings: categorical (a byte or two per event)
NARROW_COLUMNS = tuple(c for c in INT_COLUMNS if c != "t_ns")  # int32 where every value fits (t_ns never does)
INT32 = np.iinfo(np.int32)


def fits_int32(values: np.ndarray) -> bool:
    return not len(values) or (int(values.min()) >= INT32.min and int(values.max()) <= INT32.max)


def compact_table(frame: pd.DataFrame) -> pd.DataFrame:
    """The events table with ``CATEGORY_COLUMNS`` categorical and ``NARROW_COLUMNS`` int32 where their
    values fit (``attrs`` kept): what ``load_trace(..., compact=True)`` gives for a ``.lltrace`` file, for a
    table in memory. Every analysis reads it as it reads the full table, with the same results (a big trace's
    report, findings and export need it to fit in memory); the columns keep their values, not their dtypes:
    ``indices`` is an Arrow list column (a missing list reads as ``pd.NA``), and an int column holding one
    value throughout is a read-only view of that value."""
    out = frame.copy(deep=False)
    for c in CATEGORY_COLUMNS:
        if c in out.columns and out[c].dtype != "category" and not out[c].isna().any():
            out[c] = out[c].astype("category")
    for c in NARROW_COLUMNS:
        if c in out.columns and out[c].dtype == "int64" and fits_int32(out[c].to_numpy()):
            values = out[c].to_numpy()
            same = len(values) and values.min() == values.max()  # one value throughout: one copy of it, read-only
            out[c] = np.broadcast_to(values[:1].astype(np.int32), values.shape) if same else values.astype(np.int32)
    if "indices" in out.columns and out["indices"].dtype == object:  # the sampler's lists as one Arrow column
        import pyarrow as pa

        lists = pa.array(out["indices"].to_numpy(), type=pa.list_(pa.int64()), from_pandas=True)
        out["indices"] = pd.Series(pd.arrays.ArrowExtensionArray(lists), index=out.index)
    out.attrs = dict(frame.attrs)
    return out
