"""A stock loader's dataset with its own ``__getitems__`` (Hugging Face's ``Dataset`` has one, issue 37 item 1):
its samples are recorded one by one, each with its label and length read from what the call returned (a list
of dicts, a dict of columns, tuples), and each with an equal share of the call's time."""

from __future__ import annotations

import pytest
import torch
from torch.utils.data import DataLoader, Dataset

import loaderlab
from loaderlab.engine import events as ev
from loaderlab.trace.recording.sample_guess import rows, SampleGuess


class Batched(Dataset):
    """``__getitems__`` returns ``shape``: "dicts", "columns" or "tuples"; sample i: label i % 3, length i % 5 + 1."""

    def __init__(self, shape: str, n: int = 12) -> None:
        self.shape, self.n = shape, n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i):
        raise AssertionError("a dataset with __getitems__ is asked for batches only")

    def __getitems__(self, indices):
        ids = [torch.ones(i % 5 + 1) for i in indices]
        labels = [i % 3 for i in indices]
        if self.shape == "dicts":
            return [{"input_ids": x, "label": torch.tensor(y)} for x, y in zip(ids, labels)]
        if self.shape == "columns":
            return {"input_ids": ids, "label": torch.tensor(labels)}
        return [(x, y) for x, y in zip(ids, labels)]


def keep(batch):
    return batch


@pytest.mark.parametrize("shape", ["dicts", "columns", "tuples"])
@pytest.mark.parametrize("workers", [0, 1])
def test_the_samples_of_a_getitems_call_carry_their_labels_and_lengths(shape, workers):
    loader = DataLoader(Batched(shape), batch_size=4, shuffle=True, collate_fn=keep, num_workers=workers)
    frame = loaderlab.record(loader, sample_info=SampleGuess())
    ends = frame[frame.kind == ev.FETCH_END]
    assert sorted(ends["index"]) == list(range(12))
    assert all(ends["label"] == ends["index"] % 3), ends[["index", "label"]]
    assert all(ends["length"] == ends["index"] % 5 + 1)


def test_each_sample_gets_an_equal_share_of_the_call():
    frame = loaderlab.record(DataLoader(Batched("dicts"), batch_size=4, collate_fn=keep))
    begins, ends = frame[frame.kind == ev.FETCH_BEGIN], frame[frame.kind == ev.FETCH_END]
    for batch in range(3):
        b = begins[begins.batch == batch].sort_values("t_ns")["t_ns"].to_numpy()
        e = ends[ends.batch == batch].sort_values("t_ns")["t_ns"].to_numpy()
        assert len(b) == 4 and (b[1:] == e[:-1]).all()  # back to back: one call cut in four
        assert max(e - b) - min(e - b) <= 1  # equal shares (to the nanosecond)


def test_a_failing_call_names_its_first_sample():
    class Failing(Batched):
        def __getitems__(self, indices):
            raise KeyError("no such rows")

    with pytest.raises(KeyError):
        loaderlab.record(DataLoader(Failing("dicts"), batch_size=4, collate_fn=keep), sample_info=SampleGuess())


def test_rows_reads_every_batch_shape_and_gives_up_on_others():
    assert rows([1, 2], 2) == [1, 2]
    assert rows({"a": [1, 2], "b": torch.tensor([3, 4])}, 2) == [{"a": 1, "b": torch.tensor(3)},
                                                                  {"a": 2, "b": torch.tensor(4)}]
    assert rows((torch.zeros(3, 2), [0, 1, 2]), 3)[2][1] == 2
    assert rows([1, 2, 3], 2) is None and rows({"a": [1]}, 2) is None and rows(torch.zeros(2), 2) is None
