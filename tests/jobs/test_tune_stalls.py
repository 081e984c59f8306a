"""A ``run --tune`` slice names its stalls (loaderlab.jobs.tune_slices.Slice.stalls): gaps between receipts far
longer than its usual pace, which the rate leaves out and every setting's composed epoch counts alike."""

from __future__ import annotations

import pytest

from loaderlab.jobs.tune_slices import Slice
from loaderlab.trace.diagnosis.tuning import STALL_X


def _slice(gaps: list[float], batch: int = 4) -> Slice:
    s = Slice(who=0, items=[list(range(batch))] * (len(gaps) + 1), started=0.0, round_=1)
    s.receipts = [0.01]
    for g in gaps:
        s.receipts.append(s.receipts[-1] + g)
    s.handed = len(s.items)
    return s


def test_a_slow_read_in_the_loop_is_one_stall_beyond_its_pace_and_out_of_the_rate():
    s = _slice([0.005] * 11 + [0.305] + [0.005] * 8)
    [(at, excess)] = s.stalls(workers=0, prefetch=None)
    assert at == 12 and excess == pytest.approx(0.3)
    entry = s.entry(s.steady(0, None), now=0.5)
    assert (entry["stalls"], entry["window_stall_s"]) == (1, pytest.approx(0.3))
    assert entry["stall_s"] == pytest.approx(0.3)
    assert entry["samples"] / (entry["seconds"] - entry["window_stall_s"]) == pytest.approx(4 / 0.005)


def test_waves_of_workers_are_their_pace_not_stalls():
    # two workers hand over in waves: a long gap, then a short one; the pace is a wave's time
    s = _slice([0.009, 0.001] * 10)
    assert s.stalls(workers=2, prefetch=2) == []
    s = _slice([0.009, 0.001] * 5 + [0.4] + [0.001, 0.009] * 5)
    [(at, excess)] = s.stalls(workers=2, prefetch=2)
    assert at == 11 and excess == pytest.approx(0.39)


def test_a_gap_just_under_the_threshold_is_pace():
    s = _slice([0.005] * 10 + [0.005 * STALL_X * 0.9] + [0.005] * 10)
    assert s.stalls(workers=0, prefetch=None) == []


def test_a_stall_outside_the_window_is_in_the_slice_not_in_its_rate():
    # two workers' last wave is outside the steady window (no task follows it): a slow read there, as in a
    # slice cut right after it, is counted in the slice's stalls only
    s = _slice([0.009, 0.001] * 6 + [0.4])
    entry = s.entry(s.steady(2, 2), now=0.5, workers=2, prefetch=2)
    assert entry["stalls"] == 1 and entry["window_stall_s"] == 0.0
    assert entry["stall_s"] == pytest.approx(0.39)


def test_too_few_receipts_name_no_stall():
    assert _slice([0.3]).stalls(workers=0, prefetch=None) == []


def test_a_pause_adds_its_handed_samples_batches_and_stalls_to_its_candidates_record():
    import torch

    from loaderlab.jobs.candidates import Setting
    from loaderlab.jobs.tune_slices import Candidate

    loader = torch.utils.data.DataLoader(list(range(100)), batch_size=4)
    cand = Candidate(loader, Setting(num_workers=0, prefetch_factor=None, pin_memory=False))
    assert "pauses" not in cand.record()  # it served none
    s = _slice([0.005] * 11 + [0.305] + [0.005] * 8)
    s.handed = 15  # the job stopped asking after 15 of its 21 batches
    cand.paused(s)
    cand.paused(_slice([0.005] * 20))
    assert cand.record()["pauses"] == {"samples": 15 * 4 + 21 * 4, "batches": 15 + 21, "stalls": 1,
                                       "stall_s": pytest.approx(0.3)}


def test_a_slice_cut_right_after_a_slow_read_takes_its_settings_earlier_pace():
    # three batches, the last 0.3 s late: too few gaps for a median of their own (it read as a round of 26
    # samples/s); the setting's earlier slices' 5 ms a batch tell the stall from the pace
    s = _slice([0.005, 0.305])
    assert s.stalls(workers=0, prefetch=None) == []
    [(at, excess)] = s.stalls(workers=0, prefetch=None, batch_s=0.005)
    assert at == 2 and excess == pytest.approx(0.3)
    entry = s.entry(s.steady(0, None), now=0.4, batch_s=0.005)
    assert entry["samples"] / (entry["seconds"] - entry["window_stall_s"]) == pytest.approx(8 / 0.01)


def test_a_stall_in_half_a_short_slices_waves_is_told_by_the_settings_earlier_pace():
    # four workers in step, 20 batches: the 0.3 s gap lies in 4 of the 8 waves its median is taken over
    gaps = ([0.0001, 0.0001, 0.0001, 0.01] * 5)[:19]
    gaps[11] = 0.3  # receipt 12: in the waves from receipts 8, 9, 10 and 11
    s = _slice(gaps)
    assert len(s.receipts) == 20 and s.stalls(workers=4, prefetch=2) == []  # its median is a wave with the stall
    [(at, excess)] = s.stalls(workers=4, prefetch=2, batch_s=0.0025)
    assert at == 12 and excess == pytest.approx(0.29, abs=1e-3)


def test_where_the_earlier_pace_makes_most_gaps_stalls_the_slices_own_median_is_its_pace():
    """Beside a CPU burner a setting served 2,842 samples/s in one slice and 100 in its next: told by the first
    slice's pace, 49 of the second's 50 gaps were stalls and its rate read as the first's."""
    s = _slice([0.08] * 49)  # 50 batches, 80 ms apart: the setting's pace now
    assert s.stalls(workers=0, prefetch=None, batch_s=0.0014) == []
    entry = s.entry(s.steady(0, None), now=4.0, batch_s=0.0014)
    assert entry["stalls"] == 0 and entry["samples"] / entry["seconds"] == pytest.approx(4 / 0.08)
    slow = _slice([0.08] * 20 + [1.0] + [0.08] * 20)  # a rare slow read beside it is still one
    [(at, excess)] = slow.stalls(workers=0, prefetch=None, batch_s=0.0014)
    assert at == 21 and excess == pytest.approx(0.92)
