"""Cheap samples, persistent 2 workers, an 8 ms sleep standing in for a GPU step: the model is the bottleneck
(the right answer is to keep the settings)."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings, spin

NW, PF, PIN = settings(2)


class Cheap(Dataset):
    def __len__(self):
        return 4000

    def __getitem__(self, i):
        spin(0.05)
        return torch.full((64,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Cheap(), batch_size=8, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN,
                        persistent_workers=NW > 0)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.008)
    done(start)
