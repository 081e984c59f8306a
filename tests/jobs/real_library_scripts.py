"""Jobs written with real libraries the way their tutorials write them (issue 37), and the data they read.

Each job is a script run unchanged, plainly or under ``python -m loaderlab run``; each prints ``loop_s`` (its own
training loop's seconds), ``loop_cpu_s`` (the CPU seconds the loop took, workers included: steadier than the wall
clock on a loaded machine) and a line of facts a test compares with the trace (``truth ...``). Shared by
tests/jobs/test_real_libraries.py and benchmarks/real_libraries.py. The data is made locally: no network.

- ``hf_map``: a CSV → ``datasets.load_dataset("csv")`` → ``.map(tokenize)`` → ``.with_format("torch")`` →
  a DataLoader with a padding collate (Hugging Face's map-style ``Dataset`` has its own ``__getitems__``);
- ``hf_stream``: the same rows as ``to_iterable_dataset(num_shards=4)``, 2 workers;
- ``wds``: ``WebDataset(...).decode("pil").to_tuple("png", "cls").map_tuple(transform, int)`` over .tar shards
  of PNGs, 2 workers, a random horizontal flip in the transform; ``split`` off: every worker reads every shard;
- ``mnist``: torchvision's MNIST shape without torchvision: ``data``/``targets`` tensors, PIL images and a
  ``transform`` (torchvision's own classes when it imports: see ``TORCHVISION``).
"""

from __future__ import annotations

import csv
import io
import random
import tarfile
from pathlib import Path

# the CSV's label 0 share: 10 % (the imbalance a report should find)
ROWS, ZERO_EVERY = 1000, 10

HF_COMMON = '''
import os, sys, time
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
import torch
from datasets import load_dataset
from torch.utils.data import DataLoader

def cpu_s():  # this process's CPU seconds and its finished children's (the workers of an ended epoch)
    import resource
    return time.process_time() + sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))


def tokenize(row):
    return {"input_ids": [ord(c) % 250 + 1 for c in row["text"]][:96]}


def pad(batch):
    n = max(len(b["input_ids"]) for b in batch)
    ids = torch.zeros(len(batch), n, dtype=torch.long)
    for i, b in enumerate(batch):
        ids[i, :len(b["input_ids"])] = b["input_ids"]
    return ids, torch.stack([b["label"] for b in batch])


data = load_dataset("csv", data_files=sys.argv[1], split="train")
data = data.map(tokenize, remove_columns=["text"]).with_format("torch")
EPOCHS = int(sys.argv[2]) if len(sys.argv) > 2 else 2
'''

HF_MAP = HF_COMMON + '''
train_loader = DataLoader(data, batch_size=32, shuffle=True, collate_fn=pad)
start, cpu = time.perf_counter(), cpu_s()
for epoch in range(EPOCHS):
    for ids, y in train_loader:
        (ids.float() * 2).sum()
print("loop_s", time.perf_counter() - start)
print("loop_cpu_s", cpu_s() - cpu)
'''

HF_STREAM = HF_COMMON + '''
stream = data.to_iterable_dataset(num_shards=4)
train_loader = DataLoader(stream, batch_size=32, collate_fn=pad, num_workers=2)
start, cpu = time.perf_counter(), cpu_s()
for epoch in range(EPOCHS):
    for ids, y in train_loader:
        (ids.float() * 2).sum()
print("loop_s", time.perf_counter() - start)
print("loop_cpu_s", cpu_s() - cpu)
'''

WDS = '''
import glob, random, sys, time
import numpy as np
import torch
import webdataset as wds
from torch.utils.data import DataLoader

def cpu_s():  # this process's CPU seconds and its finished children's (the workers of an ended epoch)
    import resource
    return time.process_time() + sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))


def transform(img):  # torchvision's ToTensor then RandomHorizontalFlip, written out
    x = torch.from_numpy(np.asarray(img, dtype=np.uint8).copy()).permute(2, 0, 1).float().div(255)
    return x.flip(-1) if random.random() < 0.5 else x


if __name__ == "__main__":
    shards, split = sorted(glob.glob(sys.argv[1] + "/shard-*.tar")), sys.argv[2] == "split"
    EPOCHS = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    kwargs = {} if split else {"workersplitter": None}
    dataset = (wds.WebDataset(shards, shardshuffle=False, **kwargs).decode("pil")
               .to_tuple("png", "cls").map_tuple(transform, int))
    train_loader = DataLoader(dataset, batch_size=16, num_workers=2)
    start, cpu, n = time.perf_counter(), cpu_s(), 0
    for epoch in range(EPOCHS):
        for x, y in train_loader:
            n += len(y)
            (x * 2).sum()
    print("loop_s", time.perf_counter() - start)
    print("loop_cpu_s", cpu_s() - cpu)
    print("truth samples", n)
'''

MNIST = '''
import sys, time
import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

def cpu_s():  # this process's CPU seconds and its finished children's (the workers of an ended epoch)
    import resource
    return time.process_time() + sum(getattr(resource.getrusage(resource.RUSAGE_CHILDREN), f) for f in ("ru_utime", "ru_stime"))


class MNISTLike(Dataset):  # torchvision.datasets.MNIST's shape: data, targets, PIL images, transform
    def __init__(self, n, transform=None):
        g = torch.Generator().manual_seed(0)
        self.data = torch.randint(0, 256, (n, 28, 28), dtype=torch.uint8, generator=g)
        self.targets = torch.randint(0, 10, (n,), generator=g)
        self.transform = transform

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        img, target = Image.fromarray(self.data[index].numpy(), mode="L"), int(self.targets[index])
        if self.transform is not None:
            img = self.transform(img)
        return img, target


def to_normalized_tensor(img):  # transforms.Compose([ToTensor(), Normalize((0.1307,), (0.3081,))])
    x = torch.from_numpy(np.asarray(img, dtype=np.uint8).copy()).float().div(255).unsqueeze(0)
    return (x - 0.1307) / 0.3081


if __name__ == "__main__":
    n = int(sys.argv[1])
    EPOCHS = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    train_loader = DataLoader(MNISTLike(n, to_normalized_tensor), batch_size=64, shuffle=True)
    start, cpu = time.perf_counter(), cpu_s()
    for epoch in range(EPOCHS):
        for x, y in train_loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    print("loop_s", time.perf_counter() - start)
    print("loop_cpu_s", cpu_s() - cpu)
'''

SCRIPTS = {"hf_map": HF_MAP, "hf_stream": HF_STREAM, "wds": WDS, "mnist": MNIST}


def write_csv(folder: Path, rows: int = ROWS) -> Path:
    """``rows`` rows of ``text,label``: label 0 on every ``ZERO_EVERY``-th row (10 %), else 1; texts of varied length."""
    rng = random.Random(0)
    path = folder / "rows.csv"
    with path.open("w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["text", "label"])
        for i in range(rows):
            label = 0 if i % ZERO_EVERY == 0 else 1
            w.writerow([" ".join(rng.choice(["data", "loader", "batch", "worker", "torch"])
                                 for _ in range(rng.randint(3, 18))), label])
    return path


def write_shards(folder: Path, shards: int = 4, per_shard: int = 200, size: int = 32) -> Path:
    """``shards`` .tar files of ``per_shard`` random PNGs (``size``²) with a ``cls`` each, as webdataset reads them."""
    from PIL import Image
    import numpy as np

    rng = np.random.default_rng(0)
    out = folder / "shards"
    out.mkdir(exist_ok=True)
    for s in range(shards):
        with tarfile.open(out / f"shard-{s:04d}.tar", "w") as tar:
            for k in range(per_shard):
                png = io.BytesIO()
                Image.fromarray(rng.integers(0, 256, (size, size, 3), dtype=np.uint8)).save(png, format="PNG")
                key = f"{s:04d}{k:05d}"
                for ext, data in (("png", png.getvalue()), ("cls", str(k % 10).encode())):
                    info = tarfile.TarInfo(f"{key}.{ext}")
                    info.size = len(data)
                    tar.addfile(info, io.BytesIO(data))
    return out
