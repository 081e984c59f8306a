"""``run --tune``'s slice plan (loaderlab.jobs.tune_plan), made from the job's own first slice: numbers by hand."""

from __future__ import annotations

from loaderlab.jobs.candidates import Setting
from loaderlab.jobs.tune_pace import pace_share
from loaderlab.jobs.tune_plan import (contested, decided, laggards, min_batches, next_turns, pause_setting,
                                      short_of_rounds, SLICE_S, SlicePlan)

OWN = Setting(2, 2, False)
SETTINGS = [OWN, Setting(0, None, False), Setting(1, 2, False), Setting(4, 2, False), Setting(2, 4, False)]


def test_the_budget_sets_the_slices_and_two_slices_a_setting_an_epoch():
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    # 1/64 s a batch, 1,000 batches of 32; 6.5625 s for 5 settings × 3 slices: 0.4375 s, 28 batches a slice
    # (numbers exact in binary: the plan rounds slices up to whole batches and errs short, see tried())
    budget_s, tried = plan.make(0.015625, 32.0, 1000, ("seconds", 6.5625), 6.5625)
    assert budget_s == 6.5625 and tried == [0, 1, 2, 3, 4]
    assert plan.slice_s == 0.4375 and plan.slice_batches == 28 and plan.epoch_samples == 32000
    assert plan.most_batches == 1000 // (2 * 5)
    assert plan.length(3, None) == 28
    # twice as fast: twice the batches, and 4 workers with prefetch 2 the 8 sent at its start and the 8 after
    # its last send (a slice is planned in seconds: a longer one would spend more of the budget)
    assert plan.length(1, 0.0078125) == 56 and plan.length(3, 0.0078125) == 56 + 2 * 8
    assert plan.length(3, 0.0015625) == plan.most_batches  # at most two slices a setting an epoch


def test_a_setting_measured_behind_the_leader_gets_that_share_of_its_batches_never_under_its_fewest():
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    plan.make(0.015625, 32.0, 1000, ("seconds", 6.5625), 6.5625)  # 28 batches a slice, as above
    # the job's own 2 workers at a twelfth of the leader's rate: 28 / 12 is under FIRST_SLICE (8) and its
    # min_batches (2 x 4 sent at the start + 3 x 2 workers = 14): 14 batches
    assert plan.length(0, 0.015625, behind=1 / 12) == 14 == min_batches(OWN)
    assert plan.length(1, 0.015625, behind=1 / 12) == 8  # no workers: FIRST_SLICE
    assert plan.length(1, 0.015625, behind=0.5) == 14  # half of 28
    # a setting near the leader keeps about its batches: what it adds for its pace is shortened alike
    assert plan.length(3, 0.0078125, behind=0.95) == __import__("math").ceil((56 + 2 * 8) * 0.95)
    assert plan.length(1, 0.015625, behind=1.0) == 28


def test_a_settings_pace_share_is_its_median_rate_over_the_leaders():
    cands = [_measured(100.0, 110.0), _measured(1200.0, 1300.0), {}]
    assert pace_share(cands, 0) == 105.0 / 1250.0
    assert pace_share(cands, 1) == 1.0 and pace_share(cands, 2) == 1.0  # the leader; one not run yet
    assert pace_share([_measured(100.0)], 0) == 1.0  # nothing to compare with
    # the job's own before it has a rate: the steady part of its first slice (it started its workers)
    warm = {"slices": [{"round": 0, "samples": 100.0, "seconds": 1.0, "warm": True}]}
    assert pace_share([warm, _measured(400.0)], 0) == 0.25


def test_a_share_of_the_epoch_is_its_estimated_seconds():
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    budget_s, _ = plan.make(0.015625, 32.0, 1000, ("share", 0.25), None)
    assert budget_s == 0.25 * 1000 * 0.015625


def test_a_short_budget_tries_the_likeliest_settings_first():
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    # 0.5 s at 50 ms a batch: 10 batches; a slice at least min_batches(4 workers) = 28 batches, 3 of them: 4.2 s
    budget_s, tried = plan.make(0.05, 32.0, 0, ("seconds", 0.5), 0.5)
    assert budget_s == 0.5 and plan.slice_s == SLICE_S[0]
    assert plan.slice_batches == min_batches(Setting(4, 2, False)) == 28
    assert tried == [0, 1]  # the job's own and the likeliest other (none: the cores' count is the own's)
    # own, none, the own workers with a deeper prefetch, twice the cores, the rest
    assert sorted(range(5), key=plan.priority) == [0, 1, 4, 3, 2]


def test_a_slow_slice_ends_at_twice_its_planned_length_once_it_has_a_rate():
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    assert not plan.too_long(3, 100, 100.0)  # no plan yet: the first slice runs to its end
    plan.make(0.015625, 32.0, 1000, ("seconds", 4.6875), 4.6875)  # slices of 0.3125 s, 28 batches: 0.4375 s
    # 4 workers, prefetch 2: a rate needs 28 batches (min_batches)
    assert plan.too_long(3, 28, 0.88) and not plan.too_long(3, 27, 0.88) and not plan.too_long(3, 28, 0.87)
    # a slice that started its workers gives no rate: cut (and its workers closed), the next one starts them again
    assert not plan.too_long(3, 28, 5.0, warm=True)


def test_a_slice_made_longer_by_the_deepest_setting_is_cut_at_twice_its_batches_time():
    # beside a CPU burner: 56 ms a batch, 47 batches an epoch, half of it: slices planned at 0.1 s but 20
    # batches (the deepest setting's fewest, now 28): a cut at 0.2 s took 3 batches, before any rate
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    plan.make(0.056, 64.0, 47, ("share", 0.5), None)
    assert plan.slice_s == SLICE_S[0] and plan.slice_batches == 28
    assert not plan.too_long(2, 7, 0.3)  # 1 worker, 7 batches (its first rate) in 0.3 s: under 2 × 1.568 s
    assert plan.too_long(2, 7, 3.2) and not plan.too_long(2, 6, 3.2)



def _measured(*rates: float) -> dict:
    """A candidate's record as the tuning reads it: its slices (samples over seconds, never a warm one)."""
    return {"slices": [{"round": r, "samples": rate, "seconds": 1.0, "warm": False} for r, rate in enumerate(rates)]}


def test_a_pause_is_served_by_the_jobs_own_setting_unless_a_candidate_was_measured_faster():
    """Beside a CPU burner the job's own slice was cut short unmeasured and num_workers=0 measured 41 samples/s:
    the pause (the rest of each epoch) once went to that setting, 154 s against 35 s for the plain job."""
    assert pause_setting({0: _measured(), 1: _measured(41.0, 40.0)}) == 0  # only a worse setting measured
    assert pause_setting({0: _measured(250.0, 260.0), 1: _measured(41.0), 2: _measured(300.0, 310.0)}) == 2
    assert pause_setting({0: _measured(250.0), 1: _measured(200.0)}) == 0
    assert pause_setting({}) == 0


def test_a_candidate_far_behind_the_leader_is_dropped_never_the_jobs_own():
    records = {0: _measured(100.0, 110.0), 1: _measured(300.0, 320.0), 2: _measured(240.0, 260.0),
               3: _measured(160.0)}  # one round, over half the leader's median: not judged yet
    assert laggards(records, 0.8) == [] and laggards(records, 0.9) == [2]  # its best, 260, under 0.9 x 310
    assert laggards({0: _measured(10.0, 11.0), 1: _measured(300.0, 320.0)}, 0.8) == []  # the job's own stays
    # one round under half the fastest so far: a second would only cost the budget
    assert laggards({**records, 3: _measured(150.0)}, 0.8) == [3]
    # the job's own before it has a rate: its first slice's steady part (its workers' start) stands for it
    warm = {"slices": [{"round": 0, "samples": 474.0, "seconds": 1.0, "warm": True}]}
    assert laggards({0: warm, 1: _measured(215.0)}) == [1]
    assert laggards({0: warm, 1: _measured(240.0)}) == []


def test_tuning_is_decided_once_every_setting_left_has_two_rounds():
    assert decided({0: _measured(100.0, 110.0), 1: _measured(300.0, 320.0)})
    assert not decided({0: _measured(100.0, 110.0), 1: _measured(300.0)})
    assert not decided({0: _measured(100.0, 110.0), 2: {}})  # a setting that has not run yet


def test_fewer_workers_measured_slower_than_the_jobs_own_rank_more_workers_first():
    """The guess tried `num_workers=0` second on a job whose 2 workers waited on 4 ms reads; measured at 0.45x
    the own's, it says more workers are likelier: 4 workers, never tried before, comes next."""
    plan = SlicePlan(SETTINGS, OWN, cores=2)
    assert sorted(range(5), key=plan.priority) == [0, 1, 4, 3, 2]  # the guess
    plan.learn([_measured(475.0, 478.0), _measured(215.0, 212.0), {}, {}, {}])
    assert plan.more_first and sorted(range(5), key=plan.priority) == [0, 3, 1, 4, 2]
    plan.learn([_measured(475.0, 478.0), _measured(215.0), {}, _measured(300.0), {}])  # 4 workers slower too
    assert not plan.more_first and sorted(range(5), key=plan.priority) == [0, 1, 4, 3, 2]
    plan.learn([_measured(475.0), _measured(900.0), {}, {}, {}])  # fewer measured faster: the guess stands
    assert not plan.more_first
    plan.learn([{}, _measured(215.0), {}, {}, {}])  # the job's own not measured: nothing learnt
    assert not plan.more_first


def test_a_loop_whose_threads_were_busy_while_it_waited_tries_no_workers_first():
    # the loop's torch threads spin where the job's workers need the cores: without workers they share none
    quiet, busy = SlicePlan(SETTINGS, OWN, cores=4), SlicePlan(SETTINGS, OWN, cores=4)
    busy.busy = True
    assert sorted(range(5), key=quiet.priority) == [0, 3, 1, 2, 4]  # as many workers as cores, then none
    assert sorted(range(5), key=busy.priority) == [0, 1, 3, 2, 4]
    assert quiet.make(0.05, 32.0, 0, ("seconds", 0.5), 0.5)[1] == [0, 3]
    assert busy.make(0.05, 32.0, 0, ("seconds", 0.5), 0.5)[1] == [0, 1]


def _record(own: list[float], rival: list[float], busy: float = 0.0, workers: tuple[int, int] = (2, 0)) -> dict:
    """A whole ``tuning`` record of the job's own setting and one rival, their turns taken in the same rounds
    (from round 1: round 0 started the workers); ``busy``: the other threads' cores over the slices' waits."""
    def cand(nw: int, rates: list[float]) -> dict:
        return {"setting": {"num_workers": nw, "prefetch_factor": 2 if nw else None, "pin_memory": False},
                "slices": [{"round": r + 1, "samples": rate, "seconds": 1.0, "warm": False,
                            "wait_s": 1.0, "busy_s": busy} for r, rate in enumerate(rates)]}
    return {"candidates": [cand(workers[0], own), cand(workers[1], rival)]}


def test_a_split_verdict_is_contested_and_an_agreed_one_is_not():
    # 1 of 2 rounds won at a told speed-up: two rounds that disagree decide nothing, a rematch does
    assert contested(_record([100.0, 100.0], [150.0, 90.0])) == 1
    assert contested(_record([100.0, 100.0], [150.0, 140.0])) is None  # 2 of 2: the change is told
    assert contested(_record([100.0, 100.0, 100.0], [150.0, 90.0, 130.0])) is None  # 2 of 3: told
    assert contested(_record([100.0, 100.0, 100.0], [150.0, 90.0, 95.0])) is None  # slower by its median
    assert contested(_record([100.0, 100.0], [104.0, 99.0])) is None  # under the least speed-up told
    assert contested(_record([100.0, 100.0], [100.0, 100.0])) is None  # the job's own is not beaten
    # the loop's threads spun while workers worked: a gain between settings with workers is told only above
    # BUSY_SPEEDUP, so a 1.3x split there is no reason to spend another epoch's share
    assert contested(_record([100.0, 100.0], [160.0, 100.0], busy=1.0, workers=(1, 2))) is None
    assert contested(_record([100.0, 100.0], [160.0, 100.0], busy=1.0, workers=(1, 0))) == 1


class _Measured:
    """A candidate as the tuner keeps it, with a fixed record (no loader, no workers)."""

    def __init__(self, record: dict, batch_s: float | None = None) -> None:
        self._record, self.closed, self.batch_s = record, False, batch_s

    def record(self) -> dict:
        return self._record

    def close(self) -> None:
        self.closed = True


def _tuner_at_an_epochs_end(own: list[float], rival: list[float], third: list[float]):
    import torch
    from torch.utils.data import DataLoader

    from loaderlab.jobs.tuner import Tuner

    tuner = Tuner(DataLoader(torch.arange(400), batch_size=4), "loader", ("share", 0.1))
    records = _record(own, rival)["candidates"] + [_record([], third, workers=(0, 4))["candidates"][1]]
    tuner.settings = [Setting(r["setting"]["num_workers"], r["setting"]["prefetch_factor"], False) for r in records]
    tuner.cands = {i: _Measured(r) for i, r in enumerate(records)}
    tuner.plan = SlicePlan(tuner.settings, tuner.settings[0], cores=2)  # as the job's own first slice made it
    tuner.plan.per_batch, tuner.plan.slice_batches, tuner.plan.slice_s = 0.01, 10, 0.1
    tuner.order, tuner.turn, tuner.round = [0, 1, 2], 1, 3
    tuner.paused, tuner.budget_s = True, 1.0
    tuner.epoch_budget_s, tuner.spent = 1.0, 1.0
    return tuner


def test_settings_never_tried_join_a_new_round_and_the_leader_keeps_its_workers():
    tuner = _tuner_at_an_epochs_end([100.0, 100.0], [150.0, 140.0], [80.0, 85.0])
    tuner.settings.append(Setting(4, 2, False))
    tuner.plan = SlicePlan(tuner.settings, tuner.settings[0], cores=2)
    tuner.plan.per_batch, tuner.plan.slice_batches, tuner.plan.slice_s = 0.01, 10, 0.1
    tuner.skipped = [3]
    tuner.end_epoch(now=10.0)
    assert not tuner.done and tuner.rematch is None
    assert (tuner.order, tuner.skipped, tuner.turn, tuner.round) == ([0, 3], [], 0, 4)
    assert tuner.cands[2].closed and not tuner.cands[1].closed  # 1 leads: it serves the pauses


def test_a_split_verdict_gives_the_next_epochs_share_to_the_two_alone():
    tuner = _tuner_at_an_epochs_end([100.0, 100.0], [150.0, 90.0], [80.0, 85.0])
    tuner.end_epoch(now=10.0)
    assert not tuner.done and tuner.rematch == 1
    assert (tuner.order, tuner.turn, tuner.round, tuner.shares) == ([0, 1], 0, 4, 2)  # a new round, own first
    assert tuner.cands[2].closed and not tuner.cands[1].closed
    assert tuner.record()["rematch"] == 1


def test_an_agreed_verdict_ends_the_tuning_at_the_epochs_end():
    tuner = _tuner_at_an_epochs_end([100.0, 100.0], [150.0, 140.0], [80.0, 85.0])
    tuner.end_epoch(now=10.0)
    assert tuner.done and tuner.adopted == 1 and tuner.rematch is None
    kept = _tuner_at_an_epochs_end([100.0, 100.0], [90.0, 95.0], [80.0, 85.0])
    kept.end_epoch(now=10.0)
    assert kept.done and kept.adopted == 0


def test_a_setting_measured_faster_is_short_of_rounds_until_both_have_two_paired():
    assert short_of_rounds(_record([100.0], [1500.0, 1400.0])) == 1  # the job's own measured once
    assert short_of_rounds(_record([100.0, 100.0], [1500.0])) == 1  # the faster one measured once
    assert short_of_rounds(_record([100.0, 100.0], [1500.0, 1400.0])) is None  # two rounds each, paired
    assert short_of_rounds(_record([100.0, 100.0], [90.0, 95.0])) is None  # nothing measured faster
    assert short_of_rounds(_record([], [1500.0, 1400.0])) is None  # the job's own has no pace at all
    apart = _record([100.0, 100.0], [1500.0, 1400.0])  # two turns each, rounds too far apart to pair
    for r, s in enumerate(apart["candidates"][1]["slices"]):
        s["round"] = 5 + 2 * r
    assert short_of_rounds(apart) == 1


def test_past_four_epochs_the_own_setting_and_a_faster_one_short_of_rounds_go_on_alone():
    """At 10 % of a 16-epoch job whose own 2 workers took 0.14 s a slice and `num_workers=0` ran 15x as fast,
    the own setting's second measured turn fit in no share of four epochs: it kept the 2 workers (11.2 s
    against 0.5 s with `num_workers=0`)."""
    from loaderlab.jobs.tune_shares import SHARE_EPOCHS, SHORT_EPOCHS

    tuner = _tuner_at_an_epochs_end([100.0], [1500.0, 1400.0], [80.0, 85.0])
    tuner.shares, tuner.epochs = SHARE_EPOCHS, SHARE_EPOCHS - 1
    tuner.end_epoch(now=10.0)
    assert not tuner.done and tuner.order == [0, 1] and tuner.shares == SHARE_EPOCHS + 1
    assert tuner.budget_s == 2.0  # the next epoch's share joins the budget
    assert tuner.cands[2].closed and not tuner.cands[1].closed
    # not paused (the share was not spent): the turns still narrow to the two
    unpaused = _tuner_at_an_epochs_end([100.0], [1500.0, 1400.0], [80.0, 85.0])
    unpaused.paused, unpaused.epochs = False, SHARE_EPOCHS - 1
    unpaused.end_epoch(now=10.0)
    assert not unpaused.done and unpaused.order == [0, 1]
    # still short after SHORT_EPOCHS: done, and too few rounds keep the job's own setting
    late = _tuner_at_an_epochs_end([100.0], [1500.0, 1400.0], [80.0, 85.0])
    late.shares, late.epochs = SHORT_EPOCHS, SHORT_EPOCHS - 1
    late.end_epoch(now=10.0)
    assert late.done and late.adopted == 0 and late.record()["epochs"] == SHORT_EPOCHS
    # the job's own has its rounds, the faster one lacks them: its turn is next (its slices cost nothing)
    theirs = _tuner_at_an_epochs_end([100.0, 100.0], [1500.0], [80.0, 85.0])
    theirs.shares, theirs.epochs = SHARE_EPOCHS, SHARE_EPOCHS - 1
    theirs.end_epoch(now=10.0)
    assert not theirs.done and theirs.order == [0, 1] and theirs.turn == 1
    # with the rounds had, the fourth epoch's end ends it with the faster setting adopted
    had = _tuner_at_an_epochs_end([100.0, 100.0], [1500.0, 1400.0], [80.0, 85.0])
    had.shares, had.epochs = SHARE_EPOCHS, SHARE_EPOCHS - 1
    had.end_epoch(now=10.0)
    assert had.done and had.adopted == 1 and had.stopped == "budget"


def test_under_half_a_slice_left_only_the_measured_leaders_turn_goes_on():
    """Its slices cost nothing, and a pause would serve the same batches with it, untimed: an 8-epoch job's
    `num_workers=2`, twice as fast as its own, kept one measured round to the job's end for want of them."""
    tuner = _tuner_at_an_epochs_end([100.0, 100.0], [150.0, 140.0], [80.0, 85.0])
    tuner.paused, tuner.spent, tuner.in_job_share = False, 0.97, 1.0  # 0.03 s left of 1 s, slices of 0.1 s
    tuner.turn = 1
    assert not tuner._share_spent()  # setting 1 leads
    tuner.turn = 0
    assert tuner._share_spent()
    tuner.turn = 2
    assert tuner._share_spent()
    tuner.turn, tuner.spent = 1, 1.0
    assert tuner._share_spent()  # the budget itself is spent


def test_a_pause_whose_workers_ran_already_is_one_more_measured_turn():
    import torch
    from torch.utils.data import DataLoader

    from loaderlab.jobs.tune_slices import Candidate, Slice
    from loaderlab.jobs.tuner import Tuner

    tuner = Tuner(DataLoader(torch.arange(400), batch_size=4), "loader", ("share", 0.1))
    tuner.cands = {0: Candidate(tuner.loader, tuner.settings[0]), 1: Candidate(tuner.loader, Setting(0, None, False))}
    tuner.settings = [tuner.settings[0], Setting(0, None, False)]

    def pause(warm: bool) -> Slice:
        s = Slice(1, [[4 * i + j for j in range(4)] for i in range(40)], 0.0, 3)
        s.pause, s.warm, s.handed = True, warm, 40
        s.receipts = [0.01 * (i + 1) for i in range(40)]  # a batch of 4 every 10 ms: 400 samples/s
        return s

    tuner.slice = pause(warm=False)
    tuner._end_pause()
    (entry,) = tuner.cands[1].slices
    assert entry["pause"] and entry["round"] == 3 and not entry["warm"]
    assert abs(entry["samples"] / entry["seconds"] - 400.0) < 1e-6
    assert tuner.cands[1].pauses["batches"] == 0  # counted as a turn, not twice
    tuner.slice = pause(warm=True)  # it started its workers: a start-up, never a rate
    tuner._end_pause()
    assert len(tuner.cands[1].slices) == 1 and tuner.cands[1].pauses["batches"] == 40


def _five(own: list[float], **measured: list[float]) -> dict:
    """A whole record of SETTINGS' five candidates: the job's own turns, and those named (c1 ... c4)."""
    rows = [_record(own, [])["candidates"][0]] + [
        {"setting": {"num_workers": s.num_workers, "prefetch_factor": s.prefetch_factor, "pin_memory": False},
         "slices": _record([], measured.get(f"c{i}", []))["candidates"][1]["slices"]}
        for i, s in enumerate(SETTINGS) if i]
    return {"candidates": rows}


def _plan() -> SlicePlan:
    plan = SlicePlan(SETTINGS, OWN, cores=4)
    plan.per_batch, plan.slice_batches, plan.slice_s = 0.01, 10, 0.1  # a slice 0.1 s: three of them 0.3 s
    return plan


def test_a_decided_tuning_gives_the_next_share_to_the_settings_never_tried():
    # the first epoch's share tried the job's own and 4 workers (priority: as many workers as cores); a 6-epoch
    # job's tuning once ended there, where 4 workers were not its best
    rec = _five([100.0, 100.0], c3=[150.0, 160.0])
    # a share of 0.65 s gives 0.3 s (three slices) to the job's own and to one more; 1.25 s to the own and three
    assert next_turns(rec, [0, 3], [1, 2, 4], _plan(), budget_s=1.3, share_s=0.65) == ([0, 1], False)
    assert next_turns(rec, [0, 3], [1, 2, 4], _plan(), budget_s=2.5, share_s=1.25) == ([0, 1, 2, 4], False)
    assert next_turns(rec, [0, 3], [1, 2, 4], _plan(), budget_s=0.4, share_s=0.2) == ([0, 1], False)  # one at least


def test_turns_that_lack_rounds_go_on_joined_by_what_the_shares_afford():
    rec = _five([100.0, 100.0], c3=[150.0])
    assert next_turns(rec, [0, 3], [1, 2, 4], _plan(), budget_s=0.6, share_s=0.3) == ([0, 3], False)
    assert next_turns(rec, [0, 3], [1, 2, 4], _plan(), budget_s=1.25, share_s=0.6) == ([0, 1, 2, 3], False)


def test_with_every_setting_tried_a_split_gets_a_rematch_and_an_agreed_verdict_ends_it():
    split = _five([100.0, 100.0], c1=[150.0, 90.0], c2=[80.0, 85.0])
    assert next_turns(split, [0, 1, 2], [], _plan(), budget_s=1.2, share_s=0.6) == ([0, 1], True)
    agreed = _five([100.0, 100.0], c1=[150.0, 140.0], c2=[80.0, 85.0])
    assert next_turns(agreed, [0, 1, 2], [], _plan(), budget_s=1.2, share_s=0.6) is None


def test_a_share_is_rebased_on_the_fastest_setting_measured_never_above_the_jobs_own():
    """10 % of an epoch at the job's own pace was three times the best job's whole epoch where the own setting
    was 12x slower: the budget bounds what tuning adds to the job with its best setting."""
    tuner = _tuner_at_an_epochs_end([100.0, 100.0], [1000.0, 1000.0], [80.0, 85.0])
    tuner.plan.epoch_samples, tuner.shares = 400, 3
    tuner.own_share_s = tuner.epoch_budget_s = 0.4  # 10 % of 400 samples at the own 100 samples/s
    tuner._rebase(tuner.record()["candidates"])
    assert abs(tuner.epoch_budget_s - 0.1 * 400 / 1000.0) < 1e-12  # at the leader's 1,000 samples/s
    assert abs(tuner.budget_s - 3 * tuner.epoch_budget_s) < 1e-12  # the shares so far, rebased alike
    slow = _tuner_at_an_epochs_end([100.0, 100.0], [50.0, 50.0], [80.0, 85.0])  # the job's own leads
    slow.plan.epoch_samples, slow.shares, slow.own_share_s, slow.epoch_budget_s = 400, 2, 0.4, 0.4
    slow._rebase(slow.record()["candidates"])
    assert slow.epoch_budget_s == 0.4 and slow.budget_s == 0.8
    seconds = _tuner_at_an_epochs_end([100.0, 100.0], [1000.0, 1000.0], [80.0, 85.0])
    seconds.epoch_budget_s, seconds.own_share_s = None, None  # --tune-budget 30s: no share to rebase
    seconds._rebase(seconds.record()["candidates"])
    assert seconds.budget_s == 1.0


def test_a_slow_settings_next_slice_costs_its_shortened_batches_beyond_the_leaders_pace():
    tuner = _tuner_at_an_epochs_end([100.0, 100.0], [1000.0, 1000.0], [80.0, 85.0])
    tuner.cands[0].batch_s = 0.04  # 4 samples a batch at 100 samples/s
    n = tuner.plan.length(0, 0.04, behind=0.1)  # its 11 (3 at its pace, 8 edges): under its 14 fewest
    assert n == 11 and abs(tuner._slice_cost(0) - n * 0.04 * 0.9) < 1e-12
    assert tuner._slice_cost(2) == tuner.plan.slice_s  # no pace yet: a whole planned slice


def test_the_jobs_own_turn_goes_on_past_the_budget_while_it_lacks_its_rounds_against_a_faster_one():
    """Shares at the leader's pace afford few of the job's own slices where it is slow: a job whose own 2
    workers were 12x slower got one measured turn in eight epochs and kept them."""
    tuner = _tuner_at_an_epochs_end([100.0], [1000.0, 1000.0], [80.0, 85.0])
    tuner.paused, tuner.turn, tuner.round = False, 2, 3  # the third setting's turn, the budget spent
    assert not tuner._share_spent()
    assert tuner.turn == 0 and tuner.round == 4  # the job's own, in a new round
    had = _tuner_at_an_epochs_end([100.0, 100.0], [1000.0, 1000.0], [80.0, 85.0])
    had.paused, had.turn = False, 2
    assert had._share_spent() and had.turn == 2  # its rounds had: the budget holds
    slower = _tuner_at_an_epochs_end([100.0], [50.0, 50.0], [80.0, 85.0])  # nothing measured faster
    slower.paused, slower.turn = False, 2
    assert slower._share_spent()


def test_the_jobs_own_turn_is_owed_where_it_lacks_turns_or_pairs_and_the_rival_ran_since():
    from loaderlab.jobs.tune_shares import _owes

    def cand(rounds: list[int], rate: float) -> dict:
        return {"slices": [{"round": r, "samples": rate, "seconds": 1.0, "warm": False} for r in rounds]}

    def record(own: list[int], rival: list[int]) -> dict:
        return {"candidates": [cand(own, 100.0), cand(rival, 1000.0)]}

    assert _owes(record([1], [0, 1, 2]), 1)  # one measured turn of its own
    assert not _owes(record([1, 2], [1, 2]), 1)  # two paired
    assert _owes(record([1, 2], [5, 6]), 1)  # its two pair with none of the rival's, which ran since
    assert not _owes(record([5, 6], [1]), 1)  # the rival has not run since its last: the rival's turn is next
