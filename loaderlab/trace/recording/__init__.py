"""Recording: running LoaderLab's engine or a stock ``torch.utils.data.DataLoader`` with a tracer, and what a
recording can tell while it runs (live views), including the pieces of a stock loader torch keeps to itself
(its pin thread, its workers' start and tasks) and guesses of a sample's label and length.

Builds on :mod:`loaderlab.trace.core` and :mod:`loaderlab.engine`; knows nothing of analysis, files,
plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "host_to_device": ".bandwidth",
    "label_sources": ".label_reading",
    "unpacked_weights": ".label_reading",
    "LiveSnapshot": ".live",
    "LiveView": ".live",
    "record": ".recorder",
    "SampleGuess": ".sample_guess",
    "record_session": ".session",
    "handed_task": ".stock_worker",
    "EpochDial": ".torch_recorder",
    "EventChannel": ".torch_recorder",
    "set_process_tracer": ".torch_recorder",
    "traced_clone": ".torch_recorder",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
