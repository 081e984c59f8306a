"""3x256x256 float tensors made per sample, pin_memory=True, a 6 ms sleep standing in for a GPU step; 2 workers."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(2, pin_memory=True)


class Frames(Dataset):
    def __len__(self):
        return 1600

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.rand(3, 256, 256, generator=g), i % 10


if __name__ == "__main__":
    loader = DataLoader(Frames(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.006)
    done(start)
