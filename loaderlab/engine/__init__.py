"""The loader engine: a readable, instrumented twin of ``torch.utils.data.DataLoader``.

Imports only the standard library, torch and numpy; torch only when a name that needs it is first used.
See each module's docstring for the torch piece it mirrors; ``events`` holds the vocabulary every stage
emits through ``loader.tracer``.
"""

from importlib import import_module

from .events import Event, ListTracer, Tracer

# imported on first use: reading a saved trace (loaderlab.trace) needs the event vocabulary, not torch (~185 MB)
_LAZY = {
    "BatchSampler": "loaderlab.engine.sampler",
    "DataLoader": "loaderlab.engine.loader",
    "RandomSampler": "loaderlab.engine.sampler",
    "SequentialSampler": "loaderlab.engine.sampler",
    "SubsetRandomSampler": "loaderlab.engine.sampler",
    "WeightedRandomSampler": "loaderlab.engine.sampler",
    "default_collate": "loaderlab.engine.collate",
    "default_convert": "loaderlab.engine.collate",
    "get_worker_info": "torch.utils.data",
}

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


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value  # once: later lookups are plain attribute reads
        return value
    raise AttributeError(f"module 'loaderlab.engine' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
