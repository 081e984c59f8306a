"""The engine's instrumentation: which events, in which order, from which process, and when."""

from __future__ import annotations

import multiprocessing
import time

import pytest
import torch

import loaderlab
from loaderlab import DataLoader, ListTracer
from loaderlab.engine import events as ev
from tests.helpers.processes import live_children
from tests.engine.traced_datasets import BlockingAt, Squares, label_and_length


def _kinds(frame, **where):
    rows = frame
    for column, value in where.items():
        rows = rows[rows[column] == value]
    return list(rows["kind"])


def test_single_process_event_sequence_is_exact():
    frame = loaderlab.record(DataLoader(Squares(5), batch_size=2))
    batch = ["sampler_yield", "fetch_begin", "fetch_end", "fetch_begin", "fetch_end", "collate_begin",
             "collate_end", "batch_yield", "consumer_begin", "consumer_end"]
    last = ["sampler_yield", "fetch_begin", "fetch_end", "collate_begin", "collate_end", "batch_yield",
            "consumer_begin", "consumer_end"]
    assert list(frame["kind"]) == ["epoch_begin", *batch, *batch, *last, "epoch_end"]
    assert set(frame["worker"]) == {ev.MAIN_PROCESS}
    fetched = frame[frame.kind == "fetch_end"]
    assert list(fetched["index"]) == [0, 1, 2, 3, 4]
    assert list(fetched["batch"]) == [0, 0, 1, 1, 2]
    assert frame["t_ns"].is_monotonic_increasing


def test_each_worker_reports_its_own_pipeline_in_order():
    frame = loaderlab.record(DataLoader(Squares(8), batch_size=2, num_workers=2))
    pids = set(frame.loc[frame.kind == "worker_ready", "pid"])
    assert len(pids) == 2 and frame.attrs["loader"]["num_workers"] == 2
    for worker in (0, 1):
        mine = frame[(frame.worker == worker) & frame.pid.isin(pids)]
        one_task = ["index_get", "fetch_begin", "fetch_end", "fetch_begin", "fetch_end", "collate_begin",
                    "collate_end", "result_put"]
        assert list(mine["kind"]) == ["worker_ready", *one_task, *one_task, "worker_exit"]
        # Round-robin: worker k gets tasks k, k+2, ...
        assert list(mine.loc[mine.kind == "index_get", "batch"]) == [worker, worker + 2]
    puts = frame[frame.kind == "index_put"]
    assert list(puts["queue"]) == ["index_queue[0]", "index_queue[1]"] * 2
    assert list(frame.loc[frame.kind == "batch_yield", "batch"]) == [0, 1, 2, 3]


def test_prefetch_cap_bounds_outstanding_tasks():
    frame = loaderlab.record(DataLoader(Squares(40), batch_size=1, num_workers=2, prefetch_factor=3))
    main = frame[frame.pid == frame.pid.iloc[0]]
    outstanding, peak = 0, 0
    for kind in main["kind"]:
        outstanding += {"index_put": 1, "result_get": -1}.get(kind, 0)
        peak = max(peak, outstanding)
    assert peak == 3 * 2


def test_out_of_order_delivery_never_parks():
    frame = loaderlab.record(DataLoader(Squares(12), batch_size=2, num_workers=2, in_order=False))
    assert "reorder_park" not in set(frame["kind"])
    assert sorted(frame.loc[frame.kind == "batch_yield", "detail"]) == sorted(f"task {i}" for i in range(6))


def test_tracing_does_not_change_batches():
    plain = list(DataLoader(Squares(9), batch_size=4, num_workers=2, shuffle=True,
                            generator=torch.Generator().manual_seed(3)))
    traced_loader = DataLoader(Squares(9), batch_size=4, num_workers=2, shuffle=True,
                               generator=torch.Generator().manual_seed(3))
    traced_loader.tracer = ListTracer()
    traced = list(traced_loader)
    assert len(plain) == len(traced) == 3
    for a, b in zip(plain, traced):
        assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])


def test_sample_info_labels_every_fetch_in_workers():
    frame = loaderlab.record(DataLoader(Squares(6), batch_size=3, num_workers=2), sample_info=label_and_length)
    fetched = frame[frame.kind == "fetch_end"].sort_values("index")
    assert list(fetched["label"]) == [i % 3 for i in range(6)]
    assert set(fetched["length"]) == {1}


def test_pin_stage_runs_and_says_it_skipped_without_accelerator():
    if torch.accelerator.is_available():
        pytest.skip("this machine can pin")
    with pytest.warns(UserWarning, match="no accelerator is found"):
        frame = loaderlab.record(DataLoader(Squares(4), batch_size=2, num_workers=1, pin_memory=True))
    pins = frame[frame.kind.isin(["pin_begin", "pin_end"])]
    assert list(pins["kind"]) == ["pin_begin", "pin_end"] * 2
    assert set(pins["detail"]) == {"skipped: no accelerator"}
    assert set(pins["nbytes"]) == {2 * 8 + 2 * 8}  # two int64 squares and two int64 labels per batch


def test_worker_stuck_in_getitem_is_visible_while_stuck_and_reports_its_stack():
    release = multiprocessing.get_context("fork").Event()
    loader = DataLoader(BlockingAt(4, block_index=2, release=release), batch_size=1, num_workers=1)
    tracer = loader.tracer = ListTracer()
    it = iter(loader)
    assert int(next(it)) == 0 and int(next(it)) == 1

    def stuck_begin():
        return [e for e in tracer.snapshot() if e.kind == "fetch_begin" and e.index == 2]

    deadline = time.monotonic() + 10
    while not stuck_begin() and time.monotonic() < deadline:
        time.sleep(0.01)  # polling a condition with a deadline; the worker is genuinely blocked
    begins = stuck_begin()
    assert begins, "the stuck sample's fetch_begin should arrive while the worker is stuck"
    assert not [e for e in tracer.snapshot() if e.kind == "fetch_end" and e.index == 2]

    it.request_stacks()
    deadline = time.monotonic() + 10
    while not [e for e in tracer.snapshot() if e.kind == "stack"] and time.monotonic() < deadline:
        time.sleep(0.01)
    stacks = [e for e in tracer.snapshot() if e.kind == "stack"]
    assert stacks and "wait_inside_getitem" in stacks[0].detail
    # the worker's own frames only: from multiprocessing's _bootstrap, not the parent's frames before fork
    assert stacks[0].detail.lstrip().startswith('File "') and "in _bootstrap" in stacks[0].detail.splitlines()[0]
    assert "popen_fork" not in stacks[0].detail
    release.set()
    assert [int(b) for b in it] == [2, 3]
    # The early fetch_begin and the one in the batch's record are the same moment: no duplicate.
    assert len([e for e in tracer.snapshot() if e.kind == "fetch_begin" and e.index == 2]) == 1


def test_record_shuts_down_persistent_workers_and_numbers_epochs():
    loader = DataLoader(Squares(6), batch_size=2, num_workers=2, persistent_workers=True)
    frame = loaderlab.record(loader, epochs=3)
    assert sorted(set(frame["epoch"])) == [0, 1, 2]
    assert list(frame.loc[frame.kind == "epoch_begin", "epoch"]) == [0, 1, 2]
    assert (frame.kind == "worker_ready").sum() == 2  # started once, reused
    assert live_children() == []
    assert loader._iterator is None


def test_record_rejects_bad_arguments_by_name():
    loader = DataLoader(Squares(2))
    with pytest.raises(ValueError, match="epochs should be a positive integer, but got epochs=0"):
        loaderlab.record(loader, epochs=0)
    with pytest.raises(ValueError, match="max_batches"):
        loaderlab.record(loader, max_batches=0)
    with pytest.raises(TypeError, match="expects a loaderlab.DataLoader or a torch.utils.data.DataLoader, but got list"):
        loaderlab.record([1, 2, 3])


def test_max_batches_stops_each_epoch_and_closes_the_consumer_span():
    seen = []
    frame = loaderlab.record(DataLoader(Squares(20), batch_size=2, num_workers=2), epochs=2, max_batches=3,
                             consumer=seen.append)
    assert len(seen) == 6
    assert (frame.kind == "batch_yield").sum() == 6
    assert (frame.kind == "consumer_end").sum() == 6


def test_finished_samples_of_a_stuck_batch_are_visible_before_the_batch_ends():
    release = multiprocessing.get_context("fork").Event()
    loader = DataLoader(BlockingAt(6, block_index=2, release=release), batch_size=3, num_workers=1)
    tracer = loader.tracer = ListTracer()
    it = iter(loader)

    def ended():
        return sorted(e.index for e in tracer.snapshot() if e.kind == "fetch_end")

    deadline = time.monotonic() + 10
    while ended() != [0, 1] and time.monotonic() < deadline:
        time.sleep(0.01)  # polling a condition with a deadline; the worker is genuinely blocked at index 2
    assert ended() == [0, 1]
    release.set()
    assert [b.tolist() for b in it] == [[[0], [1], [2]], [[3], [4], [5]]]
    snapshot = tracer.snapshot()
    for kind in ("fetch_begin", "fetch_end"):  # reported early and again with the batch: counted once
        assert sorted(e.index for e in snapshot if e.kind == kind) == [0, 1, 2, 3, 4, 5]


def test_results_drained_at_a_persistent_epoch_change_keep_their_own_epoch():
    loader = DataLoader(Squares(40), batch_size=2, num_workers=2, persistent_workers=True, prefetch_factor=4)
    frame = loaderlab.record(loader, epochs=2, max_batches=2)
    gets = frame[frame.kind == "result_get"]
    puts = frame[frame.kind == "index_put"]
    for epoch in (0, 1):
        sent = set(puts.loc[puts.epoch == epoch, "batch"])
        assert set(gets.loc[gets.epoch == epoch, "batch"]) <= sent
    assert len(gets[gets.epoch == 0]) > 2  # epoch 0's prefetched results were drained under epoch 0
