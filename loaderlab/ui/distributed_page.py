"""The "Distributed" page: DistributedSampler across real ranks of a torch.distributed process group.

Wiring only: sidebar widgets → a frozen :class:`~loaderlab.scenarios.distributed.DistConfig` → a cached
multi-rank run (under the process-wide run lock) → the tables of :mod:`loaderlab.trace.ranks.analysis` →
the figures of :mod:`loaderlab.figures.partitions` and :mod:`loaderlab.figures.timeline`.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..figures.partitions import (
    partition_figure,
    rank_label_figure,
    rank_timeline_figure,
)
from ..scenarios.distributed import DistConfig, MAX_EPOCHS, MAX_WORKERS_PER_RANK, run
from ..trace.ranks.analysis import (assignments, coverage, label_counts, order_repeats, rank_findings, rank_spans,
                                    rank_summary, rank_throughput)
from ..trace.ranks.launch import DistributedRunError, WORLD_SIZES
from .language import page_setup
from .settings import run_lock, running
from .texts import language, t
from .alerts import show

SLOW_FACTOR = 4.0
DEFAULTS = DistConfig()
STAGES = ("startup", "fetch", "collate", "pin", "wait", "consume", "idle", "idle_capped")


@st.cache_data(max_entries=8, show_spinner=False)  # running() shows the spinner
def _cached_run(config: DistConfig) -> pd.DataFrame:
    with run_lock():
        return run(config)


def _controls() -> DistConfig | None:
    sb = st.sidebar
    sb.header(t("distributed.sidebar"))
    world_size = sb.slider(t("distributed.control.world_size"), WORLD_SIZES[0], WORLD_SIZES[-1],
                           DEFAULTS.world_size, key="dist_world_size")
    shuffle = sb.checkbox("shuffle", DEFAULTS.shuffle, key="dist_shuffle")
    seed = sb.number_input("seed", 0, 2**31 - 1, DEFAULTS.seed, key="dist_seed")
    drop_last = sb.checkbox("drop_last", DEFAULTS.drop_last, key="dist_drop_last",
                            help=t("distributed.control.drop_last_help"))
    set_epoch = sb.checkbox(t("distributed.control.set_epoch"), DEFAULTS.set_epoch, key="dist_set_epoch")
    epochs = sb.slider(t("distributed.control.epochs"), 1, MAX_EPOCHS, DEFAULTS.epochs, key="dist_epochs")
    n_samples = sb.slider(t("distributed.control.n_samples"), 8, 400, DEFAULTS.n_samples, key="dist_n_samples")
    batch_size = sb.slider("batch_size", 1, 32, DEFAULTS.batch_size, key="dist_batch_size")
    num_workers = sb.slider(t("distributed.control.num_workers"), 0, MAX_WORKERS_PER_RANK, DEFAULTS.num_workers,
                            key="dist_num_workers")
    slow_rank = sb.selectbox(t("distributed.control.slow_rank"), [-1, *range(world_size)], key="dist_slow_rank",
                             format_func=lambda r: t("distributed.control.no_slow_rank") if r < 0
                             else t("distributed.rank", rank=r), help=t("distributed.control.slow_rank_help"))
    try:
        return DistConfig(world_size=world_size, n_samples=n_samples, batch_size=batch_size, shuffle=shuffle,
                          seed=int(seed), drop_last=drop_last, set_epoch=set_epoch, epochs=epochs,
                          num_workers=num_workers, slow_rank=slow_rank, slow_factor=SLOW_FACTOR)
    except ValueError as exc:
        sb.error(str(exc))
        return None


def _run(config: DistConfig) -> pd.DataFrame:
    try:
        with running():
            return _cached_run(config)
    except DistributedRunError as exc:
        f = exc.failure
        st.error(t("distributed.failed", rank=f.rank, kind=f.kind, message=f.message))
        with st.expander(t("distributed.failed.details")):
            st.code(f.traceback or f.message, language="text")
        st.stop()


def torch_code(config: DistConfig) -> str:
    """The plain-torch script for ``config`` (your dataset instead of the synthetic one)."""
    set_epoch = t("distributed.code.set_epoch" if config.set_epoch else "distributed.code.no_set_epoch")
    workers = f", num_workers={config.num_workers}" if config.num_workers else ""
    return t("distributed.code", world_size=config.world_size, n_samples=config.n_samples,
             shuffle=config.shuffle, seed=config.seed, drop_last=config.drop_last, batch_size=config.batch_size,
             workers=workers, epochs=config.epochs, set_epoch=set_epoch)


def _findings(frame: pd.DataFrame) -> None:
    found = rank_findings(frame)
    for f in found:
        show(f.severity, f.text(language()))
    if not found:
        st.caption(t("distributed.findings.none"))


def _summary(frame: pd.DataFrame) -> None:
    cov = coverage(frame)
    last = cov.iloc[-1]
    per_rank = int(rank_summary(frame)["samples"].iloc[0])
    cols = st.columns(4)
    cols[0].metric(t("distributed.metric.per_rank"), per_rank)
    cols[1].metric(t("distributed.metric.padded"), int(last["padded"]))
    cols[2].metric(t("distributed.metric.dropped"), int(last["dropped"]))
    repeats = order_repeats(frame)
    same = bool(len(repeats)) and bool(repeats["same_as_previous"].all())
    cols[3].metric(t("distributed.metric.order"),
                   t("distributed.metric.order_same") if same else t("distributed.metric.order_new")
                   if len(repeats) else "—")


def _tables(frame: pd.DataFrame) -> None:
    summary = rank_summary(frame).rename(columns=lambda c: t(f"distributed.col.{c}"))
    st.dataframe(summary, hide_index=True)
    tp = rank_throughput(frame)
    slow = tp.loc[tp["wait_s"].idxmax()]
    st.subheader(t("distributed.throughput.title"))
    st.caption(t("distributed.throughput.explain"))
    st.metric(t("distributed.throughput.slowest"), t("distributed.rank", rank=int(slow["rank"])),
              t("distributed.throughput.seconds", seconds=float(slow["wait_s"])), delta_color="off")
    shown = tp[["rank", "batches", "samples", "seconds", "wait_s", "step_s", "samples_per_s"]].round(
        {"seconds": 3, "wait_s": 3, "step_s": 3, "samples_per_s": 1})
    st.dataframe(shown.rename(columns=lambda c: t(f"distributed.col.{c}")), hide_index=True)


def main() -> None:
    page_setup("distributed")
    config = _controls()
    if config is None:
        return
    frame = _run(config)
    _summary(frame)
    _findings(frame)

    st.subheader(t("distributed.partition.title"))
    st.caption(t("distributed.partition.explain"))
    st.plotly_chart(partition_figure(
        assignments(frame), dataset_len=config.n_samples, rank_name=t("distributed.rank"),
        padded_name=t("distributed.partition.padded"), x_title=t("distributed.partition.x"),
        strip_title=t("distributed.partition.strip"), order_title=t("distributed.partition.order"),
        hover=t("distributed.partition.hover"), epoch_prefix=t("distributed.partition.slider"),
        play=t("distributed.play"), pause=t("distributed.pause")), theme=None, key="distributed_partition")
    st.subheader(t("distributed.labels.title"))
    st.caption(t("distributed.labels.explain"))
    counts = label_counts(frame)
    names = {label: t("distributed.label", label=label) for label in set(counts["label"])}
    st.plotly_chart(rank_label_figure(counts, label_names=names, rank_name=t("distributed.rank"),
                                      epoch_name=t("distributed.epoch"), y_title=t("distributed.labels.y")),
                    theme=None, key="distributed_labels")
    st.subheader(t("distributed.ranks.title"))
    _tables(frame)

    st.subheader(t("distributed.timeline.title"))
    st.caption(t("distributed.timeline.explain"))
    st.plotly_chart(rank_timeline_figure(
        rank_spans(frame), lane=t("distributed.timeline.lane"), x_title=t("distributed.timeline.x"),
        lane_names={k: t(f"timeline.lane.{k}") for k in ("main", "pin", "worker")}, hover=t("timeline.hover"),
        stage_names={s: t(f"distributed.stage.{s}") for s in STAGES}), theme=None, key="distributed_timeline")

    with st.expander(t("distributed.code.title")):
        st.caption(t("distributed.code.explain"))
        st.code(torch_code(config), language="python")
