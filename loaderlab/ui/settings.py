"""The sidebar: presets, widgets that mirror the DataLoader constructor, and the workload.

Returns a frozen ``RunConfig``. When torch rejects a combination, torch's own message is shown under
the control it names, and no run starts. Widget keys equal RunConfig field names, so presets and
"change it yourself" links set widgets by name.
"""

from __future__ import annotations

import re
import warnings
from contextlib import contextmanager
from dataclasses import fields, replace

import streamlit as st

from ..scenarios import sources
from ..scenarios.datasets import FAULTS
from ..scenarios.limits import DEFAULTS, LimitError, ServerBusy, limits
from ..scenarios.run import (
    BATCH_SAMPLERS,
    COLLATES,
    KINDS,
    NOT_CONTROLS,
    PRESETS,
    SAMPLERS,
    SOURCES,
    FailureReport,
    RunConfig,
    build_loader,
)
from .live_run import outcome as live_outcome
from .live_run import run_lock  # noqa: F401 (pages take the run slots from here)
from .control_ranges import clamp, ranges
from .language import page_switched
from .outcome import partial_trace, show_busy, show_failure, show_stopped
from .query_settings import apply_query_settings
from .texts import EN, bound, t
from .torch_code import torch_code  # noqa: F401 (pages take the printed code from here)


def _caps():
    try:
        return limits()
    except LimitError:  # the sidebar says what is wrong; the widgets keep the defaults meanwhile
        return DEFAULTS


MAX_WORKERS = _caps().max_workers  # at import: for pages that size a sweep; the sidebar reads the caps per run
_FIELDS = {f.name for f in fields(RunConfig)} - set(NOT_CONTROLS)  # the widgets' keys

# Which control a torch message is about: the first parameter name it mentions, in this order.
_BLAME_ORDER = ("fault", "batch_sampler", "sampler", "persistent_workers", "prefetch_factor", "multiprocessing_context",
                "drop_last", "shuffle", "num_workers", "timeout", "batch_size")


KEPT = "sidebar_kept"  # the settings themselves: a session-state key that no widget owns


def put_setting(key: str, value) -> None:
    """Set one sidebar setting from code (a link, a page's own button): the widget's value for this run and
    the kept value that seeds the widget on every later page."""
    st.session_state[key] = value
    st.session_state.setdefault(KEPT, {})[key] = value


def _apply_preset() -> None:
    name = st.session_state.get("preset")
    if name in PRESETS:
        for key, value in clamp({**_defaults(), **PRESETS[name]}, _caps()).items():
            st.session_state[key] = value


def _defaults() -> dict:
    d = RunConfig()
    return {f: getattr(d, f) for f in _FIELDS if not f.startswith("uploaded_")}


def _init_state(caps) -> None:
    """Every widget's value for this run: on a page switch the kept settings, otherwise what the session holds
    (the user's change, a preset, a page's own control), defaults where neither has a value; each numeric
    value moved into its control's range under ``caps``, so no widget ever meets a value beyond its bounds (a
    lowered cap, a preset, a default of 2000 samples). The result is kept for the next page.

    Why a key no widget owns: Streamlit treats another page's sidebar as other widgets, and on a page switch it
    drops their state or hands the new widgets their minimums; so on a switch the kept values win."""
    kept = st.session_state.setdefault(KEPT, {})
    if not page_switched():
        kept.update({key: st.session_state[key] for key in ("preset", *_defaults()) if key in st.session_state})
    for key, value in {"preset": "—", **_defaults()}.items():
        kept.setdefault(key, value)
    kept.update(clamp({key: kept[key] for key in ranges(caps) if key in kept}, caps))
    for key, value in kept.items():
        st.session_state[key] = value


def blamed_control(message: str) -> str:
    for name in _BLAME_ORDER:
        if re.search(rf"\b{name}\b", message):
            return name
    return "batch_size"


def sidebar_config() -> RunConfig | None:
    """Draw the controls; return the config, or None when torch (or an upload) rejects the settings."""
    try:
        caps = limits()
    except LimitError as exc:  # a misconfigured server says so on its first page
        st.error(str(exc))
        return None
    _init_state(caps)
    # a lesson's "change it yourself" link fills the widgets once; what it could not use, the page says
    for note in apply_query_settings(clamp(_defaults(), caps), caps, put_setting):
        st.warning(note)
    bound_of = ranges(caps)
    sb = st.sidebar

    def slider(label: str, key: str, **kwargs) -> None:
        least, most = bound_of[key]
        if least == most:  # a cap leaves one value (LOADERLAB_MAX_WORKERS=0): a slider cannot span it
            sb.number_input(label, least, most, key=key, disabled=True)
        else:
            sb.slider(label, least, most, key=key, **kwargs)

    tt = bound()  # format_func may be called outside this run's thread: its words are fixed now
    sb.selectbox(t("control.preset"), ["—", *PRESETS], key="preset", on_change=_apply_preset,
                 format_func=lambda v: tt(f"preset.{v}") if f"preset.{v}" in EN else v)
    slots: dict[str, object] = {}

    def slot(name: str) -> None:
        slots[name] = sb.empty()  # where torch's complaint about this control goes

    sb.header(t("sidebar.loader"))
    slider("batch_size", "batch_size"); slot("batch_size")
    sb.checkbox("shuffle", key="shuffle"); slot("shuffle")
    sb.selectbox("sampler", SAMPLERS, key="sampler", format_func=lambda v: tt(f"choice.sampler.{v}")); slot("sampler")
    sb.checkbox("replacement", key="replacement", disabled=st.session_state["sampler"] != "weighted")
    sb.selectbox("batch_sampler", BATCH_SAMPLERS, key="batch_sampler",
                 format_func=lambda v: tt(f"choice.batch_sampler.{v}")); slot("batch_sampler")
    sb.selectbox("collate_fn", COLLATES, key="collate", format_func=lambda v: tt(f"choice.collate.{v}"))
    sb.checkbox("drop_last", key="drop_last"); slot("drop_last")
    slider("num_workers", "num_workers"); slot("num_workers")
    slider("prefetch_factor", "prefetch_factor", disabled=st.session_state["num_workers"] == 0)
    slot("prefetch_factor")
    sb.checkbox("in_order", key="in_order")
    sb.checkbox("persistent_workers", key="persistent_workers"); slot("persistent_workers")
    sb.checkbox("pin_memory", key="pin_memory")
    sb.number_input("timeout", *bound_of["timeout"], key="timeout", step=1.0); slot("timeout")
    sb.number_input(t("control.seed"), *bound_of["seed"], key="seed")

    sb.header(t("sidebar.workload"))
    sb.selectbox(t("control.source"), SOURCES, key="source", format_func=lambda v: tt(f"choice.source.{v}"))
    uploaded = (), ()
    if st.session_state["source"] == "uploaded":
        upload = sb.file_uploader(t("control.upload"), type=["csv"], key="upload")
        if upload is None:
            sb.info(t("upload.needed"))
            return None
        try:
            uploaded = sources.parse_upload(upload.getvalue(), upload.name)
        except sources.UploadError as exc:
            sb.error(t("upload.error", detail=exc))  # the detail is LoaderLab's English sentence
            return None
    elif st.session_state["source"] == "synthetic":
        slider(t("control.n_samples"), "n_samples")
        slider(t("control.imbalance"), "imbalance")
        slider(t("control.length"), "length")
        slider(t("control.length_spread"), "length_spread")
    sb.selectbox(t("control.kind"), KINDS, key="kind", format_func=lambda v: tt(f"choice.kind.{v}"))
    slider(t("control.cost_ms"), "cost_ms")
    sb.number_input(t("control.straggler_index"), *bound_of["straggler_index"], key="straggler_index")
    slider(t("control.straggler_ms"), "straggler_ms")
    sb.number_input(t("control.slow_worker"), *bound_of["slow_worker"], key="slow_worker")
    slider(t("control.slow_factor"), "slow_factor")
    slider(t("control.consumer_ms"), "consumer_ms")
    slider(t("control.epochs"), "epochs")
    sb.selectbox(t("control.fault"), FAULTS, key="fault", format_func=lambda v: tt(f"choice.fault.{v}")); slot("fault")
    sb.number_input(t("control.fault_index"), *bound_of["fault_index"], key="fault_index", disabled=st.session_state["fault"] == "none")

    values = {f: st.session_state[f] for f in _FIELDS if f in st.session_state}
    config = replace(RunConfig(), **values, uploaded_labels=uploaded[0], uploaded_lengths=uploaded[1])
    try:
        with warnings.catch_warnings():  # warnings are shown with the run's results, once
            warnings.simplefilter("ignore")
            build_loader(config)  # torch's own validation, before any process starts
    except LimitError as exc:  # not torch's: this server's caps (a sample file longer than LOADERLAB_MAX_SAMPLES)
        sb.error(t("error.cap", message=exc))
        return None
    except (ValueError, TypeError) as exc:
        slots.get(blamed_control(str(exc)), slots["batch_size"]).error(t("error.invalid", message=exc))
        return None
    return config


@contextmanager
def running():
    """Around a page's call of a cached run: the spinner, and when every run slot stays taken, the
    "server busy" message in place of the page (ServerBusy is raised, not cached, so the next visit retries)."""
    try:
        with st.spinner(t("spinner.run")):
            yield
    except ServerBusy:  # its message is English; the page words the server's cap itself
        show_busy(_caps().max_concurrent_runs)
        st.stop()


def cached_run(config: RunConfig):
    """The recorded run for ``config`` (cached). If the run fails — a worker raised or died, collate could
    not stack the samples — the page says which worker and which index, with torch's message and the
    trace up to the failure, and stops: no traceback. While the run goes on, the page shows it live and
    offers to stop a stalled one (:mod:`.live_run`). A run stopped by the time cap or by the user says so
    above the trace it recorded; a server with every run slot taken says it is busy."""
    try:
        with running():
            outcome = live_outcome(config)
    except Exception as exc:  # the user's settings made the loader fail: that is the lesson, not a crash
        text = str(exc).strip()
        lines = text.splitlines()
        st.error(t("error.run_failed", kind=type(exc).__name__, message=lines[-1] if lines else text))
        with st.expander(t("error.details")):
            st.code(text or repr(exc), language="text")
        st.stop()
    if isinstance(outcome, FailureReport):
        show_failure(outcome)
        st.stop()
    if outcome.stop is not None:
        show_stopped(outcome.stop)
        if not (outcome.events["kind"] == "batch_yield").any():  # nothing for the page to draw: show the events
            partial_trace(outcome.events, "stopped")
            st.stop()
    return outcome
