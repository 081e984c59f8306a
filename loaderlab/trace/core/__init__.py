"""The core of a trace: the :class:`Run` (an events table with its loader's settings and why it stopped), the
event frame and its columns, lookups every table is built from, the finding kinds, what a batch carries, and
the cache of tables computed once per report.

Every other sub-package of :mod:`loaderlab.trace` builds on this one; it imports none of them. Knows the event
vocabulary (:mod:`loaderlab.engine.events`), numpy, pandas and pyarrow; holds the finding type and kinds
(:mod:`.findings`, :mod:`.kinds`) but not how a finding is found; nothing of files, plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "Finding": ".findings",
    "SEVERITIES": ".findings",
    "Severity": ".findings",
    "finding": ".findings",
    "release": ".cache",
    "shared": ".cache",
    "shared_tables": ".cache",
    "ARG_COLUMNS": ".frame",
    "CATEGORY_COLUMNS": ".frame",
    "EVENT_COLUMNS": ".frame",
    "NARROW_COLUMNS": ".frame",
    "TYPED_COLUMNS": ".frame",
    "arg_column": ".frame",
    "compact_table": ".frame",
    "events_frame": ".frame",
    "fits_int32": ".frame",
    "loader_settings": ".frame",
    "time_sorted": ".frame",
    "tracer_frame": ".frame",
    "Gathered": ".groups",
    "firsts": ".groups",
    "fold": ".groups",
    "key_ids": ".groups",
    "lasts": ".groups",
    "sorted_runs": ".groups",
    "tie_sorted": ".groups",
    "kinds": ".kinds",
    "batch_indices": ".lookups",
    "drawn_per_task": ".lookups",
    "hand_overs": ".lookups",
    "has_kind": ".lookups",
    "main_pid": ".lookups",
    "named_rows": ".lookups",
    "normal": ".lookups",
    "pair": ".lookups",
    "paired_rows": ".lookups",
    "positions": ".lookups",
    "prefetch_cap": ".lookups",
    "rows": ".lookups",
    "sampler_order": ".lookups",
    "settings": ".lookups",
    "trace_end": ".lookups",
    "from_details": ".old_details",
    "numbered": ".old_details",
    "PayloadProbe": ".payload",
    "recorded_payload": ".payload",
    "size_text": ".payload",
    "tree_shape": ".payload",
    "Run": ".run",
    "Stop": ".run",
    "StuckWorker": ".run",
    "TimeCapped": ".run",
    "UserStopped": ".run",
    "as_run": ".run",
    "events_of": ".run",
    "frame_of": ".run",
    "metadata": ".run",
    "stop_of": ".run",
    "to_frame": ".run",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
