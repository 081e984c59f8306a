"""Reads of 1 ms with one 0.3 s read in 300, in the loop (num_workers=0), a 1 ms CPU step."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings, spin

NW, PF, PIN = settings(0)


class Flaky(Dataset):
    def __len__(self):
        return 2400

    def __getitem__(self, i):
        time.sleep(0.3 if i % 300 == 11 else 0.001)
        return torch.full((32,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Flaky(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            spin(1)
    done(start)
