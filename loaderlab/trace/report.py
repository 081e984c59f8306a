"""The plain-text report of a trace: settings, throughput, main-process wait, workers, findings.

Twin of nothing in torch. Lays out what :mod:`.analysis`, :mod:`.utilisation` and :mod:`.findings`
compute; the command line's ``report`` prints it (via :func:`loaderlab.trace.findings.report_text`).
Knows nothing of plotly or streamlit. English only for now: the findings' own messages come from
``findings.TEMPLATES``.
"""

from __future__ import annotations

import math

import pandas as pd

from .analysis import throughput, wait_totals, worker_utilisation
from .findings import all_findings
from .tables import settings

SETTING_KEYS = ("dataset", "dataset_len", "batch_size", "sampler", "num_workers", "prefetch_factor", "in_order",
                "persistent_workers", "pin_memory", "multiprocessing_context")


def _s(value: float, digits: int = 3) -> str:
    return "n/a" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"


def report_text(frame: pd.DataFrame) -> str:
    lines = ["LoaderLab report", ""]
    s = settings(frame)
    if s:
        lines.append("Settings: " + ", ".join(f"{k}={s[k]}" for k in SETTING_KEYS if k in s))
    lines.append(f"Events: {len(frame)}")

    lines += ["", "Throughput:"]
    for r in throughput(frame).itertuples():
        lines.append(f"  epoch {r.epoch}: {r.batches} batches, {_s(r.samples, 0)} samples in {_s(r.duration_s)} s"
                     f" = {_s(r.batches_per_s, 1)} batches/s, {_s(r.samples_per_s, 1)} samples/s;"
                     f" first batch after {_s(r.first_batch_s)} s")

    lines += ["", "Main-process wait (time blocked in next()):"]
    for r in wait_totals(frame).itertuples():
        share = "n/a" if math.isnan(r.wait_share) else f"{r.wait_share:.0%}"
        lines.append(f"  epoch {r.epoch}: waited {_s(r.wait_s)} s (first batch {_s(r.first_wait_s)} s), "
                     f"loop body {_s(r.consume_s)} s; {share} of the steady time spent waiting")

    util = worker_utilisation(frame)
    if len(util):
        lines += ["", "Workers:"]
        for r in util.itertuples():
            busy = "n/a" if math.isnan(r.busy_fraction) else f"{r.busy_fraction:.0%}"
            lines.append(f"  worker {r.worker} (pid {r.pid}, from epoch {r.epoch}): start-up {_s(r.startup_s)} s, "
                         f"busy {_s(r.busy_s)} s ({busy}), idle {_s(r.idle_s)} s, "
                         f"of which {_s(r.capped_idle_s)} s at the prefetch cap")

    found = all_findings(frame)
    lines += ["", f"Findings ({len(found)}):" if found else "Findings: none"]
    lines += [f"  [{f.severity}] {f.kind}: {f.message}" for f in found]
    return "\n".join(lines) + "\n"
