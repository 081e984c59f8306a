"""Reads of 1 ms with one 0.5 s read in 400 (a cold cache, a retry), 4 workers, a trivial step."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(4)


class Flaky(Dataset):
    def __len__(self):
        return 4000

    def __getitem__(self, i):
        time.sleep(0.5 if i % 400 == 7 else 0.001)
        return torch.full((32,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Flaky(), batch_size=8, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            x.mul_(2)
    done(start)
