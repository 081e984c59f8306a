"""The loader engine: a readable, instrumented twin of ``torch.utils.data.DataLoader``.

Imports only the standard library, torch and numpy; torch only when a name that needs it is first used.
See each module's docstring for the torch piece it mirrors; ``events`` holds the vocabulary every stage
emits through ``loader.tracer``.
"""

from ..faces import lazy_face
from .events import Event, ListTracer, Tracer

# imported on first use: reading a saved trace (loaderlab.trace) needs the event vocabulary, not torch (~185 MB)
_HOMES = {
    "BatchSampler": ".sampler",
    "DataLoader": ".loader",
    "RandomSampler": ".sampler",
    "SequentialSampler": ".sampler",
    "SubsetRandomSampler": ".sampler",
    "WeightedRandomSampler": ".sampler",
    "default_collate": ".collate",
    "default_convert": ".collate",
    "get_worker_info": "torch.utils.data",
}

__all__ = sorted(["Event", "ListTracer", "Tracer", *_HOMES])
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
