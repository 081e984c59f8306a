"""LoaderLab: an instrumented twin of ``torch.utils.data.DataLoader`` and the tools to watch it.

``from loaderlab import DataLoader`` is a drop-in replacement for torch's; :func:`record` runs a loader
and returns every event of every stage as a table. The engine (``loaderlab.engine``) imports no pandas,
plotly or streamlit; the names that need pandas are imported lazily, on first use, so that worker
processes started with spawn or forkserver stay lean.
"""

from importlib import import_module

from .engine import (BatchSampler, DataLoader, Event, ListTracer, RandomSampler, SequentialSampler,
                     SubsetRandomSampler, Tracer, WeightedRandomSampler, default_collate, default_convert,
                     get_worker_info)

_LAZY = {
    "EVENT_COLUMNS": "loaderlab.trace.frame",
    "TraceFileError": "loaderlab.trace.io",
    "load_trace": "loaderlab.trace.io",
    "load_trace_bytes": "loaderlab.trace.io",
    "save_chrome_trace": "loaderlab.trace.chrome",
    "save_trace": "loaderlab.trace.io",
    "to_chrome_trace": "loaderlab.trace.chrome",
    "events_frame": "loaderlab.trace.frame",
    "record": "loaderlab.trace.recorder",
    "replay": "loaderlab.trace.replay",
}

__all__ = sorted([
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
    *_LAZY,
])


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'loaderlab' has no attribute {name!r}")
