"""From events to answers: recording runs, tidy pandas tables, the diagnosis, files and exports.

The public face of the trace layer: every name below is imported from the sub-package that holds it on first
use. The sub-packages, imports running one way (each imports only those before it):

- :mod:`.core` — the Run, the event frame, lookups, finding kinds, the Finding type, payload, the cache;
- :mod:`.files` — JSON and columnar trace files, compact tables, cuts;
- :mod:`.recording` — recording LoaderLab's engine and stock torch loaders, live views, sample guesses;
- :mod:`.tables` — tidy tables: waits, spans, utilisation, stays, processes, audits, bins, memory, stalls;
- :mod:`.ranks` — multi-rank launch, merge and findings;
- :mod:`.diagnosis` — summary, cost model, verdict, findings, suggestions, report, the JSON document;
- :mod:`.rerun` — replaying a trace's measured workload on LoaderLab's engine;
- :mod:`.export` — Chrome / Perfetto export.

Depends on :mod:`loaderlab.engine` (the event vocabulary), numpy, pandas and pyarrow; knows nothing of plotly or
streamlit.
"""

from ..faces import lazy_face

_HOMES = {
    "EVENT_COLUMNS": ".core",
    "Run": ".core",
    "Finding": ".core",
    "Severity": ".core",
    "events_frame": ".core",
    "Verdict": ".diagnosis",
    "all_findings": ".diagnosis",
    "diagnose": ".diagnosis",
    "report_text": ".diagnosis",
    "suggest": ".diagnosis",
    "summarise": ".diagnosis",
    "verdict": ".diagnosis",
    "save_chrome_trace": ".export",
    "to_chrome_trace": ".export",
    "TraceFileError": ".files",
    "load_trace": ".files",
    "save_trace": ".files",
    "record": ".recording",
    "replay": ".rerun",
    "batch_latency": ".tables",
    "label_audit": ".tables",
    "main_wait": ".tables",
    "padding_audit": ".tables",
    "queue_depths": ".tables",
    "stage_spans": ".tables",
    "throughput": ".tables",
    "wait_totals": ".tables",
    "worker_utilisation": ".tables",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
