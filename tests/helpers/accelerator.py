"""A stand-in accelerator, so CI exercises torch's pin path on a machine without a GPU.

torch's DataLoader asks ``torch.accelerator`` whether a device is there and which; told "cuda, device 0",
it starts its own ``_pin_memory_loop`` thread (``num_workers > 0``) or pins in the loop (``num_workers=0``)
and calls ``Tensor.pin_memory()`` on each tensor of each batch. The fixture answers those questions and
replaces only the tensor-level pinning, by a clone (a copy into new memory, as page-locking is), so every
line of torch's pin stage and of LoaderLab's engine runs as on a GPU machine. The pins it saw are kept
(bytes, and whether they ran in the main thread) so a test can tell torch's thread really did the pinning.

Workers forked while it is active inherit it too; they never pin. Import the fixture into a test module.
"""

from __future__ import annotations

import threading
from typing import NamedTuple

import pytest
import torch


class Pinned(NamedTuple):
    nbytes: int
    main_thread: bool


@pytest.fixture
def stand_in_accelerator(monkeypatch) -> list[Pinned]:
    """torch believes CUDA device 0 is there; ``Tensor.pin_memory`` clones. Returns the pins, as they happen."""
    pins: list[Pinned] = []

    def pin_memory(self, device=None):
        main = threading.current_thread() is threading.main_thread()
        pins.append(Pinned(self.element_size() * self.nelement(), main))
        return self.clone()

    monkeypatch.setattr(torch.accelerator, "is_available", lambda: True)
    monkeypatch.setattr(torch.accelerator, "current_accelerator", lambda check_available=False: torch.device("cuda"))
    monkeypatch.setattr(torch.accelerator, "current_device_index", lambda: 0)
    monkeypatch.setattr(torch.accelerator, "set_device_index", lambda device: None)
    monkeypatch.setattr(torch.Tensor, "pin_memory", pin_memory)
    return pins
