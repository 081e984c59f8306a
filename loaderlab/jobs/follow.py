"""Following a job's trace while ``run`` still writes it: each look reads only the chunks added since the last.

Twin of nothing in torch (``tail -f`` for a ``.lltrace``). A trace file is one Arrow IPC stream appended to
as the job goes (:mod:`loaderlab.trace.files.columnar`); a :class:`FollowedFile` keeps the stream reader open
between looks, over a view of the file that ends where the file ended when the look began. A message that is
only half on disk (the writer is mid-flush) fails to read: the view goes back to the end of the last whole
batch and the next look tries again, so nothing is read twice and nothing read is ever half a batch. The
frame it gives is the one :func:`loaderlab.jobs.read.load_any` reads from the same bytes (a test compares
them). A file is *closed* once the writer's end-of-stream marker is read (the job ended and closed its
trace); until then it is open, whether the job still runs or was killed (:func:`job_alive` tells which).
Which paths may be followed: :mod:`.trace_paths`. Knows pyarrow and pandas; nothing of plotly or streamlit.
"""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import pandas as pd
import pyarrow as pa

from ..trace.files.columnar_read import (BASE_KEY, COLUMNS_KEY, decode_batches, END_OF_STREAM, is_columnar, MAGIC,
                                         MAGIC_PREFIX, META_KEY, TraceFileError)
from ..trace.files.suffix import COLUMNAR_SUFFIX as EXTENSION
from . import read, trace_paths
from .trace_paths import trace_files

class TraceRewritten(TraceFileError):
    """The followed file got shorter, or changed after it was closed: a new job writes it from the start;
    follow it again."""


class _View:
    """A read-only file object over ``path`` that ends at ``limit`` (the size seen when a look began)."""

    def __init__(self, path: str, start: int) -> None:
        self._f = open(path, "rb")  # noqa: SIM115 - lives with the FollowedFile
        self.pos, self.limit, self.closed = start, start, False
        self._f.seek(start)

    def read(self, n: int = -1) -> bytes:
        n = self.limit - self.pos if n is None or n < 0 else min(n, self.limit - self.pos)
        self._f.seek(self.pos)
        data = self._f.read(max(n, 0))
        self.pos += len(data)
        return data

    def tell(self) -> int:
        return self.pos

    def seek(self, pos: int, whence: int = 0) -> int:
        self.pos = pos if whence == 0 else self.pos + pos if whence == 1 else self.limit + pos
        return self.pos

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False  # the stream reader reads forward only

    def writable(self) -> bool:
        return False

    def close(self) -> None:
        self._f.close()
        self.closed = True


class FollowedFile:
    """One ``.lltrace`` file being written; :meth:`poll` reads what was added since the last call."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.meta: dict[str, Any] = {}
        self.closed = False  # the writer's end-of-stream marker was read
        self.size = -1  # the file's size at the last look
        self.mtime = 0.0  # when it last grew (the time of the last chunk on disk)
        self.rows = 0
        self._view: _View | None = None
        self._scanned = self._safe = len(MAGIC)  # see _scan
        self._reader: pa.ipc.RecordBatchStreamReader | None = None
        self._plans: list[dict] = []
        self._base: int | None = None
        self._last_ns = 0  # the last t_ns decoded: the next batch's first difference is from it
        self._pieces: list[pd.DataFrame] = []
        self._frame: pd.DataFrame | None = None

    def poll(self) -> bool:
        """Read the whole batches added since the last call; whether anything new was read."""
        try:
            stat = os.stat(self.path)
        except OSError as exc:
            raise TraceFileError(f"{self.path} cannot be read ({exc.strerror or exc}).") from None
        if stat.st_size < self.size or (self.closed and (stat.st_size, stat.st_mtime) != (self.size, self.mtime)):
            raise TraceRewritten(f"{self.path} was written again from its start (a new job with the same -o).")
        if self.closed or stat.st_size == self.size:
            return False
        self.size, self.mtime = stat.st_size, stat.st_mtime
        if self._view is None:
            with open(self.path, "rb") as f:
                head = f.read(len(MAGIC))
            if len(head) < len(MAGIC):
                return False  # the writer has not written its first bytes yet
            if not is_columnar(head):
                raise trace_paths.PathRefused(
                    "not_trace", self.path, f"{self.path} is not a LoaderLab columnar trace (it does not start with "
                    f"{MAGIC_PREFIX!r}); follow a .lltrace file that `python -m loaderlab run` writes.")
            self._view = _View(self.path, len(MAGIC))
        self._view.limit = self._scan(stat.st_size)
        if self._reader is None and not self._open():
            return False
        new: list[pa.RecordBatch] = []
        while True:
            start = self._view.tell()
            try:
                batch, custom = self._reader.read_next_batch_with_custom_metadata()
            except StopIteration:
                if self._view.tell() > start:  # it read the end-of-stream marker: the trace is closed
                    self.closed = True
                break
            except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError):
                raise TraceFileError(f"{self.path} is damaged after its first {self.rows:,} events; "
                                     f"record the trace again.") from None
            if custom is not None and META_KEY in custom:
                self.meta.update(json.loads(custom[META_KEY]))
            if batch.num_rows:
                new.append(batch)
        if new:
            self._decode(list(new))  # the decoder empties the list it is given
        return bool(new) or self.closed

    def _scan(self, size: int) -> int:
        """Where the stream reader may read up to: the end of the last whole schema, record batch or
        end-of-stream message on disk. A reader that met half a message would be left in a state it cannot
        resume from (its dictionaries half read), so it is never shown one."""
        with open(self.path, "rb") as f:
            f.seek(self._scanned)
            data = f.read(size - self._scanned)
        buffer, pos = pa.py_buffer(data), 0
        while pos < len(data):
            if data[pos:pos + len(END_OF_STREAM)] == END_OF_STREAM:
                pos += len(END_OF_STREAM)
                self._safe = self._scanned + pos
                break
            source = pa.BufferReader(buffer[pos:])
            try:
                message = pa.ipc.read_message(source)
            except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError, EOFError):
                break  # the rest is not wholly on disk yet
            pos += source.tell()
            if message.type != "dictionary":  # a dictionary counts once the batch that uses it is whole
                self._safe = self._scanned + pos
        self._scanned = self._safe  # dictionaries after it are scanned again with their batch
        return self._safe

    def _open(self) -> bool:
        if self._safe <= len(MAGIC):
            return False  # the schema is not wholly on disk yet
        try:
            reader = pa.ipc.open_stream(self._view)
        except (pa.ArrowInvalid, pa.ArrowException, OSError, ValueError):
            raise TraceFileError(f"{self.path} ends before its column list is whole, or is damaged; record the "
                                 f"trace again.") from None
        metadata = reader.schema.metadata or {}
        try:
            self.meta = json.loads(metadata[META_KEY])
            self._plans = json.loads(metadata[COLUMNS_KEY])
        except (KeyError, ValueError):
            raise TraceFileError(f"{self.path} is an Arrow stream but lacks LoaderLab's column notes, so it was not "
                                 f"written by LoaderLab; follow a .lltrace file that `python -m loaderlab run` "
                                 f"writes.") from None
        self._base = int(metadata[BASE_KEY]) if BASE_KEY in metadata else None
        self._reader = reader
        return True

    def _decode(self, batches: list[pa.RecordBatch]) -> None:
        schema = self._reader.schema
        if "t_ns" in schema.names and any(p["encoding"] == "delta" for p in self._plans if p["name"] == "t_ns"):
            # t_ns is stored as differences; the first of these batches' is from the last row already decoded
            i = schema.get_field_index("t_ns")
            first = batches[0]
            column = first.column(i).to_numpy().copy()
            column[0] += self._last_ns
            batches[0] = first.set_column(i, schema.field(i), pa.array(column, pa.int64()))
        piece = decode_batches(self._plans, schema, batches, self._base)
        if "t_ns" in piece.columns and len(piece):
            self._last_ns = int(piece["t_ns"].iloc[-1])
        self._pieces.append(piece)
        self.rows += len(piece)
        self._frame = None

    def frame(self) -> tuple[pd.DataFrame, dict[str, Any]]:
        """Everything read so far, as :func:`loaderlab.trace.files.columnar.read_columnar` gives it (the table
        as written and the meta; ``cut_short`` while the file is not closed)."""
        if self._frame is None:
            if len(self._pieces) > 1:
                self._pieces = [pd.concat(self._pieces, ignore_index=True)]
            self._frame = self._pieces[0] if self._pieces else pd.DataFrame()
        meta = dict(self.meta)
        if not self.closed:
            meta["cut_short"] = True
        return self._frame, meta

    def close(self) -> None:
        if self._view is not None:
            self._view.close()


def job_alive(meta: dict[str, Any]) -> bool:
    """Whether the job that writes this trace runs on this machine now (its stacks folder names it)."""
    from . import stacks

    pid = (meta.get("job") or {}).get("pid")
    return isinstance(pid, int) and any(w["role"] == "main" for w in stacks.job_processes(pid))


class Follower:
    """A path (a file, a folder of rank files, or a glob) followed as one trace; thread-safe."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.paths = trace_files(path)
        self.files = {p: FollowedFile(p) for p in self.paths if p.endswith(EXTENSION)}
        self._lock = threading.Lock()
        self._frame: pd.DataFrame | None = None
        self.polled_s = 0.0  # how long the last look took (read and merge)

    def poll(self) -> pd.DataFrame:
        """Look again; the trace read so far, as :func:`loaderlab.jobs.read.load_any` reads it."""
        with self._lock:
            began = time.perf_counter()
            added = self._new_ranks()
            changed = [f.poll() for f in self.files.values()]
            if any(changed) or added or self._frame is None:
                self._frame = self._read()
            self.polled_s = time.perf_counter() - began
            return self._frame

    def _new_ranks(self) -> bool:
        """A folder or glob of a torchrun job still starting: its ranks' files appear one by one."""
        if self.paths == [self.path] or not self.files or self.closed:
            return False
        try:
            found = trace_files(self.path)
        except TraceFileError:
            return False
        new = [p for p in found if p not in self.paths]
        for p in new:
            if p.endswith(EXTENSION):
                self.files[p] = FollowedFile(p)
        self.paths = sorted(set(self.paths) | set(new))
        return bool(new)

    def _read(self) -> pd.DataFrame:
        frames = []
        for path in self.paths:
            followed = self.files.get(path)
            if followed is None:  # a JSON trace: written once, at the end, so read whole
                frames.append(read.load_one(path))
                continue
            frame, meta = followed.frame()
            if followed._reader is None:
                frame, meta = pd.DataFrame(), {"cut_short": True}
            frames.append(read.job_frame(frame, meta) if "job" in meta or frame.empty else read.load_one(path))
        return frames[0] if len(frames) == 1 else read.merge(frames, self.paths)

    @property
    def closed(self) -> bool:
        """Every file's writer closed it (the job ended and said so)."""
        return bool(self.files) and all(f.closed for f in self.files.values())

    def metas(self) -> list[dict[str, Any]]:
        return [f.meta for f in self.files.values()]

    def last_write(self) -> float:
        """When a file last grew (seconds since the epoch); 0 when none exists yet."""
        return max((f.mtime for f in self.files.values()), default=0.0)

    def close(self) -> None:
        for f in self.files.values():
            f.close()
