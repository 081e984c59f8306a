"""Caps for a shared workshop server, read from the environment.

Twin of nothing in torch. One place for every limit an operator may set before ``streamlit run app.py``:

=============================== ======= ==========================================================
variable                        default what it caps
=============================== ======= ==========================================================
``LOADERLAB_MAX_WORKERS``       4       ``num_workers`` of one run (the sidebar's slider ends there)
``LOADERLAB_MAX_SAMPLES``       20000   rows of an uploaded CSV; samples of a synthetic dataset
``LOADERLAB_MAX_RUN_SECONDS``   30      wall time of one run; a longer run is stopped, its trace kept
``LOADERLAB_MAX_CONCURRENT_RUNS`` 1     runs at once per server; others wait their turn in the fair
                                        queue (:mod:`.queue`), which bounds the slots
=============================== ======= ==========================================================

A malformed value is an error that names the variable and what it accepts (``LimitError``), raised when
the value is read, so a misconfigured server says so on its first page. Knows nothing of streamlit.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass


class LimitError(ValueError):
    """An environment variable holds a value LoaderLab cannot use; the message names it and the allowed values."""


class ServerBusy(RuntimeError):
    """A caller with no page to show its place in line waited its whole ``wait_s`` in the fair queue
    (:mod:`.queue`): other people's runs are in progress."""


@dataclass(frozen=True)
class Limits:
    max_workers: int = 4
    max_samples: int = 20000
    max_run_seconds: float = 30.0
    max_concurrent_runs: int = 1


DEFAULTS = Limits()


def _integer(name: str, default: int, minimum: int) -> int:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        value = None
    if value is None or value < minimum:
        raise LimitError(f"{name}={raw!r} is not allowed: use a whole number ≥ {minimum} (default {default}).")
    return value


def _seconds(name: str, default: float) -> float:
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value <= 0:
        raise LimitError(f"{name}={raw!r} is not allowed: use a number of seconds > 0, such as 30 (default {default:g}).")
    return value


def limits() -> Limits:
    """The caps in force now (the environment is read on every call, so tests can change it)."""
    return Limits(
        max_workers=_integer("LOADERLAB_MAX_WORKERS", DEFAULTS.max_workers, 0),
        max_samples=_integer("LOADERLAB_MAX_SAMPLES", DEFAULTS.max_samples, 1),
        max_run_seconds=_seconds("LOADERLAB_MAX_RUN_SECONDS", DEFAULTS.max_run_seconds),
        max_concurrent_runs=_integer("LOADERLAB_MAX_CONCURRENT_RUNS", DEFAULTS.max_concurrent_runs, 1),
    )


def check_run(num_workers: int, n_samples: int, caps: Limits | None = None) -> None:
    """Refuse a run beyond the server's caps (the sidebar already keeps its widgets within them)."""
    caps = caps or limits()
    if num_workers > caps.max_workers:
        raise LimitError(f"num_workers={num_workers} is more than this server allows "
                         f"(LOADERLAB_MAX_WORKERS={caps.max_workers}).")
    if n_samples > caps.max_samples:
        raise LimitError(f"{n_samples} samples are more than this server allows "
                         f"(LOADERLAB_MAX_SAMPLES={caps.max_samples}).")
