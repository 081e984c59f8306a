"""A sample's content fingerprint: what tells two IterableDataset samples apart when they carry no id.

Twin of nothing in torch (it never looks at what it loads). An IterableDataset's sample has no dataset index,
so when every worker replays the whole stream the only way to see it is that two workers yield the *same
content*. :func:`fingerprint` reduces a sample (a tensor, an ``(input, label)`` pair, a dict, a plain value, or
nested containers of them) to one int64 from its types, dtypes, shapes and bytes: equal samples get equal
fingerprints, different samples almost surely different ones (62 bits of a digest). A sample that carries its
library's keys (webdataset's ``__url__`` and ``__key__``) is named by them instead (:func:`identity`): an
augmentation changes its content, never its keys; such an identity has :data:`KEYED` set.

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
KEYED = ev.KEYED  # set in an identity read from a library's keys (:func:`key_identity`), clear in a content fingerprint
_sha1 = hashlib.sha1


class _Unknown(Exception):
    """A part the fingerprint cannot read: the sample gets none."""


def fingerprint(sample: Any) -> int:
    """The sample's content fingerprint (a non-negative int64), or ``NO_ARG`` (-1) where it has none."""
    parts: list = []  # every piece, hashed once at the end: one digest call, not one per part (issue 37)
    try:
        _feed(parts, sample, 0)
    except (_Unknown, RuntimeError, TypeError, ValueError, AttributeError):
        return ev.NO_ARG
    # sha1: not for security, the fastest 64-bit-plus digest hashlib has here (~1.9 GB/s)
    return int.from_bytes(_sha1(b"".join(parts)).digest()[:8], "little") >> 2  # 62 bits: never negative, never NO_ARG


def identity(sample: Any) -> int:
    """What names an IterableDataset sample: the key a library put in it where it carries one (webdataset's
    ``__url__`` and ``__key__``: a random augmentation leaves them as they are, and they cost one short hash),
    else its content :func:`fingerprint`."""
    if type(sample) is dict and "__key__" in sample:
        return key_identity(sample.get("__url__"), sample["__key__"])
    return fingerprint(sample)


def key_identity(url: Any, key: Any) -> int:
    """A sample's identity from the keys its library gave it (a shard's url and the sample's key in it), with
    :data:`KEYED` set: a reader tells it from a content fingerprint (which never has it)."""
    return fingerprint(("__key__", str(url), str(key))) | KEYED


def _bytes(parts: list, buf: Any, nbytes: int) -> None:
    """All of ``buf`` (``nbytes`` long) when small, else :data:`CHUNKS` evenly spaced pieces of it."""
    parts.append(_LEN(nbytes))
    if nbytes <= FULL_BYTES:
        parts.append(buf)
        return
    last = nbytes - CHUNK_BYTES
    for k in range(CHUNKS):
        at = last * k // (CHUNKS - 1)
        parts.append(buf[at:at + CHUNK_BYTES])


def _tensor(parts: list, t: torch.Tensor) -> None:
    try:  # the common tensor (CPU, strided, no grad, no lazy bits) converts at once; the rest raise here
        a = t.numpy()
    except (TypeError, RuntimeError):
        a = None
    if a is None:
        if not t.is_cpu or t.layout != torch.strided or t.is_quantized:
            raise _Unknown
        t = t.detach()
        if t.is_conj() or t.is_neg():  # lazy views: their bytes are not their values yet
            t = t.resolve_conj().resolve_neg()
        try:
            a = t.numpy()
        except TypeError:  # a dtype numpy lacks (bfloat16…): the same bytes, read as uint8
            data = t.contiguous().reshape(-1).view(torch.uint8).numpy()
            parts.append(f"T{t.dtype}{tuple(t.shape)}".encode())
            _bytes(parts, memoryview(data), data.nbytes)
            return
    _array(parts, a, b"T")


def _array(parts: list, a: np.ndarray, tag: bytes = b"A") -> None:
    dtype = a.dtype
    if dtype.hasobject:
        raise _Unknown
    parts.append(tag + dtype.str.encode() + repr(a.shape).encode())
    if not a.flags.c_contiguous:
        a = np.ascontiguousarray(a)
    buf = memoryview(a).cast("B")
    _bytes(parts, buf, buf.nbytes)


def _items(values: list) -> list:
    if len(values) <= MAX_ITEMS:
        return values
    last = len(values) - 1
    return [values[last * k // (MAX_ITEMS - 1)] for k in range(MAX_ITEMS)]


def _feed(parts: list, x: Any, depth: int) -> None:
    if depth > MAX_DEPTH:
        raise _Unknown
    kind = type(x)
    if kind is torch.Tensor:
        _tensor(parts, x)
    elif kind is int:
        parts.append(b"i%d;" % x)
    elif kind is str:
        data = x.encode("utf-8", "surrogatepass")
        parts.append(b"s")
        _bytes(parts, data, len(data))
    elif kind is dict and len(x) <= MAX_ITEMS:  # the common mapping, walked without a copy of its keys
        parts.append(b"d%d{" % len(x))
        for key, value in x.items():
            _feed(parts, key, depth + 1)
            _feed(parts, value, depth + 1)
        parts.append(b"}")
    elif (kind is tuple or kind is list) and len(x) <= MAX_ITEMS:
        parts.append(b"%c%d(" % (116 if kind is tuple else 108, len(x)))  # "t" / "l"
        for item in x:
            _feed(parts, item, depth + 1)
        parts.append(b")")
    elif isinstance(x, torch.Tensor):
        _tensor(parts, x)
    elif kind is bool or x is None:
        parts.append(f"{x!r};".encode())
    elif kind is float:
        parts.append(f"f{x.hex()};".encode())
    elif kind is complex:
        parts.append(f"c{x!r};".encode())
    elif kind in (bytes, bytearray):
        parts.append(b"b")
        _bytes(parts, bytes(x), len(x))
    elif isinstance(x, np.ndarray):
        _array(parts, x)
    elif isinstance(x, np.generic):
        parts.append(f"g{x.dtype.str}{x.item()!r};".encode())
    elif isinstance(x, (tuple, list)):
        parts.append(f"{'t' if isinstance(x, tuple) else 'l'}{len(x)}(".encode())
        for item in _items(list(x)):
            _feed(parts, item, depth + 1)
        parts.append(b")")
    elif isinstance(x, Mapping):
        parts.append(f"d{len(x)}{{".encode())
        for key in _items(list(x)):
            _feed(parts, key, depth + 1)
            _feed(parts, x[key], depth + 1)
        parts.append(b"}")
    elif isinstance(x, (int, float, str)):  # a subclass (an IntEnum, a numbered index…): as its plain value
        _feed(parts, int(x) if isinstance(x, int) else float(x) if isinstance(x, float) else str(x), depth)
    else:
        raise _Unknown
