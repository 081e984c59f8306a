"""From events to answers: recording runs, tidy pandas tables, the diagnosis, files and exports.

The public face of the trace layer (the only one inside it): every name below is imported from the module that
defines it on first use. The sub-packages have no faces: code inside and outside the layer imports a name from its
module. The sub-packages, imports running one way (each imports only those before it):

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
    "EVENT_COLUMNS": ".core.frame",
    "Run": ".core.run",
    "Finding": ".core.findings",
    "Severity": ".core.findings",
    "events_frame": ".core.frame",
    "Verdict": ".diagnosis.bottleneck",
    "all_findings": ".diagnosis.findings",
    "diagnose": ".diagnosis.document",
    "report_text": ".diagnosis.report",
    "suggest": ".diagnosis.suggestions",
    "summarise": ".diagnosis.summary",
    "verdict": ".diagnosis.bottleneck",
    "save_chrome_trace": ".export.chrome",
    "to_chrome_trace": ".export.chrome",
    "TraceFileError": ".files.columnar_read",
    "load_trace": ".files.io",
    "save_trace": ".files.io",
    "record": ".recording.recorder",
    "replay": ".rerun.replayer",
    "batch_latency": ".tables.waits",
    "label_audit": ".tables.audits",
    "main_wait": ".tables.waits",
    "padding_audit": ".tables.audits",
    "queue_depths": ".tables.stays",
    "stage_spans": ".tables.waits",
    "throughput": ".tables.waits",
    "wait_totals": ".tables.waits",
    "worker_utilisation": ".tables.utilisation",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
