"""The "Padding & collate" page: torch's real default-collate error on ragged samples, then random batching
vs length bucketing, both padded, cell by cell and batch by batch.

Wiring only: the shared sidebar → two cached runs → padding audits → the figures of
:mod:`loaderlab.figures.padding`. The default collate is run by
:func:`loaderlab.scenarios.custom_runs.default_collate_error`.
"""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import streamlit as st

from ..figures.padding import (
    first_batches,
    padding_fraction_figure,
    padding_grid,
    padding_grid_figure,
    padding_totals,
)
from ..scenarios.run import RunConfig, draws_only, labels_and_lengths
from ..trace.tables.audits import padding_audit, samples
from ..trace.diagnosis.findings import padding_findings
from .language import page_setup
from .outcome import show_warnings
from ..scenarios.custom_runs import default_collate_error
from .settings import cached_run, put_setting, sidebar_config, torch_code
from .texts import language, t
from .alerts import show



def _default_collate(config: RunConfig, first: pd.DataFrame) -> None:
    st.subheader(t("padding.collate.title"))
    indices, lengths = first["index"].astype(int).tolist(), first["length"].astype(int).tolist()
    error = default_collate_error(config, indices)
    if error is None:
        st.success(t("padding.collate.ok", length=lengths[0] if lengths else 0))
        return
    st.write(t("padding.collate.explain", indices=", ".join(map(str, indices)), lengths=", ".join(map(str, lengths))))
    st.code(f"RuntimeError: {error}", language="text")
    st.caption(t("padding.collate.fix"))


def _grids(runs: dict, n: int) -> None:
    for col, (name, frame) in zip(st.columns(len(runs)), runs.items()):
        grid = padding_grid(samples(frame), n)
        padded = sum(b[-1] for b in grid.batches)
        x_title = t("padding.grid.x") if grid.step == 1 else t("padding.grid.x_binned", step=grid.step)
        col.plotly_chart(padding_grid_figure(
            grid, title=t("padding.grid.figure_title", run=name, padded=f"{padded:,}"), x_title=x_title,
            batch_name=t("padding.grid.batch"), token_name=t("padding.grid.token"),
            padding_name=t("padding.grid.padding"), hover=t("padding.grid.hover")),
            theme=None, key=f"padding_grid_{name}")


def _use_ragged_source() -> None:
    put_setting("source", "stdlib_docstrings")  # the sidebar's own control: every page follows


def main() -> None:
    page_setup("padding")
    config = sidebar_config()
    if config is None:
        return
    if config.kind != "map":
        st.info(t("padding.needs_map"))
        return
    _, lengths = labels_and_lengths(config)
    nothing_to_pad = len(set(lengths)) == 1
    if nothing_to_pad:  # say so and offer ragged data, rather than draw grids and a red "+0" of nothing
        st.info(t("padding.equal_lengths", length=lengths[0]))
        st.button(t("padding.use_docstrings"), key="padding_use_docstrings", on_click=_use_ragged_source)
    base = replace(config, collate="pad", sampler="default")
    random_cfg = replace(base, batch_sampler="default", shuffle=True)
    bucket_cfg = replace(base, batch_sampler="bucket", shuffle=False)
    names = {"random": t("padding.run.random"), "bucket": t("padding.run.bucket")}
    st.caption(t("padding.no_cost"))
    runs = {names["random"]: cached_run(draws_only(random_cfg)), names["bucket"]: cached_run(draws_only(bucket_cfg))}
    show_warnings(*runs.values())

    _default_collate(config, first_batches(samples(runs[names["random"]]), 1))
    if nothing_to_pad:
        return

    st.subheader(t("padding.grid.title"))
    st.caption(t("padding.grid.explain"))
    n = st.slider(t("padding.grid.batches"), 1, 8, 3, key="padding_batches")
    _grids(runs, n)

    st.subheader(t("padding.fraction.title"))
    st.caption(t("padding.fraction.explain"))
    audits = {name: padding_audit(frame) for name, frame in runs.items()}
    totals = {name: padding_totals(a) for name, a in audits.items()}
    random, bucket = totals[names["random"]], totals[names["bucket"]]
    for col, (name, total) in zip(st.columns(len(totals)), totals.items()):
        col.caption(name)  # a run name is too long for a metric label, which would be cut off
        change = total["padded_cells"] - random["padded_cells"]
        delta = None if name == names["random"] else t("padding.metric.delta", delta=change)
        padded, fraction = col.columns(2)  # no change is no red "↑ +0": a neutral delta
        padded.metric(t("padding.metric.padded"), f"{total['padded_cells']:,}", delta,
                      delta_color="inverse" if change else "off")
        fraction.metric(t("padding.metric.fraction"), f"{total['fraction']:.1%}")
    saved = 1 - bucket["padded_cells"] / random["padded_cells"] if random["padded_cells"] else 0.0
    st.plotly_chart(padding_fraction_figure(
        audits, title=t("padding.fraction.figure_title", random=f"{random['padded_cells']:,}",
                        bucket=f"{bucket['padded_cells']:,}", saved=saved),
        x_title=t("padding.fraction.x"), y_title=t("padding.fraction.y"), overall_name=t("padding.fraction.overall"),
        hover=t("padding.fraction.hover")), theme=None, key="padding_fraction")

    found = [(name, f) for name, frame in runs.items() for f in padding_findings(frame)]
    st.subheader(t("padding.findings"))
    if not found:
        st.caption(t("padding.findings.none"))
    for name, f in found:
        show(f.severity, f"**{name}** — {f.text(language())}")
    with st.expander(t("code.title")):
        st.caption(t("padding.code.random"))
        st.code(torch_code(random_cfg), language="python")
        st.caption(t("padding.code.bucket"))
        st.code(torch_code(bucket_cfg), language="python")
