"""Every fetch, collate and worker event carries the epoch that drew it (issue 12, item 1).

The workload of the issue, shrunk (epoch_workload.py): variable-length samples, a pad_sequence collate,
batch_size=32, shuffle, 2 workers, slow samples that a worker reports while they are in flight, two
epochs with a training step. Before the fix, a stock loader's worker stamped that early report with
epoch 0 in every epoch, so epoch 1's slow batches leaked into epoch 0 (a 40-sample "batch", false
repeats, busy above 100%, a fetch span whose begin and end disagreed on the epoch), and epoch 1's new
workers said they were ready in epoch 0.
"""

from __future__ import annotations

import math

import pytest
import torch

import loaderlab
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.export.chrome import to_chrome_trace
from loaderlab.trace.diagnosis.report import report_text
from tests.helpers.processes import live_children
from tests.helpers.epoch_workload import VarLen, pad_collate
from tests.helpers.torch_datasets import RangeStream, split_range

N, BATCH, EPOCHS = 250, 32, 2  # 8 batches, the last one short; slow samples 0, 100, 200


def _step(batch: torch.Tensor) -> None:
    batch.sum()  # the training step: real work on the batch, no sleep


def _record(stock: bool, persistent: bool):
    make = torch.utils.data.DataLoader if stock else loaderlab.DataLoader
    loader = make(VarLen(N), batch_size=BATCH, shuffle=True, num_workers=2, collate_fn=pad_collate,
                  persistent_workers=persistent)
    return loaderlab.record(loader, epochs=EPOCHS, consumer=_step)


CASES = [pytest.param((stock, persistent), id=f"{'torch' if stock else 'twin'}-persistent_{persistent}")
         for stock in (True, False) for persistent in (False, True)]


@pytest.fixture(scope="module", params=CASES)
def recorded(request):
    stock, persistent = request.param
    frame = _record(stock, persistent)
    assert live_children() == []
    return frame, persistent


def test_each_epoch_fetches_every_sample_exactly_once(recorded):
    frame, _ = recorded
    for kind in ("fetch_begin", "fetch_end"):
        fetched = frame[frame.kind == kind]
        assert sorted(fetched["epoch"].unique()) == list(range(EPOCHS))
        for epoch, group in fetched.groupby("epoch"):
            assert sorted(group["index"]) == list(range(N)), (kind, epoch)


def test_no_batch_is_larger_than_batch_size_and_each_is_collated_once(recorded):
    frame, _ = recorded
    sizes = frame[frame.kind == "fetch_end"].groupby(["epoch", "batch"]).size()
    assert sizes.max() <= BATCH
    assert sorted(sizes.groupby("epoch").size()) == [math.ceil(N / BATCH)] * EPOCHS
    for kind in ("collate_begin", "collate_end"):
        collates = frame[frame.kind == kind].groupby(["epoch", "batch"]).size()
        assert collates.index.tolist() == sizes.index.tolist() and set(collates) == {1}


def test_workers_report_the_epoch_they_were_started_in_and_serve(recorded):
    frame, persistent = recorded
    ready = frame[frame.kind == "worker_ready"]
    ready_epoch = dict(zip(ready["pid"], ready["epoch"]))
    started = sorted(ready["epoch"])
    assert started == ([0, 0] if persistent else [0, 0, 1, 1])
    fetches = frame[frame.kind == "fetch_end"]
    served = fetches.groupby("pid")["epoch"].agg(["min", "max"])
    for pid, row in served.iterrows():
        assert row["min"] == ready_epoch[pid]  # a worker's first fetch is in the epoch it started in
        if not persistent:
            assert row["max"] == ready_epoch[pid]
    exits = frame[(frame.kind == "worker_exit") & frame["pid"].isin(ready_epoch)]  # the worker's own, not main's
    assert dict(zip(exits["pid"], exits["epoch"])) == served["max"].to_dict()


def test_the_report_has_no_false_repeats_and_no_worker_busier_than_its_life(recorded):
    frame, _ = recorded
    util = worker_utilisation(frame)  # the report's workers section
    assert len(util) == len(frame[frame.kind == "worker_ready"])
    assert (util["busy_fraction"] <= 1.0).all(), util[["pid", "epoch", "busy_fraction"]]
    report = report_text(frame)  # findings are listed by kind
    assert "repeated_samples" not in report and "repeats" not in report


def test_the_chrome_export_has_no_unfinished_span(recorded):
    frame, _ = recorded
    trace = to_chrome_trace(frame)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    unfinished = [e for e in events if e.get("args", {}).get("unfinished")]
    assert unfinished == []


@pytest.mark.parametrize("stock", [True, False], ids=["torch", "twin"])
@pytest.mark.parametrize("num_workers,persistent", [(0, False), (2, False), (2, True)])
def test_an_iterable_datasets_samples_carry_their_epoch(stock, num_workers, persistent):
    make = torch.utils.data.DataLoader if stock else loaderlab.DataLoader
    loader = make(RangeStream(0, 11), batch_size=2, num_workers=num_workers, persistent_workers=persistent,
                  worker_init_fn=split_range if num_workers else None)
    frame = loaderlab.record(loader, epochs=3)
    samples = frame[(frame.kind == "fetch_end") & (frame.detail != "StopIteration")]
    assert samples.groupby("epoch").size().to_dict() == {0: 11, 1: 11, 2: 11}
    collates = frame[frame.kind == "collate_end"]
    assert collates.groupby("epoch").size().to_dict() == {0: 6, 1: 6, 2: 6}  # 11 samples, 2 per batch
    assert live_children() == []
