"""Six short epochs, 2 workers started anew each epoch (persistent_workers=False), a slow worker_init_fn,
1 ms of Python work per sample, a small CPU step."""
import time

import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings, spin

NW, PF, PIN = settings(2)


def open_store(worker_id):
    time.sleep(0.15)  # opening a database, loading a tokenizer


class Records(Dataset):
    def __len__(self):
        return 256

    def __getitem__(self, i):
        spin(1.0)
        return torch.full((32,), float(i)), i % 10


if __name__ == "__main__":
    loader = DataLoader(Records(), batch_size=4, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN, worker_init_fn=open_store, persistent_workers=False)
    start = time.perf_counter()
    for epoch in range(epochs(6)):
        for x, y in loader:
            spin(0.5)
    done(start)
