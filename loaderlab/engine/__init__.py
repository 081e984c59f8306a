"""The loader engine: a readable, instrumented twin of ``torch.utils.data.DataLoader``.

Imports only the standard library, torch and numpy. See each module's docstring for the torch piece it
mirrors; ``events`` holds the vocabulary every stage emits through ``loader.tracer``.
"""

from torch.utils.data import get_worker_info

from .collate import default_collate, default_convert
from .events import Event, ListTracer, Tracer
from .loader import DataLoader
from .sampler import (BatchSampler, RandomSampler, SequentialSampler, SubsetRandomSampler,
                      WeightedRandomSampler)

__all__ = [
    "BatchSampler",
    "DataLoader",
    "Event",
    "ListTracer",
    "RandomSampler",
    "SequentialSampler",
    "SubsetRandomSampler",
    "Tracer",
    "WeightedRandomSampler",
    "default_collate",
    "default_convert",
    "get_worker_info",
]
