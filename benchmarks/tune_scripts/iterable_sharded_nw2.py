"""An IterableDataset sharded by worker (get_worker_info), 2 workers, a sleep standing in for a GPU step.
run --tune cannot switch its settings inside the job: it must say so."""
import time

import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info

from _common import done, epochs, settings, spin

NW, PF, PIN = settings(2)


class Shards(IterableDataset):
    def __iter__(self):
        info = get_worker_info()
        wid, n = (info.id, info.num_workers) if info else (0, 1)
        for i in range(wid, 3000, n):
            spin(1.0)
            yield torch.full((64,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Shards(), batch_size=32, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.01)
    done(start)
