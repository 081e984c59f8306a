"""Torch ops inside __getitem__ (resize by interpolate, a 7x7 conv), 2 workers, a small CPU model step."""
import time

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(2)
KERNEL = torch.randn(8, 3, 7, 7, generator=torch.Generator().manual_seed(0)) / 50


class Features(Dataset):
    def __len__(self):
        return 600

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        x = torch.rand(1, 3, 96, 96, generator=g)
        x = F.interpolate(x, size=(112, 112), mode="bilinear", align_corners=False)
        return F.relu(F.conv2d(x, KERNEL))[0], i % 10


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.AdaptiveAvgPool2d(8), nn.Flatten(), nn.Linear(512, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Features(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
