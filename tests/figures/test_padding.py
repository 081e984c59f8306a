"""The padding figures as objects: the grid holds exactly the padded cells the lengths imply; bucketing pads less."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

from loaderlab.figures.padding import (first_batches, padding_fraction_figure, padding_grid, padding_grid_figure,
                                       padding_totals)
from loaderlab.scenarios.run import RunConfig, run
from loaderlab.trace.tables.audits import padding_audit, samples
from loaderlab.scenarios.custom_runs import default_collate_error

DOCSTRINGS = RunConfig(source="stdlib_docstrings", collate="pad", cost_ms=0.0, consumer_ms=0.0, num_workers=0,
                       batch_size=16)
GRID_WORDS = dict(title="t", x_title="position", batch_name="b{batch} ({padded})", token_name="token",
                  padding_name="padding", hover="{batch}/{index}/{length}/{position}/{what}")


def _samples(batches: list[list[int]]) -> pd.DataFrame:
    rows = [(0, b, 10 * b + i, n) for b, lengths in enumerate(batches) for i, n in enumerate(lengths)]
    return pd.DataFrame(rows, columns=["epoch", "batch", "index", "length"])


def _cells(z, value):
    return sum(v == value for line in z for v in line if v is not None)


@pytest.fixture(scope="module")
def runs():
    return {"random": run(replace(DOCSTRINGS, shuffle=True)),
            "bucket": run(replace(DOCSTRINGS, batch_sampler="bucket"))}


def test_grid_has_exactly_the_padded_cells_the_lengths_imply():
    grid = padding_grid(_samples([[3, 5, 1], [2, 2], [7]]), n_batches=2)
    # batch 0 pads to 5: 2 + 0 + 4 = 6 cells; batch 1 pads to 2: none; batch 2 is not shown
    assert _cells(grid.z, 0) == 6 and _cells(grid.z, 1) == 3 + 5 + 1 + 2 + 2
    assert grid.rows == [(0, 0, 0, 3), (0, 0, 1, 5), (0, 0, 2, 1), None, (0, 1, 10, 2), (0, 1, 11, 2)]
    assert grid.z[0] == [1, 1, 1, 0, 0] and grid.z[4] == [1, 1, None, None, None]  # past its batch: no cell
    assert grid.z[3] == [None] * 5  # the spacer between batches
    assert [(b[0], b[1], b[-1]) for b in grid.batches] == [(0, 0, 6), (0, 1, 0)]


def test_grid_of_a_real_run_matches_the_padding_audit(runs):
    s = samples(runs["random"])
    grid = padding_grid(s, n_batches=3)
    audit = padding_audit(runs["random"]).sort_values(["epoch", "batch"]).head(3)
    assert _cells(grid.z, 0) == audit["padded_cells"].sum() > 0
    assert _cells(grid.z, 1) == audit["total_length"].sum()
    assert len(first_batches(s, 3)) == audit["samples"].sum()


def test_wide_samples_fold_positions_into_columns_keeping_the_token_share():
    grid = padding_grid(_samples([[1000, 250]]), n_batches=1, max_columns=100)
    assert grid.step == 10 and len(grid.z[0]) == 100
    assert grid.z[1][24] == 1.0 and grid.z[1][25] == 0.0 and grid.z[0][99] == 1.0


def test_grid_figure_is_a_heatmap_with_one_tick_per_batch_and_legend_keys():
    grid = padding_grid(_samples([[3, 5], [2, 4, 4]]), n_batches=2)
    fig = padding_grid_figure(grid, **GRID_WORDS)
    heat = fig.data[0]
    assert heat.type == "heatmap" and (heat.zmin, heat.zmax) == (0, 1)
    assert list(fig.layout.yaxis.ticktext) == ["b0 (2)", "b1 (2)"]
    assert list(fig.layout.yaxis.tickvals) == [0.5, 4.0]
    assert heat.text[0][4] == "0/0/3/4/padding" and heat.text[1][4] == "0/1/5/4/token"
    assert [tr.name for tr in fig.data[1:]] == ["token", "padding"]
    assert fig.layout.xaxis.title.text == "position"


def test_bucketing_pads_less_than_random_batching_on_the_docstrings(runs):
    random, bucket = (padding_totals(padding_audit(runs[k])) for k in ("random", "bucket"))
    assert random["cells"] - random["padded_cells"] == bucket["cells"] - bucket["padded_cells"]  # same tokens
    assert bucket["padded_cells"] < 0.6 * random["padded_cells"]
    assert random["fraction"] > 0.3


def test_fraction_figure_has_a_bar_per_batch_and_the_runs_overall_share(runs):
    audits = {k: padding_audit(runs[k]) for k in ("random", "bucket")}
    fig = padding_fraction_figure(audits, title="T", x_title="batch", y_title="share",
                                  overall_name="{run}: {fraction:.0%}", hover="h")
    bars, line = fig.data[0], fig.data[1]
    a = audits["random"].sort_values(["epoch", "batch"])
    assert list(bars.y) == pytest.approx(a["padding_fraction"].tolist())
    assert len(bars.x) == len(a) == 10  # 147 docstrings / 16
    total = padding_totals(a)["fraction"]
    assert list(line.y) == pytest.approx([total, total]) and line.name == f"random: {total:.0%}"
    assert [tr.name for tr in fig.data][2] == "bucket"
    assert fig.layout.title.text == "T"


def test_default_collate_raises_torchs_stack_error_on_ragged_samples():
    error = default_collate_error(DOCSTRINGS, [0, 1, 2])
    assert error.startswith("stack expects each tensor to be equal size, but got [")
    assert default_collate_error(RunConfig(n_samples=8), range(4)) is None  # equal lengths stack
