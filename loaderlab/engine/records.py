"""Cheap tracing: each event one fixed-size record of int64s appended to a growable array.

Twin of nothing in torch. A tracer here keeps no object per event: ``emit`` appends ``STRIDE`` integers
(kind code, time, pid, worker, epoch, batch, index, queue code, nbytes, length, arg0..arg3, object ref) to
an ``array("q")`` in one call, and a batch's sample fetches arrive once per batch as a flat list of
``(index, t0, t1)`` triples (:func:`loaderlab.engine.fetch.traced_fetch`) plus one header. The few values
that are not small integers (a label, free-text detail, a batch's indices, an unknown queue name) go into a
dict keyed by a counter, referenced from the record. Nothing is built until someone reads: the trace layer
(:func:`loaderlab.trace.core.frame.tracer_frame`) turns the arrays into a table with numpy at the end of a run.

Appending one record is a single C call, which holds the GIL, so threads (the pin thread, the memory
sampler, the event collector, a signal handler) may emit at once without a lock; an object is stored
under its id before the record that names it, so a reader that sees the record sees the object. A worker
ships what it recorded as a :class:`Chunk` of bytes (:mod:`.worker`). Knows nothing of pandas or numpy.
"""

from __future__ import annotations

import itertools
import os
import struct
import time
from array import array
from typing import Any, NamedTuple

from . import events as ev

KINDS = ev.ALL_KINDS
CODE = {kind: code for code, kind in enumerate(KINDS)}
SLOTS = ("kind", "t_ns", "pid", "worker", "epoch", "batch", "index", "queue", "nbytes", "length",
         "arg0", "arg1", "arg2", "arg3", "ref")
STRIDE = len(SLOTS)
HEAD = ("pid", "worker", "epoch", "batch", "samples", "ref")  # one per batch of sample fetches
HEAD_STRIDE = len(HEAD)
# array.extend converts a tuple item by item (~1 µs for a record); packing to bytes first is ~3x cheaper
_PACK = struct.Struct(f"{STRIDE}q").pack
_PACK_HEAD = struct.Struct(f"{HEAD_STRIDE}q").pack
NO_REF = -1
_NUMERIC = frozenset(("nbytes", "length", "arg0", "arg1", "arg2", "arg3"))  # fields that need no object
_QUEUES = {"": -1, "result_queue": -2, "data_queue": -3, "reorder": -4}  # index_queue[k] is k
QUEUE_NAMES = {code: name for name, code in _QUEUES.items()}


def queue_code(name: str) -> int | None:
    """A queue's code (None for a name outside the engine's vocabulary: it is stored as an object)."""
    code = _QUEUES.get(name)
    if code is None and name.startswith("index_queue[") and name.endswith("]") and name[12:-1].isdigit():
        code = _QUEUES[name] = int(name[12:-1])
    return code


def queue_name(code: int) -> str:
    name = QUEUE_NAMES.get(code)
    return f"index_queue[{code}]" if name is None else name


class Chunk(NamedTuple):
    """What a worker recorded since its last flush: records, fetch headers and samples as int64 bytes."""

    rows: bytes
    heads: bytes
    samples: bytes
    objs: dict

    def events(self) -> list:
        """This chunk as Events and FetchSpans (see :func:`chunk_events`); lets a ListTracer take a chunk
        without importing this module (which imports :mod:`.events`)."""
        return chunk_events(self)


def as_int(value: Any) -> int:
    try:
        value = value.__index__()
    except (AttributeError, TypeError):
        return ev.NO_BATCH
    return value if -(2**63) <= value < 2**63 else ev.NO_BATCH


class RecordTracer(ev.Tracer):
    """Records into arrays; ``chunks`` holds what other processes sent (``emit_records``), in arrival order."""

    enabled = True

    def __init__(self, sample_info=None) -> None:
        self.sample_info = sample_info
        self._pid = os.getpid()
        self.rows = array("q")
        self.heads = array("q")
        self.samples = array("q")
        self.objs: dict[int, tuple] = {}
        self._ids = itertools.count()
        self.chunks: list[Chunk] = []
        self._append = self.rows.frombytes  # bound once: ``emit`` is the hot path

    def emit(self, kind: str, worker: int, epoch: int, batch: int = ev.NO_BATCH, index: int = ev.NO_BATCH,
             _code=CODE, _now=time.monotonic_ns, _pack=_PACK, _numeric=_NUMERIC, **fields: Any) -> None:
        if not fields:
            self._append(_pack(_code[kind], _now(), self._pid, worker, epoch, batch, index, -1, 0, -1, -1, -1, -1, -1, -1))
        elif fields.keys() <= _numeric:  # a loop's clocks, a collate's sizes: packed here, no object (issue 37)
            t_ns, get = _now(), fields.get
            try:
                packed = _pack(_code[kind], t_ns, self._pid, worker, epoch, batch, index, -1, get("nbytes", 0),
                               get("length", -1), get("arg0", -1), get("arg1", -1), get("arg2", -1), get("arg3", -1), -1)
            except (struct.error, TypeError, OverflowError):  # a value that is no int64: _record makes it one
                self._record(kind, t_ns, self._pid, worker, epoch, batch, index, fields)
                return
            self._append(packed)
        else:
            self._record(kind, _now(), self._pid, worker, epoch, batch, index, fields)

    def emit_at(self, kind: str, t_ns: int, pid: int, worker: int, epoch: int, **fields: Any) -> None:
        """Record an event that happened at ``t_ns`` (``time.monotonic_ns``), said by process ``pid``: a moment
        measured before there was a tracer to emit it (a stock worker's own start, see
        :mod:`loaderlab.trace.recording.stock_worker`)."""
        self._record(kind, t_ns, pid, worker, epoch, ev.NO_BATCH, ev.NO_BATCH, fields)

    def _record(self, kind: str, t_ns: int, pid: int, worker: int, epoch: int, batch: int, index: int,
                fields: dict) -> None:
        get = fields.get
        queue = get("queue", "")
        q = queue_code(queue)
        label, detail, indices = get("label"), get("detail", ""), get("indices")
        ref = NO_REF
        if label is not None or detail or indices is not None or q is None:
            ref = next(self._ids)
            self.objs[ref] = (label, detail, indices, None if q is not None else queue)
        record = (CODE[kind], t_ns, pid, worker, epoch, batch, as_int(index), -1 if q is None else q,
                  get("nbytes", 0), get("length", -1), get("arg0", -1), get("arg1", -1), get("arg2", -1),
                  get("arg3", -1), ref)
        try:
            packed = _PACK(*record)  # packed first: a bad value must not leave half a record
        except (struct.error, TypeError, OverflowError):
            packed = _PACK(*(as_int(v) for v in record))
        self._append(packed)

    def emit_fetches(self, worker: int, epoch: int, batch: int, spans: list, labels: list | None = None,
                     lengths: list | None = None, failed: dict | None = None,
                     fingerprints: list | None = None) -> None:
        """One batch's samples: ``spans`` = [index, t0, t1, index, t0, t1, …]; ``labels``/``lengths`` from
        the ``sample_info`` hook (or None); ``failed`` = {sample's position: exception name} (or None);
        ``fingerprints``: each sample's content fingerprint (or None). The object of a batch is
        ``(labels, lengths, failed)`` or, with fingerprints, ``(labels, lengths, failed, fingerprints)``."""
        try:
            flat = array("q", spans)
        except (TypeError, OverflowError):  # an index that is not an int (a str key…): -1, as a sample without one
            flat = array("q", [as_int(v) for v in spans])
        n = len(flat) // 3
        ref = NO_REF
        if labels is not None or failed or fingerprints:
            ref = next(self._ids)
            self.objs[ref] = (labels, lengths, failed) if not fingerprints else (labels, lengths, failed, fingerprints)
        self.samples.extend(flat)  # samples before the header that counts them: a reader never sees too few
        self.heads.frombytes(_PACK_HEAD(self._pid, as_int(worker), as_int(epoch), as_int(batch), n, ref))

    def emit_records(self, records: Any) -> None:
        """A worker's chunk (or a list of Events / FetchSpans from an older sender)."""
        if isinstance(records, Chunk):
            self.chunks.append(records)
            return
        for r in records:
            if type(r) is ev.Event:
                fields = {k: v for k, v in zip(ev.FIELDS[7:], r[7:]) if v != ev.Event._field_defaults[k]}
                self._record(r.kind, r.t_ns, r.pid, r.worker, r.epoch, r.batch, r.index, fields)
            else:
                spans, labels, lengths, failed, prints = [], [], [], {}, []
                for k, (index, t0, t1, label, length, detail, *more) in enumerate(r.spans):
                    spans += (index, t0, t1)
                    labels.append(label)
                    lengths.append(length)
                    prints.append(more[0] if more else ev.NO_ARG)
                    if detail:
                        failed[k] = detail
                ref = NO_REF
                if any(x != ev.NO_ARG for x in prints):
                    ref = next(self._ids)
                    self.objs[ref] = (labels, lengths, failed, prints)
                elif any(x is not None for x in labels) or failed or any(x != -1 for x in lengths):
                    ref = next(self._ids)
                    self.objs[ref] = (labels, lengths, failed)
                self.samples.extend(array("q", [as_int(v) for v in spans]))
                self.heads.extend((r.pid, r.worker, r.epoch, r.batch, len(r.spans), ref))

    def parts(self) -> list[Chunk]:
        """Everything recorded so far as chunks (this process's own first, then each received one), copied:
        safe while the run goes on."""
        heads = self.heads[:]
        n = sum(heads[HEAD_STRIDE - 2::HEAD_STRIDE])
        rows = self.rows[:len(self.rows) // STRIDE * STRIDE]
        own = Chunk(rows.tobytes(), heads.tobytes(), self.samples[:3 * n].tobytes(), dict(self.objs))
        return [own, *list(self.chunks)]

    def drain(self) -> list[Chunk]:
        """Everything recorded since the last drain as chunks (this process's own first, then each received
        one), taken out of the tracer: a job's writer empties it as the job goes. For one reader while any
        thread emits: an append is one C call and this cuts only the prefixes it copied, so no lock is taken
        (a batch's samples are appended before the header that counts them: a header not yet there leaves
        its samples for the next drain)."""
        received = self.chunks[:]
        heads = self.heads[:len(self.heads) // HEAD_STRIDE * HEAD_STRIDE]
        n = sum(heads[HEAD_STRIDE - 2::HEAD_STRIDE])
        rows = self.rows[:len(self.rows) // STRIDE * STRIDE]
        samples = self.samples[:3 * n]
        refs = [r for r in rows[STRIDE - 1::STRIDE] if r != NO_REF]
        refs += [r for r in heads[HEAD_STRIDE - 1::HEAD_STRIDE] if r != NO_REF]
        objs = {r: self.objs.pop(r) for r in refs}  # stored before the record that names them
        del self.rows[:len(rows)], self.heads[:len(heads)], self.samples[:len(samples)], self.chunks[:len(received)]
        own = Chunk(rows.tobytes(), heads.tobytes(), samples.tobytes(), objs)
        return [own, *received] if len(rows) or len(heads) else received

    def snapshot(self) -> list[ev.Event]:
        """The events so far as Event tuples, sorted by time (slow: for tests and small runs)."""
        events: list = []
        for chunk in self.parts():
            events.extend(chunk_events(chunk))
        return ev.expand(events)


def _ints(data: bytes) -> array:
    out = array("q")
    out.frombytes(data)
    return out


def chunk_events(chunk: Chunk) -> list:
    """A chunk as Events and FetchSpans (what :class:`loaderlab.engine.events.ListTracer` keeps)."""
    out: list = []
    rows, objs = _ints(chunk.rows), chunk.objs
    for at in range(0, len(rows), STRIDE):
        r = rows[at:at + STRIDE]
        label, detail, indices, queue = objs.get(r[14], (None, "", None, None))
        out.append(ev.Event(KINDS[r[0]], r[1], r[2], r[3], r[4], r[5], r[6],
                            queue if queue is not None else queue_name(r[7]), r[8], label, r[9], detail,
                            r[10], r[11], r[12], r[13], indices))
    heads, samples, at = _ints(chunk.heads), _ints(chunk.samples), 0
    for h in range(0, len(heads), HEAD_STRIDE):
        pid, worker, epoch, batch, n, ref = heads[h:h + HEAD_STRIDE]
        labels, lengths, failed, prints = batch_objects(objs.get(ref))
        spans = []
        for k in range(n):
            index, t0, t1 = samples[at + 3 * k:at + 3 * k + 3]
            spans.append((index, t0, t1, labels[k] if labels else None, lengths[k] if lengths else -1,
                          (failed or {}).get(k, ""), prints[k] if prints else ev.NO_ARG))
        at += 3 * n
        out.append(ev.FetchSpans(pid, worker, epoch, batch, tuple(spans)))
    return out


def batch_objects(entry: tuple | None) -> tuple:
    """A batch's object (see :meth:`RecordTracer.emit_fetches`) as ``(labels, lengths, failed, fingerprints)``."""
    if entry is None:
        return None, None, None, None
    return entry if len(entry) == 4 else (*entry, None)


def detailed(chunk: Any) -> list[tuple[str, int, int, int, str]]:
    """The chunk's records that carry free text (a stack, an error…): ``(kind, worker, batch, arg0, detail)``.
    Only such records have objects, so a chunk without objects is skipped without a look at its records.
    (A list of Events, as an older sender ships, is read as it is.)"""
    if not isinstance(chunk, Chunk):
        return [(r.kind, r.worker, r.batch, r.arg0, r.detail) for r in chunk if type(r) is ev.Event and r.detail]
    if not chunk.objs:
        return []
    rows, out = _ints(chunk.rows), []
    for at, ref in enumerate(rows[STRIDE - 1::STRIDE]):
        if ref != NO_REF:
            r = rows[at * STRIDE:(at + 1) * STRIDE]
            detail = chunk.objs[ref][1]
            if detail:
                out.append((KINDS[r[0]], r[3], r[5], r[10], detail))
    return out
