"""torchvision's MNIST shape without torchvision: data/targets tensors, a PIL image per sample, a ToTensor +
Normalize transform written out, a linear model; no workers, 2 epochs (pytorch/examples' mnist, CPU)."""
import time

import numpy as np
import torch
from PIL import Image
from torch.utils.data import DataLoader, Dataset

from _common import done, epochs, settings

NW, PF, PIN = settings(0)


class MNISTLike(Dataset):
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


def to_normalized_tensor(img):
    x = torch.from_numpy(np.asarray(img, dtype=np.uint8).copy()).float().div(255).unsqueeze(0)
    return (x - 0.1307) / 0.3081


if __name__ == "__main__":
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Flatten(), torch.nn.Linear(784, 128), torch.nn.ReLU(), torch.nn.Linear(128, 10))
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    loader = DataLoader(MNISTLike(12000, to_normalized_tensor), batch_size=64, shuffle=True, num_workers=NW,
                        prefetch_factor=PF, pin_memory=PIN)
    start = time.perf_counter()
    for epoch in range(epochs(2)):
        for x, y in loader:
            opt.zero_grad()
            torch.nn.functional.cross_entropy(model(x), y).backward()
            opt.step()
    done(start)
