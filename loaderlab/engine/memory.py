"""Memory of the worker processes and of /dev/shm, sampled from the main process while a run records.

Twin of nothing in torch. Two memory problems of real DataLoaders are invisible in a timeline:
*copy-on-access* (forked workers share the parent's pages until they touch them; Python's reference
counts touch every object they read, so a worker's private memory grows towards a full copy of the
dataset), and */dev/shm exhaustion* (every batch a worker sends lives in shared memory until the main
process frees it; a full /dev/shm kills workers with SIGBUS). ``MemorySampler`` is a thread in the main
process that every ``interval_s`` reads, for each live worker, ``/proc/<pid>/statm`` (resident set) and
``/proc/<pid>/smaps_rollup`` (private = unique set), and ``os.statvfs("/dev/shm")``, and emits one
``memory`` event per worker, emitted by the main process about worker k (like ``worker_start``:
``pid`` = the main process, ``worker`` = k), ``nbytes`` = the worker's RSS, ``arg0..arg3`` = the
worker's pid, its USS, /dev/shm used and total bytes (uss -1 where unreadable).

Reads /proc directly (Linux); elsewhere it emits nothing. Knows nothing of psutil or pandas.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Callable

from . import events as ev

INTERVAL_S = 0.1
SHM = "/dev/shm"
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_bytes(pid: int) -> int | None:
    """Resident set size of ``pid`` (None when it is gone or unreadable)."""
    try:
        with open(f"/proc/{pid}/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, IndexError, ValueError):
        return None


def uss_bytes(pid: int) -> int | None:
    """Private memory of ``pid`` (Private_Clean + Private_Dirty of smaps_rollup), or None."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            text = f.read()
    except OSError:
        return None
    total = 0
    for line in text.splitlines():
        if line.startswith((b"Private_Clean:", b"Private_Dirty:")):
            total += int(line.split()[1]) * 1024
    return total


def shm_usage(path: str = SHM) -> tuple[int, int] | None:
    """(used, total) bytes of the shared-memory file system, or None where there is none."""
    try:
        st = os.statvfs(path)
    except OSError:
        return None
    return (st.f_blocks - st.f_bfree) * st.f_frsize, st.f_blocks * st.f_frsize


class MemorySampler:
    """Emit ``memory`` events for the workers of ``iterator_of()`` (the current iterator, or None)."""

    def __init__(self, tracer: ev.Tracer, iterator_of: Callable[[], Any], interval_s: float = INTERVAL_S) -> None:
        self.tracer, self.iterator_of, self.interval_s = tracer, iterator_of, interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="loaderlab_memory", daemon=True)

    def start(self) -> "MemorySampler":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.sample()

    def sample(self) -> None:
        it = self.iterator_of()
        workers = getattr(it, "_workers", None)
        if not workers or getattr(it, "_shutdown", True):
            return
        shm = shm_usage() or (0, 0)
        epoch = getattr(it, "_epoch", 0)
        for worker_id, process in enumerate(list(workers)):
            pid = process.pid
            rss = rss_bytes(pid) if pid is not None else None
            if not rss:  # gone, or a zombie (its statm reads all zeros)
                continue
            uss = uss_bytes(pid)
            self.tracer.emit(ev.MEMORY, worker_id, epoch, nbytes=rss, arg0=pid, arg1=-1 if uss is None else uss,
                             arg2=shm[0], arg3=shm[1])
