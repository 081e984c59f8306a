"""A stock torch DataLoader's pin stage and payload under ``record``: its trace says what the engine's says.

The stand-in accelerator (tests/helpers/accelerator.py) makes torch start its own pin thread and pin, with a
clone for page-locking, so stock and engine traces of one workload are compared batch by batch on CI.
"""

from __future__ import annotations

import os
import warnings

import pytest
import torch
from torch.utils.data import DataLoader as TorchDataLoader

import loaderlab
from loaderlab.engine.pin_memory import SKIPPED
from loaderlab.trace.core.payload import tree_shape
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis.summary import summarise
from tests.helpers.accelerator import stand_in_accelerator  # noqa: F401 (a fixture)
from tests.helpers.processes import live_children


class Rows(torch.utils.data.Dataset):
    """Sample i: a dict of an 8-float tensor and an int (a batch is two tensors); 10 samples, so the last
    batch of 4 is short and its bytes differ."""

    def __len__(self) -> int:
        return 10

    def __getitem__(self, i: int):
        return {"x": torch.full((8,), float(i)), "y": i}


class Big(torch.utils.data.Dataset):
    """A 600 KB float32 sample and its label: a batch of 32 is 19.2 MB, as an image batch is."""

    def __len__(self) -> int:
        return 32 * 6

    def __getitem__(self, i: int):
        return torch.full((150_000,), float(i)), i


class Nested(torch.utils.data.Dataset):
    """Each sample iterates a loader of its own that pins in the loop: its pins must not count as the batch's."""

    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int):
        inner = TorchDataLoader(Rows(), batch_size=10, pin_memory=True)
        return next(iter(inner))["x"].sum(0)


def _pins(frame) -> dict:
    """{(kind, epoch, batch): (nbytes, detail, worker, pid is this process)} of the trace's pin events."""
    p = frame[frame["kind"].isin(["pin_begin", "pin_end"])]
    out = {(r.kind, r.epoch, r.batch): (r.nbytes, r.detail, r.worker, r.pid == os.getpid()) for r in p.itertuples()}
    assert len(out) == len(p)  # one begin and one end per batch
    return out


def _both(dataset, epochs: int = 1, **settings):
    """The stock loader's trace and the engine's, of the same workload."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pin_memory without an accelerator warns, in torch as in the engine
        stock = loaderlab.record(TorchDataLoader(dataset, **settings), epochs=epochs)
        engine = loaderlab.record(loaderlab.DataLoader(dataset, **settings), epochs=epochs)
    return stock, engine


@pytest.mark.parametrize("workers, persistent", [(0, False), (2, False), (2, True)])
def test_torchs_own_pin_step_is_traced_as_the_engines(stand_in_accelerator, workers, persistent):
    settings = dict(batch_size=4, num_workers=workers, persistent_workers=persistent, pin_memory=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the stand-in is an accelerator: torch must not warn that it is missing
        stock = loaderlab.record(TorchDataLoader(Rows(), **settings), epochs=2)
    by_torch = list(stand_in_accelerator)
    engine = loaderlab.record(loaderlab.DataLoader(Rows(), **settings), epochs=2)
    assert len(by_torch) == 2 * 3 * 2  # two tensors in each of 3 batches, two epochs: torch pinned them all
    assert all(main == (workers == 0) for _, main in by_torch)  # in torch's own pin thread when it has workers
    pins = _pins(stock)
    assert pins == _pins(engine)
    assert len(pins) == 2 * 3 * 2
    assert set(pins.values()) == {(4 * 8 * 4 + 4 * 8, "", -1, True), (2 * 8 * 4 + 2 * 8, "", -1, True)}
    summary = summarise(stock)
    assert summary.stage("pin").count == 6 and summary.payload.nbytes == summarise(engine).payload.nbytes
    assert live_children() == []


def test_pin_events_go_to_the_recorded_loader_only(stand_in_accelerator):
    """Another loader pinning in the same process, inside the recorded loop, adds no events to the trace."""
    others = []

    def consumer(batch):
        for workers in (0, 1):
            others.extend(TorchDataLoader(Rows(), batch_size=5, num_workers=workers, pin_memory=True))

    frame = loaderlab.record(TorchDataLoader(Rows(), batch_size=4, num_workers=2, pin_memory=True), consumer=consumer)
    assert len(others) == 3 * 2 * 2
    assert len(_pins(frame)) == 2 * 3
    assert len(stand_in_accelerator) == 2 * 3 + 2 * len(others)  # theirs were pinned all the same
    assert live_children() == []


def test_a_loader_iterated_inside_the_fetch_pins_untraced(stand_in_accelerator):
    frame = loaderlab.record(TorchDataLoader(Nested(), batch_size=2, pin_memory=True))
    assert len(stand_in_accelerator) == 4 * 2 + 2  # each sample's inner batch (two tensors), then each batch
    batch = (2 * 8 * 4, "", -1, True)  # two samples' sums of 8 floats
    assert _pins(frame) == {(kind, 0, b): batch for kind in ("pin_begin", "pin_end") for b in (0, 1)}


@pytest.mark.skipif(torch.accelerator.is_available(), reason="an accelerator is present: nothing is skipped")
@pytest.mark.parametrize("workers", [0, 2])
def test_without_an_accelerator_the_stock_trace_says_the_stage_was_skipped(workers):
    stock, engine = _both(Rows(), batch_size=4, num_workers=workers, pin_memory=True)
    pins = _pins(stock)
    assert pins == _pins(engine)
    assert {detail for _, detail, _, _ in pins.values()} == {SKIPPED}
    assert summarise(stock).stage("pin").count == 3


def test_without_pin_memory_there_is_no_pin_stage():
    stock, engine = _both(Rows(), batch_size=4, num_workers=2)
    assert _pins(stock) == _pins(engine) == {}


@pytest.mark.parametrize("workers", [0, 2])
def test_a_big_payload_is_measured_alike_and_reported_in_mib(workers):
    stock, engine = _both(Big(), batch_size=32, num_workers=workers, pin_memory=True)
    real = tree_shape(next(iter(TorchDataLoader(Big(), batch_size=32))))
    assert real == (2, 32 * 600_000 + 32 * 8)
    expected = {"tensors": 2.0, "nbytes": float(real[1])}
    assert summarise(stock).payload.as_dict() == summarise(engine).payload.as_dict() == expected
    del stock.attrs["payload"]  # as `run` traces it: no probe; the collate events say what the batch carried
    assert summarise(stock).payload.as_dict() == expected
    collated = stock[stock["kind"] == "collate_end"]
    assert set(zip(collated["length"], collated["nbytes"])) == {real}
    text = report_text(stock)
    assert "Each batch carries 2 tensors, 18.3 MiB." in text and "0.0 KiB" not in text
    assert "텐서 2개(18.3 MiB)" in report_text(stock, "ko")


@pytest.mark.timing
def test_a_slow_pin_step_is_the_verdict_for_a_stock_loader_as_for_the_engine(stand_in_accelerator, monkeypatch):
    import time

    from loaderlab.trace.diagnosis.bottleneck import verdict

    def slow_pin(self, device=None):
        time.sleep(0.02)  # the pin's cost (as page-locking a big batch costs), not a synchronisation
        return self.clone()

    monkeypatch.setattr(torch.Tensor, "pin_memory", slow_pin)
    stock, engine = _both(Rows(), epochs=2, batch_size=1, num_workers=2, pin_memory=True)
    assert verdict(engine).kind == "pin_memory"
    assert verdict(stock).kind == "pin_memory"
