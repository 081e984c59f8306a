"""Torch ops inside __getitem__ (a blur by conv2d, an FFT), in the loop (num_workers=0, torch's intra-op threads)."""
import time

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(0)
KERNEL = torch.ones(3, 1, 5, 5) / 25


class Blurred(Dataset):
    def __len__(self):
        return 400

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        x = torch.rand(1, 3, 64, 64, generator=g)
        x = F.conv2d(x, KERNEL, padding=2, groups=3)[0]
        spec = torch.fft.rfft2(x).abs()
        return torch.cat([x, spec[:, :, :32].log1p().repeat(1, 1, 2)], 0), i % 10


if __name__ == "__main__":
    loader = DataLoader(Blurred(), batch_size=2, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.002)
    done(start)
