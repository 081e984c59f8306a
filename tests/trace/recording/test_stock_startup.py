"""Worker start-up of a stock torch DataLoader, traced as LoaderLab's engine traces its own (issue 25, item 3).

A ``worker_init_fn`` of 0.3 s with workers restarted every epoch (``persistent_workers=False``) and epochs that
are otherwise over in milliseconds: the loop waits for start-up, so the verdict is ``startup`` and the replayed
suggestions include ``persistent_workers=True``, recorded from torch's loader and from ours alike. Real runs,
workers included; the start of each worker is read inside it (:mod:`loaderlab.trace.recording.stock_worker`).
"""

from __future__ import annotations

import functools
import os
import time

import pytest
import torch
import torch.utils.data

import loaderlab
from loaderlab.engine import events as ev
from loaderlab.trace.recording import stock_worker
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.core.run import events_of
from loaderlab.trace.diagnosis.bottleneck import verdict
from loaderlab.trace.diagnosis.suggestions import suggest
from loaderlab.trace.diagnosis.summary import summarise

INIT_S, EPOCHS, WORKERS = 0.3, 3, 2


class Quick(torch.utils.data.Dataset):
    """32 samples that cost nothing to fetch: 8 batches of 4 per epoch."""

    def __len__(self) -> int:
        return 32

    def __getitem__(self, i: int):
        return torch.tensor([float(i)]), i % 2


def slow_init(worker_id: int) -> None:
    time.sleep(INIT_S)  # the workload: a worker_init_fn that opens files, connects, builds an index…


@functools.lru_cache(maxsize=None)
def startup_trace(stock: bool):
    kind = torch.utils.data.DataLoader if stock else loaderlab.DataLoader
    return loaderlab.record(kind(Quick(), batch_size=4, num_workers=WORKERS, worker_init_fn=slow_init), epochs=EPOCHS)


def test_each_stock_worker_says_when_its_process_started():
    f = events_of(startup_trace(True))
    starts, ready = f[f["kind"] == ev.WORKER_START], f[f["kind"] == ev.WORKER_READY]
    # one start per worker process (restarted each epoch), said for the main process as the engine says it
    assert len(starts) == WORKERS * EPOCHS and sorted(starts["epoch"]) == sorted(list(range(EPOCHS)) * WORKERS)
    assert set(starts["pid"]) == set(f[f["kind"] == ev.EPOCH_BEGIN]["pid"])
    assert sorted(starts["arg0"]) == sorted(ready["pid"])  # arg0: the worker's own pid, as the engine's
    assert set(starts["detail"]) == {"measured in the worker: fork start"}  # Linux forks by default
    paired = starts.merge(ready, left_on="arg0", right_on="pid", suffixes=("_start", "_ready"))
    assert (paired["t_ns_start"] <= paired["t_ns_ready"]).all()
    util = worker_utilisation(startup_trace(True))
    assert len(util) == WORKERS * EPOCHS and util["startup_s"].notna().all()


def test_a_process_start_is_read_where_no_fork_noted_it(monkeypatch):
    monkeypatch.setattr(stock_worker, "_forked", None)
    # the test process may have run for longer than a worker's start-up may take (CI: 24 min in), so the limit
    # is lifted here and then set below this process's age
    monkeypatch.setattr(stock_worker, "MAX_STARTUP_S", float("inf"))
    start = stock_worker.process_start_ns()
    assert start is not None and start[1] == "process" and start[0] <= time.monotonic_ns()
    monkeypatch.setattr(stock_worker, "MAX_STARTUP_S", 0.0)
    assert stock_worker.process_start_ns() is None  # a start further back than the limit is not this worker's
    monkeypatch.setattr(stock_worker, "_forked", (os.getpid(), 123))
    assert stock_worker.process_start_ns() == (123, "fork")


def test_the_task_watch_gives_up_outside_torchs_worker_loop():
    assert stock_worker.watch_tasks() is False
    assert stock_worker.current_task() == ev.NO_BATCH


@pytest.mark.timing
@pytest.mark.parametrize("stock", [True, False], ids=["torch", "loaderlab"])
def test_a_slow_worker_init_fn_is_the_startup_verdict_with_persistent_workers_suggested(stock):
    trace = startup_trace(stock)
    found = verdict(trace)
    assert found.kind == "startup", found.as_dict()
    assert summarise(trace).stage("startup").p50_s >= INIT_S  # start-up holds the whole worker_init_fn
    changes = [s.change for s in suggest(trace)]
    assert {"persistent_workers": True} in changes, changes
