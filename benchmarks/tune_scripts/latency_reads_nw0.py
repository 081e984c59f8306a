"""Reads that wait (a 1 ms sleep per sample, as a network store), in the loop (num_workers=0); a trivial step."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(0)


class Remote(Dataset):
    def __len__(self):
        return 2400

    def __getitem__(self, i):
        time.sleep(0.001)
        return torch.full((128,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Remote(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    s = 0.0
    for epoch in range(epochs(1)):
        for x, y in loader:
            s += float(x.sum())
    done(start)
