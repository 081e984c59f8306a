"""Training scripts the `run` tests start unchanged, as a user would (each a complete file)."""

FIDELITY = '''
import json, os, sys
import torch
from torch.utils.data import DataLoader, Dataset

class Noisy(Dataset):
    def __len__(self):
        return 30
    def __getitem__(self, i):
        return torch.tensor([float(i)]) + torch.rand(1)  # a worker's RNG: must be seeded as torch seeds it

class MyLoader(DataLoader):  # a subclass, made after `from torch.utils.data import DataLoader`
    pass

if __name__ == "__main__":
    torch.manual_seed(0)
    train_loader = MyLoader(Noisy(), batch_size=4, shuffle=True, num_workers=2, persistent_workers=True)
    seen = []
    for epoch in range(2):
        for batch in train_loader:
            seen.append(batch.flatten().tolist())
    val_loader = DataLoader(Noisy(), batch_size=3, shuffle=True)
    for batch in val_loader:
        seen.append(batch.flatten().tolist())
        break  # leaves the epoch early
    with open(sys.argv[1], "w") as f:
        json.dump({"batches": seen, "argv": sys.argv, "path0": sys.path[0], "cwd": os.getcwd(),
                   "name": __name__}, f)
    sys.exit(int(sys.argv[2]))
'''

CRASH = '''
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.arange(40)), batch_size=4, num_workers=2)
for step, batch in enumerate(loader):
    if step == 5:
        raise ValueError("loss is nan at step 5")
'''

NO_LOADER = '''
import sys
print("training without a DataLoader")
sys.exit(4)
'''

TWO_AT_ONCE = '''
import torch
from torch.utils.data import DataLoader, TensorDataset

images = DataLoader(TensorDataset(torch.arange(24)), batch_size=4, num_workers=2)
labels = DataLoader(TensorDataset(torch.arange(100, 124)), batch_size=4, num_workers=1)
for epoch in range(2):
    for (a,), (b,) in zip(images, labels):
        assert (b - a == 100).all()
print("zipped ok")
'''

LOADER_IN_WORKER = '''
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset

class Nested(Dataset):
    def __len__(self):
        return 6
    def __getitem__(self, i):
        inner = DataLoader(TensorDataset(torch.arange(i, i + 4)), batch_size=2)  # made inside a worker
        return torch.cat([b for (b,) in inner]).sum()

outer = DataLoader(Nested(), batch_size=3, num_workers=2)
total = sum(int(b.sum()) for b in outer)
assert total == sum(4 * i + 6 for i in range(6)), total
print("nested ok", total)
'''

FORKS = '''
import multiprocessing as mp
import torch
from torch.utils.data import DataLoader, TensorDataset

def child(q):
    loader = DataLoader(TensorDataset(torch.arange(8)), batch_size=4)  # in the script's own child process
    q.put(sum(int(b.sum()) for (b,) in loader))

if __name__ == "__main__":
    q = mp.get_context("fork").Queue()
    p = mp.get_context("fork").Process(target=child, args=(q,))
    p.start()
    got = q.get(timeout=60)
    p.join()
    main_loader = DataLoader(TensorDataset(torch.arange(8)), batch_size=4)
    assert got == sum(int(b.sum()) for (b,) in main_loader) == 28
    print("forked ok", p.exitcode)
'''

SET_EPOCH = '''
import sys
import torch
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

data = TensorDataset(torch.arange(32))
sampler = DistributedSampler(data, num_replicas=1, rank=0, shuffle=True)
loader = DataLoader(data, batch_size=4, sampler=sampler)
for epoch in range(2):
    if sys.argv[1] == "yes":
        sampler.set_epoch(epoch)
    for batch in loader:
        pass
'''

# Runs until stopped: a line on stdout once batches flow, then one per 20 batches.
FOREVER = '''
import sys, time
import torch
from torch.utils.data import DataLoader, Dataset

class Slowish(Dataset):
    def __len__(self):
        return 64
    def __getitem__(self, i):
        time.sleep(0.001)
        return torch.tensor([i])

loader = DataLoader(Slowish(), batch_size=4, num_workers=2)
step = 0
try:
    while True:
        for batch in loader:
            step += 1
            if step == 1 or step % 20 == 0:
                print("step", step, flush=True)
finally:
    print("finally ran", flush=True)
'''

STUCK = '''
import os, threading
import torch
from torch.utils.data import DataLoader, Dataset

class Stuck(Dataset):
    def __len__(self):
        return 8
    def __getitem__(self, i):
        if i == 5:
            print("stuck in", os.getpid(), flush=True)
            threading.Event().wait()  # never set: this worker hangs here
        return torch.tensor([i])

loader = DataLoader(Stuck(), batch_size=1, num_workers=2)
for batch in loader:
    pass
'''

DDP = '''
import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

dist.init_process_group("gloo")
data = TensorDataset(torch.arange(48))
sampler = DistributedSampler(data, shuffle=True)  # rank and world size from the process group
train_loader = DataLoader(data, batch_size=4, sampler=sampler, num_workers=1)
for epoch in range(2):  # set_epoch forgotten
    for (batch,) in train_loader:
        dist.all_reduce(batch.float().sum())
dist.destroy_process_group()
'''

# Stuck in C after its loader ran: the main thread waits in sigwait() with SIGTERM blocked, so Python's
# own SIGTERM handler never gets to run (as in a rendezvous or collective that never returns).
# "blocking in C" must come only once the main thread is inside sigwait(): printed from the main thread, a
# SIGTERM sent on that line could still meet Python bytecode before sigwait() and run the Python handler.
# So a thread prints it: released by the main thread just before sigwait(), it needs the GIL to print, and
# the main thread (no forced switch for 1000 s) gives the GIL up only in sigwait() itself.
BLOCKED_IN_C = '''
import _thread
import signal
import sys
import threading
import torch
from torch.utils.data import DataLoader, TensorDataset

for batch in DataLoader(TensorDataset(torch.arange(8)), batch_size=4, num_workers=1):
    pass
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
gate = _thread.allocate_lock()
gate.acquire()

def say_blocked():
    gate.acquire()
    print("blocking in C", flush=True)

threading.Thread(target=say_blocked, daemon=True).start()
sys.setswitchinterval(1000)
gate.release()
signal.sigwait({signal.SIGUSR2})
'''
