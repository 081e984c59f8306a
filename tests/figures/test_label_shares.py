"""The three-distribution figure as an object: a bar trace per distribution known, labels as categories in the
data's order, shares on y, an estimate's interval as its error bar."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from loaderlab.figures.label_shares import label_shares_figure

NAMES = {"dataset": "data", "intended": "meant", "received": "got"}


def rows(estimated: bool) -> pd.DataFrame:
    nan = math.nan
    return pd.DataFrame([
        ("dataset", 1, 150, 0.05, 0.04 if estimated else nan, 0.06 if estimated else nan, estimated),
        ("dataset", 0, 2850, 0.95, 0.94 if estimated else nan, 0.96 if estimated else nan, estimated),
        ("intended", 0, 1500, 0.5, nan, nan, False), ("intended", 1, 1500, 0.5, nan, nan, False),
        ("received", 0, 1494, 0.498, nan, nan, False), ("received", 1, 1506, 0.502, nan, nan, False),
    ], columns=["which", "label", "count", "share", "low", "high", "estimated"])


def figure(table):
    return label_shares_figure(table, names=NAMES, x_title="label", y_title="share", hover="%{customdata[0]}")


def test_three_traces_in_order_with_shares_and_labels_as_categories():
    fig = figure(rows(False))
    assert [tr.name for tr in fig.data] == ["data", "meant", "got"]
    assert list(fig.data[0].x) == ["0", "1"] and list(fig.data[0].y) == [0.95, 0.05]  # the data's order
    assert list(fig.data[2].y) == [0.498, 0.502] and list(fig.data[2].customdata[:, 0]) == [1494, 1506]
    assert fig.layout.xaxis.type == "category" and fig.layout.barmode == "group"
    assert fig.data[0].error_y.array is None


def test_an_estimate_draws_its_interval():
    bar = figure(rows(True)).data[0]
    assert list(bar.error_y.array) == pytest.approx([0.01, 0.01])
    assert list(bar.error_y.arrayminus) == pytest.approx([0.01, 0.01])


def test_a_distribution_not_known_has_no_trace():
    fig = figure(rows(False).query("which != 'intended'"))
    assert [tr.name for tr in fig.data] == ["data", "got"]
