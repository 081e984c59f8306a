"""``python -m loaderlab run`` on a script whose stock DataLoader pins 19 MB batches: the trace has torch's pin
step per batch and each batch's payload, and ``report`` says it (it once said a 77 MB batch moved as "0.0 KiB")."""

from __future__ import annotations

import json

import pytest
import torch

from loaderlab.jobs.read import load_any

from . import runner

SCRIPT = '''
import sys, warnings
import torch
from torch.utils.data import DataLoader, Dataset

class Big(Dataset):  # 600 KB float32 samples and a label: 19.2 MB batches of 32
    def __len__(self):
        return 32 * 4
    def __getitem__(self, i):
        return torch.full((150_000,), float(i)), i

if __name__ == "__main__":
    if sys.argv[1] == "stand-in":  # torch believes CUDA device 0 is there; a clone stands in for page-locking
        torch.accelerator.is_available = lambda: True
        torch.accelerator.current_accelerator = lambda check_available=False: torch.device("cuda")
        torch.accelerator.current_device_index = lambda: 0
        torch.accelerator.set_device_index = lambda device: None
        torch.Tensor.pin_memory = lambda self, device=None: self.clone()
    warnings.simplefilter("ignore")  # pin_memory without an accelerator warns
    train_loader = DataLoader(Big(), batch_size=32, num_workers=2, pin_memory=True)
    for batch in train_loader:
        assert batch[0].shape == (32, 150_000)
'''
BATCH_BYTES = 32 * 600_000 + 32 * 8


def _run(tmp_path, accelerator: str):
    runner.write(tmp_path, "pinned.py", SCRIPT)
    done = runner.run(tmp_path, "-o", "trace", "pinned.py", accelerator)
    assert done.returncode == 0, done.stderr
    report = runner.cli(tmp_path, "report", "trace.lltrace", "--json", "--no-replay")
    assert report.returncode == 0, report.stderr
    text = runner.cli(tmp_path, "report", "trace.lltrace")
    return load_any(tmp_path / "trace.lltrace"), json.loads(report.stdout)["summary"], text.stdout


def test_run_traces_torchs_pin_thread_and_the_payload(tmp_path):
    frame, summary, text = _run(tmp_path, "stand-in")
    pins = frame[frame["kind"].isin(["pin_begin", "pin_end"])]
    assert len(pins) == 2 * 4 and set(pins["detail"]) == {""} and set(pins["nbytes"]) == {BATCH_BYTES}
    assert summary["payload"] == {"tensors": 2, "nbytes": BATCH_BYTES}
    assert summary["stages"]["pin"]["count"] == 4
    assert "Each batch carries 2 tensors, 18.3 MiB." in text and "0.0 KiB" not in text


@pytest.mark.skipif(torch.accelerator.is_available(), reason="an accelerator is present: nothing is skipped")
def test_run_without_an_accelerator_says_the_pin_step_was_skipped(tmp_path):
    frame, summary, _ = _run(tmp_path, "cpu")
    pins = frame[frame["kind"].isin(["pin_begin", "pin_end"])]
    assert len(pins) == 2 * 4 and set(pins["detail"]) == {"skipped: no accelerator"}
    assert summary["payload"] == {"tensors": 2, "nbytes": BATCH_BYTES}
