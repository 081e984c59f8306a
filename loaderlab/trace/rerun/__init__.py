"""Re-running a trace: a dataset and collate that reproduce the measured costs of a recorded run, run on
LoaderLab's engine with changed settings (``replay``), and how well the replay matches the recording.

Builds on :mod:`loaderlab.trace.core` and :mod:`loaderlab.trace.recording`; the diagnosis does not depend
on it. Knows nothing of plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "in_worker": ".calibration",
    "model_note": ".replayer",
    "replay": ".replayer",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
