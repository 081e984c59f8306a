"""PNG files decoded per sample, numpy augmentation, a small CPU conv model; 4 workers."""
import os
import tempfile
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, read_png, settings, write_png

NW, PF, PIN = settings(4)


class Pngs(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = read_png(self.paths[i]).astype(np.float32) / 255.0
        if i % 2:
            img = img[:, ::-1]
        y0, x0 = i % 8, (i // 8) % 8
        img = (img[y0:y0 + 40, x0:x0 + 40] - 0.5) / 0.25
        return torch.from_numpy(np.ascontiguousarray(img.transpose(2, 0, 1))), i % 10


if __name__ == "__main__":
    folder = tempfile.mkdtemp(prefix="tune_png_")
    rng = np.random.default_rng(0)
    paths = []
    for i in range(1200):
        p = os.path.join(folder, f"{i}.png")
        write_png(p, rng.integers(0, 256, (48, 48, 3), dtype=np.uint8))
        paths.append(p)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(),
                          nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(Pngs(paths), batch_size=8, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(2)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
    for p in paths:
        os.remove(p)
    os.rmdir(folder)
