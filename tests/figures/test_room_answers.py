"""The room's answer chart, as a figure object."""

from __future__ import annotations

import pytest

from loaderlab.figures.room_answers import answer_counts_figure


def test_one_bar_per_answer_in_order_with_count_and_share():
    fig = answer_counts_figure(["8", "12", "16"], [1, 3, 0], title="What the room predicted", x_title="answers")
    [bar] = fig.data
    assert list(bar.y) == ["8", "12", "16"] and list(bar.x) == [1, 3, 0]
    assert list(bar.text) == ["1 (25%)", "3 (75%)", "0 (0%)"]
    assert fig.layout.yaxis.autorange == "reversed"  # the first answer on top, as on the lesson page
    assert fig.layout.title.text == "What the room predicted" and fig.layout.xaxis.title.text == "answers"


def test_no_answers_yet_draws_empty_bars():
    fig = answer_counts_figure(["a", "b"], [0, 0], title="t", x_title="x")
    assert list(fig.data[0].text) == ["0", "0"]


def test_labels_and_counts_must_match():
    with pytest.raises(ValueError, match="labels and counts must have the same length; got 2 and 1"):
        answer_counts_figure(["a", "b"], [1], title="t", x_title="x")
