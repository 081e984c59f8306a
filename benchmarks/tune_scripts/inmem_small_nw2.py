"""Small tensors held in memory (3x32x32), batch 16, 2 workers, a trivial step."""
import time

import torch
from torch.utils.data import DataLoader, TensorDataset

from _common import done, epochs, settings

NW, PF, PIN = settings(2)

if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.randn(8000, 3, 32, 32, generator=g), torch.randint(0, 10, (8000,), generator=g))
    loader = DataLoader(ds, batch_size=16, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    total = 0.0
    for epoch in range(epochs(1)):
        for x, y in loader:
            total += float(x.mean())
    done(start)
