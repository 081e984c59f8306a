"""run --tune's loader-only trials of batch_size and in_order: a stand-in step that costs what the real step
cost per sample, variants that never touch the user's sampler, and results labelled "without your step"."""

from __future__ import annotations

import time

import pytest
import torch
from torch.utils.data import DataLoader

from loaderlab.jobs.candidates import Setting
from loaderlab.jobs.loader_only import measure_loader_only, StepCost, variants
from loaderlab.trace.diagnosis.tuning_report import tuning_suggestions
from loaderlab.trace.diagnosis.tuning_loader_only import loader_only_lines


def test_the_stand_in_costs_per_sample_what_the_step_cost():
    # 8-sample steps: 4 ms of wall, 1 ms of CPU; a 16-sample step of the stand-in takes twice as long
    step = StepCost.from_steps([(8, 0.004, 0.001), (8, 0.004, 0.001), (8, 0.005, 0.001)])
    assert step.cpu_per_sample == 0.001 / 8 and step.idle_per_sample == 0.003 / 8
    cpu, wall = time.process_time(), time.perf_counter()
    step.run(16)
    assert time.process_time() - cpu >= 0.002 * 0.9
    assert time.perf_counter() - wall >= 0.008
    # CPU beyond the wall time (intra-op threads) is capped at the wall time
    assert StepCost.from_steps([(1, 0.002, 0.006)]).cpu_per_sample == 0.002
    assert StepCost.from_steps([]) is None


def test_variants_change_only_what_a_job_cannot_switch_and_keep_the_own_first():
    loader = DataLoader(list(range(100)), batch_size=10)
    assert variants(loader, Setting(0, None, False)) == [{"batch_size": 10}, {"batch_size": 5}, {"batch_size": 20}]
    assert variants(loader, Setting(2, 2, False))[-1] == {"batch_size": 10, "in_order": False}
    custom = DataLoader(list(range(100)), batch_sampler=[[0, 1], [2]])
    assert variants(custom, Setting(0, None, False)) == []  # the user's own batch_sampler: no batch_size to change


def test_the_trials_leave_the_users_random_streams_alone():
    loader = DataLoader(list(range(200)), batch_size=8, shuffle=True)
    torch.manual_seed(5)
    expected = torch.rand(3)
    torch.manual_seed(5)
    found = measure_loader_only(loader, Setting(0, None, False), StepCost(1e-5, 0.0), budget_s=30,
                                slice_samples=64)
    assert torch.equal(torch.rand(3), expected)
    assert [v["change"] for v in found["variants"]] == [{"batch_size": 8}, {"batch_size": 4}, {"batch_size": 16}]
    for v in found["variants"]:
        assert len(v["slices"]) == 3 and all(s["seconds"] > 0 for s in v["slices"])
        assert {s["batches"] for s in v["slices"]} == {64 // v["change"]["batch_size"]}


def _record(per_variant):
    slices = [[{"round": r, "samples": rate, "seconds": 1.0, "batches": 4} for r, rate in enumerate(rates)]
              for rates in per_variant]
    return {"candidates": [], "loader_only": {
        "stand_in": {"cpu_per_sample_s": 0.0002, "idle_per_sample_s": 0.001}, "slice_samples": 64,
        "variants": [{"change": c, "slices": s} for c, s in zip(
            [{"batch_size": 8}, {"batch_size": 4}, {"batch_size": 16}], slices)]}}


def test_a_loader_only_win_is_labelled_measured_without_your_step():
    rec = _record([[100, 100, 100], [60, 60, 60], [150, 160, 140]])
    lines = loader_only_lines(rec["loader_only"])
    assert lines[0].startswith("Measured without your step") and "0.200 ms and waits 1.000 ms per sample" in lines[0]
    assert any(line.startswith("Suggestion (measured without your step): batch_size=16: 1.50×") for line in lines)
    [s] = tuning_suggestions(rec)
    assert s["without_your_step"] and s["measured"] and s["change"] == {"batch_size": 16}
    assert s["change_text"] == "batch_size=16"
    assert tuning_suggestions(_record([[100, 100, 100], [90, 90, 90], [101, 99, 100]])) == []


def test_trials_the_budget_left_no_time_for_are_one_line_not_a_row_each():
    rec = _record([[], [], []])
    assert loader_only_lines(rec["loader_only"]) == [
        "Not measured without your step: batch_size and in_order change the batches, so they are tried on the "
        "loader alone with the last quarter of the budget, and it ran out first (batch_size=8; batch_size=4; "
        "batch_size=16); a larger --tune-budget tries them."]
    assert loader_only_lines(rec["loader_only"], "ko")[0].startswith("여러분의 스텝 없이 재지 못함")
    assert len(loader_only_lines(_record([[100, 100], [], []])["loader_only"])) == 4  # one measured: the table
    assert tuning_suggestions(rec) == []


class _Unread(torch.utils.data.Dataset):
    """A dataset no trial may read: any sample fails."""

    def __len__(self):
        return 64

    def __getitem__(self, i):
        raise RuntimeError("a trial ran")


def test_a_budget_that_cannot_give_each_variant_two_measured_slices_runs_none():
    # 4 variants (batch_size 8, 4, 16; in_order=False) x (a start slice + two measured) x 0.1 s, plus their
    # workers' starts of 0.2 s: 2.0 s wanted, 1.0 s left
    loader = DataLoader(_Unread(), batch_size=8, num_workers=2)
    found = measure_loader_only(loader, Setting(2, 2, False), StepCost(1e-5, 0.0), budget_s=1.0, slice_samples=64,
                                slice_s=0.1, start_s=0.2)
    assert found["unaffordable"] and [v["slices"] for v in found["variants"]] == [[], [], [], []]
    assert loader_only_lines(found)[0].startswith("Not measured without your step")
    with pytest.raises(RuntimeError, match="a trial ran"):  # with the budget it wants, the trials run
        measure_loader_only(loader, Setting(2, 2, False), StepCost(1e-5, 0.0), budget_s=2.5, slice_samples=64,
                            slice_s=0.1, start_s=0.2)


def test_after_tuning_the_trials_get_what_the_in_job_slices_left_at_most_the_last_quarter():
    from loaderlab.jobs.tuner import Tuner

    def finished(spent: float, steps: list) -> Tuner:
        tuner = Tuner(DataLoader(_Unread(), batch_size=8), "loader", ("seconds", 4.0))
        tuner.plan.slice_batches, tuner.plan.per_batch = 8, 0.01  # a slice 0.08 s: 3 variants x 2 slices, 0.48 s
        tuner.spent, tuner.steps = spent, steps
        tuner._finish("budget")
        return tuner

    step = [(8, 0.004, 0.001)] * 3
    assert finished(2.0, []).loader_only is None  # no real step measured: no stand-in for it
    # the in-job slices overspent their three quarters: 0.1 s left, under what 0.48 s needs
    assert finished(3.9, step).loader_only["unaffordable"]
    assert finished(4.2, step).loader_only is None  # nothing left
    with pytest.raises(RuntimeError, match="a trial ran"):  # a quarter left (1.0 s): they run (and read the
        finished(2.0, step)  # dataset, which no trial may)
