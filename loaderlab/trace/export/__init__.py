"""Export: a trace as Chrome / Perfetto trace-event JSON (one track per process, spans, flows and waits).

Builds on :mod:`loaderlab.trace.core` and :mod:`loaderlab.trace.files`; knows nothing of plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "save_chrome_trace": ".chrome",
    "to_chrome_trace": ".chrome",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
