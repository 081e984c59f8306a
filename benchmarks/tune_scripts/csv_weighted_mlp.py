"""A pandas table read row by row (df.iloc), a WeightedRandomSampler for the rare class, a tiny MLP; 2 workers."""
import time

import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset, WeightedRandomSampler

from _common import done, epochs, settings

NW, PF, PIN = settings(2)


class Rows(Dataset):
    def __init__(self, df):
        self.df = df
        self.features = [c for c in df.columns if c.startswith("f")]

    def __len__(self):
        return len(self.df)

    def __getitem__(self, i):
        row = self.df.iloc[i]
        x = torch.tensor(row[self.features].to_numpy(dtype=np.float32))
        return x, int(row["label"])


if __name__ == "__main__":
    rng = np.random.default_rng(3)
    n = 1500
    df = pd.DataFrame(rng.standard_normal((n, 24)).astype(np.float32), columns=[f"f{i}" for i in range(24)])
    df["label"] = (rng.random(n) < 0.1).astype(int)
    df["city"] = rng.choice(["Seoul", "Busan", "Incheon"], n)
    weights = np.where(df["label"] == 1, 9.0, 1.0)
    sampler = WeightedRandomSampler(weights, num_samples=n, replacement=True,
                                    generator=torch.Generator().manual_seed(0))
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(24, 64), nn.ReLU(), nn.Linear(64, 2))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(Rows(df), batch_size=4, sampler=sampler, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            loss = nn.functional.cross_entropy(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    done(start)
