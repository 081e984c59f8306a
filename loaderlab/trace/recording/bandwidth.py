"""How fast this machine's GPU takes a batch from host memory: a pageable copy (``batch.to("cuda")``) and a
pinned one, measured once where a recording's loader pins its batches and an accelerator is there.

Twin of nothing in torch. The diagnosis charges ``pin_memory=False`` a pageable copy of every batch; with
this measurement it charges the user's own GPU's bandwidth, not an assumed one, and says so
(:mod:`loaderlab.trace.diagnosis.suggestions`). The result is kept in the trace (``attrs["bandwidth"]``:
``pageable_bps``, ``pinned_bps``, ``device``, ``nbytes``). A copy of 64 MiB, the median of three after one
to wake the link: about 20 ms on a PCIe 4 GPU. Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import functools
import statistics
import time
from typing import Any

__all__ = ["NBYTES", "host_to_device"]

NBYTES = 64 * 2**20
REPEATS = 3


def _seconds(torch: Any, host: Any) -> float:
    torch.cuda.synchronize()
    started = time.perf_counter()
    host.to("cuda", non_blocking=host.is_pinned())
    torch.cuda.synchronize()
    return time.perf_counter() - started


def host_to_device() -> dict[str, Any] | None:
    """``{"pageable_bps", "pinned_bps", "device", "nbytes"}`` of this process's GPU; None without one.
    Measured once per process (the GPU does not change under it); each caller gets its own copy."""
    measured = _measure(NBYTES)
    return dict(measured) if measured is not None else None


@functools.cache
def _measure(nbytes: int) -> dict[str, Any] | None:
    import torch  # here: reading a saved trace imports no torch

    if not torch.cuda.is_available():
        return None
    pageable = torch.empty(nbytes, dtype=torch.uint8)
    pinned = pageable.pin_memory()
    out: dict[str, Any] = {"device": torch.cuda.get_device_name(), "nbytes": nbytes}
    for name, host in (("pageable_bps", pageable), ("pinned_bps", pinned)):
        _seconds(torch, host)
        took = statistics.median(_seconds(torch, host) for _ in range(REPEATS))
        out[name] = nbytes / took if took > 0 else float("nan")
    return out
