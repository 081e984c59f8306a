"""A ``run --tune`` slice's window (loaderlab.jobs.tune_slices.Slice.window): the receipts its rate is read
between, with stated receipt times (no timing asserts)."""

from __future__ import annotations

import pytest

from loaderlab.jobs.tune_slices import last_send, Slice


def test_a_slice_leaves_its_start_and_the_batches_after_its_last_send_out_of_its_rate():
    """num_workers=0 after a worker setting's slice took 0.75-1.35 ms a batch for its first 5 batches against
    0.2 ms after (the allocator's memory gone to the other's pattern); 2 workers' last waves, with no task sent
    behind them, came 1.5 ms apart against 8 ms. Neither is a plain epoch's pace."""
    s = Slice(1, [[0, 1, 2, 3]] * 20, 0.0, 0)
    s.receipts = [0.001 * i for i in range(5)] + [0.004 + 0.0002 * i for i in range(1, 16)]
    assert s.window(0, None) == (5, 19) and s.steady(0, None) == (56, pytest.approx(14 * 0.0002))
    w = Slice(0, [[0, 1, 2, 3]] * 20, 0.0, 0)
    w.receipts = [0.008 * i for i in range(16)] + [0.12 + 0.0015 * i for i in range(1, 5)]
    # 2 workers, prefetch 2: 4 sent at the start; receipt 15 sends the last task; waves of 2 from 5 to 15
    assert last_send(20, 2, 2) == 15 and w.window(2, 2) == (5, 15)
    assert w.steady(2, 2) == (40, pytest.approx(10 * 0.008))


def test_a_slice_with_no_wave_between_its_edges_has_no_window():
    s = Slice(0, [[0, 1]] * 10, 0.0, 0)
    s.receipts = [0.01 * i for i in range(10)]
    assert s.window(2, 2) is None and s.steady(2, 2) is None  # 4 sent first, the last sent at receipt 5
    s = Slice(0, [[0, 1]] * 14, 0.0, 0)
    s.receipts = [0.01 * i for i in range(14)]
    assert s.window(2, 2) == (4, 8)  # min_batches(2 workers, prefetch 2): two waves