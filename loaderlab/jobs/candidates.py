"""What ``run --tune`` tries: the loader settings that leave the batches alone, and the time it may spend.

Twin of nothing in torch. A candidate is a change of ``num_workers``, ``prefetch_factor`` or (where a GPU
exists) ``pin_memory``: none of them changes which samples form a batch or their order (``in_order`` and
the sampler stay the user's). ``batch_size``, ``in_order=False`` and another sampler do change the batches
and are never candidates. ``persistent_workers`` is not switched either: it decides how often torch draws a
worker seed from the loader's generator, so switching it would change later epochs' orders; its effect is
the measured start-up per epoch, reported apart. Knows nothing of how a candidate is measured
(:mod:`.tuner`), of plotly or streamlit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any

from ..engine.cores import cpu_count

DEFAULT_BUDGET = 0.10  # of each epoch's estimated time at the job's own setting, epoch after epoch
MAX_CANDIDATES = 6


@dataclass(frozen=True)
class Setting:
    """The loader arguments a tuning round switches (JSON: :meth:`as_dict`)."""

    num_workers: int
    prefetch_factor: int | None
    pin_memory: bool

    def as_dict(self) -> dict[str, Any]:
        return {"num_workers": self.num_workers, "prefetch_factor": self.prefetch_factor,
                "pin_memory": self.pin_memory}

    def change_from(self, own: "Setting") -> str:
        """``num_workers=4, prefetch_factor=4``: what differs from ``own``, as the user would write it."""
        parts = [f"{k}={v}" for k, v in self.as_dict().items()
                 if v != own.as_dict()[k] and not (k == "prefetch_factor" and self.num_workers == 0)]
        return ", ".join(parts)


def own_setting(loader: Any) -> Setting:
    return Setting(loader.num_workers, loader.prefetch_factor if loader.num_workers > 0 else None,
                   bool(loader.pin_memory))


def with_workers(own: Setting, workers: int) -> Setting:
    prefetch = (own.prefetch_factor or 2) if workers > 0 else None
    return replace(own, num_workers=workers, prefetch_factor=prefetch)


def worker_ladder(own: int, cores: int, cap: int) -> list[int]:
    """0, then powers of two up to about twice the cores, the cores themselves and the job's own count,
    none above ``cap`` (memory) but the job's own; at most ``MAX_CANDIDATES`` values."""
    top = max(1, 2 * cores)
    counts = {0, own, cores, top}
    k = 1
    while k < top:
        counts.add(k)
        k *= 2
    counts = sorted(c for c in counts if c <= max(cap, 0) or c == own)
    while len(counts) > MAX_CANDIDATES - 1:  # one place is kept for a prefetch candidate
        small = [c for c in counts if c not in (0, own, cores, top)]
        if not small:
            break
        counts.remove(small[0])
    return counts


def memory_cap(rss_bytes: int, available_bytes: int | None) -> int:
    """How many workers fit in half the free memory, if each came to hold as much as the main process
    (a forked worker shares pages until it touches them: the worst case). None known: no cap."""
    if not available_bytes or rss_bytes <= 0:
        return 1 << 30
    return int(0.5 * available_bytes // rss_bytes)


def available_memory() -> int | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def own_rss() -> int:
    try:
        with open(f"/proc/{os.getpid()}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def candidates(own: Setting, device: bool, cores: int | None = None, cap: int | None = None) -> list[Setting]:
    """The job's own setting first, then the others to try (see the module docstring)."""
    cores = cores or cpu_count() or 1
    cap = memory_cap(own_rss(), available_memory()) if cap is None else cap
    out = [own]
    for k in worker_ladder(own.num_workers, cores, cap):
        s = with_workers(own, k)
        if s not in out:
            out.append(s)
    busiest = own.num_workers or min(cores, max(cap, 1))
    deeper = replace(with_workers(own, busiest), prefetch_factor=2 * (own.prefetch_factor or 2))
    if deeper not in out and busiest <= max(cap, own.num_workers):
        out.append(deeper)
    if device:
        out.append(replace(own, pin_memory=not own.pin_memory))
    return out


def parse_budget(text: str) -> tuple[str, float]:
    """``--tune-budget``: ``"10%"`` (of each epoch's estimated time) or ``"30"`` / ``"30s"`` (seconds)."""
    raw = text.strip().lower()
    try:
        if raw.endswith("%"):
            share = float(raw[:-1]) / 100
            if 0 < share <= 1:
                return "share", share
        else:
            seconds = float(raw[:-1] if raw.endswith("s") else raw)
            if seconds > 0:
                return "seconds", seconds
    except ValueError:
        pass
    raise ValueError(f"--tune-budget must be a share of each epoch like 10% (above 0%, at most 100%) or "
                     f"seconds like 30 or 30s (above 0), not {text!r}")
