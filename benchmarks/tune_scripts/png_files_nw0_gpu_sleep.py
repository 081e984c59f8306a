"""PNG files decoded in the loop (num_workers=0), a 5 ms sleep standing in for a GPU step."""
import os
import tempfile
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, read_png, settings, write_png

NW, PF, PIN = settings(0)


class Pngs(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        img = read_png(self.paths[i]).astype(np.float32) / 255.0
        return torch.from_numpy(img.transpose(2, 0, 1).copy()), i % 10


if __name__ == "__main__":
    folder = tempfile.mkdtemp(prefix="tune_png0_")
    rng = np.random.default_rng(1)
    paths = []
    for i in range(2000):
        p = os.path.join(folder, f"{i}.png")
        write_png(p, rng.integers(0, 256, (64, 64, 3), dtype=np.uint8))
        paths.append(p)
    loader = DataLoader(Pngs(paths), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.005)  # the GPU's forward and backward: the loop waits, no core is held
    done(start)
    for p in paths:
        os.remove(p)
    os.rmdir(folder)
