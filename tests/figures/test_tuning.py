"""The run --tune chart: measured settings only, the job's own on top, medians with their rounds' spread,
the own and the best in their colours (the same numbers the report prints)."""

from __future__ import annotations

from loaderlab.figures.tuning import BEST_COLOUR, OWN_COLOUR, tuning_figure
from loaderlab.trace.diagnosis.tuning import tuning_table
from tests.trace.diagnosis.test_tuning import cand, FOUR, OWN, record, TWO


def test_the_chart_draws_the_measured_table():
    rec = record(cand(OWN, [100, 110, 90]), cand(TWO, [190, 210, 200]), {"setting": FOUR, "slices": []})
    fig = tuning_figure(tuning_table(rec), x_title="X!", own_mark="mine", best_mark="top", hover="%{x}")
    [bars] = fig.data
    assert list(bars.y) == ["num_workers=0 (mine)", "num_workers=2, prefetch_factor=2 (top)"]  # FOUR: no rounds
    assert list(bars.x) == [100.0, 200.0]
    assert list(bars.error_x.array) == [10.0, 10.0] and list(bars.error_x.arrayminus) == [10.0, 10.0]
    assert list(bars.marker.color) == [OWN_COLOUR, BEST_COLOUR]
    assert [row[0] for row in bars.customdata] == [3, 3] and bars.customdata[1][3] == 2.0
    assert fig.layout.xaxis.title.text == "X!" and fig.layout.yaxis.autorange == "reversed"


def test_a_job_already_at_its_best_has_no_best_bar():
    rec = record(cand(OWN, [200, 210, 190]), cand(TWO, [100, 110, 90]))
    [bars] = tuning_figure(tuning_table(rec), x_title="", own_mark="mine", best_mark="top", hover="").data
    assert not any("(top)" in name for name in bars.y)
    assert BEST_COLOUR not in list(bars.marker.color)
