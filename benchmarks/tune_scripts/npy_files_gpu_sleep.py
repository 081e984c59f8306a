"""Float32 .npy files (3x64x64) read per sample, 2 workers, a 6 ms sleep standing in for a GPU step."""
import os
import tempfile
import time

import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(2)


class Arrays(Dataset):
    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, i):
        a = np.load(self.paths[i])
        a = (a - a.mean()) / (a.std() + 1e-6)
        return torch.from_numpy(a), i % 100


if __name__ == "__main__":
    folder = tempfile.mkdtemp(prefix="tune_npy_")
    rng = np.random.default_rng(2)
    paths = []
    for i in range(1600):
        p = os.path.join(folder, f"{i}.npy")
        np.save(p, rng.standard_normal((3, 64, 64), dtype=np.float32))
        paths.append(p)
    loader = DataLoader(Arrays(paths), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.006)
    done(start)
    for p in paths:
        os.remove(p)
    os.rmdir(folder)
