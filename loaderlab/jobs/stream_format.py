"""The streamed trace file: append-only JSON lines, readable after a crash at any moment.

Twin of nothing in torch. Used by ``run`` until :mod:`loaderlab.trace.columnar` offers a streaming writer
(``open_sink`` prefers it when it exists). The format, version 1 (UTF-8, one JSON object per line)::

    {"format": "loaderlab-stream", "version": 1, "meta": {...}}   # first line: the job's metadata so far
    {"frame": {"columns": [...], "dtypes": {...}, "data": [[column values], ...]}}   # a chunk of events
    {"meta": {"key": value}}                                       # a later metadata entry (last one wins)

Each line is written with one ``write`` call and flushed, so a killed writer leaves at most one partial
last line, which the reader ignores. Knows pandas; nothing of plotly or streamlit.
"""

from __future__ import annotations

import json
import math
import os
from typing import Any

import numpy as np
import pandas as pd

FORMAT = "loaderlab-stream"
VERSION = 1
EXTENSION = ".jsonl"


def _cell(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):  # sampler_yield's indices
        return [_cell(v) for v in value]
    return str(value)  # a label of another type: shown, not computed with


class JsonLinesSink:
    def __init__(self, path: str, meta: dict[str, Any]) -> None:
        self._fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        self._line({"format": FORMAT, "version": VERSION, "meta": meta})

    def _line(self, obj: dict[str, Any]) -> None:
        data = (json.dumps(obj, separators=(",", ":"), ensure_ascii=False, default=str) + "\n").encode()
        view = memoryview(data)
        while view:
            view = view[os.write(self._fd, view):]

    def write_frame(self, frame: pd.DataFrame) -> None:
        dtypes = {c: str(frame[c].dtype) for c in frame.columns}
        data = [frame[c].tolist() if dtypes[c] in ("int64", "bool") else [_cell(v) for v in frame[c].tolist()]
                for c in frame.columns]
        self._line({"frame": {"columns": list(frame.columns), "dtypes": dtypes, "data": data}})

    def set_meta(self, key: str, value: Any) -> None:
        self._line({"meta": {key: value}})

    def close(self) -> None:
        os.close(self._fd)


def open_sink(path: str, meta: dict[str, Any]) -> Any:
    return JsonLinesSink(path, meta)


def is_stream(head: bytes) -> bool:
    return head.lstrip().startswith(b'{"format":"' + FORMAT.encode())


def read_stream(path: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """(the events, the metadata) of a stream file; a partial last line (a killed writer) is left out."""
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    meta: dict[str, Any] = {}
    parts: list[pd.DataFrame] = []
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError:
            if number >= len(lines) - 2:  # the last line, cut short
                break
            raise ValueError(f"{path}: line {number + 1} is not JSON; the file is damaged") from None
        if number == 0:
            if obj.get("format") != FORMAT:
                raise ValueError(f"{path} is not a LoaderLab stream trace")
            meta.update(obj.get("meta") or {})
        elif "frame" in obj:
            chunk = obj["frame"]
            frame = pd.DataFrame(dict(zip(chunk["columns"], chunk["data"])), columns=chunk["columns"])
            for column, dtype in chunk["dtypes"].items():
                if dtype in ("int64", "float64", "bool"):
                    frame[column] = frame[column].astype(dtype)
            parts.append(frame)
        elif "meta" in obj:
            meta.update(obj["meta"])
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    return frame, meta
