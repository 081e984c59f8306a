"""The plain-text report of a trace: settings, throughput, main-process wait, workers, findings.

Twin of nothing in torch. Lays out what :mod:`loaderlab.trace.tables.waits`, :mod:`loaderlab.trace.tables.utilisation` and :mod:`loaderlab.trace.diagnosis.findings`
compute; the command line's ``report`` prints it.
Its words, and the findings', come from :mod:`loaderlab.texts.words` in the language asked for (``en``, ``ko``);
setting names and finding kinds stay as code. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import math

import pandas as pd

from ..ranks.analysis import by_rank, rank_findings, world_size
from ..tables.utilisation import worker_utilisation
from ..tables.waits import loop_wait, SECONDS_SPEC, throughput, wait_totals
from ...texts import text
from .findings import all_findings
from .label_report import distribution_lines
from ..core.cache import shared_tables
from ..core.lookups import settings
from ..core.payload import size_text
from ..core.run import as_run, events_of, Run
from .summary import summarise
from .bottleneck import verdict, Verdict
from .tuning_report import tuning_lines

SETTING_KEYS = ("dataset", "dataset_len", "batch_size", "sampler", "num_workers", "prefetch_factor", "in_order",
                "persistent_workers", "pin_memory", "multiprocessing_context")


def report_text(frame: pd.DataFrame | Run, lang: str = "en", suggestions: list | None = None) -> str:
    """The report of a run (or a bare events table); a multi-rank trace (a ``rank`` column) gets one report
    per rank, then the ranks' findings."""
    with shared_tables():  # the verdict, the tables and the findings read the same worker and queue tables
        if "rank" in events_of(frame).columns:
            return _ranks_report(frame, lang)
        return _report(frame, lang, suggestions)


def _ranks_report(frame: pd.DataFrame, lang: str) -> str:
    parts = []
    run = as_run(frame)
    for rank, part in by_rank(frame).items():
        part = run.with_events(events_of(part))  # each rank's events, the run's settings
        parts.append(text("report.rank", lang, rank=rank) + "\n" + _report(part, lang))
    found = rank_findings(frame)
    lines = [text("report.ranks", lang, n=world_size(frame)),
             text("report.findings", lang, n=len(found)) if found else text("report.findings_none", lang)]
    lines += [text("report.finding_row", lang, severity=f.severity_text(lang), kind=f.kind, message=f.text(lang))
              for f in found]
    return "\n".join(parts) + "\n" + "\n".join(lines) + "\n"


def _report(frame: pd.DataFrame | Run, lang: str, suggestions: list | None = None) -> str:
    na = text("report.na", lang)

    def s(value: float, digits: int = 3) -> str:
        return na if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.{digits}f}"

    def share(value: float) -> str:
        return na if math.isnan(value) else f"{value:.0%}"

    def startup(value: float) -> str:
        return (text("report.startup_unknown", lang) if value is None or math.isnan(value)
                else text("report.startup_s", lang, value=s(value)))

    lines = [text("report.title", lang), ""]
    found_settings = settings(frame)
    if found_settings:
        lines += settings_lines(found_settings, lang)
    lines.append(text("report.events", lang, n=len(events_of(frame))))
    payload = summarise(frame).payload
    if not math.isnan(payload.nbytes):
        tensors = int(payload.tensors) if not math.isnan(payload.tensors) else "?"
        lines.append(text("report.payload", lang, tensors=tensors, size=size_text(payload.nbytes)))

    tuned = tuning_lines(getattr(frame, "attrs", {}).get("tuning"), lang, getattr(frame, "attrs", {}).get("epochs"))
    if tuned:  # run --tune: what was measured comes before what the model reads from the trace
        lines += ["", *tuned]
    found_verdict = verdict(frame)
    lines += ["", *diagnosis_lines(frame, lang, suggestions, found_verdict)]  # the verdict first: what to look at
    lines += ["", text("report.throughput", lang)]
    for r in throughput(frame).itertuples():
        lines.append(text("report.throughput_row", lang, epoch=r.epoch, batches=r.batches, samples=s(r.samples, 0),
                          duration=s(r.duration_s), bps=s(r.batches_per_s, 1), sps=s(r.samples_per_s, 1),
                          first=s(r.first_batch_s)))

    lines += ["", text("report.wait", lang)]
    totals = wait_totals(frame)
    for r in totals.itertuples():
        lines.append(text("report.wait_row", lang, epoch=r.epoch, wait=s(r.steady_wait_s), first=s(r.first_wait_s),
                          consume=s(r.consume_s), share=share(r.wait_share)))
    if len(totals):
        loop = loop_wait(frame)  # the numbers the timelines page and the loader-bound verdict show
        lines.append(text("report.wait_total", lang, wait=loop.wait_text(), first=s(loop.first_wait_s),
                          consume=format(loop.consume_s, SECONDS_SPEC), share=loop.share_text()))

    util = worker_utilisation(frame)
    if len(util):
        lines += ["", text("report.workers", lang)]
        for r in util.itertuples():
            lines.append(text("report.worker_row", lang, worker=r.worker, pid=r.pid, epoch=r.epoch,
                              startup=startup(r.startup_s), busy=s(r.busy_s), busy_share=share(r.busy_fraction),
                              idle=s(r.idle_s), capped=s(r.capped_idle_s)))

    lines += ["", *label_lines(frame, lang)]
    shares = distribution_lines(frame, lang)  # the data's, the sampler's and the loop's shares (issue 35)
    lines += ["", *shares] if shares else []
    found = all_findings(frame, found_verdict)
    lines += ["", text("report.findings", lang, n=len(found)) if found else text("report.findings_none", lang)]
    lines += [text("report.finding_row", lang, severity=f.severity_text(lang), kind=f.kind, message=f.text(lang))
              for f in found]
    return "\n".join(lines) + "\n"


def settings_lines(found: dict, lang: str) -> list[str]:
    """The settings line; for a loader a library re-created from the user's (``run`` under Lightning or
    Accelerate: a ``wrapper`` entry), the settings as the user wrote them, then what the library changed."""
    joined = ", ".join(f"{k}={found[k]}" for k in SETTING_KEYS if k in found)
    wrapper = found.get("wrapper")
    if not isinstance(wrapper, dict):
        return [text("report.settings", lang, settings=joined)]
    changes = ", ".join(f"{k}={v}" for k, v in (wrapper.get("changed") or {}).items())
    parts = [changes or text("report.wrapper_same", lang)]
    if wrapper.get("keeps_batches"):
        parts.append(text("report.wrapper_keeps", lang, sampler=found.get("sampler")))
    inside = (wrapper.get("inside") or "").rsplit(".", 1)[-1]
    line = text("report.wrapper_inside" if inside else "report.wrapper", lang, by=wrapper.get("by"), inside=inside,
                at=wrapper.get("at"), changes="; ".join(parts))
    return [text("report.settings_written", lang, settings=joined), line]


def diagnosis_lines(frame, lang: str, suggestions: list | None = None, found: Verdict | None = None) -> list[str]:
    """The bottleneck verdict's title and sentence (``found``, worked out when not given), then the predicted
    suggestions when given (a list from :func:`loaderlab.trace.diagnosis.suggestions.suggest`; an empty list
    says why there are none)."""
    from .suggestions import why_none_text

    found = verdict(frame) if found is None else found
    # the tag names the wording shown below it (a kind's variant: workers_latency, workers_contended…)
    lines = [text("report.bottleneck", lang, title=found.title(lang), wording=found.key), "  " + found.text(lang)]
    if suggestions is None:
        return lines
    lines += ["", text("report.suggestions", lang)]
    if not suggestions:
        return lines + ["  " + why_none_text(found, frame, lang)]
    return lines + ["  " + s.text(lang) for s in suggestions]


MAX_LABELS = 5  # per epoch, the most common labels shown; the rest are counted


def label_lines(frame, lang: str) -> list[str]:
    """Per epoch, the labels the loop received and their shares (most common first); or that none were
    recorded, and how to record them."""
    from ..tables.audits import label_audit

    per_epoch = label_audit(frame).per_epoch
    if not len(per_epoch):
        return [text("report.labels_none", lang)]
    lines = [text("report.labels", lang)]
    for epoch, g in per_epoch.groupby("epoch"):
        g = g.sort_values("count", ascending=False, kind="stable")
        shown = ", ".join(text("report.label_share", lang, label=r.label, share=r.share)
                          for r in g.head(MAX_LABELS).itertuples())
        more = text("report.labels_more", lang, n=len(g) - MAX_LABELS) if len(g) > MAX_LABELS else ""
        lines.append(text("report.labels_row", lang, epoch=int(epoch), samples=int(g["count"].sum()), n=len(g),
                          labels=shown + more))
    return lines
