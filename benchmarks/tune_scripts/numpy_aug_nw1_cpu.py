"""Numpy augmentations per sample (crop, flip, colour jitter, noise), one worker, a small CPU conv step."""
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(1)


class Augmented(Dataset):
    def __init__(self, n):
        self.images = np.random.default_rng(5).integers(0, 256, (n, 40, 40, 3), dtype=np.uint8)

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        rng = np.random.default_rng(i)
        y0, x0 = rng.integers(0, 9, 2)
        img = self.images[i, y0:y0 + 32, x0:x0 + 32].astype(np.float32) / 255
        if rng.random() < 0.5:
            img = img[:, ::-1]
        img = img * rng.uniform(0.8, 1.2, 3) + rng.normal(0, 0.02, img.shape)
        img = np.clip(img, 0, 1)
        for _ in range(4):
            img = 0.5 * img + 0.25 * (np.roll(img, 1, 0) + np.roll(img, 1, 1))
        return torch.from_numpy(img.transpose(2, 0, 1).astype(np.float32)), i % 10


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                          nn.Linear(8, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Augmented(1000), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
