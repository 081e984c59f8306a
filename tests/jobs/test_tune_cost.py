"""What ``run --tune`` costs the job (loaderlab.jobs.tune_plan.cost_s), which its budget bounds, and the settings
that join the turns while the budget lasts (Tuner._widen): numbers by hand."""

from __future__ import annotations

import pytest

from loaderlab.jobs.candidates import Setting
from loaderlab.jobs.tune_plan import cost_s, own_pace, SlicePlan


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


def test_only_the_other_settings_time_beyond_the_jobs_own_pace_costs():
    # the job's own: 100 samples/s (0.01 s a sample) in its measured slices; its warm first slice and its
    # slow second slice cost nothing: the plain job runs them too
    own = _cand(2, _slice(0, 100, 3.0, warm=True), _slice(1, 100, 1.0), _slice(2, 100, 1.0))
    slower = _cand(1, _slice(1, 100, 1.5, stall_s=0.2))  # 1.3 s without its stall, 1.0 s at the own's pace
    faster = _cand(0, _slice(1, 100, 0.5), _slice(2, 100, 0.4))  # faster than the own: nothing, never credit
    starting = _cand(4, _slice(1, 100, 2.0, warm=True))  # its workers' start-up: 1.0 s beyond
    record = {"candidates": [own, slower, faster, starting]}
    assert own_pace(own) == pytest.approx(0.01)
    assert cost_s(record) == pytest.approx(0.3 + 0.0 + 1.0)
    assert cost_s({"candidates": [own, faster]}) == 0.0


def test_before_the_own_has_a_rate_its_warm_slices_steady_part_is_its_pace():
    # its first slice started its workers: never a rate, but its steady part (after the fill) paces the cost
    own = _cand(2, _slice(0, 120, 2.0, warm=True, steady=(80, 0.5)))  # 160 samples/s
    other = _cand(0, _slice(0, 80, 1.0))  # 0.5 s at that pace
    assert own_pace(own) == pytest.approx(1 / 160)
    assert cost_s({"candidates": [own, other]}) == pytest.approx(0.5)


def test_without_any_pace_of_the_own_the_other_slices_whole_time_counts():
    own = _cand(2, _slice(0, 8, 0.3, warm=True, steady=(0, 0.0)))  # too short for a steady part
    other = _cand(0, _slice(0, 80, 1.0), _slice(1, 80, 0.25))
    assert own_pace(own) is None
    assert cost_s({"candidates": [own, other]}) == pytest.approx(1.25)
    assert cost_s({"candidates": []}) == 0.0


class _Measured:
    """A candidate as the tuner keeps it, with a fixed record (no loader, no workers)."""

    def __init__(self, record: dict) -> None:
        self._record, self.closed = record, False

    def record(self) -> dict:
        return self._record

    def close(self) -> None:
        self.closed = True


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
    # by priority on 2 cores: the own's 2 workers with prefetch 4 (2, 4), before 4 workers (3, 3) and 1 (4, 2)
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
