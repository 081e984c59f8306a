"""Worker memory and /dev/shm over a run: the ``memory`` events as a tidy table, and what they suggest.

Twin of nothing in torch. Input: a trace with ``memory`` events (``loaderlab.engine.memory``: the
dashboard's runs sample every 100 ms). ``memory_table`` → one row per sample: ``t_s, worker, pid,
rss_bytes, uss_bytes, shm_used_bytes, shm_total_bytes``. ``memory_checks`` names two problems:

- ``copy_on_access``: a worker's private memory (USS) grew by more than ``GROWTH_BYTES`` and
  ``GROWTH_RATIO`` × its first sample — forked workers copying the pages of a dataset they only read
  (Python's reference counts write to every object touched);
- ``shm_nearly_full``: /dev/shm was more than ``SHM_FULL`` full — batches in flight live there, and a
  full /dev/shm kills workers with SIGBUS.

Pure functions; knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.findings import Finding, finding
from ..core.lookups import named_rows, normal
from ..core import kinds

MEMORY_COLUMNS = ["t_s", "worker", "pid", "rss_bytes", "uss_bytes", "shm_used_bytes", "shm_total_bytes"]
GROWTH_BYTES = 64 * 2**20
GROWTH_RATIO = 1.5
SHM_FULL = 0.9


def memory_table(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per memory sample (empty, with the columns, for a trace without ``memory`` events)."""
    f = normal(frame)
    rows = named_rows(f, ev.MEMORY, ["t_s", "worker", "nbytes", "worker_pid", "uss", "shm_used", "shm_total"])
    if not len(rows):
        return pd.DataFrame({c: pd.Series(dtype="float64" if c == "t_s" else "int64") for c in MEMORY_COLUMNS})
    shm_used, shm_total = rows["shm_used"].to_numpy(), rows["shm_total"].to_numpy()  # loaderlab.engine.memory
    out = pd.DataFrame({"t_s": rows["t_s"].to_numpy(), "worker": rows["worker"].to_numpy(),
                        "pid": rows["worker_pid"].to_numpy(), "rss_bytes": rows["nbytes"].to_numpy(),
                        "uss_bytes": rows["uss"].to_numpy(),
                        "shm_used_bytes": np.where(shm_used < 0, 0, shm_used),
                        "shm_total_bytes": np.where(shm_total < 0, 0, shm_total)})
    return out.reset_index(drop=True)


def memory_checks(frame: pd.DataFrame) -> list[Finding]:
    """The memory findings: a worker copying what it only reads, a nearly full /dev/shm."""
    table = memory_table(frame)
    out: list[Finding] = []
    if not len(table):
        return out
    for (worker, pid), rows in table[table["uss_bytes"] >= 0].groupby(["worker", "pid"]):
        first, peak = int(rows["uss_bytes"].iloc[0]), int(rows["uss_bytes"].max())
        if peak - first > GROWTH_BYTES and peak > GROWTH_RATIO * max(first, 1):
            out.append(finding(kind=kinds.COPY_ON_ACCESS, severity="warning", worker=int(worker), pid=int(pid),
                            first_mb=first / 2**20, peak_mb=peak / 2**20))
    shm = table[table["shm_total_bytes"] > 0]
    if len(shm):
        share = shm["shm_used_bytes"] / shm["shm_total_bytes"]
        worst = int(share.to_numpy().argmax())
        if share.iloc[worst] > SHM_FULL:
            out.append(finding(kind=kinds.SHM_NEARLY_FULL, severity="error", share=float(share.iloc[worst]),
                            used_mb=int(shm["shm_used_bytes"].iloc[worst]) / 2**20,
                            total_mb=int(shm["shm_total_bytes"].iloc[worst]) / 2**20))
    return out
