"""A recording whose loader pins keeps the GPU's measured copy bandwidths, and the report's pin_memory=False
claim charges the measured pageable bandwidth, naming the device, where it had one (issue 26, item 4).

No GPU here: torch's pin path runs on the stand-in accelerator (a clone as the pin) and the measurement is a
stand-in too; benchmarks/stock_pin_cuda.py measures the real thing on a GPU machine."""

from __future__ import annotations

import pytest
import torch

import loaderlab
from loaderlab.trace.diagnosis.bottleneck import Verdict
from loaderlab.trace.diagnosis.suggestions import suggest
from loaderlab.trace.diagnosis.suggestions import measured_bandwidth
from loaderlab.trace.files.io import load_trace, save_trace
from tests.helpers.accelerator import stand_in_accelerator  # noqa: F401 (a fixture)

H200 = {"device": "NVIDIA H200", "nbytes": 64 * 2**20, "pageable_bps": 8.1e9, "pinned_bps": 52e9}


class Images(torch.utils.data.Dataset):
    def __len__(self) -> int:
        return 96

    def __getitem__(self, i: int):
        return torch.ones(3, 256, 256), i % 10  # 768 KB float32: big enough that pinning takes time


@pytest.fixture
def measured(monkeypatch):
    monkeypatch.setattr("loaderlab.trace.recording.recorder.host_to_device", lambda: dict(H200))


def _record(pin: bool, workers: int = 2):
    loader = torch.utils.data.DataLoader(Images(), batch_size=16, num_workers=workers, pin_memory=pin)
    return loaderlab.record(loader, epochs=1)


def test_the_bandwidth_is_kept_where_the_loader_pins_and_survives_a_file(stand_in_accelerator, measured, tmp_path):
    pinned = _record(pin=True)
    assert pinned.attrs["bandwidth"] == H200 and measured_bandwidth(pinned) == H200
    save_trace(pinned, tmp_path / "t.lltrace")
    assert measured_bandwidth(load_trace(tmp_path / "t.lltrace")) == H200
    assert "bandwidth" not in _record(pin=False).attrs  # nothing to weigh: not measured


@pytest.mark.timing  # a claim exists only where the recorded pins outweigh the floor: run alone (a CI run two at a
# time recorded batches whose other costs left pin_memory=False under it, and the test found no claim to read)
def test_the_pin_memory_claim_names_the_measured_bandwidth(stand_in_accelerator, measured):
    frame = _record(pin=True, workers=0)  # the loop pins: not pinning shortens every batch
    found = Verdict("pin_memory", "pin_memory", {})
    fast = {"pin_memory": False}
    frame.attrs["bandwidth"] = {**H200, "pageable_bps": 1e15}  # a copy that costs nothing: not pinning wins
    (claim,) = [s for s in suggest(frame, found) if s.change == fast]
    assert "measured on your NVIDIA H200" in claim.text() and "1000000.0 GB/s" in claim.text()
    assert "H200" in claim.text("ko") and "1000000.0 GB/s" in claim.text("ko")
    frame.attrs["bandwidth"] = {**H200, "pageable_bps": 2e15}
    (faster,) = [s for s in suggest(frame, found) if s.change == fast]
    assert faster.speedup >= claim.speedup  # the measured figure is what the claim is made of
    del frame.attrs["bandwidth"]
    assumed = [s for s in suggest(frame, found) if s.change == fast]
    assert not assumed or "assumed 6 GB/s" in assumed[0].text()
