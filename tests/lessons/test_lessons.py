"""Every lesson's answer, read from a real run, is the choice torch's behaviour makes right — and follows
when the lesson's settings change (num_workers, in_order, set_epoch, replacement, …).

Runs are the lessons' own cheap settings, each recorded once per module. No timing is asserted: answers
come from event order and counts in the trace.
"""

from __future__ import annotations

import psutil
import pytest

from loaderlab.lessons import LESSONS, lesson
from loaderlab.lessons.runs import WORKER_INITS

# What torch does with each lesson's settings (the README's faithfulness list is checked against torch
# elsewhere; here the lesson must read it back from the trace).
EXPECTED = {1: "per_worker", 2: "short_last", 3: "new", 4: "error", 5: "error", 6: "w1", 7: "cap", 8: "after",
            9: "per_epoch", 10: "different", 11: "balanced", 12: "main_thread", 13: "same", 14: "raises"}


@pytest.fixture(scope="module")
def results():
    return {}


def _result(results: dict, number: int):
    if number not in results:
        results[number] = lesson(number).execute()
    return results[number]


def _answer(number: int, **changes):
    found = lesson(number)
    choice, params = found.answer(found.execute(**changes))
    assert choice in found.choices
    return choice, params


def test_the_lessons_come_in_teaching_order_with_distinct_slugs():
    assert [x.number for x in LESSONS] == list(range(1, 15))
    assert len({x.slug for x in LESSONS}) == 14
    assert all(3 <= len(x.choices) <= 4 and EXPECTED[x.number] in x.choices for x in LESSONS)


@pytest.mark.parametrize("number", sorted(EXPECTED)[:-1])  # 14: in the process-check test below
def test_each_lesson_reads_the_right_choice_from_its_run(results, number):
    found = lesson(number)
    choice, params = found.answer(_result(results, number))
    assert choice == EXPECTED[number]
    assert choice in found.choices
    assert isinstance(params, dict)


def test_lesson_1_duplicates_follow_the_dataset_style(results):
    _, params = lesson(1).answer(_result(results, 1))
    assert (params["received"], params["n"]) == (24, 12)
    choice, params = _answer(1, kind="iterable_sharded")
    assert (choice, params["received"]) == ("once", 12)


def test_lesson_2_batches_follow_drop_last_and_batch_size_none(results):
    _, params = lesson(2).answer(_result(results, 2))
    assert params["sizes"] == "4, 4, 2"
    choice, params = _answer(2, drop_last=True)
    assert (choice, params["sizes"], params["dropped"]) == ("dropped", "4, 4", 2)
    choice, params = _answer(2, batch_size=None)
    assert (choice, params["batches"]) == ("unbatched", 10)


def test_lesson_3_order_follows_shuffle():
    assert _answer(3, shuffle=False)[0] == "sequential"


def test_lesson_4_a_batch_sampler_alone_is_accepted(results):
    _, params = lesson(4).answer(_result(results, 4))
    assert "mutually exclusive" in params["message"]  # torch's own wording, from the engine's validation
    choice, params = _answer(4, shuffle=False)
    assert (choice, params["kind"]) == ("batch_sampler", "BucketBatchSampler")


def test_lesson_5_padding_follows_collate_fn_and_lengths(results):
    assert "stack expects each tensor to be equal size" in lesson(5).answer(_result(results, 5))[1]["message"]
    choice, params = _answer(5, collate="pad")
    assert choice == "padded" and 0 < params["padded"] < params["cells"]
    assert _answer(5, length_spread=0)[0] == "stacked"


def test_lesson_6_the_builder_follows_num_workers():
    assert _answer(6, num_workers=3)[0] == "w0"
    assert _answer(6, num_workers=0)[0] == "main"


def test_lesson_7_the_cap_follows_prefetch_factor(results):
    assert lesson(7).answer(_result(results, 7))[1]["most"] == 4
    choice, params = _answer(7, prefetch_factor=1)
    assert (choice, params["most"]) == ("cap", 2)


def test_lesson_8_hand_over_order_follows_in_order(results):
    _, params = lesson(8).answer(_result(results, 8))
    assert (params["slow"], params["after"], params["worker"], params["slow_worker"]) == (2, 3, 1, 0)
    assert params["ready_first"]
    assert _answer(8, in_order=False)[0] == "before"


def test_lesson_9_worker_starts_follow_persistent_workers(results):
    assert lesson(9).answer(_result(results, 9))[1]["started"] == 4
    choice, params = _answer(9, persistent_workers=True)
    assert (choice, params["started"]) == ("once", 2)


@pytest.mark.parametrize("init, expected", [("fixed", "same"), ("initial_seed", "different")])
def test_lesson_10_identical_draws_follow_worker_init_fn(init, expected):
    assert init in WORKER_INITS
    choice, params = _answer(10, worker_init=init)
    assert choice == expected
    assert params["samples"] == 16  # sharded with get_worker_info(): each sample once


def test_lesson_11_the_share_follows_replacement(results):
    assert lesson(11).answer(_result(results, 11))[1]["repeats"] > 0
    choice, params = _answer(11, replacement=False)
    assert (choice, params["repeats"]) == ("data", 0)


def test_lesson_12_the_pin_stage_follows_pin_memory():
    choice, params = _answer(12, pin_memory=False)
    assert (choice, params["pinned"]) == ("none", 0)


def test_lesson_13_the_order_follows_set_epoch(results):
    assert lesson(13).answer(_result(results, 13))[1]["overlap"] == 0  # the ranks split the data
    assert _answer(13, set_epoch=True)[0] == "new"


@pytest.mark.slow
def test_lesson_14_timeout_names_the_stuck_sample_and_leaves_no_process():
    me = psutil.Process()
    before = {p.pid for p in me.children(recursive=True)}
    choice, params = _answer(14)
    assert choice == EXPECTED[14]
    assert (params["worker"], params["index"], params["batch"]) == (0, 5, 2)
    assert params["message"] == "DataLoader timed out after 0.5 seconds"
    left = [p for p in me.children(recursive=True) if p.pid not in before and p.is_running()
            and p.status() != psutil.STATUS_ZOMBIE]
    assert left == []


def test_lesson_14_without_hitting_the_timeout_the_loop_waits():
    choice, params = _answer(14, straggler_ms=100.0)
    assert (choice, params["index"]) == ("waits", 5)
