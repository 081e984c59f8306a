"""Several ranks: launching a multi-rank recording, merging the ranks' traces on one clock, and the tables and
findings across ranks (samples two ranks both drew, padding, a forgotten ``set_epoch``).

Builds on :mod:`loaderlab.trace.core`, :mod:`loaderlab.trace.files`, :mod:`loaderlab.trace.recording` and
:mod:`loaderlab.trace.tables`; knows nothing of the diagnosis, plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "assignments": ".analysis",
    "by_rank": ".analysis",
    "coverage": ".analysis",
    "label_counts": ".analysis",
    "order_repeats": ".analysis",
    "rank_findings": ".analysis",
    "rank_spans": ".analysis",
    "rank_summary": ".analysis",
    "rank_throughput": ".analysis",
    "world_size": ".analysis",
    "DistributedRunError": ".launch",
    "WORLD_SIZES": ".launch",
    "check_world_size": ".launch",
    "merge_rank_frames": ".launch",
    "record_ranks": ".launch",
    "epoch_sampler": ".process",
    "sampler_settings": ".process",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
