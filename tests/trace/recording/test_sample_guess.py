"""Labels and lengths read from what a dataset returns: stock loaders recorded from the command line get the
label and padding findings too."""

from __future__ import annotations

import json
import sys
import textwrap

import numpy as np
import pytest
import torch

from loaderlab.cli import main
from loaderlab.trace.recording.sample_guess import SampleGuess

FACTORY = textwrap.dedent('''
    import torch
    from torch.nn.utils.rnn import pad_sequence

    class Pairs(torch.utils.data.Dataset):          # (input, label): 95% label 0, 5% label 1
        def __len__(self): return 200
        def __getitem__(self, i): return torch.zeros(3), int(i % 20 == 0)

    class Records(torch.utils.data.Dataset):        # dicts with a 'cls' key and variable-length tokens
        def __len__(self): return 64
        def __getitem__(self, i): return {"tokens": torch.ones(2 + (i * 7) % 30), "cls": "ab"[i % 2]}

    def pad(samples):
        return {"tokens": pad_sequence([s["tokens"] for s in samples], batch_first=True),
                "cls": [s["cls"] for s in samples]}

    def make_pairs():
        return torch.utils.data.DataLoader(Pairs(), batch_size=10, num_workers=2)

    def make_records():
        return torch.utils.data.DataLoader(Records(), batch_size=8, collate_fn=pad, num_workers=2)
''')


def test_the_common_shapes_give_their_label_and_length():
    guess = SampleGuess()
    assert guess(0, (torch.zeros(5), 3)) == (3, 5)
    assert guess(0, {"input_ids": torch.zeros(7), "target": torch.tensor(2)}) == (2, 7)
    assert guess(0, {"x": torch.zeros(4), "labels": torch.tensor([1])}) == (1, 4)
    assert guess(0, {"x": torch.zeros(4), "cls": "a"}) == (None, 4)  # no known key: no label
    assert SampleGuess("cls")(0, {"x": torch.zeros(4), "cls": "a"}) == ("a", 4)
    assert SampleGuess("2")(0, (torch.zeros(2), 9, 1)) == (1, 2)
    assert guess(0, torch.zeros(3)) == (None, 3)
    assert guess(0, (torch.zeros(2), torch.zeros(4))) == (None, 2)  # a vector is no label


@pytest.fixture
def factory(tmp_path, monkeypatch):
    (tmp_path / "stock_factory.py").write_text(FACTORY)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    yield tmp_path
    sys.modules.pop("stock_factory", None)


def _findings(path, capsys) -> list[dict]:
    capsys.readouterr()
    assert main(["report", str(path), "--json", "--no-suggestions"]) == 0
    return json.loads(capsys.readouterr().out)["findings"]


def test_a_stock_loader_of_pairs_reports_its_imbalance(factory, capsys):
    assert main(["record", "stock_factory.py:make_pairs", "-o", "pairs.json"]) == 0
    (imbalance,) = [f for f in _findings(factory / "pairs.json", capsys) if f["kind"] == "class_imbalance"]
    assert "label 1 is 5.0% of the samples" in imbalance["text"]
    assert "10 of the 20 batches have no label 1" in imbalance["text"]  # one rare sample in every other batch


def test_label_key_names_the_label_and_padding_is_measured(factory, capsys):
    assert main(["record", "stock_factory.py:make_records", "-o", "records.json", "--label", "cls"]) == 0
    found = _findings(factory / "records.json", capsys)
    assert any(f["kind"] == "padding_waste" and "batch" in f for f in found), found
    from loaderlab.trace.files.io import load_trace

    frame = load_trace(factory / "records.json")
    labels = frame[frame["kind"] == "fetch_end"]["label"]
    assert set(labels) == {"a", "b"}


def test_an_iterable_datasets_bare_values_are_their_own_labels():
    stream = SampleGuess(iterable=True)
    assert stream(0, 7) == (7, -1) and stream(0, "rec-3") == ("rec-3", -1)
    assert stream(0, torch.tensor([5])) == (5, 1)  # a one-element tensor is a value and has a length
    assert stream(0, torch.zeros(4)) == (None, 4)  # a vector is data, not an identity
    assert stream(0, (torch.zeros(2), 1)) == (1, 2)  # pairs keep their label
    assert SampleGuess()(0, 7) == (None, -1)  # a map-style dataset's bare value is no label


class _Sub(torch.Tensor):
    pass


def _hf_rows(n, label=lambda i: torch.tensor(i % 3)):
    return [{"input_ids": torch.ones(2 + i % 5, dtype=torch.long), "label": label(i)} for i in range(n)]


BATCHES = {
    "hf rows": _hf_rows(6),
    "bool labels": _hf_rows(4, lambda i: torch.tensor(i % 2 == 0)),
    "float labels": _hf_rows(4, lambda i: torch.tensor(i / 2)),
    "one-element labels": _hf_rows(4, lambda i: torch.tensor([i])),
    "mixed label dtypes": _hf_rows(3)[:2] + [{"input_ids": torch.ones(3), "label": torch.tensor(1.0)}],
    "vector labels": _hf_rows(3, lambda i: torch.zeros(2)),
    "int labels": _hf_rows(4, lambda i: i),
    "str labels": _hf_rows(4, lambda i: "ab"[i % 2]),
    "no label": [{"input_ids": torch.ones(i + 1)} for i in range(3)],
    "only a label": [{"label": torch.tensor(i)} for i in range(3)],
    "keys in another order": _hf_rows(2) + [{"label": torch.tensor(0), "input_ids": torch.ones(4)}],
    "two lengths in another order": [{"a": torch.ones(2), "b": torch.ones(3), "label": 0},
                                     {"b": torch.ones(4), "a": torch.ones(5), "label": 1}],
    "a key missing, another added": [{"input_ids": torch.ones(2), "label": 0}, {"input_ids": torch.ones(3), "y": 1}],
    "a length that moves": [{"a": torch.tensor(1), "b": torch.ones(3), "label": 0},
                            {"a": torch.ones(2), "b": torch.ones(3), "label": 1}],
    "0-d beside the length": [{"a": torch.tensor(i), "ids": torch.ones(i + 2), "y": torch.tensor(i)} for i in range(3)],
    "tuples": [(torch.ones(i + 1), i) for i in range(3)],
    "empty": [],
    "python bool labels": _hf_rows(3, lambda i: i == 1),
    "numpy labels": _hf_rows(3, lambda i: np.int64(i)),
    "a tensor subclass as the length": [{"ids": torch.ones(i + 1).as_subclass(_Sub), "label": i} for i in range(3)],
    "a tensor subclass label": _hf_rows(3, lambda i: torch.tensor(i).as_subclass(_Sub)),
}
# the batches read by columns (the others fall back to the per-sample read, which the test compares with itself)
BY_COLUMNS = {"hf rows", "keys in another order", "bool labels", "float labels", "one-element labels", "int labels", "str labels", "no label",
              "only a label", "0-d beside the length"}


@pytest.mark.parametrize("label_key", [None, "y", "a"])
@pytest.mark.parametrize("case", BATCHES)
def test_a_batch_read_a_column_at_a_time_reads_as_each_sample_does(case, label_key):
    """SampleGuess.batch (a Hugging Face __getitems__ batch read by columns) against the per-sample read,
    values and their types."""
    guess, samples = SampleGuess(label_key), BATCHES[case]
    got = guess.batch(list(range(len(samples))), samples)
    want = [guess(i, s) for i, s in enumerate(samples)]
    assert got == want
    if case in BY_COLUMNS and label_key is None:  # the fast read itself, not its fallback, gave these
        assert list(zip(*guess._columns(samples))) == want
    assert [type(label) for label, _ in got] == [type(label) for label, _ in want]


class _Tuple(tuple):
    pass


PAIRS = {
    "tensor, int": (torch.zeros(5, 2), 3),
    "tensor, 0-d tensor": (torch.zeros(4), torch.tensor(7)),
    "tensor, one-element tensor": (torch.zeros(4), torch.tensor([2])),
    "tensor, vector": (torch.zeros(4), torch.zeros(2)),
    "tensor, empty tensor": (torch.zeros(4), torch.zeros(0)),
    "tensor, bool tensor": (torch.zeros(4), torch.tensor(True)),
    "tensor, float tensor": (torch.zeros(4), torch.tensor(0.5)),
    "tensor, bool": (torch.zeros(4), True),
    "tensor, whole float": (torch.zeros(4), 2.0),
    "tensor, float": (torch.zeros(4), 2.5),
    "tensor, str": (torch.zeros(4), "cat"),
    "tensor, numpy int": (torch.zeros(4), np.int64(3)),
    "tensor, None": (torch.zeros(4), None),
    "0-d tensor, int": (torch.tensor(1.0), 1),
    "subclass input": (torch.ones(3).as_subclass(_Sub), 1),
    "subclass label": (torch.ones(3), torch.tensor(4).as_subclass(_Sub)),
    "numpy input": (np.zeros(3), 1),
    "str input": ("text", 0),
    "dict input": ({"x": torch.ones(2)}, 1),
    "list pair": [torch.zeros(6), 1],
}


@pytest.mark.parametrize("case", PAIRS)
def test_an_input_label_pair_reads_as_the_general_path_does(case):
    """The (input, label) fast read against the general one (a tuple subclass takes it), values and types."""
    sample = PAIRS[case]
    got, want = SampleGuess()(0, sample), SampleGuess()(0, _Tuple(sample))
    assert got == want and [type(v) for v in got] == [type(v) for v in want]
