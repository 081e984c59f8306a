"""Hugging Face datasets as tutorials write it: CSV -> load_dataset -> .map(tokenize) -> .with_format("torch"),
a padding collate, an EmbeddingBag model; the map-style Dataset has its own __getitems__; no workers, 3 epochs."""
import csv
import os
import random
import tempfile
import time

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from datasets import load_dataset  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader  # noqa: E402

from _common import done, epochs, settings  # noqa: E402

NW, PF, PIN = settings(0)
WORDS = ["data", "loader", "batch", "worker", "torch", "tensor", "epoch", "queue"]


def tokenize(row):
    return {"input_ids": [ord(c) % 250 + 1 for c in row["text"]][:128]}


def pad(batch):
    n = max(len(b["input_ids"]) for b in batch)
    ids = torch.zeros(len(batch), n, dtype=torch.long)
    for i, b in enumerate(batch):
        ids[i, :len(b["input_ids"])] = b["input_ids"]
    return ids, torch.stack([b["label"] for b in batch])


if __name__ == "__main__":
    folder = tempfile.mkdtemp(prefix="ll_hf_")
    rnd = random.Random(0)
    with open(os.path.join(folder, "rows.csv"), "w", newline="") as out:
        w = csv.writer(out)
        w.writerow(["text", "label"])
        for i in range(4000):
            w.writerow([" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(3, 25))), int(i % 7 == 0)])
    data = load_dataset("csv", data_files=os.path.join(folder, "rows.csv"), split="train",
                        cache_dir=os.path.join(folder, "cache"))
    data = data.map(tokenize, remove_columns=["text"]).with_format("torch")
    torch.manual_seed(0)
    model = nn.Sequential(nn.EmbeddingBag(256, 32), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(data, batch_size=32, shuffle=True, collate_fn=pad, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(3)):
        for ids, y in loader:
            loss = nn.functional.cross_entropy(model(ids), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
