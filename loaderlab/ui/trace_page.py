"""The "Your trace" page: load a recorded trace, follow one a job is still writing on this machine
(:mod:`.follow_trace`), or take the current run, and show its views and findings.

Wiring only: an upload → ``loaderlab.trace.files.io`` → the trace's tables (spans, queue depths, label counts,
findings) → figures, and the trace back out as LoaderLab JSON and as a Chrome trace. A trace too big to draw
span by span is shown by :mod:`.big_trace` (the whole run in time bins, the details of one window; findings
on request). Every problem with an upload is one ``st.error`` sentence, never a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from ..figures.depths import depth_figure
from ..figures.label_counts import label_counts_figure
from .label_shares_view import show_label_shares
from ..figures.timeline import timeline_figure
from ..scenarios.run import RunConfig
from ..trace.tables.audits import label_audit
from ..trace.tables.stays import queue_depths
from ..trace.tables.waits import stage_spans, STAGES
from ..trace.export.chrome import to_chrome_trace
from ..trace.diagnosis.findings import all_findings
from ..trace.files.columnar_read import TraceFileError
from ..trace.files.io import load_trace_bytes, trace_document
from ..trace.core.run import as_run, to_frame
from .big_trace import is_big, json_bytes, show_big
from .language import page_setup
from .outcome import show_warnings
from .settings import cached_run, sidebar_config, torch_code
from .diagnosis_view import show_diagnosis
from . import follow_trace
from .job_trace import pick_loader
from .texts import language, t
from .tuning_view import show_tuning

MAX_SPANS = 10_000  # a Gantt of bar traces stays responsive up to about this many bars (notes/streamlit.md)
FINDING_COLUMNS = ["severity", "message", "epoch", "batch", "worker", "index"]


def trace_from_upload(data: bytes, name: str) -> tuple[pd.DataFrame | None, str | None]:
    """An uploaded file's contents → ``(frame, None)``, or ``(None, one sentence saying what is wrong)``."""
    try:
        frame = load_trace_bytes(data, name)
    except TraceFileError as exc:
        return None, t("yourtrace.error.file", detail=exc)  # the detail is LoaderLab's English sentence
    if not len(frame):
        return None, t("yourtrace.error.empty", name=name)
    return frame, None


@dataclass(frozen=True)
class Views:
    """Everything the page draws for one trace, computed once per trace (cached)."""

    spans: pd.DataFrame
    depths: pd.DataFrame
    labels: pd.DataFrame  # label_audit(...).per_epoch
    findings: pd.DataFrame  # FINDING_COLUMNS
    batches: int
    trace_json: bytes
    chrome_json: bytes


def findings_table(frame: pd.DataFrame, lang: str = "en") -> pd.DataFrame:
    """The trace's findings, worded in ``lang``: ``FINDING_COLUMNS``."""
    found = all_findings(frame)
    findings = pd.DataFrame({"severity": [f.severity for f in found], "message": [f.text(lang) for f in found]},
                            dtype="str")
    for c in FINDING_COLUMNS[2:]:  # None where a finding is not about one batch, worker or sample
        findings[c] = pd.array([getattr(f, c) for f in found], dtype="Int64")
    return findings


def build_views(frame: pd.DataFrame, lang: str = "en") -> Views:
    """The trace's tables and downloads; the findings worded in ``lang``."""
    return Views(spans=stage_spans(frame), depths=queue_depths(frame),
                 labels=label_audit(frame).per_epoch, findings=findings_table(frame, lang),
                 batches=int((frame["kind"] == "batch_yield").sum()),
                 trace_json=json_bytes(trace_document(frame)), chrome_json=json_bytes(to_chrome_trace(frame)))


# A loaded trace is kept once per file and shared, not copied per rerun as st.cache_data would (a 10 M-event
# table is a gigabyte); nothing here modifies a frame in place. The caller shows a spinner in the page's language.
@st.cache_resource(max_entries=2, show_spinner=False)
def _upload_frame(file_id: str, name: str, _data: bytes) -> tuple[pd.DataFrame | None, str | None]:
    return trace_from_upload(_data, name)


@st.cache_data(max_entries=4, show_spinner=False)
def _small_views(token: str, name: str, lang: str, _frame: pd.DataFrame) -> tuple[Views | None, str | None]:
    try:
        return build_views(_frame, lang), None
    except Exception as exc:  # a file that parses but whose events contradict each other: say so, in words
        return None, t("yourtrace.error.views", name=name, error=f"{type(exc).__name__}: {exc}")


@st.cache_data(max_entries=4, show_spinner=False)
def _big_findings(token: str, lang: str, _frame: pd.DataFrame) -> pd.DataFrame:
    return findings_table(_frame, lang)


def _downloads(views: Views, stem: str) -> None:
    c1, c2 = st.columns(2)
    c1.download_button(t("yourtrace.download.trace"), views.trace_json, file_name=f"{stem}.json",
                       mime="application/json", help=t("yourtrace.download.help"), key="download_trace")
    c2.download_button(t("yourtrace.download.chrome"), views.chrome_json, file_name=f"{stem}.chrome.json",
                       mime="application/json", help=t("yourtrace.download.chrome_help"), key="download_chrome")


def _findings(findings: pd.DataFrame) -> None:
    if not len(findings):
        st.success(t("yourtrace.findings.none"))
        return
    table = findings.assign(severity=findings["severity"].map(lambda s: t(f"yourtrace.severity.{s}")))
    for column in ("epoch", "batch", "worker", "index"):  # None: the finding is not about one of these
        table[column] = [("" if pd.isna(v) else str(v)) for v in table[column]]
    # st.table wraps long messages, where st.dataframe would cut them off
    st.table(table.rename(columns={c: t(f"yourtrace.col.{c}") for c in FINDING_COLUMNS}), hide_index=True)


def _views(views: Views) -> None:
    st.subheader(t("timeline.title"))
    st.caption(t("timeline.explain"))
    spans = views.spans
    if len(spans) > MAX_SPANS:
        st.caption(t("yourtrace.timeline.cut", shown=MAX_SPANS, total=len(spans)))
        spans = spans.head(MAX_SPANS)  # spans are sorted by start: the first MAX_SPANS of the trace
    names = {stage: t(f"stage.{stage}") for stage in STAGES}
    lanes = {lane: t(f"timeline.lane.{lane}") for lane in ("main", "pin", "worker")}
    st.plotly_chart(timeline_figure(spans, x_title=t("timeline.x"), stage_names=names, lane_names=lanes,
                                    hover=t("timeline.hover")), theme=None)

    st.subheader(t("yourtrace.depths.title"))
    if len(views.depths):
        st.caption(t("yourtrace.depths.explain"))
        st.plotly_chart(depth_figure(views.depths, x_title=t("yourtrace.depths.x"), y_title=t("yourtrace.depths.y")),
                        theme=None)
    else:
        st.info(t("yourtrace.depths.none"))

    st.subheader(t("yourtrace.labels.title"))
    if len(views.labels):
        st.plotly_chart(label_counts_figure(views.labels, x_title=t("yourtrace.labels.x"),
                                            y_title=t("yourtrace.labels.y"), epoch_name=t("yourtrace.labels.epoch")),
                        theme=None)
    else:
        st.info(t("yourtrace.labels.none"))


def _upload_limit_mb() -> int:
    return int(st.get_option("server.maxUploadSize"))


def main() -> None:
    page_setup("yourtrace")
    following = bool((st.session_state.get(follow_trace.KEY) or "").strip())
    if st.session_state.get("trace_upload") is None and not following:
        config = sidebar_config()
    else:  # an uploaded or followed trace is shown: LoaderLab's run settings do not apply to it, so not drawn
        st.sidebar.info(t("yourtrace.sidebar.hidden"))
        config = None
    limit = _upload_limit_mb()
    upload = st.file_uploader(t("yourtrace.upload"), type=["json", "lltrace"], key="trace_upload",
                              help=t("yourtrace.upload.limit", mb=limit, double=2 * limit))
    path = follow_trace.path_input()  # or a trace on this machine, followed while its job writes it
    if upload is None and path:
        follow_trace.show_follow(path, show_trace)
    elif upload is not None:
        with st.spinner(t("spinner.trace")):
            frame, error = _upload_frame(getattr(upload, "file_id", None) or f"{upload.name}:{upload.size}",
                                         upload.name, upload.getvalue())
        if error:
            st.error(error)
            return
        token = f"upload:{getattr(upload, 'file_id', '')}:{upload.name}:{upload.size}"
        frame, which = pick_loader(frame, "trace_loader", token)  # a `loaderlab run` job: one DataLoader at a time
        token += which
        show_trace(frame, token=token, name=upload.name, stem=upload.name.rsplit(".", 1)[0],
                   warnings=lambda: show_warnings(as_run(frame)))
    elif config is None:
        return  # torch rejects the sidebar's settings (the sidebar says why), or the upload was just removed
    else:
        run = cached_run(config)
        show_trace(to_frame(run), token=f"run:{config!r}", name=None, stem="loaderlab-trace",
                   config=config, warnings=lambda: show_warnings(run))


def show_trace(frame: pd.DataFrame, *, token: str, name: str | None, stem: str, config: RunConfig | None = None,
               warnings: Callable[[], None] = lambda: None) -> None:
    """Everything the page shows for one trace (``name``: the uploaded file's, None for the current run;
    ``token``: names this trace for the caches; ``warnings``: shows torch's warnings of the run behind it).
    A big trace gets the overview and a window (:mod:`.big_trace`)."""
    big = is_big(frame)
    views = None
    if not big:
        with st.spinner(t("spinner.trace")):
            views, error = _small_views(token, name or stem, language(), frame)
        if error:
            st.error(error)
            return
    batches = views.batches if views else int((frame["kind"] == "batch_yield").sum())
    if name is None:
        st.caption(t("yourtrace.source.run", events=len(frame), batches=batches))
    else:
        st.caption(t("yourtrace.source.upload", name=name, events=len(frame), batches=batches))
    warnings()
    show_tuning(frame)  # run --tune: what each setting measured inside the job, before the model's reading
    if big:
        show_big(frame, token=token, name=name or f"{stem}.json", stem=stem)
        st.subheader(t("yourtrace.findings.title"))
        asked = st.session_state.get("trace_findings") == token
        if asked or st.button(t("yourtrace.findings.button"), key="trace_findings_button",
                              help=t("yourtrace.findings.big", events=len(frame))):
            st.session_state["trace_findings"] = token
            with st.spinner(t("spinner.trace")):
                _findings(_big_findings(token, language(), frame))
    else:
        _downloads(views, stem)
        st.subheader(t("yourtrace.findings.title"))
        show_diagnosis(frame, key="trace", trace_id=token)  # the cause and what to change, before the list of findings
        _findings(views.findings)
        _views(views)
        show_label_shares(frame, token)  # the data's, the sampler's and the loop's label shares (issue 35)
    settings = as_run(frame).loader
    if settings:
        with st.expander(t("yourtrace.settings")):
            st.json(dict(settings))
    if config is not None:
        with st.expander(t("code.title")):
            st.code(torch_code(config), language="python")
