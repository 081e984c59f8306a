"""A pandas table read row by row (df.iloc) in the loop (num_workers=0), a 4 ms sleep standing in for a GPU step."""
import time

import numpy as np
import pandas as pd
import torch
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(0)


class Rows(Dataset):
    def __init__(self, df):
        self.df = df

    def __len__(self):
        return len(self.df)

    def __getitem__(self, i):
        row = self.df.iloc[i]
        return torch.tensor(row.iloc[:-1].to_numpy(dtype=np.float32)), int(row.iloc[-1])


if __name__ == "__main__":
    rng = np.random.default_rng(4)
    n = 8000
    df = pd.DataFrame(rng.standard_normal((n, 16)), columns=[f"x{i}" for i in range(16)])
    df["y"] = rng.integers(0, 5, n)
    loader = DataLoader(Rows(df), batch_size=16, shuffle=True, num_workers=NW, prefetch_factor=PF,
                        pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for x, y in loader:
            time.sleep(0.004)
    done(start)
