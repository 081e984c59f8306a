"""One planted cause per correctness finding, each in a stock torch DataLoader (written to a file by the tests).

``SCRIPT`` is both a factory module for ``python -m loaderlab record causes.py:make_<cause>`` and a training
script for ``python -m loaderlab run causes.py <cause>`` (which iterates that loader as a user's loop would).
``EXPECTED`` is what each cause must be reported as, worked out from the datasets' own formulas.
"""

from __future__ import annotations

SCRIPT = '''
import sys, time
import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset, IterableDataset, DistributedSampler


class Pairs(Dataset):  # (input, label): 1 in 20 samples is label 1
    def __len__(self): return 200
    def __getitem__(self, i): return torch.zeros(3), int(i % 20 == 0)


class Records(Dataset):  # the class under a key the guess does not know: --label cls
    def __len__(self): return 200
    def __getitem__(self, i): return {"x": torch.zeros(3), "cls": "rare" if i % 20 == 0 else "common"}


class Tokens(Dataset):  # variable-length token tensors in no order: lengths 2..61
    def __len__(self): return 64
    def __getitem__(self, i): return {"tokens": torch.ones(2 + (i * 37) % 60), "label": i % 2}


def pad(samples):
    return {"tokens": pad_sequence([s["tokens"] for s in samples], batch_first=True),
            "label": torch.tensor([s["label"] for s in samples])}


class Unsharded(IterableDataset):  # ignores get_worker_info(): every worker yields 0..39
    def __iter__(self): return iter(range(40))


class Slow(Dataset):  # sample 37 takes 0.4 s, the others 2 ms
    def __len__(self): return 64
    def __getitem__(self, i):
        time.sleep(0.4 if i == 37 else 0.002)
        return torch.tensor([float(i)])


def make_imbalance(): return DataLoader(Pairs(), batch_size=10, num_workers=2)
def make_imbalance_key(): return DataLoader(Records(), batch_size=10, num_workers=2)
def make_padding(): return DataLoader(Tokens(), batch_size=8, collate_fn=pad, num_workers=2)
def make_duplicates(): return DataLoader(Unsharded(), batch_size=8, num_workers=2)
def make_straggler(): return DataLoader(Slow(), batch_size=4, num_workers=2)
def make_same_order():  # a DistributedSampler whose set_epoch is never called
    data = Pairs()
    return DataLoader(data, batch_size=10, sampler=DistributedSampler(data, num_replicas=1, rank=0),
                      num_workers=2)


EPOCHS = {"same_order": 2}

if __name__ == "__main__":
    cause = sys.argv[1]
    loader = globals()["make_" + cause]()
    for epoch in range(EPOCHS.get(cause, 1)):
        for batch in loader:
            pass
'''

EPOCHS = {"same_order": 2}
LABEL_KEYS = {"imbalance_key": "cls"}


def _padding_worst() -> tuple[int, float, float]:
    """Tokens' worst batch, the epoch's padding share, and the share left if sorted by length."""
    lengths = [2 + (i * 37) % 60 for i in range(64)]
    batches = [lengths[b:b + 8] for b in range(0, 64, 8)]
    cells = [8 * max(b) for b in batches]
    pads = [c - sum(b) for c, b in zip(cells, batches)]
    ordered = sorted(lengths)
    bucketed = sum(8 * max(ordered[b:b + 8]) for b in range(0, 64, 8))
    return pads.index(max(pads)), sum(pads) / sum(cells), (bucketed - sum(lengths)) / bucketed


WORST, PADDED, BUCKETED = _padding_worst()

# cause -> (kind, the fields the JSON must name, words the text must hold)
EXPECTED = {
    "imbalance": ("class_imbalance", {"epoch": 0},
                  ["label 1 is 5.0% of the samples", "10 of the 20 batches have no label 1"]),
    "imbalance_key": ("class_imbalance", {"epoch": 0},
                      ["label rare is 5.0% of the samples", "10 of the 20 batches have no label rare"]),
    "padding": ("padding_waste", {"batch": WORST, "epoch": 0},
                [f"{PADDED:.0%} of the batch cells are padding", f"would leave {BUCKETED:.0%} padding"]),
    # the second worker's first value, 0, was the first worker's first value too
    "duplicates": ("iterable_duplicates", {"worker": 1, "index": 0, "epoch": 0},
                   ["40 of 40 IterableDataset samples", "0 from workers [0, 1]"]),
    "same_order": ("same_order", {"epoch": 1},
                   ["Epochs 0 and 1 drew the same shuffled order (200 samples", "sampler.set_epoch(epoch)"]),
    # sample 37 is in batch 9 (4 per batch), and torch hands batch i to worker i % 2
    "straggler": ("straggler", {"batch": 9, "worker": 1, "index": 37, "epoch": 0},
                  ["Slowest: index 37 (batch 9, worker 1"]),
}


def check(cause: str, findings: list[dict]) -> None:
    """The one finding of ``cause``'s kind names what EXPECTED says."""
    kind, named, words = EXPECTED[cause]
    (found,) = [f for f in findings if f["kind"] == kind and f.get("epoch") == named["epoch"]] or [None]
    assert found is not None, (cause, findings)
    for field, value in named.items():
        assert found.get(field) == value, (cause, field, found)
    for w in words:
        assert w in found["text"], (cause, w, found["text"])
