"""webdataset over .tar shards of PNGs: WebDataset(...).decode("pil").to_tuple("png", "cls").map_tuple(transform,
int) with a random flip, split by worker, a small CNN step; 2 workers. An IterableDataset: run --tune cannot
switch its settings inside the job and must say so."""
import io
import os
import random
import tarfile
import tempfile
import time

import numpy as np
import torch
import webdataset as wds
from PIL import Image
from torch import nn
from torch.utils.data import DataLoader

from _common import done, epochs, settings

NW, PF, PIN = settings(2)


def transform(img):  # torchvision's ToTensor then RandomHorizontalFlip, written out
    x = torch.from_numpy(np.asarray(img, dtype=np.uint8).copy()).permute(2, 0, 1).float().div(255)
    return x.flip(-1) if random.random() < 0.5 else x


def write_shards(folder, shards=4, per_shard=400, size=32):
    rng = np.random.default_rng(0)
    paths = []
    for s in range(shards):
        path = os.path.join(folder, f"shard-{s:04d}.tar")
        with tarfile.open(path, "w") as tar:
            for k in range(per_shard):
                png = io.BytesIO()
                Image.fromarray(rng.integers(0, 256, (size, size, 3), dtype=np.uint8)).save(png, format="PNG")
                for ext, data in (("png", png.getvalue()), ("cls", str(k % 10).encode())):
                    info = tarfile.TarInfo(f"{s:04d}{k:05d}.{ext}")
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
        paths.append(path)
    return paths


if __name__ == "__main__":
    shards = write_shards(tempfile.mkdtemp(prefix="ll_wds_"))
    dataset = wds.WebDataset(shards, shardshuffle=False).decode("pil").to_tuple("png", "cls").map_tuple(transform, int)
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(4), nn.Flatten(), nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(dataset, batch_size=16, num_workers=NW, prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(2)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
