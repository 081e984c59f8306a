"""The label-count figure as an object: one bar trace per epoch, labels as categories."""

from __future__ import annotations

import pandas as pd

from loaderlab.figures.label_counts import label_counts_figure


def test_one_trace_per_epoch_with_its_counts():
    per_epoch = pd.DataFrame({"epoch": [0, 0, 1, 1], "label": [0, 1, 0, 1], "count": [90, 10, 80, 20],
                              "share": [0.9, 0.1, 0.8, 0.2]})
    fig = label_counts_figure(per_epoch, x_title="label", y_title="samples", epoch_name="E{epoch}")
    assert [tr.name for tr in fig.data] == ["E0", "E1"]
    assert [list(tr.y) for tr in fig.data] == [[90, 10], [80, 20]]
    assert all(list(tr.x) == ["0", "1"] for tr in fig.data)
    assert fig.layout.xaxis.type == "category"
    assert (fig.layout.xaxis.title.text, fig.layout.yaxis.title.text) == ("label", "samples")
    assert fig.layout.barmode == "group"
