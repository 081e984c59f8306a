"""The trace writer of ``loaderlab run`` builds each chunk's rows by the recorder's numpy path (issue 37: the
expansion into one object per event cost a traced job a fifth of its speed); the rows must be the ones the
event path builds, labels kept as the dataset gave them, for stock loaders' real records (workers, labels,
a stream, str labels); and what the writer drains while the loop emits is every record once."""

from __future__ import annotations

import pandas as pd
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset

from loaderlab.engine import events as ev
from loaderlab.engine.records import Chunk, chunk_events, RecordTracer
from loaderlab.jobs.rows import _Repeats, chunk_frame, fast_frame
from loaderlab.trace.recording.sample_guess import SampleGuess
from loaderlab.trace.recording.event_channel import EventChannel
from loaderlab.trace.recording.torch_recorder import EpochDial, set_process_tracer, traced_clone


class Rows(Dataset):
    def __init__(self, label):
        self.label = label

    def __len__(self):
        return 24

    def __getitem__(self, i):
        return torch.full((i % 4 + 1,), float(i)), self.label(i)


class Stream(IterableDataset):
    def __iter__(self):
        for i in range(20):
            yield {"x": torch.full((3,), float(i)), "label": i % 3}


LOADERS = {
    "int labels, 2 workers": lambda: DataLoader(Rows(lambda i: i % 3), batch_size=5, num_workers=2,
                                                collate_fn=lambda b: b),
    "str labels, main process": lambda: DataLoader(Rows(lambda i: "cat" if i % 2 else "dog"), batch_size=4,
                                                   collate_fn=lambda b: b),
    "stream, 2 workers": lambda: DataLoader(Stream(), batch_size=4, num_workers=2),
}


@pytest.mark.parametrize("case", LOADERS)
def test_the_fast_rows_are_the_event_rows(case):
    loader = LOADERS[case]()
    tracer = RecordTracer(SampleGuess.for_loader(loader))
    channel, dial = EventChannel(loader, tracer), EpochDial()
    clone = traced_clone(loader, tracer, channel.queue, dial)
    dial(0)
    set_process_tracer(tracer, 0)
    for _ in clone:
        pass
    channel.close()
    set_process_tracer(ev.NULL_TRACER)
    chunks = tracer.drain()
    records = [r for chunk in chunks for r in chunk_events(chunk)]
    base = min(getattr(r, "t_ns", 0) or r.spans[0][1] for r in records)
    slow = chunk_frame(_Repeats().expand(records), "train_loader", base)
    fast = fast_frame(chunks, "train_loader", None, {})
    assert len(fast) > 60 and fast["label"].notna().sum() >= 20
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)


def _chunk(records) -> Chunk:
    tracer = RecordTracer()
    tracer.emit_records(records)
    return tracer.drain()[0]


def test_an_early_report_takes_the_event_path():
    report = _chunk([ev.Event(ev.FETCH_BEGIN, 5, 9, 0, 0, 1, 3, arg0=1)])
    spans = _chunk([ev.FetchSpans(9, 0, 0, 1, ((3, 5, 6, None, -1, ""),))])
    assert fast_frame([report], "x", 0, {}) is None
    assert fast_frame([spans], "x", 0, {(9, 0, 1): set()}) is None
    assert len(fast_frame([spans], "x", 0, {(9, 0, 2): set()})) == 2


def test_draining_while_emitting_takes_every_record_once():
    """A drain between a batch's samples and its header leaves the samples for the next drain; objects go
    with the records that name them."""
    tracer = RecordTracer()
    tracer.emit(ev.EPOCH_BEGIN, -1, 0)
    tracer.emit(ev.ERROR, -1, 0, 1, detail="ValueError: x")
    tracer.samples.extend([7, 10, 11])  # emit_fetches' first half: a drain may run before the header
    first = tracer.drain()
    tracer.heads.frombytes(__import__("struct").pack("6q", tracer._pid, -1, 0, 2, 1, -1))
    tracer.emit_fetches(-1, 0, 3, [8, 12, 13], labels=["cat"], lengths=[4])
    second = tracer.drain()
    assert tracer.drain() == [] and not tracer.objs
    events = [chunk_events(c) for c in first + second]
    assert [e.kind for e in events[0]] == [ev.EPOCH_BEGIN, ev.ERROR] and events[0][1].detail == "ValueError: x"
    assert [(s.batch, s.spans[0][:5]) for s in events[1]] == [(2, (7, 10, 11, None, -1)), (3, (8, 12, 13, "cat", 4))]
