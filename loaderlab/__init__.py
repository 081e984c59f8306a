"""LoaderLab: an instrumented twin of ``torch.utils.data.DataLoader`` and the tools to watch it.

``from loaderlab import DataLoader`` is a drop-in replacement for torch's; :func:`record` runs a loader
and returns every event of every stage as a table. The engine (``loaderlab.engine``) imports no pandas,
plotly or streamlit; the names that need pandas are imported lazily, on first use, so that worker
processes started with spawn or forkserver stay lean.
"""

from .faces import lazy_face

_ENGINE = ("BatchSampler", "DataLoader", "Event", "ListTracer", "RandomSampler", "SequentialSampler",
           "SubsetRandomSampler", "Tracer", "WeightedRandomSampler", "default_collate", "default_convert",
           "get_worker_info")
_TRACE = ("EVENT_COLUMNS", "TraceFileError", "events_frame", "load_trace", "record", "replay", "save_chrome_trace",
          "save_trace", "to_chrome_trace")

# every name is imported on first use, the engine's too: reading a saved trace needs neither torch (~185 MB)
# nor pandas in a worker
_HOMES = {**dict.fromkeys(_ENGINE, ".engine"), **dict.fromkeys(_TRACE, ".trace")}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
