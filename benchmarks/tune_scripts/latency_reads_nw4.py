"""Reads that wait (a 3 ms sleep per sample), 4 workers, a small CPU step."""
import time

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(4)


class Remote(Dataset):
    def __len__(self):
        return 3000

    def __getitem__(self, i):
        time.sleep(0.003)
        return torch.full((64,), float(i % 7)), i % 4


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Linear(64, 4)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Remote(), batch_size=8, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
