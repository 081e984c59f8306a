"""How much a slice's rate moves with torch's intra-op threads, in plain torch (no LoaderLab): two persistent
DataLoaders over one SQLite dataset (a SELECT and a JSON parse per sample) fed 20-batch slices in turn as
``run --tune`` feeds its candidates, or one of them alone, an MLP step between batches; each slice timed over
its steady window (from the batch after the first prefetch to two before the end, receipt to receipt).

Run: ``.venv/bin/python benchmarks/slice_noise.py MODE`` with MODE ``alt`` (1 worker, then 2, in turn),
``alone1`` or ``alone2``; ``OMP_NUM_THREADS=1`` in front for a step on one thread. Prints each setting's
slice rates (samples/s; the first, its start-up, left out) and their median. Run each mode a few times: the
point is how much a process's rates move from one process to the next.
"""

from __future__ import annotations

import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time

import torch
from torch import nn

ROWS, BATCH, SLICE, SLICES = 3000, 64, 20, 8


class Rows(torch.utils.data.Dataset):
    def __init__(self, path: str) -> None:
        self.path, self.db = path, None

    def __len__(self) -> int:
        return ROWS

    def __getitem__(self, i: int):
        if self.db is None:  # one connection per worker process
            self.db = sqlite3.connect(self.path)
        feats, label = self.db.execute("SELECT feats, label FROM rows WHERE id = ?", (i,)).fetchone()
        return torch.tensor(json.loads(feats)), label


class Feed:
    """A batch sampler handed one slice at a time."""

    def __init__(self) -> None:
        self.items: list = []

    def __iter__(self):
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)


def main(mode: str) -> None:
    path = os.path.join(tempfile.mkdtemp(prefix="slice_noise_"), "rows.db")
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, feats TEXT, label INTEGER)")
    g = torch.Generator().manual_seed(0)
    db.executemany("INSERT INTO rows VALUES (?, ?, ?)",
                   [(i, json.dumps(torch.randn(64, generator=g).tolist()), i % 4) for i in range(ROWS)])
    db.commit()
    db.close()
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 4))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    order = {"alt": (1, 2), "alone1": (1,), "alone2": (2,)}[mode]
    feeds = {n: Feed() for n in order}
    loaders = {n: torch.utils.data.DataLoader(Rows(path), batch_sampler=feeds[n], num_workers=n,
                                              persistent_workers=True, prefetch_factor=2) for n in order}
    perm = torch.randperm(ROWS).tolist()
    batches = [perm[i:i + BATCH] for i in range(0, ROWS, BATCH)]
    rates: dict[int, list[float]] = {n: [] for n in order}
    for r in range(SLICES):
        for n in order:
            feeds[n].items = [batches[(r * 2 * SLICE + k) % len(batches)] for k in range(SLICE)]
            got = []
            for x, y in loaders[n]:
                got.append(time.perf_counter())
                loss = nn.functional.cross_entropy(model(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            lo, hi = 2 * n, SLICE - 2
            rates[n].append(BATCH * (hi - lo) / (got[hi] - got[lo]))
    for n in order:
        later = rates[n][1:]
        print(f"{mode} num_workers={n} threads={torch.get_num_threads()}: "
              f"{[round(v) for v in later]} median {round(statistics.median(later))}")


if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in ("alt", "alone1", "alone2"):
        raise SystemExit("usage: slice_noise.py alt|alone1|alone2")
    main(sys.argv[1])
