"""Trace files: save a recorded event table (columnar ``.lltrace`` or JSON) and load it back, exactly.

Twin of nothing in torch (its profiler writes Chrome traces, which lose the per-sample and per-queue
detail kept here). Knows the event table of :mod:`loaderlab.trace.recording.recorder` and pandas; knows nothing of
plotly, streamlit or Chrome traces (see :mod:`loaderlab.trace.export.chrome` for those).

The file format, version 1 (UTF-8 JSON, one object)::

    {
      "format": "loaderlab-trace",       # always this string
      "version": 1,                      # bumped when a reader of an older version could misread the file
      "settings": {...} | null,          # frame.attrs["loader"]: the loader's settings (core.settings.loader_settings)
      "epochs": 2 | null,                # frame.attrs["epochs"]
      "attrs": {...},                    # any other JSON-able frame.attrs (usually {})
      "columns": ["kind", "t_ns", ...],  # the stored columns, in table order
      "dtypes": {"kind": "str", ...},    # each stored column's pandas dtype: int64, float64, bool, str or object
      "events": [["fetch_end", 8812..., 4711, 0, 0, 3, 17, "", 0, null, -1, ""], ...]
    }

``events`` holds one list per event (row), its values in ``columns`` order; missing values are ``null``.
Every column of ``EVENT_COLUMNS`` is stored except ``t_s``, which a writer may leave out when it equals
``(t_ns - t_ns[0]) / 1e9`` (the recorder's definition) exactly; a reader recomputes it then. Optional
columns (``OPTIONAL_COLUMNS``) are stored when the table has them: ``rank`` (int64), the process-group rank
of each event in a multi-rank trace (:mod:`loaderlab.trace.ranks.launch`); files without them load as before.
Files written before events had typed fields lack ``arg0..arg3`` and ``indices``: they load with those
filled from their ``detail`` strings (:func:`loaderlab.trace.files.old_details.from_details`).
Files are written without spaces: a 100 000-event trace is about 6 MB.

A path ending in ``.lltrace`` is written in the columnar format of :mod:`loaderlab.trace.files.columnar` instead
(typed, zstd-compressed Arrow columns, about 10 bytes per event; its meta is ``frame.attrs``). Reading sniffs
the first bytes: a file starting with ``columnar.MAGIC`` is columnar whatever its name, anything else is read
as the JSON above.

Reading never shows a raw json/pandas traceback: every problem with a file raises :class:`TraceFileError`
whose message is one sentence saying what is wrong and what to do.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import numpy as np
import pandas as pd

from .columnar import TraceWriter
from .suffix import COLUMNAR_SUFFIX
from .columnar_read import MAGIC, is_columnar, read_columnar, read_columnar_bytes, TraceFileError
from ..core.frame import compact_table, EVENT_COLUMNS, TYPED_COLUMNS
from .old_details import from_details, numbered
from ..core.run import frame_of, Run

FORMAT = "loaderlab-trace"
VERSION = 1
_DTYPES = ("int64", "float64", "bool", "str", "object")
_DERIVED = "t_s"  # may be left out of a file: recomputed from t_ns
OPTIONAL_COLUMNS = {"rank": "int64"}  # column → its dtype; stored only when the table has it




# --- writing -------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """A cell → a JSON value; NaN becomes null because strict JSON has no NaN."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, list) and all(type(i) is int for i in value):  # a sampler_yield's indices
        return value
    raise ValueError(f"save_trace stores only str, int, float, bool or None cell values, but found "
                     f"{type(value).__name__} {value!r}; convert such labels to one of those first")


def _check_table(frame: pd.DataFrame) -> None:
    missing = [c for c in EVENT_COLUMNS if c not in frame.columns]
    extra = [c for c in frame.columns if c not in EVENT_COLUMNS and c not in OPTIONAL_COLUMNS]
    if missing or extra:
        raise ValueError(f"save_trace expects a table from loaderlab.record() with the columns {list(EVENT_COLUMNS)}, "
                         f"but it lacks {missing} and has extra {extra}")
    dtypes = {c: str(frame[c].dtype) for c in frame.columns}
    for column, dtype in OPTIONAL_COLUMNS.items():
        if column in dtypes and dtypes[column] != dtype:
            raise ValueError(f"save_trace stores column {column!r} as {dtype}, but it is {dtypes[column]}; "
                             f"convert it with .astype({dtype!r}) first")


def trace_document(frame: pd.DataFrame | Run) -> dict[str, Any]:
    """The JSON document (a dict) that :func:`save_trace` writes for ``frame`` (or a :class:`~loaderlab.trace.core.run.Run`)."""
    frame = frame_of(frame)  # the file is where a run's metadata becomes plain JSON (result.metadata)
    _check_table(frame)
    columns = list(frame.columns)
    if len(frame) and frame["t_s"].equals((frame["t_ns"] - frame["t_ns"].iloc[0]) / 1e9):
        columns.remove(_DERIVED)
    dtypes = {c: str(frame[c].dtype) for c in frame.columns}
    for column, dtype in dtypes.items():
        if dtype not in _DTYPES:
            raise ValueError(f"save_trace cannot store column {column!r} of dtype {dtype}; "
                             f"convert it to one of {', '.join(_DTYPES)} first")
    # int64 and bool cells are plain already (and there are many of them): only the others are checked
    cells = [frame[c].tolist() if dtypes[c] in ("int64", "bool") else [_plain(v) for v in frame[c].tolist()]
             for c in columns]
    attrs = dict(frame.attrs)
    settings, epochs = attrs.pop("loader", None), attrs.pop("epochs", None)
    return {"format": FORMAT, "version": VERSION, "settings": settings, "epochs": epochs, "attrs": attrs,
            "columns": columns, "dtypes": dtypes, "events": [list(row) for row in zip(*cells)]}


def save_trace(frame: pd.DataFrame | Run, path: str | os.PathLike) -> None:
    """Write an event table (from :func:`loaderlab.record`, or a :class:`~loaderlab.trace.core.run.Run`) to ``path`` as a
    LoaderLab trace file; :func:`loaderlab.trace.core.run.as_run` of the loaded table gives the run back.

    A path ending in ``.lltrace`` gets the columnar format (its meta is ``frame.attrs``); any other the JSON.
    """
    frame = frame_of(frame)
    if os.fspath(path).endswith(COLUMNAR_SUFFIX):
        _check_table(frame)
        with TraceWriter(path, dict(frame.attrs)) as writer:
            writer.write_frame(frame)
        return
    text = json.dumps(trace_document(frame), separators=(",", ":"), allow_nan=False, ensure_ascii=False)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
        f.write("\n")


# --- reading -------------------------------------------------------------------------------------


def load_trace(path: str | os.PathLike, *, compact: bool = False) -> pd.DataFrame:
    """Read a trace file written by :func:`save_trace`; raises :class:`TraceFileError` if it cannot.

    ``compact``: the table of :func:`loaderlab.trace.core.frame.compact_table` (categorical strings, int32 where values fit;
    about a third of the memory, and the same results from every analysis) — for big traces. Without it
    the table comes back exactly as it was saved, dtypes included."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as f:
            head = f.read(len(MAGIC))
            # a columnar file is read a record batch at a time (read_columnar), never whole
            data = None if is_columnar(head) else head + f.read()
    except FileNotFoundError:
        raise TraceFileError(f"there is no file {name}; check the path (relative paths start in "
                             f"{os.getcwd()}).") from None
    except IsADirectoryError:
        raise TraceFileError(f"{name} is a folder, not a trace file; give the path of a .json trace inside it.") from None
    except OSError as exc:
        raise TraceFileError(f"{name} cannot be read ({exc.strerror or exc}); check its permissions.") from None
    if data is None:
        try:
            return columnar_frame(*read_columnar(path, compact=compact), name)
        except OSError as exc:
            raise TraceFileError(f"{name} cannot be read ({exc.strerror or exc}); check its permissions.") from None
    return load_trace_bytes(data, name, compact=compact)


def _from_columnar(data: bytes, name: str, compact: bool = False) -> pd.DataFrame:
    return columnar_frame(*read_columnar_bytes(data, name, compact=compact), name)


def columnar_frame(frame: pd.DataFrame, meta: dict, name: str) -> pd.DataFrame:
    required = [c for c in EVENT_COLUMNS if c not in frame.columns]
    if required and (len(frame.columns) or not meta.get("cut_short")):
        raise TraceFileError(f"{name} lacks the column{'s' if len(required) > 1 else ''} {', '.join(required)}; "
                             f"it is not an event table — record the trace again.")
    frame.attrs.update(meta)
    return numbered(frame)  # a file from before the queue's worker and the sampler's epoch were typed


def load_trace_bytes(data: bytes, name: str = "the trace", *, compact: bool = False) -> pd.DataFrame:
    """Read a trace file's contents (an upload, say); ``name`` is how messages refer to it; ``compact``: as
    for :func:`load_trace`."""
    if is_columnar(data):
        return _from_columnar(data, name, compact)
    if compact:
        return compact_table(load_trace_bytes(data, name))
    if not data.strip():
        raise TraceFileError(f"{name} is empty; record a trace with `python -m loaderlab record` and load that file.")
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (some Windows editors add one) is fine
    except UnicodeDecodeError as exc:
        raise TraceFileError(f"{name} is not UTF-8 text (byte {exc.start} cannot be decoded), so it is not a "
                             f"LoaderLab trace; load the .json file that save_trace or `loaderlab record` wrote.") from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        stripped = text.strip()
        cut_short = stripped.startswith("{") and not stripped.endswith("}")
        hint = ("the file looks cut short — save or record it again" if cut_short
                else "load the .json file that save_trace or `loaderlab record` wrote")
        raise TraceFileError(f"{name} is not valid JSON ({exc.msg}: line {exc.lineno}, column {exc.colno}); "
                             f"{hint}.") from None
    except RecursionError:
        raise TraceFileError(f"{name} nests JSON too deeply to be a LoaderLab trace; load a file that save_trace wrote.") from None
    return _from_document(doc, name)


def _from_document(doc: Any, name: str) -> pd.DataFrame:
    _check_header(doc, name)
    columns, dtypes = doc["columns"], doc["dtypes"]
    rows = doc["events"]
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != len(columns):
            got = (f"has {len(row)} values where {len(columns)} (one per column) belong" if isinstance(row, list)
                   else f"is {_describe(row)}, not a list of {len(columns)} values")
            raise TraceFileError(f"event {i} of {name} {got}; the file was damaged — record the trace again.")
    cells = list(zip(*rows)) if rows else [() for _ in columns]
    data = {}
    for column, values in zip(columns, cells):
        data[column] = _column(values, dtypes[column], column, name)
    frame = pd.DataFrame(data, columns=columns)
    if _DERIVED not in columns:
        start = int(frame["t_ns"].iloc[0]) if len(frame) else 0
        frame[_DERIVED] = ((frame["t_ns"] - start) / 1e9).astype(dtypes[_DERIVED])
        frame = frame[list(dtypes)]  # the column order the writer's table had
    if doc["settings"] is not None:
        frame.attrs["loader"] = doc["settings"]
    if doc["epochs"] is not None:
        frame.attrs["epochs"] = doc["epochs"]
    frame.attrs.update(doc.get("attrs", {}))
    return numbered(from_details(frame))  # a file from before typed event fields: its detail strings → the fields


def _check_header(doc: Any, name: str) -> None:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        if isinstance(doc, dict) and "traceEvents" in doc:
            what = "a Chrome trace (for Perfetto), not a LoaderLab trace"
        elif isinstance(doc, dict):
            what = (f"not a LoaderLab trace (its \"format\" is {json.dumps(doc['format'])})" if "format" in doc
                    else "not a LoaderLab trace (it has no \"format\": \"loaderlab-trace\" field)")
        else:
            what = f"not a LoaderLab trace (it holds {_describe(doc)}, not a JSON object)"
        raise TraceFileError(f"{name} is {what}; load the .json file that save_trace or `loaderlab record` wrote.")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise _wrong_type(name, "version", "a positive integer", version)
    if version > VERSION:
        raise TraceFileError(f"{name} was written by a newer LoaderLab (format version {version}); this LoaderLab "
                             f"reads version {VERSION} — upgrade LoaderLab.")
    for key, kind, ok in (("settings", "an object or null", lambda v: v is None or isinstance(v, dict)),
                          ("epochs", "an integer or null", lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool))),
                          ("attrs", "an object", lambda v: isinstance(v, dict)),
                          ("columns", "a list of column names", lambda v: isinstance(v, list) and all(isinstance(c, str) for c in v)),
                          ("dtypes", "an object mapping column names to dtypes", lambda v: isinstance(v, dict)),
                          ("events", "a list of rows", lambda v: isinstance(v, list))):
        if key not in doc and key in ("settings", "epochs", "attrs"):
            continue
        if key not in doc:
            raise TraceFileError(f"{name} has no \"{key}\" field, so it was not written by save_trace; "
                                 f"record the trace again.")
        if not ok(doc[key]):
            raise _wrong_type(name, key, kind, doc[key])
    doc.setdefault("settings", None)
    doc.setdefault("epochs", None)
    columns, dtypes = doc["columns"], doc["dtypes"]
    required = [c for c in EVENT_COLUMNS if c != _DERIVED and c not in TYPED_COLUMNS]
    missing = [c for c in required if c not in columns]
    if missing:
        raise TraceFileError(f"{name} lacks the column{'s' if len(missing) > 1 else ''} {', '.join(missing)}; "
                             f"it was not written by save_trace — record the trace again.")
    known = (*EVENT_COLUMNS, *OPTIONAL_COLUMNS)
    unknown = [c for c in columns if c not in known] + [c for c in dtypes if c not in known]
    duplicated = len(set(columns)) != len(columns)
    if unknown or duplicated:
        what = f"unknown columns {', '.join(sorted(set(unknown)))}" if unknown else "a column twice"
        raise TraceFileError(f"{name} has {what}; it was not written by this LoaderLab — record the trace again.")
    for column in [c for c in OPTIONAL_COLUMNS if c in dtypes and c not in columns]:
        del dtypes[column]  # a dtype for a column the file does not hold: nothing to read
    for column in (*(c for c in EVENT_COLUMNS if c in columns or c not in TYPED_COLUMNS),
                   *(c for c in OPTIONAL_COLUMNS if c in columns)):
        dtype = dtypes.setdefault(column, "float64" if column == _DERIVED else None)
        if dtype not in _DTYPES or (column in OPTIONAL_COLUMNS and dtype != OPTIONAL_COLUMNS[column]):
            given = ("no dtype" if dtype is None
                     else f"the dtype {json.dumps(dtype)} where {OPTIONAL_COLUMNS[column]} belongs" if dtype in _DTYPES
                     else f"the unknown dtype {json.dumps(dtype)} (known: {', '.join(_DTYPES)})")
            raise TraceFileError(f"{name} gives column {column} {given}; the file was damaged — "
                                 f"record the trace again.")


_ACCEPTS = {
    "int64": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "float64": lambda v: v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)),
    "bool": lambda v: isinstance(v, bool),
    "str": lambda v: v is None or isinstance(v, str),
    "object": lambda v: v is None or isinstance(v, (str, int, float, bool)),
}
_EXPECTED = {"int64": "an integer", "float64": "a number", "bool": "true or false", "str": "a string",
             "object": "a string, number, boolean or null"}


def _int_list(v: Any) -> bool:
    return v is None or (isinstance(v, list) and all(isinstance(i, int) and not isinstance(i, bool) for i in v))


def _column(values: tuple, dtype: str, column: str, name: str) -> pd.Series:
    accepts = _int_list if column == "indices" else _ACCEPTS[dtype]  # a sampler_yield's indices: a list of ints
    for i, value in enumerate(values):
        if not accepts(value):
            raise TraceFileError(f"event {i} of {name} has {_describe(value)} in column {column}, "
                                 f"where {_EXPECTED[dtype]} belongs; the file was damaged — record the trace again.")
    if dtype == "int64":
        try:
            return pd.Series(values, dtype="int64")
        except (OverflowError, ValueError):
            raise TraceFileError(f"{name} has an integer too large for 64 bits in column {column}; "
                                 f"the file was damaged — record the trace again.") from None
    if dtype == "object":
        return pd.Series(values, dtype=object)
    if dtype == "float64":
        return pd.Series([math.nan if v is None else v for v in values], dtype="float64")
    return pd.Series(values, dtype=dtype)


def _wrong_type(name: str, key: str, expected: str, value: Any) -> TraceFileError:
    return TraceFileError(f"the \"{key}\" field of {name} should be {expected} but is {_describe(value)}; the file was damaged — record the trace again.")


def _json_type(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", int: "integer", float: "number", bool: "boolean",
            type(None): "null"}.get(type(value), type(value).__name__)


def _describe(value: Any) -> str:
    """How a message shows a JSON value: ``the string "abc"``, ``null``, ``a list``."""
    if value is None:
        return "null"
    if isinstance(value, (dict, list)):
        return f"a{'n' if isinstance(value, dict) else ''} {_json_type(value)}"
    text = json.dumps(value)
    return f"the {_json_type(value)} {text if len(text) <= 40 else text[:37] + '...'}"
