"""loaderlab.scenarios.transfer: the model's arithmetic, its invariants, the summary, and the CUDA measurement (GPU only)."""

from __future__ import annotations

import pandas as pd
import pytest
import torch

from loaderlab.scenarios.transfer import (DEFAULT_GBPS, PINNED_AHEAD, SUMMARY_COLUMNS, TRANSFER_COLUMNS, main, measure_transfers,
                                model_transfers, summarise)

MB = 1_000_000
no_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU")
needs_no_cuda = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU path")


def _stage(table: pd.DataFrame, mode: str, stage: str) -> pd.DataFrame:
    return table[(table["mode"] == mode) & (table["stage"] == stage)].sort_values("batch").reset_index(drop=True)


def test_table_shape_one_row_per_batch_and_stage():
    table = model_transfers(64 * MB, 5, 10.0)
    assert list(table.columns) == TRANSFER_COLUMNS
    counts = table.groupby(["mode", "stage"]).size().to_dict()
    assert counts == {("pageable", "compute"): 5, ("pageable", "copy"): 5,
                      ("pinned", "compute"): 5, ("pinned", "copy"): 5, ("pinned", "pin"): 5}
    assert sorted(set(table["batch"])) == [0, 1, 2, 3, 4]
    assert (table["end_ms"] >= table["start_ms"]).all()
    assert table["batch"].dtype == "int64" and table["start_ms"].dtype == "float64"


def test_pageable_is_copy_then_compute_back_to_back():
    table = model_transfers(100 * MB, 4, 10.0, pageable_gbps=5.0)  # 100 MB at 5 GB/s: 20 ms a copy
    copies, computes = _stage(table, "pageable", "copy"), _stage(table, "pageable", "compute")
    assert copies["start_ms"].tolist() == [0.0, 30.0, 60.0, 90.0]
    assert (copies["end_ms"] - copies["start_ms"]).tolist() == [20.0] * 4
    assert computes["start_ms"].tolist() == copies["end_ms"].tolist()
    assert summarise(table).set_index("mode").loc["pageable", "total_ms"] == 120.0


def test_pinned_copy_overlaps_the_previous_compute_exactly_as_stated():
    # pin 10 ms, copy 10 ms, compute 30 ms: copy 1 runs inside compute 0, copy 2 waits for compute 1 to start
    table = model_transfers(100 * MB, 3, 30.0, pinned_gbps=10.0, pin_gbps=10.0)
    pins, copies = _stage(table, "pinned", "pin"), _stage(table, "pinned", "copy")
    computes = _stage(table, "pinned", "compute")
    assert pins[["start_ms", "end_ms"]].values.tolist() == [[0, 10], [10, 20], [20, 30]]
    assert copies[["start_ms", "end_ms"]].values.tolist() == [[10, 20], [20, 30], [50, 60]]
    assert computes[["start_ms", "end_ms"]].values.tolist() == [[20, 50], [50, 80], [80, 110]]
    pinned = summarise(table, 100 * MB).set_index("mode").loc["pinned"]
    assert pinned["total_ms"] == 110.0
    assert pinned["hidden_copy_ms"] == 20.0
    assert pinned["overlap"] == pytest.approx(2 / 3)
    assert pinned["copy_gbps"] == pytest.approx(10.0) and pinned["pin_gbps"] == pytest.approx(10.0)


@pytest.mark.parametrize("batch_mb,n,compute_ms", [(1, 2, 0.1), (64, 8, 10.0), (256, 16, 5.0), (512, 3, 200.0)])
def test_pinned_non_blocking_beats_pageable_when_there_is_compute(batch_mb, n, compute_ms):
    totals = summarise(model_transfers(batch_mb * MB, n, compute_ms)).set_index("mode")["total_ms"]
    assert totals["pinned"] < totals["pageable"]


def test_slow_pinning_makes_pinned_slower_than_pageable():
    # a pin thread copying at 1 GB/s (pytorch/pytorch#24984): pinning costs more than the overlap hides
    totals = summarise(model_transfers(64 * MB, 8, 5.0, pin_gbps=1.0)).set_index("mode")["total_ms"]
    assert totals["pinned"] > totals["pageable"]


@pytest.mark.parametrize("compute_ms", [0.0, 3.0, 50.0])
def test_model_invariants_hold(compute_ms):
    table = model_transfers(80 * MB, 6, compute_ms, pageable_gbps=4.0, pinned_gbps=11.0, pin_gbps=7.0)
    pins, copies = _stage(table, "pinned", "pin"), _stage(table, "pinned", "copy")
    computes = _stage(table, "pinned", "compute")
    assert (copies["start_ms"] >= pins["end_ms"]).all()  # a batch is copied once pinned
    assert (computes["start_ms"] >= copies["end_ms"]).all()  # and computed on once copied
    assert (copies["start_ms"].iloc[1:].to_numpy() >= computes["start_ms"].iloc[:-1].to_numpy()).all()  # 1 ahead
    assert (copies["start_ms"].iloc[1:].to_numpy() >= copies["end_ms"].iloc[:-1].to_numpy()).all()  # one copy engine
    assert (computes["start_ms"].iloc[1:].to_numpy() >= computes["end_ms"].iloc[:-1].to_numpy()).all()


def test_the_pin_thread_runs_only_a_few_batches_ahead_of_a_slow_model():
    # pin 1 ms, copy 1 ms, compute 20 ms: a free-running pin thread would pin all 8 batches in 8 ms
    table = model_transfers(10 * MB, 8, 20.0, pinned_gbps=10.0, pin_gbps=10.0)
    pins, copies = _stage(table, "pinned", "pin"), _stage(table, "pinned", "copy")
    for start in pins["start_ms"]:
        waiting = (pins["end_ms"] <= start) & (copies["start_ms"] > start)  # pinned, not yet copied
        assert waiting.sum() <= PINNED_AHEAD
    assert pins["start_ms"].iloc[-1] > 40.0  # the last pin waits for the loop to take earlier batches


def test_summary_without_compute_hides_nothing_and_pageable_never_overlaps():
    summary = summarise(model_transfers(64 * MB, 4, 0.0), 64 * MB)
    assert list(summary.columns) == SUMMARY_COLUMNS
    by_mode = summary.set_index("mode")
    assert by_mode.loc["pinned", "overlap"] == 0.0
    assert by_mode.loc["pageable", "overlap"] == 0.0
    assert by_mode.loc["pageable", "copy_gbps"] == pytest.approx(DEFAULT_GBPS["pageable_gbps"])
    assert pd.isna(by_mode.loc["pageable", "pin_gbps"])  # pageable copies pin nothing
    assert by_mode.loc["pageable", "batches"] == 4


@pytest.mark.parametrize("kwargs", [dict(batch_bytes=0), dict(n_batches=0), dict(compute_ms=-1.0),
                                    dict(pin_gbps=0.0), dict(pageable_gbps=-3.0)])
def test_invalid_inputs_raise_value_error(kwargs):
    args = dict(batch_bytes=MB, n_batches=2, compute_ms=1.0) | kwargs
    with pytest.raises(ValueError):
        model_transfers(**args)


def test_command_line_prints_the_modelled_table(capsys):
    assert main(["--mb", "10", "--batches", "3", "--compute-ms", "2"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("modelled: 3 batches of 10 MB, 2 ms compute each")
    assert out.count("pinned") >= 1 + 3 * 3  # the summary row and every pinned row of the table


@needs_no_cuda
def test_measuring_without_cuda_says_so():
    with pytest.raises(RuntimeError, match="needs a CUDA GPU"):
        measure_transfers(MB, 2, 1.0)
    assert main(["--measure"]) == 2


@no_cuda
def test_measure_transfers_on_the_gpu():
    table = measure_transfers(32 * MB, 4, 5.0)
    assert list(table.columns) == TRANSFER_COLUMNS
    counts = table.groupby(["mode", "stage"]).size().to_dict()
    assert counts == {("pageable", "compute"): 4, ("pageable", "copy"): 4,
                      ("pinned", "compute"): 4, ("pinned", "copy"): 4, ("pinned", "pin"): 4}
    assert (table["end_ms"] >= table["start_ms"]).all() and (table["start_ms"] >= 0).all()
    computes = _stage(table, "pinned", "compute")
    copies = _stage(table, "pinned", "copy")
    assert (computes["start_ms"] >= copies["end_ms"]).all()  # stream order: both on the GPU's clock
    summary = summarise(table, 32 * MB).set_index("mode")
    assert summary.loc["pinned", "copy_gbps"] > 0 and summary.loc["pageable", "copy_gbps"] > 0


# --- the CUDA path's bookkeeping, on any machine -----------------------------------------------------
# A stand-in for torch.cuda whose events stamp a counter in the order they are recorded: it checks which
# events each pass records, in which order, and how they become rows (not how fast anything is).


class _FakeEvent:
    def __init__(self, enable_timing: bool = False) -> None:
        assert enable_timing
        self.t = None

    def record(self, stream=None) -> None:
        _FakeEvent.clock += 1.0
        self.t = _FakeEvent.clock

    def synchronize(self) -> None:
        assert self.t is not None, "waited on an event that was never recorded"

    def elapsed_time(self, other: "_FakeEvent") -> float:
        return other.t - self.t


class _FakeStream:
    def wait_event(self, event: _FakeEvent) -> None:
        assert event.t is not None, "a stream waits on an event that was never recorded"


class _FakeTensor:
    def to(self, device: str, non_blocking: bool = False) -> "_FakeTensor":
        assert device == "cuda"
        return _FakeTensor()

    def pin_memory(self) -> "_FakeTensor":
        return _FakeTensor()

    def record_stream(self, stream) -> None:
        assert isinstance(stream, _FakeStream)


def _fake_torch(sleeps: list[int]):
    import contextlib
    from types import SimpleNamespace

    _FakeEvent.clock = 0.0
    return SimpleNamespace(cuda=SimpleNamespace(Event=_FakeEvent, Stream=_FakeStream, synchronize=lambda: None,
                                                _sleep=sleeps.append, stream=lambda s: contextlib.nullcontext()))


def test_the_measuring_passes_record_copy_then_compute_for_every_batch():
    from loaderlab.scenarios.transfer import _pageable_pass, _pinned_pass, _table

    sleeps: list[int] = []
    fake = _fake_torch(sleeps)
    table = _table(_pageable_pass(fake, _FakeTensor(), 3, 500) + _pinned_pass(fake, _FakeTensor(), 4, 500))
    assert sleeps == [500] * 7  # one compute kernel per batch of both passes
    counts = table.groupby(["mode", "stage"]).size().to_dict()
    assert counts == {("pageable", "compute"): 3, ("pageable", "copy"): 3,
                      ("pinned", "compute"): 4, ("pinned", "copy"): 4, ("pinned", "pin"): 4}
    for mode in ("pageable", "pinned"):
        copies, computes = _stage(table, mode, "copy"), _stage(table, mode, "compute")
        assert (copies["end_ms"] > copies["start_ms"]).all()
        assert (computes["start_ms"] > copies["end_ms"]).all()  # recorded after its copy
        assert (copies["start_ms"].iloc[1:].to_numpy() > computes["start_ms"].iloc[:-1].to_numpy()).all()
    assert sorted(_stage(table, "pinned", "pin")["batch"]) == [0, 1, 2, 3]
