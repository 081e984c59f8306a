"""An IterableDataset (a generated stream of records), in the loop (num_workers=0), a CPU step.
run --tune cannot switch its settings inside the job: it must say so."""
import time

import torch
from torch.utils.data import DataLoader, IterableDataset

from _common import done, epochs, settings, spin

NW, PF, PIN = settings(0)


class Stream(IterableDataset):
    def __iter__(self):
        for i in range(4000):
            spin(0.3)
            yield torch.full((16,), float(i)), i % 2


if __name__ == "__main__":
    loader = DataLoader(Stream(), batch_size=32, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            spin(3)
    done(start)
