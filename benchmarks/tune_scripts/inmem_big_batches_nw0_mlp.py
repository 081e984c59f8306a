"""An in-memory table (MNIST-sized rows), batches of 128 in the loop (num_workers=0), an MLP step on the CPU."""
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from _common import done, epochs, settings

NW, PF, PIN = settings(0)

if __name__ == "__main__":
    g = torch.Generator().manual_seed(0)
    ds = TensorDataset(torch.rand(30_000, 784, generator=g), torch.randint(0, 10, (30_000,), generator=g))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    loader = DataLoader(ds, batch_size=128, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(2)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
