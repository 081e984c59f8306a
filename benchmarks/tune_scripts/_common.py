"""What the benchmark's scripts share (benchmarks/tune_bench.py runs them): the loader settings read from the
environment, a computing spin, a tiny PNG codec for machines without PIL, and the loop time on the last line.

A script's own settings are its defaults; the harness re-runs it with ``LL_NUM_WORKERS``, ``LL_PREFETCH``
(a prefetch_factor) and ``LL_PIN`` (1/0) set to try a suggested change, and ``LL_EPOCHS`` (an int >= 1) set
to run more (or fewer) epochs than the script's own count. Each script prints ``loop_s=SECONDS``
on its last line: the time of its training loop (all its epochs), set-up (writing files, building tensors)
left out.
"""

from __future__ import annotations

import os
import struct
import time
import zlib

import numpy as np


def settings(num_workers: int, prefetch_factor: int | None = None, pin_memory: bool = False):
    """(num_workers, prefetch_factor, pin_memory): the script's own, or what the environment says."""
    nw = int(os.environ.get("LL_NUM_WORKERS", num_workers))
    pf = int(os.environ["LL_PREFETCH"]) if os.environ.get("LL_PREFETCH") else prefetch_factor
    pin = os.environ.get("LL_PIN", "1" if pin_memory else "0") == "1"
    return nw, (pf if nw > 0 else None), pin


def epochs(default: int) -> int:
    """How many epochs the training loop runs: the script's own ``default``, or ``LL_EPOCHS`` (an int >= 1)."""
    raw = os.environ.get("LL_EPOCHS", "").strip()
    if not raw:
        return default
    try:
        n = int(raw)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"LL_EPOCHS={raw!r}: must be a whole number of epochs, 1 or more")
    return n


def spin(ms: float) -> None:
    """Compute for ``ms`` milliseconds in Python (it holds a core and the GIL, as a Python decoder does)."""
    end = time.perf_counter() + ms / 1e3
    x = 0
    while time.perf_counter() < end:
        x += 1


def done(start: float) -> None:
    print(f"loop_s={time.perf_counter() - start:.4f}", flush=True)


try:  # PIL where it is installed; otherwise a minimal PNG codec (8-bit RGB, filter 0) in zlib and numpy
    from PIL import Image
except ImportError:  # pragma: no cover - depends on the machine
    Image = None


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def write_png(path: str, rgb: np.ndarray) -> None:
    if Image is not None:
        Image.fromarray(rgb).save(path)
        return
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
                + _chunk(b"IDAT", zlib.compress(raw, 6)) + _chunk(b"IEND", b""))


def read_png(path: str) -> np.ndarray:
    if Image is not None:
        with Image.open(path) as im:
            return np.asarray(im.convert("RGB"))
    with open(path, "rb") as f:
        data = f.read()
    pos, idat, w, h = 8, b"", 0, 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h = struct.unpack(">II", body[:8])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(h, 1 + 3 * w)
    return rows[:, 1:].reshape(h, w, 3).copy()
