"""Training scripts that reach their DataLoaders through a wrapper (each a complete file, run unchanged)."""

# argv[1]: the Trainer's strategy. "ddp" on one CPU process makes Lightning re-instantiate each loader with
# a DistributedSampler (lightning/fabric/utilities/data.py); "auto" iterates the loaders train_dataloader()
# returned, made while Lightning's __init__ wrapper is on the stack.
LIGHTNING = '''
import sys
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
import lightning as L


class Tiny(L.LightningModule):
    def __init__(self):
        super().__init__()
        self.layer = nn.Linear(4, 1)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return nn.functional.mse_loss(self.layer(x), y)

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self.layer(x), y))

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.1)

    def train_dataloader(self):
        data = TensorDataset(torch.randn(64, 4), torch.randn(64, 1))
        return DataLoader(data, batch_size=8, shuffle=True, num_workers=2)

    def val_dataloader(self):
        return DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)), batch_size=16)


if __name__ == "__main__":
    trainer = L.Trainer(accelerator="cpu", strategy=sys.argv[1], devices=1, max_epochs=1, limit_train_batches=4,
                        limit_val_batches=2, logger=False, enable_checkpointing=False, enable_progress_bar=False,
                        enable_model_summary=False, num_sanity_val_steps=0)
    trainer.fit(Tiny())
    print("lightning ok")
'''

ACCELERATE = '''
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
from accelerate import Accelerator

accelerator = Accelerator(cpu=True)
model = nn.Linear(4, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
train_dataloader = DataLoader(TensorDataset(torch.randn(64, 4), torch.randn(64, 1)), batch_size=32, shuffle=True)
eval_dataloader = DataLoader(TensorDataset(torch.randn(32, 4), torch.randn(32, 1)), batch_size=16)
model, optimizer, train_dataloader, eval_dataloader = accelerator.prepare(
    model, optimizer, train_dataloader, eval_dataloader)
for epoch in range(2):
    for x, y in train_dataloader:
        loss = nn.functional.mse_loss(model(x), y)
        accelerator.backward(loss)
        optimizer.step()
        optimizer.zero_grad()
    for x, y in eval_dataloader:
        model(x)
print("accelerate ok")
'''

# A library of the user's environment: the tests put it in a folder of its own beside the project's (libs/),
# which the script puts on sys.path: a library by where Python finds it, not by its folder's name.
FAKELIB = '''
from torch.utils.data import DataLoader


def build(data, **kwargs):
    loader = DataLoader(data, **kwargs)
    return loader


def rewrap(loader):
    """Re-creates the loader with twice its batch size, as a wrapper library would."""
    return DataLoader(loader.dataset, batch_size=loader.batch_size * 2, shuffle=False)
'''

ORDINARY = '''
import os
import sys
import torch
from torch.utils.data import DataLoader, TensorDataset

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "libs"))
import fakelib


def make_val_loader(data):
    return DataLoader(data, batch_size=5)


class Holder:
    def __init__(self, data):
        self.test_loader = DataLoader(data, batch_size=3, num_workers=1)


data = TensorDataset(torch.arange(20))
train_loader = DataLoader(data, batch_size=4, shuffle=True)
val = make_val_loader(data)
holder = Holder(data)
built_loader = fakelib.build(data, batch_size=2)
eval_loader = DataLoader(TensorDataset(torch.arange(16)), batch_size=4)
eval_loader = fakelib.rewrap(eval_loader)
for loader in (train_loader, val, holder.test_loader, built_loader, eval_loader):
    for batch in loader:
        pass
print("ordinary ok")
'''
