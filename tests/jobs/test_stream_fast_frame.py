"""The trace writer of ``loaderlab run`` builds each chunk's rows by the recorder's numpy path (issue 37: the
expansion into one object per event cost a traced job a fifth of its speed); the rows must be the ones the
event path builds, labels kept as the dataset gave them, for stock loaders' real records (workers, labels,
a stream, str labels)."""

from __future__ import annotations

import pandas as pd
import pytest
import torch
from torch.utils.data import DataLoader, Dataset, IterableDataset

from loaderlab.engine import events as ev
from loaderlab.jobs.stream import _Repeats, chunk_frame, fast_frame
from loaderlab.trace.recording.sample_guess import SampleGuess
from loaderlab.trace.recording.torch_recorder import EpochDial, EventChannel, set_process_tracer, traced_clone


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
    tracer = ev.ListTracer(SampleGuess.for_loader(loader))
    channel, dial = EventChannel(loader, tracer), EpochDial()
    clone = traced_clone(loader, tracer, channel.queue, dial)
    dial(0)
    set_process_tracer(tracer, 0)
    for _ in clone:
        pass
    channel.close()
    set_process_tracer(ev.NULL_TRACER)
    records = list(tracer.records)
    base = min(getattr(r, "t_ns", 0) or r.spans[0][1] for r in records)
    slow = chunk_frame(_Repeats().expand(records), "train_loader", base)
    fast = fast_frame(records, "train_loader", base, {})
    assert len(fast) > 60 and fast["label"].notna().sum() >= 20
    pd.testing.assert_frame_equal(fast, slow, check_exact=True)


def test_an_early_report_takes_the_event_path():
    report = ev.Event(ev.FETCH_BEGIN, 5, 9, 0, 0, 1, 3, arg0=1)
    assert fast_frame([report], "x", 0, {}) is None
    assert fast_frame([ev.FetchSpans(9, 0, 0, 1, ((3, 5, 6, None, -1, ""),))], "x", 0, {(9, 0, 1): set()}) is None
