"""The measured choice of ``run --tune`` read from a tuning record: ratios of medians against the job's own
setting, a win only where most paired rounds agree, and the report's and JSON's words from the same choice."""

from __future__ import annotations

import pytest

from loaderlab.jobs.candidates import Setting, candidates, parse_budget, worker_ladder
from loaderlab.trace.diagnosis.tuning import tuning_choice, tuning_table
from loaderlab.trace.diagnosis.tuning_report import tuning_document, tuning_lines, tuning_suggestions

OWN = {"num_workers": 0, "prefetch_factor": None, "pin_memory": False}
TWO = {"num_workers": 2, "prefetch_factor": 2, "pin_memory": False}
FOUR = {"num_workers": 4, "prefetch_factor": 2, "pin_memory": False}


def cand(setting, per_round, startup=None):
    """A candidate with workers: its first slice is its start-up; then one slice per round with these samples/s."""
    slices = [{"round": 0, "samples": 10, "seconds": 1.0, "warm": True, "batches": 4}] if setting["num_workers"] else []
    slices += [{"round": r + 1, "samples": rate, "seconds": 1.0, "warm": False, "batches": 10}
               for r, rate in enumerate(per_round)]
    return {"setting": setting, "startup_s": startup, "slices": slices}


def record(*cands, adopted=None):
    return {"own": OWN, "candidates": list(cands), "budget_s": 5.0, "spent_s": 4.9, "slice_batches": 10,
            "stopped": "budget", "adopted": adopted}


def test_a_clear_winner_is_chosen_with_its_median_ratio():
    rec = record(cand(OWN, [100, 110, 90, 100]), cand(TWO, [190, 210, 200, 180], startup=0.3),
                 cand(FOUR, [150, 160, 140, 155]))
    choice = tuning_choice(rec)
    assert (choice.best, choice.keep, choice.wins, choice.paired) == (1, False, 4, 4)
    assert choice.speedup == pytest.approx(195 / 100)
    [s] = tuning_suggestions(rec, epochs=3)
    # the same shape as the model's suggestions: the arguments as a dict, the printed form beside it
    assert (s["change"], s["measured"], s["speedup"]) == ({"num_workers": 2, "prefetch_factor": 2}, True, 1.95)
    assert s["change_text"] == "num_workers=2, prefetch_factor=2"


def test_a_higher_median_that_lost_most_paired_rounds_is_not_a_win():
    # the median is higher, but in three of five rounds the job's own setting was faster
    rec = record(cand(OWN, [100, 100, 100, 100, 100]), cand(TWO, [99, 98, 99, 300, 300]))
    choice = tuning_choice(rec)
    assert choice.best == 0 and choice.keep
    assert tuning_suggestions(rec) == []


def test_a_small_gain_keeps_the_settings_and_says_so():
    rec = record(cand(OWN, [100, 100, 100]), cand(TWO, [103, 102, 104]))
    assert tuning_choice(rec).keep
    lines = tuning_lines(rec)
    assert any(line.startswith("Keep your settings") for line in lines)
    assert not any("Suggestion (measured" in line for line in lines)


def test_only_the_own_setting_measured_is_too_few_rounds_not_keep_your_settings():
    rec = record(cand(OWN, [100, 100, 100]), cand(TWO, []))
    assert tuning_choice(rec).speedup is None
    lines = tuning_lines(rec)
    assert any(line.startswith("Too few rounds to tell") for line in lines)
    assert not any(line.startswith("Keep your settings") for line in lines)


def test_a_setting_dropped_after_one_round_far_behind_leaves_keep_your_settings():
    """The tuning drops a setting whose one measured round is under half the fastest pace (its second would only
    spend the budget): the job's own is then the measured best, not "too few rounds"."""
    far = record(cand(OWN, [100, 100, 100]), cand(TWO, [45]), cand(FOUR, []))
    assert (tuning_choice(far).best, tuning_choice(far).speedup, tuning_choice(far).keep) == (0, 1.0, True)
    assert any(line.startswith("Keep your settings") for line in tuning_lines(far))
    near = record(cand(OWN, [100, 100, 100]), cand(TWO, [90]))  # one round, not far behind: undecided
    assert tuning_choice(near).speedup is None
    assert any(line.startswith("Too few rounds to tell") for line in tuning_lines(near))


def test_too_few_rounds_ask_for_a_larger_budget():
    rec = record(cand(OWN, [100]), cand(TWO, []))
    assert tuning_choice(rec).speedup is None
    lines = tuning_lines(rec, "ko")
    assert any("--tune-budget 30" in line for line in lines)


def test_the_table_and_the_text_print_the_same_numbers():
    rec = record(cand(OWN, [100, 110, 90]), cand(TWO, [190, 210, 200], startup=0.25), adopted=1)
    table = tuning_table(rec)
    assert list(table["rounds"]) == [3, 3]  # TWO's start-up slice is not a round
    assert list(table["samples_per_s"]) == [100, 200]
    assert list(table["low"]) == [90, 190] and list(table["high"]) == [110, 210]
    assert table["vs_own"].iloc[1] == pytest.approx(2.0)
    assert list(table["adopted"]) == [False, True]
    text = "\n".join(tuning_lines(rec, epochs=5))
    assert "200 samples/s (lowest 190, highest 210; 3 rounds), 2.00× yours, start-up 0.25 s" in text
    assert "2.00× the samples per second of your setting (200 against 100 samples/s" in text
    assert "paid again in each of the job's 5 epochs" in text
    assert "The rest of the job ran with num_workers=2, prefetch_factor=2" in text
    doc = tuning_document(rec, "en", 5)
    assert doc["speedup"] == pytest.approx(2.0) and doc["best"] == 1 and doc["tuned_batches"] == 30 + 4 + 30


def test_the_batches_of_the_pauses_are_counted_as_untraced_and_their_setting_named():
    # the rest of each epoch whose share was spent went to the measured leader: those batches were not traced
    # either, and the job did not run them with the setting the line names for the rest of the job
    rec = record(cand(OWN, [100, 100]), cand(TWO, [150, 90]), adopted=0)
    rec["candidates"][1]["pauses"] = {"samples": 720, "batches": 180, "stalls": 0, "stall_s": 0.0}
    assert tuning_document(rec, "en", 4)["tuned_batches"] == 20 + 4 + 20 + 180
    lines = tuning_lines(rec, epochs=4)
    assert ("The rest of the job ran with your own setting; the 224 batches served while it tuned (its slices, "
            "and the rest of each epoch whose share was spent, 180 of them served by num_workers=2, "
            "prefetch_factor=2) are not in this trace's events.") in lines
    assert "180개: num_workers=2, prefetch_factor=2로 받음" in "\n".join(tuning_lines(rec, "ko", epochs=4))
    del rec["candidates"][1]["pauses"]["batches"]  # a record from before the count: its slices alone
    assert "the 44 batches served while it tuned (its slices) are not" in "\n".join(tuning_lines(rec, epochs=4))


def test_a_pause_timed_as_a_round_is_counted_once_and_said_apart_from_the_slices():
    rec = record(cand(OWN, [100, 100]), cand(TWO, [150, 160]), adopted=1)
    rec["candidates"][1]["slices"].append({"round": 2, "samples": 155, "seconds": 1.0, "warm": False,
                                           "batches": 40, "pause": True})
    rec["candidates"][1]["pauses"] = {"samples": 80, "batches": 20, "stalls": 0, "stall_s": 0.0}
    assert tuning_document(rec, "en", 4)["tuned_batches"] == 20 + 4 + 20 + 40 + 20
    text = "\n".join(tuning_lines(rec, epochs=4))
    assert ("slices of 10 batches taken in turn (5 slices in all), and 1 rest of an epoch whose share was spent, "
            "timed as a round of the setting that served it") in text
    assert "3 rounds" in text  # the pause is one of its setting's rounds
    assert "the 104 batches served while it tuned (its slices, and the rest of each epoch whose share was " \
           "spent, 60 of them served by num_workers=2, prefetch_factor=2)" in text
    assert "몫을 다 쓴 에폭의 나머지 1개(그것을 받은 설정의 라운드로 잼)" in "\n".join(tuning_lines(rec, "ko", epochs=4))


def test_warm_slices_are_start_up_never_a_rate():
    rec = record(cand(OWN, [100, 100]), cand(TWO, [100, 100]))
    rec["candidates"][1]["slices"][0]["samples"] = 10_000  # a start-up slice, however fast, is not a rate
    assert list(tuning_table(rec)["high"]) == [100, 100]
    assert list(tuning_table(rec)["rounds"]) == [2, 2]


def test_candidates_never_change_the_batches_and_start_from_the_jobs_own():
    own = Setting(2, 2, False)
    found = candidates(own, device=False, cores=2, cap=64)
    assert found[0] == own
    assert {s.num_workers for s in found} == {0, 1, 2, 4}
    assert Setting(2, 4, False) in found  # a deeper prefetch at the job's own worker count
    assert all(not s.pin_memory for s in found)
    assert Setting(2, 2, True) in candidates(own, device=True, cores=2, cap=64)


def test_memory_caps_the_worker_counts_but_keeps_the_jobs_own():
    assert worker_ladder(own=8, cores=4, cap=2) == [0, 1, 2, 8]


@pytest.mark.parametrize("text, parsed", [("10%", ("share", 0.1)), ("30", ("seconds", 30.0)),
                                          ("2.5s", ("seconds", 2.5)), ("100%", ("share", 1.0))])
def test_budgets(text, parsed):
    assert parse_budget(text) == parsed


@pytest.mark.parametrize("text", ["0%", "150%", "-3", "soon", ""])
def test_bad_budgets_name_the_option_and_the_allowed_values(text):
    with pytest.raises(ValueError, match=r"--tune-budget must be a share of each epoch like 10%"):
        parse_budget(text)


def timed(c, first_elapsed, first_samples=10):
    """The candidate with whole-slice times (run --tune records them): its first slice took ``first_elapsed``
    seconds for ``first_samples`` samples; every later slice ran at its steady rate."""
    for i, s in enumerate(c["slices"]):
        s["all_samples"] = first_samples if i == 0 else s["samples"]
        s["elapsed_s"] = first_elapsed if i == 0 else s["seconds"]
    return c


def test_a_start_up_that_dominates_a_short_epoch_is_in_the_speed_up():
    # four workers read 4x the samples/s, but starting them took 1.5 s of a 200-sample epoch: the epoch is
    # 200/400 + (1.5 - 10/400) = 1.975 s against 200/100 = 2 s with the job's own: no 4x, not worth an edit
    rec = record(timed(cand(OWN, [100, 100, 100]), 0.1), timed(cand(FOUR, [400, 400, 400]), 1.5))
    rec["epoch_samples"] = 200
    choice = tuning_choice(rec)
    assert choice.epoch_s == pytest.approx((1.975, 2.0))
    assert choice.speedup == pytest.approx(2.0 / 1.975) and choice.keep
    assert tuning_table(rec)["epoch_s"].tolist() == pytest.approx([2.0, 1.975])
    rec["epoch_samples"] = 20_000  # a long epoch pays it once: the rate decides
    choice = tuning_choice(rec)
    assert choice.speedup == pytest.approx(200 / (50 + 1.475)) and not choice.keep
    [s] = tuning_suggestions(rec)
    assert (s["epoch_s"], s["own_epoch_s"]) == pytest.approx((51.475, 200.0))
    assert "faster per epoch of your job (51.48 s against 200.00 s for its 20,000 samples" in \
        "\n".join(tuning_lines(rec))


def test_the_shortest_epoch_wins_not_the_highest_rate():
    rec = record(timed(cand(OWN, [100, 100, 100]), 0.1), timed(cand(TWO, [300, 300, 300]), 0.2),
                 timed(cand(FOUR, [400, 400, 400]), 1.5))
    rec["epoch_samples"] = 600  # TWO: 2 + 0.17 s; FOUR: 1.5 + 1.475 s
    choice = tuning_choice(rec)
    assert choice.best == 1 and choice.speedup == pytest.approx(6.0 / (2.0 + 0.2 - 10 / 300))
    assert "한 에폭" in "\n".join(tuning_lines(rec, "ko"))


def test_a_faster_setting_that_shared_too_few_rounds_is_untold_not_keep():
    """A sub-second job: the faster setting got its rounds after the job's own had its (inmem_small_nw2 at a
    0.42 s budget read 'keep your settings' with num_workers=0 twelve times faster in its only rounds)."""
    own, two = cand(OWN, [100, 100]), cand(TWO, [])
    two["slices"] += [{"round": r, "samples": 1200, "seconds": 1.0, "warm": False, "batches": 10} for r in (3, 4)]
    rec = record(own, two)
    choice = tuning_choice(rec)
    assert choice.keep and choice.paired == 1 and choice.speedup >= 1.05  # its round 3 with the own's round 2
    lines = tuning_lines(rec)
    assert any(line.startswith("Too few rounds to tell") for line in lines)
    assert not any(line.startswith("Keep your settings") for line in lines)


def test_workers_that_persist_start_once_a_job_not_once_an_epoch():
    # the short epoch above, but the job's workers persist: four workers start once for the whole job, so
    # each epoch is its samples at the rate (0.5 s against 2 s); the start-up stays in the table, apart
    rec = record(timed(cand(OWN, [100, 100, 100]), 0.1), timed(cand(FOUR, [400, 400, 400], startup=1.5), 1.5))
    rec["epoch_samples"], rec["persistent_workers"] = 200, True
    choice = tuning_choice(rec)
    assert choice.epoch_s == pytest.approx((0.5, 2.0)) and choice.speedup == pytest.approx(4.0)
    assert not choice.keep
    assert tuning_table(rec)["startup_s"].tolist()[1] == 1.5


@pytest.mark.parametrize("budget, budget_s, wanted", [
    ({"kind": "share", "value": 0.5}, 1.4, "--tune-budget 30 (seconds)."),  # 50 %: never ask for 25 %
    ({"kind": "share", "value": 0.1}, 0.3, "--tune-budget 30 (seconds) or --tune-budget 20%."),
    ({"kind": "seconds", "value": 40.0}, 40.0, "--tune-budget 80 (seconds)."),
])
def test_too_few_rounds_ask_for_a_budget_larger_than_the_one_spent(budget, budget_s, wanted):
    rec = record(cand(OWN, [100]), cand(TWO, []))
    rec["budget"], rec["budget_s"] = budget, budget_s
    [line] = [line for line in tuning_lines(rec) if line.startswith("Too few rounds")]
    assert line.endswith(wanted)


def test_one_round_is_one_round():
    rec = record(cand(OWN, [100]), cand(TWO, [200]))
    assert any("(lowest 100, highest 100; 1 round)" in line for line in tuning_lines(rec))
    assert any("; 1회)" in line for line in tuning_lines(rec, "ko"))


def test_the_start_up_note_is_for_workers_that_restart_each_epoch():
    rec = record(timed(cand(OWN, [100, 100, 100]), 0.1), timed(cand(FOUR, [400, 400, 400], startup=0.3), 0.4))
    rec["epoch_samples"] = 2000
    assert any("paid again in each of the job's 3 epochs" in line for line in tuning_lines(rec, epochs=3))
    rec["persistent_workers"] = True  # a job whose workers persist was told it pays them each epoch
    assert not any("paid again" in line for line in tuning_lines(rec, epochs=3))


def _waited(candidate, wait_s, busy_s):
    """The candidate's slices with these waits and their other threads' CPU (Slice.waited)."""
    for s in candidate["slices"]:
        s.update(wait_s=wait_s, busy_s=busy_s)
    return candidate


def test_a_gain_between_settings_with_workers_in_a_busy_process_is_told_only_above_its_noise():
    # 1.40x, every round won: told where the loop's threads slept while it waited, not where they spun (their
    # landing moves a whole process's rates, which its rounds share: tuning_noise)
    one = {"num_workers": 1, "prefetch_factor": 2, "pin_memory": False}
    quiet = record(_waited(cand(one, [100, 100, 100]), 0.5, 0.01), _waited(cand(TWO, [140, 140, 140]), 0.5, 0.01))
    busy = record(_waited(cand(one, [100, 100, 100]), 0.5, 0.45), _waited(cand(TWO, [140, 140, 140]), 0.5, 0.45))
    assert not tuning_choice(quiet).keep and tuning_choice(quiet).busy < 0.1
    choice = tuning_choice(busy)
    assert choice.keep and choice.speedup == pytest.approx(1.4) and choice.busy == pytest.approx(0.9)
    lines = tuning_lines(busy)
    assert any(line.startswith("Keep your settings: num_workers=2 measured 1.40× faster") and "0.9 cores busy" in line
               and "under 1.65×" in line for line in lines)
    assert any("OMP_WAIT_POLICY=PASSIVE" in line for line in tuning_lines(busy, "ko"))
    assert tuning_suggestions(busy) == []
    far = record(_waited(cand(one, [100, 100, 100]), 0.5, 0.45), _waited(cand(TWO, [200, 200, 200]), 0.5, 0.45))
    assert not tuning_choice(far).keep  # twice as fast is beyond what such a process moves by


def test_no_workers_beside_busy_threads_is_told_as_measured():
    # without workers nothing shares a core with the spinning threads: the gain is told as it was measured
    one = {"num_workers": 1, "prefetch_factor": 2, "pin_memory": False}
    rec = record(_waited(cand(one, [100, 100, 100]), 0.5, 0.45), cand(OWN, [140, 140, 140]))
    choice = tuning_choice(rec)
    assert (choice.best, choice.keep) == (1, False) and choice.speedup == pytest.approx(1.4)


def test_the_job_owns_first_turn_starting_its_workers_costs_no_pair():
    # own (2 workers): round 0 starts them (warm), rounds 1 and 2 measured; num_workers=0 measured in rounds 0
    # and 1, each right after the own's turn of that round: its turns pair with the own's in order (0 with 1,
    # 1 with 2), each taken one after the other (the SQLite job: two rounds each, one pair by round number)
    own = cand(TWO, [100, 100])
    none = {"setting": OWN, "startup_s": None,
            "slices": [{"round": r, "samples": 150, "seconds": 1.0, "warm": False, "batches": 10} for r in (0, 1)]}
    choice = tuning_choice(record(own, none))
    assert (choice.best, choice.paired, choice.wins, choice.keep) == (1, 2, 2, False)


def test_a_rematch_that_decided_a_split_is_said_beside_the_choice():
    # the first two rounds split (150 against 100, then 90): the next epoch's share went to the two alone
    rec = dict(record(cand(OWN, [100, 100, 100]), cand(TWO, [150, 90, 140])), rematch=1)
    choice = tuning_choice(rec)
    assert (choice.best, choice.keep, choice.wins, choice.paired) == (1, False, 2, 3)
    text = tuning_lines(rec)
    said = [line for line in text if "split" in line]
    assert said == ["The first rounds split between num_workers=2, prefetch_factor=2 and your setting, so a later "
                    "epoch's share went to those two alone to decide it."]
    assert text.index(said[0]) < next(i for i, line in enumerate(text) if "Suggestion" in line)
    assert any("num_workers=2, prefetch_factor=2와 현재 설정의 승부가" in line for line in tuning_lines(rec, "ko"))
    assert not [line for line in tuning_lines(dict(rec, rematch=None)) if "split" in line]


def test_a_setting_that_joined_in_a_later_share_pairs_with_the_owns_turns_of_its_rounds():
    # the job's own measured in rounds 0-12 (no workers); num_workers=4 joined at round 7 (its start), measured
    # in rounds 8 and 9: zipped in order its turns met the own's rounds 0 and 1 and made no pair
    own = {"setting": OWN, "startup_s": None,
           "slices": [{"round": r, "samples": 800 + r, "seconds": 1.0, "warm": False, "batches": 10}
                      for r in range(13)]}
    late = {"setting": FOUR, "startup_s": 0.05,
            "slices": [{"round": 7, "samples": 10, "seconds": 1.0, "warm": True, "batches": 10}] +
                      [{"round": r, "samples": 2900, "seconds": 1.0, "warm": False, "batches": 60} for r in (8, 9)]}
    choice = tuning_choice(record(own, late))
    assert (choice.best, choice.paired, choice.wins, choice.keep) == (1, 2, 2, False)


def test_turns_pair_in_their_round_else_the_next_else_the_one_before_each_once():
    from loaderlab.trace.diagnosis.tuning import paired_turns

    assert paired_turns([(1, 10.0), (2, 20.0)], [(0, 1.0), (1, 2.0)]) == [(10.0, 1.0), (20.0, 2.0)]
    assert paired_turns([(3, 30.0), (4, 40.0)], [(3, 3.0), (4, 4.0)]) == [(30.0, 3.0), (40.0, 4.0)]
    assert paired_turns([(2, 20.0)], [(3, 3.0), (3, 3.5)]) == [(20.0, 3.0)]  # an own turn pairs once
    assert paired_turns([(0, 1.0)], [(5, 5.0)]) == []  # rounds apart: no pair


def _stalled(c, slice_index, stall_s, in_window):
    """The candidate's slice met one stall of ``stall_s`` beyond its pace (inside its steady window or not)."""
    s = c["slices"][slice_index]
    s.update(stalls=1, stall_s=stall_s, window_stall_s=stall_s if in_window else 0.0)
    if in_window:
        s["seconds"] += stall_s
    s["elapsed_s"] = s.get("elapsed_s", s["seconds"]) + stall_s
    return c


def test_stalls_are_out_of_the_rates_and_every_epoch_counts_them_at_the_pooled_rate():
    # a slow sample every 600: the job's own slices met none, two of the workers' slices met one each (one
    # inside its window, one outside, as in a slice cut right after it). Both epochs count one stall (2 in the
    # 1,200 samples of the measured slices; 600 an epoch), each 1 s long: the job's own (none met) at the
    # pooled length, the workers at theirs. Without them 6.0 / 2.17 s overstated the change as 2.77x.
    own = timed(cand(OWN, [100, 100, 100]), 1.0, first_samples=100)  # no start-up
    two = timed(cand(TWO, [300, 300, 300]), 0.5, first_samples=100)  # start-up 0.5 - 100/300 s
    _stalled(two, 1, 1.0, in_window=True)
    _stalled(two, 2, 1.0, in_window=False)
    rec = record(own, two)
    rec["epoch_samples"] = 600
    table = tuning_table(rec)
    assert (table["low"].tolist(), table["high"].tolist()) == ([100, 300], [100, 300])  # stalls apart
    assert table["stall_s"].tolist() == pytest.approx([1.0, 1.0])
    choice = tuning_choice(rec)
    assert choice.epoch_s == pytest.approx((2.0 + 1.0 + (0.5 - 100 / 300), 6.0 + 1.0))
    assert choice.speedup == pytest.approx(7.0 / (3.5 - 100 / 300)) and not choice.keep
    en, ko = "\n".join(tuning_lines(rec)), "\n".join(tuning_lines(rec, "ko"))
    assert "Stalls: 2 waits for a batch took over 10× the usual pace in the 1,200 samples served while tuning " \
           "(2.00 s beyond it" in en
    assert "every epoch above counts them at that rate: 1.00 s of yours." in en
    assert "샘플 1,200개에서" in ko and "현재 설정에서 1.00초" in ko
    assert "one epoch 7.00 s" in en  # the table's epoch, stalls in


def test_a_stall_in_the_first_slice_is_not_its_start_up():
    own = timed(cand(OWN, [100, 100, 100]), 1.0, first_samples=100)
    _stalled(own, 0, 0.5, in_window=False)  # the own's first slice took its 1 s at the rate and a 0.5 s stall
    rec = record(own, timed(cand(TWO, [300, 300, 300]), 0.5, first_samples=100))
    rec["epoch_samples"] = 1200  # the slices' 1,200 samples met one stall: one an epoch, and no start-up
    assert tuning_table(rec)["epoch_s"].tolist()[0] == pytest.approx(12.0 + 0.5)


def test_a_pipeline_that_hides_part_of_each_stall_counts_its_own_length():
    # every setting's slices met stalls as often; the workers' were shorter (their pipeline ran ahead)
    own = _stalled(timed(cand(OWN, [100, 100, 100]), 1.0, first_samples=100), 1, 1.0, in_window=True)
    two = _stalled(timed(cand(TWO, [100, 100, 100]), 1.0, first_samples=100), 1, 0.25, in_window=True)
    rec = record(own, two)
    rec["epoch_samples"] = 300  # 2 stalls in 600 samples: one an epoch
    assert tuning_table(rec)["stall_s"].tolist() == pytest.approx([1.0, 0.25])


def test_a_record_without_stalls_reads_as_before():
    rec = record(timed(cand(OWN, [100, 100, 100]), 0.1), timed(cand(TWO, [300, 300, 300]), 0.2))
    rec["epoch_samples"] = 600
    assert tuning_table(rec)["stall_s"].tolist() == [0.0, 0.0]
    assert not any(line.startswith("Stalls") for line in tuning_lines(rec))


def test_the_pauses_stalls_join_the_pool_and_their_settings_length():
    # the job's own slices met none, but the pauses it served (the rest of each epoch) met 4 in 1,800 samples
    own = timed(cand(OWN, [100, 100, 100]), 1.0, first_samples=100)
    own["pauses"] = {"samples": 1800, "stalls": 4, "stall_s": 1.2}
    two = _stalled(timed(cand(TWO, [300, 300, 300]), 0.5, first_samples=100), 1, 0.2, in_window=True)
    rec = record(own, two)
    rec["epoch_samples"] = 600  # 5 stalls in 300 + 900 + 1,800 samples: one an epoch
    assert tuning_table(rec)["stall_s"].tolist() == pytest.approx([0.3, 0.2])
    said = "\n".join(tuning_lines(rec))
    assert "Stalls: 5 waits for a batch took over 10× the usual pace in the 3,000 samples" in said


def test_a_setting_whose_turn_never_came_says_the_job_ended_first():
    rec = record(cand(OWN, [100, 100]), cand(TWO, [200, 210]), cand(FOUR, []))
    rec["candidates"][2]["slices"] = []
    rec["stopped"] = "job_ended"
    lines = tuning_lines(rec)
    assert "  · num_workers=4, prefetch_factor=2: not measured (the job ended before its turn came)" in lines
    assert any("작업이 끝남" in line for line in tuning_lines(rec, "ko"))
