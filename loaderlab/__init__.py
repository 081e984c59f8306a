"""LoaderLab: an instrumented twin of ``torch.utils.data.DataLoader`` and the tools to watch it.

``from loaderlab import DataLoader`` is a drop-in replacement for torch's; :func:`record` runs a loader
and returns every event of every stage as a table. The engine (``loaderlab.engine``) imports no pandas,
plotly or streamlit; the names that need pandas are imported lazily, on first use, so that worker
processes started with spawn or forkserver stay lean.
"""

from importlib import import_module

_ENGINE = ("BatchSampler", "DataLoader", "Event", "ListTracer", "RandomSampler", "SequentialSampler",
           "SubsetRandomSampler", "Tracer", "WeightedRandomSampler", "default_collate", "default_convert",
           "get_worker_info")

# every name is imported on first use, the engine's too: reading a saved trace needs neither torch (~185 MB)
# nor pandas in a worker
_LAZY = {
    **dict.fromkeys(_ENGINE, "loaderlab.engine"),
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

__all__ = sorted(_LAZY)


def __getattr__(name: str):
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'loaderlab' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
