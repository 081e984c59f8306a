"""Text with a padding collate in the loop (num_workers=0), a 4 ms sleep standing in for a GPU step."""
import random
import re
import time

import torch
from torch.nn.utils.rnn import pad_sequence
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(0)
WORDS = ["the", "loader", "is", "slow", "when", "workers", "wait", "for", "a", "batch", "of", "tokens"]


class Lines(Dataset):
    def __init__(self, n):
        rnd = random.Random(1)
        self.lines = [" ".join(rnd.choice(WORDS) for _ in range(rnd.randint(30, 200))) for _ in range(n)]
        self.vocab = {w: i + 1 for i, w in enumerate(WORDS)}

    def __len__(self):
        return len(self.lines)

    def __getitem__(self, i):
        tokens = re.findall(r"\w+", self.lines[i].lower())
        return torch.tensor([self.vocab.get(t, 0) for t in tokens]), i % 3


def collate(samples):
    seqs, labels = zip(*samples)
    return pad_sequence(seqs, batch_first=True), torch.tensor(labels)


if __name__ == "__main__":
    loader = DataLoader(Lines(4800), batch_size=8, shuffle=True, collate_fn=collate, num_workers=NW,
                        prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.004)
    done(start)
