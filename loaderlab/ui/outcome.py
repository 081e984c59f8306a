"""How a run that did not end normally is shown: failed (where, torch's message, the trace up to it),
stopped by the time cap (why, the stuck workers with their stacks), or refused because the server is busy.

Wiring only: :class:`loaderlab.scenarios.run.FailureReport` / ``Run.stop`` (a named type of
:mod:`loaderlab.trace.core.run`, dispatched on its type) → streamlit elements, words from :mod:`.texts`. The
partial trace is shown as the event table and the timeline.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures.timeline import timeline_figure
from ..trace.tables.faults import Site
from ..trace.tables.waits import stage_spans
from ..trace.core.run import Run, Stop, TimeCapped, UserStopped
from .texts import t


def site_text(site: Site) -> str:
    """The headline in the page's language: "worker 1 failed on index 37"."""
    who = t("fault.who.main") if site.worker == -1 else t("fault.who.worker", worker=site.worker)
    pid = "" if site.pid is None else t("fault.pid", pid=site.pid)
    if site.what == "killed":
        where = (t("fault.killed.index", index=site.index) if site.index is not None else
                 t("fault.killed.tasks", tasks=site.unfinished) if site.unfinished else "")
        return t("fault.site.killed", who=who, pid=pid, signal=site.signal or "?", where=where)
    return t(f"fault.site.{site.what}", who=who, pid=pid, index=site.index, task=site.task, indices=site.indices)


def partial_trace(frame: pd.DataFrame, key: str) -> None:
    """The events recorded before the run ended, as a timeline and as the event table."""
    st.subheader(t("fault.partial.title"))
    if not len(frame):
        st.caption(t("fault.partial.empty"))
        return
    st.caption(t("fault.partial.explain", events=len(frame), seconds=float(frame["t_s"].max())))
    spans = stage_spans(frame)
    if len(spans):
        names = {stage: t(f"stage.{stage}") for stage in ("startup", "fetch", "collate", "pin", "wait", "consume", "idle")}
        st.plotly_chart(timeline_figure(spans, x_title=t("timeline.x"), stage_names=names), theme=None,
                        key=f"{key}_timeline")
    st.dataframe(frame.drop(columns=["t_ns"]), hide_index=True, key=f"{key}_events")


def show_failure(report) -> None:
    """A failed run: the headline and torch's last line, the whole message in an expander, the partial trace."""
    text = report.message.strip()
    lines = text.splitlines()
    st.error(t("error.run_failed", kind=report.kind, message=lines[-1] if lines else text)
             + "\n\n" + site_text(report.site))
    if report.site.what == "unsent":
        st.info(t("fault.unsent.explain"))
    with st.expander(t("error.details")):
        st.code(text or report.kind, language="text")
    partial_trace(report.frame, "failed")


def show_stopped(stop: Stop) -> None:
    """A run stopped by the time cap (or by the user's Stop button): why, and each stuck worker with its stack."""
    match stop:
        case TimeCapped(seconds=seconds):
            st.warning(t("fault.stopped.cap", seconds=f"{seconds:g}"))
        case UserStopped():
            st.warning(t("fault.stopped.asked"))
        case _:
            st.warning(stop.text)
    for stuck in stop.stuck:
        st.error(t("fault.stuck", worker=stuck.worker, pid=stuck.pid, index=stuck.index,
                   since=stuck.since_s, last=stuck.last_event, ago=stuck.last_ago_s))
        if stuck.stack:
            with st.expander(t("fault.stack", worker=stuck.worker)):
                st.code(stuck.stack, language="text")


def show_warnings(*runs: Run) -> None:
    """Torch's warnings from the runs behind a page, each once (several runs often warn alike)."""
    for message in dict.fromkeys(m for run in runs for m in run.warnings):
        st.warning(message)


def show_busy(slots: int) -> None:
    """Every run slot stayed taken: say so, and how many runs the server allows, in the page's language."""
    st.warning(t("error.busy"))
    st.caption(t("error.busy.detail", slots=slots))
