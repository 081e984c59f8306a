"""The workload of issue 12 item 1, shrunk: variable-length 1-D tensors, a pad_sequence collate, a few slow
samples. Top-level so that workers (fork, spawn or forkserver) can import it.

A slow sample here is not a sleep of a guessed length: it stays in ``__getitem__`` until its worker's
tracer has reported it as in flight (what a real 20 ms sample triggers whenever it outlasts two flush
ticks). That early report is the path that stamped epoch-1 samples with epoch 0, so every run takes it.
"""

from __future__ import annotations

import gc
import os
import time

import torch
from torch.nn.utils.rnn import pad_sequence

SLOW_EVERY = 100  # as in the issue: every 100th sample is slow
REPORT_WAIT_S = 5.0  # a bound, never reached in a healthy run: the flusher ticks every 20 ms

_tracer_of_pid: dict[int, object] = {}


def _worker_tracer():
    """This worker process's WorkerTracer (the twin's and the stock-loader recorder's alike)."""
    from loaderlab.engine.worker import WorkerTracer

    pid = os.getpid()
    if pid not in _tracer_of_pid:
        _tracer_of_pid[pid] = next((o for o in gc.get_objects() if type(o) is WorkerTracer), None)
    return _tracer_of_pid[pid]


def _stay_until_reported() -> None:
    tracer = _worker_tracer()
    if tracer is None:  # main process (num_workers=0): nothing reports samples early
        return
    deadline = time.monotonic() + REPORT_WAIT_S
    while time.monotonic() < deadline:
        inflight = tracer.inflight
        if inflight is not None and tracer._reported_inflight is inflight:
            return
        time.sleep(0.001)  # polling a condition, with a bound; the test never depends on this length


class VarLen(torch.utils.data.Dataset):
    """Sample ``i``: a 1-D tensor of length 1..50; every SLOW_EVERY-th sample is slow."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> torch.Tensor:
        if i % SLOW_EVERY == 0:
            _stay_until_reported()
        return torch.full((1 + (i * 7919) % 50,), float(i))


def pad_collate(batch: list[torch.Tensor]) -> torch.Tensor:
    return pad_sequence(batch, batch_first=True)
