"""3x256x256 tensors made and normalised per sample, 4 workers, a CPU step that reduces each batch."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(4)


class Frames(Dataset):
    def __len__(self):
        return 1000

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        x = torch.randint(0, 256, (3, 256, 256), generator=g, dtype=torch.uint8).float() / 255
        return (x - 0.5) / 0.25, i % 10


if __name__ == "__main__":
    loader = DataLoader(Frames(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    acc = torch.zeros(3)
    for epoch in range(epochs(1)):
        for x, y in loader:
            acc += x.mean(dim=(0, 2, 3))
    done(start)
