"""The queue-depth figure as an object: a row per queue in torch's order, steps that follow the table."""

from __future__ import annotations

import pandas as pd

from loaderlab.figures.depths import GL_POINTS, depth_figure, queue_order


def _depths() -> pd.DataFrame:
    rows = [(0.0, "result_queue", 0), (0.2, "result_queue", 1), (0.3, "result_queue", 0),
            (0.0, "index_queue[10]", 0), (0.1, "index_queue[10]", 2), (0.4, "index_queue[10]", 0),
            (0.0, "index_queue[2]", 0), (0.1, "index_queue[2]", 1), (0.25, "index_queue[2]", 0),
            (0.0, "outstanding", 0), (0.1, "outstanding", 6), (0.5, "outstanding", 0)]
    return pd.DataFrame(rows, columns=["t_s", "queue", "depth"])


def test_one_row_per_queue_in_the_order_a_batch_meets_them():
    fig = depth_figure(_depths(), x_title="s", y_title="items", queue_names={"outstanding": "in flight"})
    assert [tr.name for tr in fig.data] == ["index_queue[2]", "index_queue[10]", "result_queue", "in flight"]
    assert [tr.yaxis for tr in fig.data] == ["y", "y2", "y3", "y4"]
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:4] == ["index_queue[2]", "index_queue[10]", "result_queue", "in flight"]
    assert "items" in titles  # the shared y title
    assert fig.layout.xaxis4.title.text == "s"


def test_steps_follow_the_table():
    fig = depth_figure(_depths(), x_title="s", y_title="items")
    outstanding = fig.data[3]
    assert list(outstanding.x) == [0.0, 0.1, 0.5] and list(outstanding.y) == [0, 6, 0]
    assert outstanding.line.shape == "hv" and outstanding.fill == "tozeroy"
    assert fig.layout.yaxis4.range[1] > 6  # the highest step is not cut off
    assert fig.layout.yaxis.dtick == 1  # small depths get whole-number ticks


def test_long_series_switch_to_webgl_and_order_is_numeric():
    n = GL_POINTS + 1
    long = pd.DataFrame({"t_s": range(n), "queue": "result_queue", "depth": [i % 3 for i in range(n)]})
    fig = depth_figure(long, x_title="s", y_title="items")
    assert fig.data[0].type == "scattergl"
    assert sorted(["reorder", "index_queue[1]", "data_queue", "index_queue[0]"], key=queue_order) == \
        ["index_queue[0]", "index_queue[1]", "data_queue", "reorder"]
