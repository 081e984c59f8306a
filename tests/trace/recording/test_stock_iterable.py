"""A stock torch DataLoader over an IterableDataset, traced as a map-style one is (issue 25, items 4 and 5).

Real runs, workers included, of a stream of ``(tensor, label)`` pairs: its batches are numbered by the task torch
sent for them, so samples, labels, worker busy time and the batch hand-over are known; its samples are told
apart by a content fingerprint, so a stream every worker replays is flagged — naming the workers and the
stream positions — exactly as on LoaderLab's engine, and a sharded one is not.
"""

from __future__ import annotations

import functools
import re
import time

import pytest
import torch
import torch.utils.data

import loaderlab
from loaderlab.engine import events as ev
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.tables.waits import throughput
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis.summary import summarise
from loaderlab.trace.core.run import events_of
from loaderlab.trace.recording.sample_guess import SampleGuess

N, BATCH = 32, 4


class PairStream(torch.utils.data.IterableDataset):
    """``(16 floats, label)`` pairs: sample i is ``i`` everywhere, label ``i % 3``. ``shard``: worker k of n
    yields k, k+n, … (``get_worker_info()``); else every worker yields them all. ``counts``: per worker, how many
    it yields (uneven shards)."""

    def __init__(self, shard: bool, counts: tuple[int, ...] | None = None) -> None:
        self.shard, self.counts = shard, counts

    def __len__(self) -> int:
        return N

    def __iter__(self):
        info = torch.utils.data.get_worker_info()
        k, n = (info.id, info.num_workers) if info is not None and self.shard else (0, 1)
        items = range(k, N, n)
        if self.counts is not None and info is not None:
            start = sum(self.counts[:info.id])
            items = range(start, start + self.counts[info.id])
        for i in items:
            time.sleep(0.001)  # the workload: reading a record
            yield torch.full((16,), float(i)), i % 3


def _loader(stock: bool, dataset, workers: int = 2):
    kind = torch.utils.data.DataLoader if stock else loaderlab.DataLoader
    return kind(dataset, batch_size=BATCH, num_workers=workers)


@functools.lru_cache(maxsize=None)
def stream_trace(stock: bool, shard: bool, epochs: int = 1):
    loader = _loader(stock, PairStream(shard))
    return loaderlab.record(loader, epochs=epochs, sample_info=SampleGuess.for_loader(loader))


def duplicates(trace) -> list:
    return [f for f in all_findings(trace) if f.kind == "iterable_duplicates"]


def test_an_unsharded_stream_of_pairs_is_flagged_naming_workers_and_positions_as_on_the_engine():
    (stock,), (ours,) = duplicates(stream_trace(True, False)), duplicates(stream_trace(False, False))
    # worker 1's first sample (stream position 0, in task 1) is worker 0's first sample too
    assert (stock.key, stock.epoch, stock.worker, stock.index, stock.batch) == (
        "iterable_duplicates_content", 0, 1, 0, 1)
    assert stock.evidence["workers"] == [0, 1] and stock.evidence["positions"] == [0, 0]
    assert stock.evidence["duplicates"] == stock.evidence["distinct"] == N
    assert "workers [0, 1], at stream positions [0, 0]" in stock.text()
    assert "워커 [0, 1]의 스트림 위치 [0, 0]" in stock.text("ko")
    assert (ours.key, ours.epoch, ours.worker, ours.index, ours.batch, ours.evidence) == (
        stock.key, stock.epoch, stock.worker, stock.index, stock.batch, stock.evidence)


@pytest.mark.parametrize("stock", [True, False], ids=["torch", "loaderlab"])
def test_a_sharded_stream_of_pairs_is_not_flagged(stock):
    assert duplicates(stream_trace(stock, True)) == []


def test_a_stock_stream_reports_samples_labels_and_busy_workers_never_nan():
    trace = stream_trace(True, True, epochs=2)
    f = events_of(trace)
    fetched = f[(f["kind"] == ev.FETCH_END) & (f["detail"] == "")]  # not the pulls that found the stream's end
    assert len(fetched) == 2 * N and (fetched["batch"] >= 0).all()  # each sample in its task
    s = summarise(trace)
    assert s.samples == 2 * N and s.stage("move").count == 2 * N // BATCH  # every hand-over met its collate
    assert (worker_utilisation(trace)["busy_s"] > 0).all()
    text = report_text(trace)
    assert not re.search(r"\bnan\b", text, re.IGNORECASE) and "n/a" not in text, text
    for epoch in (0, 1):
        assert re.search(rf"epoch {epoch}: 8 batches, 32 samples in [\d.]+ s = [\d.]+ batches/s, [\d.]+ samples/s",
                         text), text
        assert f"epoch {epoch}: 32 samples, 3 labels: 0 (34%), 1 (34%), 2 (31%)" in text, text
    rows = [line for line in text.splitlines() if line.startswith("  worker ")]
    assert len(rows) == 4 and all(re.search(r"busy \d+\.\d{3} s \(\d+%\)", r) for r in rows), rows


def test_hand_overs_skip_the_task_of_a_worker_whose_stream_ended():
    # worker 0 yields one batch, worker 1 three: torch gives worker 0's second task back empty and skips it
    loader = _loader(True, PairStream(False, counts=(BATCH, 3 * BATCH)))
    trace = loaderlab.record(loader, sample_info=SampleGuess.for_loader(loader))
    f = events_of(trace)
    handed = f[f["kind"] == ev.BATCH_YIELD]
    assert handed["batch"].tolist() == [0, 1, 2, 3] and handed["arg0"].tolist()[:2] == [0, 1]
    assert 2 not in handed["arg0"].tolist()  # worker 0's emptied task
    assert throughput(trace)["samples"].tolist() == [4 * BATCH]
    assert summarise(trace).stage("move").count == 4


def test_without_workers_batches_are_numbered_by_the_loop():
    loader = torch.utils.data.DataLoader(PairStream(False), batch_size=BATCH)
    f = events_of(loaderlab.record(loader, epochs=2, sample_info=SampleGuess.for_loader(loader)))
    fetched = f[(f["kind"] == ev.FETCH_END) & (f["detail"] == "")]
    assert fetched.groupby("epoch")["batch"].apply(list).tolist() == [[i // BATCH for i in range(N)]] * 2
    # one stream cannot yield a sample twice across workers: no content fingerprint is taken (issue 37)
    assert fetched["arg1"].eq(ev.NO_ARG).all()


class SlowMiddle(torch.utils.data.IterableDataset):
    """8 distinct samples; the 3rd of each worker's stream takes 0.2 s, long enough for the worker's flusher to
    report it (and the batch's samples done before it) while it is being fetched."""

    def __iter__(self):
        for i in range(8):
            time.sleep(0.2 if i == 2 else 0)
            yield torch.full((4,), float(i))


def test_samples_reported_before_their_batch_ended_keep_their_fingerprints():
    trace = loaderlab.record(loaderlab.DataLoader(SlowMiddle(), batch_size=4, num_workers=2))
    f = events_of(trace)
    fetched = f[(f["kind"] == ev.FETCH_END) & (f["detail"] == "")]
    assert len(fetched) == 16 and fetched["arg1"].ne(ev.NO_ARG).all()
    (dup,) = duplicates(trace)
    assert dup.evidence["duplicates"] == 8 and dup.evidence["positions"] == [0, 0]
