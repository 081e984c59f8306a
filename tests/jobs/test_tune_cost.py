"""What ``run --tune`` costs the job (loaderlab.jobs.tune_pace.cost_s), which its budget bounds, and the settings
that join the turns while the budget lasts (Tuner._widen): numbers by hand."""

from __future__ import annotations

import pytest

from loaderlab.jobs.candidates import Setting
from loaderlab.jobs.tune_pace import cost_s, lead_pace
from loaderlab.jobs.tune_plan import pause_setting, SlicePlan
from tests.jobs.test_tune_plan import _Measured


def _slice(round_: int, samples: int, elapsed: float, warm: bool = False, stall_s: float = 0.0,
           steady: tuple[int, float] | None = None) -> dict:
    """A slice as the tuner records it: ``samples`` in ``elapsed`` seconds, its steady window ``steady``
    (samples, seconds; by default the whole slice)."""
    steady = steady or (samples, elapsed - stall_s)
    return {"round": round_, "samples": steady[0], "seconds": steady[1], "warm": warm, "all_samples": samples,
            "elapsed_s": elapsed, "stall_s": stall_s, "window_stall_s": stall_s if steady[1] else 0.0}


def _cand(nw: int, *slices: dict) -> dict:
    return {"setting": {"num_workers": nw, "prefetch_factor": 2 if nw else None, "pin_memory": False},
            "slices": list(slices)}


def test_every_slice_costs_its_time_beyond_the_fastest_settings_pace():
    # the job's own: 100 samples/s; num_workers=0 leads at 200 samples/s (0.005 s a sample). The own's first
    # slice costs nothing (the plain job starts with it too); its next two 0.5 s each beyond the leader's pace
    own = _cand(2, _slice(0, 100, 3.0, warm=True), _slice(1, 100, 1.0), _slice(2, 100, 1.0))
    leader = _cand(0, _slice(1, 100, 0.4), _slice(2, 100, 0.6), _slice(3, 100, 0.5))  # its median pace: nothing
    slower = _cand(1, _slice(1, 100, 1.5, stall_s=0.2))  # 1.3 s without its stall, 0.5 s at the leader's pace
    starting = _cand(4, _slice(1, 100, 2.0, warm=True))  # its workers' start-up in it
    assert lead_pace([own, leader, slower, starting]) == pytest.approx(0.005)
    assert cost_s({"candidates": [own, leader, slower, starting]}) == pytest.approx(1.0 + 0.0 + 0.8 + 1.5)
    # where the job's own leads, only the others cost: the old budget's count, less their samples' own time
    assert cost_s({"candidates": [own, slower]}) == pytest.approx(0.3)


def test_before_the_own_has_a_rate_its_first_slices_steady_part_is_its_pace():
    # its first slice started its workers: never a rate, but its steady part (after the fill) paces the cost
    own = _cand(2, _slice(0, 120, 2.0, warm=True, steady=(80, 0.5)))  # 160 samples/s
    other = _cand(0, _slice(0, 80, 1.0))  # 80 samples/s: 0.5 s beyond the own's pace
    assert lead_pace([own, other]) == pytest.approx(1 / 160)
    assert cost_s({"candidates": [own, other]}) == pytest.approx(0.5)


def test_without_any_pace_the_other_slices_whole_time_counts():
    own = _cand(2, _slice(0, 8, 0.3, warm=True, steady=(0, 0.0)))  # too short for a steady part
    other = _cand(1, _slice(0, 80, 1.0, warm=True, steady=(0, 0.0)), _slice(1, 8, 0.25, steady=(0, 0.0)))
    assert lead_pace([own, other]) is None
    assert cost_s({"candidates": [own, other]}) == pytest.approx(1.25)
    assert cost_s({"candidates": []}) == 0.0


def test_a_pause_goes_to_a_setting_measured_faster_than_the_own_first_slices_steady_part():
    own = _cand(4, _slice(0, 112, 0.7, warm=True, steady=(60, 0.25)))  # 240 samples/s after its workers' fill
    assert pause_setting({0: own, 1: _cand(0, _slice(0, 176, 0.35))}) == 1  # 503 samples/s
    assert pause_setting({0: own, 1: _cand(0, _slice(0, 176, 1.0))}) == 0  # 176 samples/s
    cut = _cand(4, _slice(0, 8, 0.3, warm=True, steady=(0, 0.0)))  # no steady part: its own setting serves
    assert pause_setting({0: cut, 1: _cand(0, _slice(0, 176, 0.35))}) == 0


SETTINGS = [Setting(2, 2, False), Setting(0, None, False), Setting(1, 2, False), Setting(4, 2, False),
            Setting(2, 4, False)]


def _tuner(rounds: dict[int, int], skipped: list[int], spent: float, budget: float = 1.0):
    """A tuner at a round's end whose settings ``rounds`` (index: measured rounds) are in the turns."""
    import torch
    from torch.utils.data import DataLoader

    from loaderlab.jobs.tuner import Tuner

    tuner = Tuner(DataLoader(torch.arange(400), batch_size=4), "loader", ("share", 0.1))
    tuner.settings = SETTINGS
    tuner.plan = SlicePlan(SETTINGS, SETTINGS[0], cores=2)
    tuner.cands = {i: _Measured(_cand(SETTINGS[i].num_workers, *[_slice(r, 100, 1.0) for r in range(n)]))
                   for i, n in rounds.items()}
    tuner.order, tuner.skipped = sorted(rounds), list(skipped)
    tuner.budget_s, tuner.epoch_budget_s, tuner.spent = budget, budget, spent
    return tuner


def test_a_setting_not_tried_joins_the_decided_turns_while_the_budget_lasts():
    # by priority on 2 cores: the own's 2 workers with prefetch 4 (3, 4), before 4 workers (4, 3) and 1 (5, 2)
    tuner = _tuner({0: 2, 1: 2}, skipped=[2, 3, 4], spent=0.2)
    tuner._widen()
    assert (tuner.order, tuner.skipped) == ([0, 1, 4], [2, 3])
    tuner._widen()  # 4 has no round yet: the turns are not decided
    assert (tuner.order, tuner.skipped) == ([0, 1, 4], [2, 3])


@pytest.mark.parametrize("rounds, spent", [({0: 2, 1: 1}, 0.2), ({0: 2, 1: 2}, 0.75)])
def test_no_setting_joins_undecided_turns_or_a_spent_budget(rounds, spent):
    # a share budget keeps a quarter for the loader-only trials where they apply; with a plain tensor dataset
    # there are batch_size variants, so the in-job share is 0.75 of the budget
    tuner = _tuner(rounds, skipped=[2, 3], spent=spent)
    assert tuner.in_job_share == 0.75
    tuner._widen()
    assert (tuner.order, tuner.skipped) == (sorted(rounds), [2, 3])


def test_tuning_ends_after_four_epochs_whatever_its_budget_left():
    # settings about as fast as each other cost little: without an end their rounds took every batch of a job
    tuner = _tuner({0: 2, 1: 2, 4: 1}, skipped=[2, 3], spent=0.0)
    tuner.slice, tuner.turn, tuner.round = None, 2, 2
    for _ in range(3):
        tuner.end_epoch(now=1.0)
    assert not tuner.done and tuner.epochs == 3
    tuner.end_epoch(now=2.0)
    assert tuner.done and tuner.stopped == "epochs" and tuner.record()["epochs"] == 4
