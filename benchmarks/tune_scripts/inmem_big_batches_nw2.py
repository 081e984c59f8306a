"""Tensors held in memory (600 KB each), batches of 4 (2.4 MB), three epochs, 2 workers, a trivial step."""
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

from _common import done, epochs, settings

NW, PF, PIN = settings(2)

if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.randn(640, 150_000, generator=g), torch.randint(0, 10, (640,), generator=g))
    loader = DataLoader(ds, batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(3)):
        for x, y in loader:
            x.sum()
    done(start)
