"""The "Sampling & class imbalance" page: RandomSampler vs WeightedRandomSampler (inverse frequency, and
class weights edited by hand) on the same data, batch by batch and epoch by epoch, and the per-class
weights mistake run for real.

Wiring only: the shared sidebar → cached runs → label audits → the figures of :mod:`loaderlab.figures.labels`.
The hand-weighted runs come from :mod:`loaderlab.scenarios.custom_runs` (RunConfig has no field for custom weights yet).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace

import pandas as pd
import streamlit as st

from ..figures.labels import (
    coverage_figure,
    data_shares,
    intended_shares,
    label_batches_figure,
    share_figure,
)
from ..scenarios import sources
from ..scenarios.datasets import inverse_frequency_weights
from ..scenarios.run import RunConfig, draws_only, labels_and_lengths
from ..trace.core.run import Run
from ..trace.tables.audits import label_audit
from ..trace.diagnosis.findings import label_findings
from .language import page_setup
from .outcome import show_warnings
from ..scenarios.custom_runs import weights_run
from .settings import cached_run, run_lock, running, sidebar_config, torch_code
from .texts import language, t
from .alerts import show



@st.cache_data(max_entries=8, show_spinner=False)  # callers show a spinner in the page's language
def _weights_run(config: RunConfig, weights: tuple) -> Run | str:
    """The run with hand-given weights, or torch's error text when the draw is impossible."""
    with run_lock():
        try:
            return weights_run(config, weights)
        except RuntimeError as exc:
            return str(exc)


def _sync_replacement() -> None:
    # The sidebar's own checkbox is greyed out unless its sampler is weighted; this page runs a weighted
    # sampler whatever the sidebar says, so its checkbox writes the shared setting.
    st.session_state["replacement"] = st.session_state["sampling_replacement"]


def _label_names(config: RunConfig, classes: list) -> dict:
    names = sources.class_names(config.source)
    return {c: names[c] if isinstance(c, int) and 0 <= c < len(names) else t("sampling.label", label=c)
            for c in classes}


def _weights_editor(config: RunConfig, counts: Counter, names: dict) -> dict:
    """The class-weight table (square-root inverse frequency to start); returns label → weight."""
    classes = sorted(counts)
    biggest = max(counts.values())
    table = pd.DataFrame({"label": classes, "class": [names[c] for c in classes],
                          "samples": [counts[c] for c in classes],
                          "weight": [round(math.sqrt(biggest / counts[c]), 2) for c in classes]})
    edited = st.data_editor(
        table, hide_index=True, disabled=["class", "samples"], column_order=["class", "samples", "weight"],
        key=f"sampling_weights_{config.source}_{'_'.join(map(str, classes))}",  # new classes: a fresh table
        column_config={"class": st.column_config.TextColumn(t("sampling.weights.class")),
                       "samples": st.column_config.NumberColumn(t("sampling.weights.samples")),
                       "weight": st.column_config.NumberColumn(t("sampling.weights.weight"), min_value=0.0,
                                                               step=0.1, format="%.2f")})
    return {c: 0.0 if pd.isna(w) else float(w) for c, w in zip(edited["label"], edited["weight"])}  # cleared: 0


def _findings(runs: dict, intended: dict) -> None:
    # The plain run aims at the data's own shares: nothing to drift from, so its finding is the imbalance itself.
    plain = t("sampling.run.random")
    found = [(name, f) for name, frame in runs.items()
             for f in label_findings(frame, intended=None if name == plain else intended[name])]
    st.subheader(t("sampling.findings"))
    if not found:
        st.caption(t("sampling.findings.none"))
    for name, f in found:
        show(f.severity, f"**{name}** — {f.text(language())}")


def _mistake(config: RunConfig, labels: list, class_weights: dict) -> None:
    classes = sorted(class_weights)
    per_class = tuple(class_weights[c] for c in classes)
    st.subheader(t("sampling.mistake.title"))
    st.write(t("sampling.mistake.explain", last=len(per_class) - 1, k=len(per_class)))
    shown = ", ".join(f"{w:g}" for w in per_class)
    st.caption(t("sampling.mistake.wrong"))
    st.code(t("sampling.mistake.code_wrong", weights=shown, last=len(per_class) - 1), language="python")
    st.caption(t("sampling.mistake.right"))
    st.code(t("sampling.mistake.code_right", weights=shown), language="python")
    with running():
        result = _weights_run(config, per_class)
    if isinstance(result, str):
        st.write(t("sampling.mistake.error"))
        st.code(result, language="text")
        return
    audit = label_audit(result)
    row = audit.coverage.iloc[0]
    indices = ", ".join(str(i) for i in sorted(set(result.events.loc[result.events["kind"] == "fetch_end", "index"].dropna()
                                                   .astype(int))))
    st.warning(t("sampling.mistake.result", drawn=int(row["drawn"]), distinct=int(row["distinct"]),
                 indices=indices, dataset_len=len(labels)))


def main() -> None:
    page_setup("sampling")
    config = sidebar_config()
    if config is None:
        return
    if config.kind != "map":
        st.info(t("sampling.needs_map"))
        return
    labels, lengths = labels_and_lengths(config)
    counts = Counter(labels)
    names = _label_names(config, sorted(counts))
    base = replace(config, batch_sampler="default")
    st.caption(t("sampling.no_cost"))
    if config.batch_sampler != "default":
        st.caption(t("sampling.bucket_ignored"))
    if len(set(lengths)) > 1 and config.collate == "default":
        base = replace(base, collate="pad")
        st.caption(t("sampling.padded"))

    left, right = st.columns([2, 3])
    with left:
        st.session_state["sampling_replacement"] = st.session_state.get("replacement", True)
        st.checkbox(t("sampling.replacement"), key="sampling_replacement", on_change=_sync_replacement,
                    help=t("sampling.replacement_help"))
        st.caption(t("sampling.replacement.now_on" if config.replacement else "sampling.replacement.now_off"))
    with right:
        st.markdown(f"**{t('sampling.weights.title')}**")
        st.caption(t("sampling.weights.explain"))
        class_weights = _weights_editor(config, counts, names)

    random_cfg = replace(base, sampler="default", shuffle=True)
    weighted_cfg = replace(base, sampler="weighted", shuffle=False)
    per_sample = tuple(class_weights[label] for label in labels)
    runs = {t("sampling.run.random"): cached_run(draws_only(random_cfg)),
            t("sampling.run.inverse"): cached_run(draws_only(weighted_cfg))}
    intended = {t("sampling.run.random"): data_shares(labels),
                t("sampling.run.inverse"): intended_shares(labels, inverse_frequency_weights(labels))}
    with running():
        yours = _weights_run(draws_only(weighted_cfg), per_sample)
    if isinstance(yours, str):
        st.error(t("sampling.run.failed"))
        st.code(yours, language="text")
    else:
        runs[t("sampling.run.yours")] = yours
        intended[t("sampling.run.yours")] = intended_shares(labels, per_sample)
    show_warnings(*runs.values())
    audits = {name: label_audit(frame, intended=intended[name]) for name, frame in runs.items()}

    st.subheader(t("sampling.batches.title"))
    st.caption(t("sampling.batches.explain"))
    st.plotly_chart(label_batches_figure(
        {name: a.per_batch for name, a in audits.items()}, label_names=names, x_title=t("sampling.batches.x"),
        y_title=t("sampling.batches.y"), y_title_grouped=t("sampling.batches.y_grouped"),
        hover=t("sampling.batches.hover"), hover_grouped=t("sampling.batches.hover_grouped"),
        play=t("sampling.play"), pause=t("sampling.pause"), slider_prefix=t("sampling.batches.slider")),
        theme=None, key="sampling_batches")

    st.subheader(t("sampling.shares.title"))
    st.caption(t("sampling.shares.explain"))
    st.plotly_chart(share_figure(
        {name: a.per_epoch for name, a in audits.items()}, label_names=names, data=data_shares(labels),
        data_name=t("sampling.shares.data"), intended_name=t("sampling.shares.intended"),
        epoch_name=t("sampling.shares.epoch"), x_title=t("sampling.shares.x"), y_title=t("sampling.shares.y")),
        theme=None, key="sampling_shares")

    st.subheader(t("sampling.coverage.title"))
    st.caption(t("sampling.coverage.explain"))
    cols = st.columns(len(audits))
    for col, (name, a) in zip(cols, audits.items()):
        first = a.coverage.iloc[0]
        col.caption(name)  # a run name is too long for a metric label, which would be cut off
        col.metric(t("sampling.metric.distinct"),
                   t("sampling.metric.distinct_value", distinct=int(first["distinct"]), drawn=int(first["drawn"])))
    st.plotly_chart(coverage_figure(
        {name: a.coverage for name, a in audits.items()},
        names={k: t(f"sampling.coverage.{k}") for k in ("drawn", "distinct", "unseen")},
        epoch_name=t("sampling.coverage.epoch"), y_title=t("sampling.coverage.y")), theme=None, key="sampling_coverage")

    st.subheader(t("sampling.replacement.title"))
    st.write(t("sampling.replacement.explain"))
    _findings(runs, intended)
    _mistake(draws_only(weighted_cfg), labels, class_weights)
    with st.expander(t("code.title")):
        st.code(torch_code(weighted_cfg), language="python")
