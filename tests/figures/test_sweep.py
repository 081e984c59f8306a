"""The num_workers sweep: the ideal line (one worker's rate × workers, flat past the cores) and its figure."""

from __future__ import annotations

import pandas as pd

from loaderlab.figures.sweep import ideal_line, sweep_figure

TABLE = pd.DataFrame({"num_workers": [0, 1, 2, 3, 4], "batches_per_s": [12.0, 20.0, 35.0, 38.0, 39.0]})


def _figure(table, cores):
    return sweep_figure(table, cores=cores, measured_name="M", ideal_name="I", cores_name="{cores} C",
                        x_title="X!", y_title="Y!")


def test_the_ideal_line_scales_one_worker_and_flattens_at_the_core_count():
    ideal = ideal_line(TABLE, cores=2)
    assert ideal["num_workers"].tolist() == [1, 2, 3, 4]
    assert ideal["batches_per_s"].tolist() == [20.0, 40.0, 40.0, 40.0]
    assert ideal_line(TABLE, cores=8)["batches_per_s"].tolist() == [20.0, 40.0, 60.0, 80.0]


def test_the_figure_has_measured_and_ideal_traces_and_marks_the_cores():
    fig = _figure(TABLE.sample(frac=1, random_state=0), cores=3)  # row order does not matter
    measured, ideal = fig.data
    assert (measured.name, ideal.name) == ("M", "I")
    assert list(measured.x) == [0, 1, 2, 3, 4] and list(measured.y) == [12.0, 20.0, 35.0, 38.0, 39.0]
    assert list(ideal.x) == [1, 2, 3, 4] and list(ideal.y) == [20.0, 40.0, 60.0, 60.0]
    assert ideal.line.dash == "dash"
    (line,) = fig.layout.shapes
    assert line.x0 == line.x1 == 3
    assert [a.text for a in fig.layout.annotations] == ["3 C"]
    assert (fig.layout.xaxis.title.text, fig.layout.yaxis.title.text) == ("X!", "Y!")
    assert fig.layout.yaxis.range[1] >= 60.0  # the ideal line fits


def test_more_cores_than_workers_draw_no_core_line():
    fig = _figure(TABLE, cores=16)
    assert len(fig.layout.shapes) == 0
    assert list(fig.data[1].y) == [20.0, 40.0, 60.0, 80.0]


def test_without_a_one_worker_run_there_is_no_ideal_line():
    fig = _figure(TABLE[TABLE["num_workers"] != 1], cores=2)
    assert [trace.name for trace in fig.data] == ["M"]
    assert ideal_line(TABLE[TABLE["num_workers"] != 1], cores=2).empty

