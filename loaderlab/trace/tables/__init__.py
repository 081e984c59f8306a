"""Tidy tables from a trace: waits, latency, throughput and stage spans; worker utilisation and queue depths;
queue stays; worker processes; label and padding audits; slow samples and stalls; memory; a batch's journey;
the sampler's order; bins of a big trace; where a run failed.

Pure functions over an events table (:mod:`loaderlab.trace.core`); knows nothing of verdicts, wording,
files, plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "RNG_PREFIX": ".audits",
    "is_iterable": ".audits",
    "is_rng": ".audits",
    "label_audit": ".audits",
    "padding_audit": ".audits",
    "per_label": ".audits",
    "samples": ".audits",
    "BINS": ".bins",
    "LABEL_WINDOW": ".bins",
    "bin_edges": ".bins",
    "cut_window": ".bins",
    "depth_bins": ".bins",
    "depths_in_window": ".bins",
    "label_counts": ".bins",
    "label_share_bins": ".bins",
    "skeleton": ".bins",
    "worker_busy_bins": ".bins",
    "iterable_duplicates": ".duplicates",
    "label_distributions": ".label_shares",
    "labels_json": ".label_shares",
    "Site": ".faults",
    "failure_site": ".faults",
    "site_sentence": ".faults",
    "stop_report": ".faults",
    "unsent_site": ".faults",
    "Journey": ".journey",
    "batch_journey": ".journey",
    "handed_batches": ".journey",
    "memory_checks": ".memory",
    "memory_table": ".memory",
    "epoch_orders": ".orders",
    "worker_processes": ".processes",
    "sample_fetches": ".slow",
    "slow_workers": ".slow",
    "stragglers": ".slow",
    "stall_checks": ".stalls",
    "MEASURED": ".stays",
    "Snapshots": ".stays",
    "queue_depths": ".stays",
    "queue_snapshots": ".stays",
    "queue_stays": ".stays",
    "CAPPED_IDLE": ".timeline",
    "MARK": ".timeline",
    "MARKED_KINDS": ".timeline",
    "timeline_spans": ".timeline",
    "capped_idle": ".utilisation",
    "worker_utilisation": ".utilisation",
    "LoopWait": ".waits",
    "SECONDS_SPEC": ".waits",
    "STAGES": ".waits",
    "batch_latency": ".waits",
    "loop_wait": ".waits",
    "main_wait": ".waits",
    "stage_spans": ".waits",
    "throughput": ".waits",
    "wait_totals": ".waits",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
