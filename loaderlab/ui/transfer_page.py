"""The "Pinned memory & GPU transfer" page: pageable vs pinned + non_blocking copies, as timelines.

Wiring only: widgets → ``loaderlab.scenarios.transfer`` (measured with CUDA, modelled without) → figures, and a
short run of the sidebar's loader with ``pin_memory=True`` to show its own pin stage.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st
import torch

from ..figures.transfer import breakdown, transfer_timeline_figure, transfer_totals_figure
from ..scenarios.run import RunConfig
from ..trace.core.run import Run
from ..scenarios.transfer import (
    DEFAULT_GBPS,
    MODES,
    STAGES,
    measure_transfers,
    model_transfers,
    rate,
    summarise,
)
from .language import page_setup
from .outcome import show_warnings
from .settings import cached_run, sidebar_config, torch_code
from .texts import t

PIN_DEMO_SAMPLES = 128  # enough batches to show the stage, short enough to run in about a second
FALLBACK_MB = 64.0  # an image batch's order of size: where the sidebar's batch is rejected or too small
MEASURABLE_BYTES = 1_000_000  # on a GPU, a smaller batch's copy is all latency: no bandwidth to see
BATCH_MB, AUTO_MB = "transfer_batch_mb", "transfer_batch_mb_auto"  # the control, and the default it last got


@st.cache_data(max_entries=8, show_spinner=False)  # the caller shows a spinner in the page's language
def _measured(batch_bytes: int, n_batches: int, compute_ms: float) -> pd.DataFrame:
    return measure_transfers(batch_bytes, n_batches, compute_ms)


def _follow(default_mb: float) -> None:
    """The batch size starts at ``default_mb`` (the sidebar's real batch) and follows it when the sidebar
    changes, until the user types a size of their own."""
    if st.session_state.get(AUTO_MB) != default_mb:
        if st.session_state.get(BATCH_MB, st.session_state.get(AUTO_MB)) == st.session_state.get(AUTO_MB):
            st.session_state[BATCH_MB] = default_mb
        st.session_state[AUTO_MB] = default_mb


def start_mb(real_bytes: int | None, measured: bool) -> tuple[float, bool]:
    """Where the batch-size control starts, and whether that is the image-batch fallback instead of the
    sidebar's real batch: on a GPU a batch under :data:`MEASURABLE_BYTES` copies in the launch latency, so
    its measured bandwidths and saving would read as nothing (an H200 showed "0.0 GB/s" and "saves 1%" for
    the sidebar's 16 bytes, 45 GB/s pinned against 6.8 pageable at 64 MB)."""
    if not real_bytes:
        return FALLBACK_MB, False
    if measured and real_bytes < MEASURABLE_BYTES:
        return FALLBACK_MB, True
    return real_bytes / 1e6, False


def _controls(measured: bool, real_bytes: int | None) -> tuple[int, int, float, dict[str, float]]:
    default_mb, fell_back = start_mb(real_bytes, measured)
    _follow(default_mb)
    c1, c2, c3 = st.columns(3)
    batch_mb = c1.number_input(t("transfer.control.batch_mb"), 1e-6, 2048.0, step=1.0, format="%g", key=BATCH_MB)
    n_batches = c2.slider(t("transfer.control.n_batches"), 2, 32, 8, key="transfer_n_batches")
    compute_ms = c3.slider(t("transfer.control.compute_ms"), 0.0, 100.0, 10.0, step=0.5, key="transfer_compute_ms")
    help_ = t("transfer.control.measured_help") if measured else None
    gbps = {}
    for column, name in zip(st.columns(3), DEFAULT_GBPS):
        gbps[name] = column.number_input(t(f"transfer.control.{name}"), 0.1, 200.0, DEFAULT_GBPS[name], step=0.5,
                                         key=f"transfer_{name}", disabled=measured, help=help_)
    if fell_back:
        st.caption(t("transfer.control.fallback", batch_size=st.session_state.get("batch_size"),
                     nbytes=f"{real_bytes:,}", mb=f"{FALLBACK_MB:g}"))
    elif real_bytes:
        st.caption(t("transfer.control.from_sidebar", batch_size=st.session_state.get("batch_size"),
                     nbytes=f"{real_bytes:,}"))
    return max(1, round(batch_mb * 1e6)), n_batches, compute_ms, gbps


def _rate_text(gbps: float) -> str:
    value, unit = rate(gbps)
    return "–" if value is None else f"{value:.1f} {unit}"


def ms_text(ms: float) -> str:
    """A duration in ms as the page writes it: one decimal, or two significant digits where one decimal would
    read 0.0 for time that was spent (a batch of a few kB copies in microseconds)."""
    if ms >= 0.1 or ms <= 0:
        return f"{max(ms, 0.0):.1f}"
    return f"{ms:.2g}" if ms >= 0.001 else "< 0.001"


def change_text(pinned_ms: float, pageable_ms: float) -> str:
    """The pinned epoch against the pageable one, as the metric's change shows it (one decimal, signed); a
    change that rounds to nothing is "0.0", never "-0.0"."""
    shown = round(pinned_ms - pageable_ms, 1) + 0.0  # + 0.0: -0.0 becomes 0.0
    return f"{shown:+.1f}" if shown else "0.0"


def _verdict(summary: pd.DataFrame) -> str:
    """One sentence from the same summary rows as the metrics above it: where the two epochs are about the
    same, it says how much copying there was, so that a large share hidden (the metric) does not read as a
    saving that should have shown."""
    pageable, pinned = (summary.set_index("mode").loc[m] for m in MODES)
    if pinned["total_ms"] < pageable["total_ms"] * 0.995:
        return t("transfer.verdict.faster", saved=1 - pinned["total_ms"] / pageable["total_ms"],
                 overlap=pinned["overlap"])
    if pinned["total_ms"] > pageable["total_ms"] * 1.005:
        return t("transfer.verdict.slower", lost=pinned["total_ms"] / pageable["total_ms"] - 1,
                 pin_ms=pinned["pin_ms"] / pinned["batches"])
    totals = {"pageable": ms_text(pageable["total_ms"]), "pinned": ms_text(pinned["total_ms"])}
    if pageable["copy_ms"] < pageable["total_ms"] * 0.005:  # hiding all of it could not show in the epoch
        return t("transfer.verdict.same_small_copy", **totals, copy=ms_text(pageable["copy_ms"]),
                 pinned_copy=ms_text(pinned["copy_ms"]), overlap=pinned["overlap"])
    idle = float(breakdown(summary).set_index("mode").loc["pinned", "idle_ms"])
    return t("transfer.verdict.same", **totals, overlap=pinned["overlap"], hidden=ms_text(pinned["hidden_copy_ms"]),
             idle=ms_text(idle))


def _demo(config: RunConfig | None) -> tuple[RunConfig | None, pd.DataFrame | None, int | None]:
    """The sidebar's loader with ``pin_memory=True`` on a few batches: its config, its trace and the bytes of
    its median batch (the real batch the copy controls start from; None when the sidebar's settings fail)."""
    if config is None:
        return None, None, None
    demo = replace(config, pin_memory=True, n_samples=min(config.n_samples, PIN_DEMO_SAMPLES), epochs=1)
    run = cached_run(demo)
    ends = run.events[run.events["kind"] == "pin_end"]
    return demo, run, int(ends["nbytes"].median()) if len(ends) else None


def _engine_pin_stage(demo: RunConfig | None, run: Run | None) -> None:
    st.subheader(t("transfer.engine.title"))
    if demo is None:
        st.info(t("transfer.engine.rejected"))
        return
    st.write(t("transfer.engine.explain", n=PIN_DEMO_SAMPLES))
    show_warnings(run)
    pins = run.events[run.events["kind"].isin(["pin_begin", "pin_end"])]
    ends = pins[pins["kind"] == "pin_end"]
    c1, c2, c3 = st.columns(3)
    c1.metric(t("transfer.engine.events"), len(pins))
    c2.metric(t("transfer.engine.batches"), len(ends))
    c3.metric(t("transfer.engine.bytes"), f"{int(ends['nbytes'].median()):,}" if len(ends) else "–")
    details = sorted(set(pins["detail"]))
    if not len(pins):
        st.info(t("transfer.engine.none"))
    elif details == [""]:
        st.success(t("transfer.engine.pinned", n=len(ends)))
    else:
        st.info(t("transfer.engine.skipped", detail=", ".join(d for d in details if d)))
    st.dataframe(pins.drop(columns=["t_ns", "label", "length", "index"]).head(8), hide_index=True)
    with st.expander(t("code.title")):
        st.code(torch_code(demo), language="python")


def main() -> None:
    page_setup("transfer")
    config = sidebar_config()
    demo, run, real_bytes = _demo(config)
    measured = torch.cuda.is_available()
    batch_bytes, n_batches, compute_ms, gbps = _controls(measured, real_bytes)
    table = None
    if measured:
        try:
            with st.spinner(t("spinner.measure")):
                table = _measured(batch_bytes, n_batches, compute_ms)
            st.info(t("transfer.measured", gpu=torch.cuda.get_device_name()))
        except RuntimeError as exc:  # out of GPU or page-locked memory, say: show the model instead
            st.error(t("transfer.measure_failed", error=str(exc).splitlines()[0]))
            measured = False
    if table is None:
        st.warning(t("transfer.modelled"))
        st.caption(t("transfer.assumptions", pageable=gbps["pageable_gbps"], pinned=gbps["pinned_gbps"],
                     pin=gbps["pin_gbps"]))
        table = model_transfers(batch_bytes, n_batches, compute_ms, **gbps)
    summary = summarise(table, batch_bytes)
    by_mode = summary.set_index("mode")
    c1, c2, c3 = st.columns(3)
    c1.metric(t("transfer.metric.pageable"), ms_text(by_mode.loc["pageable", "total_ms"]))  # as the verdict
    change = change_text(by_mode.loc["pinned", "total_ms"], by_mode.loc["pageable", "total_ms"])
    c2.metric(t("transfer.metric.pinned"), ms_text(by_mode.loc["pinned", "total_ms"]), delta=change,
              delta_color="inverse" if change != "0.0" else "off", delta_arrow="auto" if change != "0.0" else "off")
    c3.metric(t("transfer.metric.overlap", copy=ms_text(by_mode.loc["pinned", "copy_ms"])),
              f"{by_mode.loc['pinned', 'overlap']:.0%}")
    if measured:
        for column, (mode, name, col) in zip(st.columns(3), (("pageable", "pageable_gbps", "copy_gbps"),
                                                              ("pinned", "pinned_gbps", "copy_gbps"),
                                                              ("pinned", "pin_gbps", "pin_gbps"))):
            column.metric(t(f"transfer.metric.{name}"), _rate_text(by_mode.loc[mode, col]))
    st.write(_verdict(summary))

    st.subheader(t("transfer.timeline.title"))
    st.caption(t("transfer.timeline.caption"))
    st.plotly_chart(transfer_timeline_figure(
        table, mode_titles={m: t(f"transfer.mode.{m}") for m in MODES},
        stage_names={s: t(f"transfer.stage.{s}") for s in STAGES},
        x_title=t("transfer.timeline.x"), batch_word=t("transfer.batch")), theme=None)
    st.subheader(t("transfer.totals.title"))
    st.plotly_chart(transfer_totals_figure(
        summary, mode_names={m: t(f"transfer.mode.{m}_short") for m in MODES},
        part_names={p: t(f"transfer.part.{p}") for p in ("compute", "exposed_copy", "idle")},
        x_title=t("transfer.totals.x"), total_text=t("transfer.totals.text"), duration=ms_text), theme=None)
    with st.expander(t("transfer.code.loop")):
        st.code(t("transfer.loop_code"), language="python")

    _engine_pin_stage(demo, run)
