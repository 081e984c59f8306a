"""Text: a Python tokenizer per sample, dict samples, a pad_sequence collate, an EmbeddingBag model; 2 workers."""
import random
import time

import torch
from torch import nn
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(2)
WORDS = ["data", "loader", "batch", "worker", "tensor", "model", "step", "epoch", "sample", "queue", "pin", "memory"]


class Reviews(Dataset):
    def __init__(self, n):
        rnd = random.Random(0)
        self.texts = [" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(20, 150))) for _ in range(n)]

    def __len__(self):
        return len(self.texts)

    def __getitem__(self, i):
        ids = [hash(w) % 5000 for w in self.texts[i].lower().split()]
        return {"input_ids": torch.tensor(ids), "label": i % 2}


def pad_collate(samples):
    return {"input_ids": pad_sequence([s["input_ids"] for s in samples], batch_first=True),
            "label": torch.tensor([s["label"] for s in samples])}


if __name__ == "__main__":
    torch.manual_seed(0)
    model = nn.Sequential(nn.EmbeddingBag(5000, 32), nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = DataLoader(Reviews(4000), batch_size=8, shuffle=True, collate_fn=pad_collate, num_workers=NW,
                        prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for batch in loader:
            loss = nn.functional.cross_entropy(model(batch["input_ids"]), batch["label"])
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
