"""Trace files: a trace saved and loaded as JSON or as the columnar ``.lltrace`` file (written while a job
runs, read back whole, as a compact table, or cut to a window), and the meaning of their bytes.

Builds on :mod:`loaderlab.trace.core`; knows nothing of recording, analysis, plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "TraceWriter": ".columnar",
    "BASE_KEY": ".columnar_read",
    "COLUMNS_KEY": ".columnar_read",
    "END_OF_STREAM": ".columnar_read",
    "MAGIC": ".columnar_read",
    "MAGIC_PREFIX": ".columnar_read",
    "META_KEY": ".columnar_read",
    "decode_batches": ".columnar_read",
    "is_columnar": ".columnar_read",
    "read_columnar": ".columnar_read",
    "read_cut": ".cut_read",
    "survey": ".cut_read",
    "LOOP_KINDS": ".cuts",
    "task_ranges": ".cuts",
    "window_keeps": ".cuts",
    "COLUMNAR_SUFFIX": ".io",
    "TraceFileError": ".io",
    "columnar_frame": ".io",
    "load_trace": ".io",
    "load_trace_bytes": ".io",
    "save_trace": ".io",
    "trace_document": ".io",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
