"""A sample's content fingerprint: what tells two IterableDataset samples apart when they carry no id.

Twin of nothing in torch (it never looks at what it loads). An IterableDataset's sample has no dataset index,
so when every worker replays the whole stream the only way to see it is that two workers yield the *same
content*. :func:`fingerprint` reduces a sample (a tensor, an ``(input, label)`` pair, a dict, a plain value, or
nested containers of them) to one int64 from its types, dtypes, shapes and bytes: equal samples get equal
fingerprints, different samples almost surely different ones (a 64-bit digest).

It is cheap on purpose, because it runs once per sample in the fetch path (:func:`.fetch.traced_fetch`, for
the engine's IterableDataset replicas and for a stock loader's, :mod:`loaderlab.trace.recording.torch_recorder`):

- an array of at most :data:`FULL_BYTES` is hashed whole;
- a bigger one is hashed in part: :data:`CHUNKS` evenly spaced pieces of :data:`CHUNK_BYTES` (always its
  first and last bytes), plus its dtype, shape and size. Two samples that differ only between those pieces
  get the same fingerprint; real data (images, audio, token runs) differs almost everywhere.
- a container with more than :data:`MAX_ITEMS` items is hashed at that many evenly spaced items (and its length).

What it cannot read it does not guess: a tensor that is not on the CPU, is sparse or quantized, an object
array, or a type it does not know (an image object, a custom class) gives :data:`~.events.NO_ARG` for the
whole sample (no identity), never a fingerprint that would make unequal samples look equal. It never raises.
Knows torch and numpy; nothing of the trace tables, pandas, plotly or streamlit.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Mapping
from typing import Any

import numpy as np
import torch

from . import events as ev

FULL_BYTES = 16 * 1024  # up to this size an array is hashed whole
CHUNKS, CHUNK_BYTES = 16, 1024  # beyond it: 16 evenly spaced pieces of 1 KiB (16 KiB hashed, ~10 µs)
MAX_ITEMS = 1024  # a longer list, tuple or dict is hashed at this many evenly spaced items
MAX_DEPTH = 8  # nesting deeper than this is no sample shape we know
_LEN = struct.Struct("<q").pack


class _Unknown(Exception):
    """A part the fingerprint cannot read: the sample gets none."""


def fingerprint(sample: Any) -> int:
    """The sample's content fingerprint (a non-negative int64), or ``NO_ARG`` (-1) where it has none."""
    h = hashlib.sha1()  # not for security: the fastest 64-bit-plus digest hashlib has here (~1.9 GB/s)
    try:
        _feed(h, sample, 0)
    except (_Unknown, RuntimeError, TypeError, ValueError, AttributeError):
        return ev.NO_ARG
    return int.from_bytes(h.digest()[:8], "little") >> 1  # 63 bits: never negative, never NO_ARG


def _bytes(h, buf: memoryview, nbytes: int) -> None:
    """All of ``buf`` (``nbytes`` long) when small, else :data:`CHUNKS` evenly spaced pieces of it."""
    h.update(_LEN(nbytes))
    if nbytes <= FULL_BYTES:
        h.update(buf)
        return
    last = nbytes - CHUNK_BYTES
    for k in range(CHUNKS):
        at = last * k // (CHUNKS - 1)
        h.update(buf[at:at + CHUNK_BYTES])


def _tensor(h, t: torch.Tensor) -> None:
    if not t.is_cpu or t.layout != torch.strided or t.is_quantized:
        raise _Unknown
    h.update(f"T{t.dtype}{tuple(t.shape)}".encode())
    if t.requires_grad:
        t = t.detach()
    if t.is_conj() or t.is_neg():  # lazy views: their bytes are not their values yet
        t = t.resolve_conj().resolve_neg()
    if not t.is_contiguous():
        t = t.contiguous()
    try:
        buf = memoryview(t.numpy()).cast("B")
    except TypeError:  # a dtype numpy lacks (bfloat16…): the same bytes, read as uint8
        buf = memoryview(t.reshape(-1).view(torch.uint8).numpy())
    _bytes(h, buf, buf.nbytes)


def _array(h, a: np.ndarray) -> None:
    if a.dtype.hasobject:
        raise _Unknown
    h.update(f"A{a.dtype.str}{a.shape}".encode())
    buf = memoryview(np.ascontiguousarray(a)).cast("B")
    _bytes(h, buf, buf.nbytes)


def _items(values: list) -> list:
    if len(values) <= MAX_ITEMS:
        return values
    last = len(values) - 1
    return [values[last * k // (MAX_ITEMS - 1)] for k in range(MAX_ITEMS)]


def _feed(h, x: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _Unknown
    kind = type(x)
    if kind is torch.Tensor or isinstance(x, torch.Tensor):
        _tensor(h, x)
    elif kind is bool or x is None:
        h.update(f"{x!r};".encode())
    elif kind is int:
        h.update(f"i{x};".encode())
    elif kind is float:
        h.update(f"f{x.hex()};".encode())
    elif kind is complex:
        h.update(f"c{x!r};".encode())
    elif kind is str:
        data = x.encode("utf-8", "surrogatepass")
        h.update(b"s")
        _bytes(h, memoryview(data), len(data))
    elif kind in (bytes, bytearray):
        h.update(b"b")
        _bytes(h, memoryview(x), len(x))
    elif isinstance(x, np.ndarray):
        _array(h, x)
    elif isinstance(x, np.generic):
        h.update(f"g{x.dtype.str}{x.item()!r};".encode())
    elif isinstance(x, (tuple, list)):
        h.update(f"{'t' if isinstance(x, tuple) else 'l'}{len(x)}(".encode())
        for item in _items(list(x)):
            _feed(h, item, depth + 1)
        h.update(b")")
    elif isinstance(x, Mapping):
        h.update(f"d{len(x)}{{".encode())
        for key in _items(list(x)):
            _feed(h, key, depth + 1)
            _feed(h, x[key], depth + 1)
        h.update(b"}")
    elif isinstance(x, (int, float, str)):  # a subclass (an IntEnum, a numbered index…): as its plain value
        _feed(h, int(x) if isinstance(x, int) else float(x) if isinstance(x, float) else str(x), depth)
    else:
        raise _Unknown
