"""Four epochs with persistent workers (4 of them), 2 ms of Python work per sample, a 1 ms CPU step."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings, spin

NW, PF, PIN = settings(4)


class Records(Dataset):
    def __len__(self):
        return 320

    def __getitem__(self, i):
        spin(2.0)
        return torch.full((32,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Records(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN, persistent_workers=NW > 0)
    start = time.perf_counter()
    for epoch in range(epochs(4)):
        for x, y in loader:
            spin(1)
    done(start)
