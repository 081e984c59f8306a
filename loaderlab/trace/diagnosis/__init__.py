"""The diagnosis of a run: its summary, the measured costs and the model that predicts a change's effect, the
bottleneck verdict, the findings, the suggestions, the plain-text report and the JSON document.

Builds on the tables (:mod:`loaderlab.trace.tables`, :mod:`loaderlab.trace.ranks`) and the words
(:mod:`loaderlab.texts`); knows nothing of plotly or streamlit.
"""

from ...faces import lazy_face

_HOMES = {
    "CONSUMER": ".bottleneck",
    "NONE": ".bottleneck",
    "Verdict": ".bottleneck",
    "verdict": ".bottleneck",
    "batch_costs": ".costs",
    "diagnose": ".document",
    "all_findings": ".findings",
    "correctness_findings": ".findings",
    "label_findings": ".findings",
    "sampling_findings": ".sampling_checks",
    "memory_findings": ".findings",
    "padding_findings": ".findings",
    "stall_findings": ".findings",
    "report_text": ".report",
    "has_sample_costs": ".suggestions",
    "suggest": ".suggestions",
    "why_none": ".suggestions",
    "summarise": ".summary",
    "MIN_ROUNDS": ".tuning",
    "rates": ".tuning",
    "setting_text": ".tuning",
    "tuning_choice": ".tuning",
    "tuning_document": ".tuning",
    "tuning_lines": ".tuning",
    "tuning_suggestions": ".tuning",
    "tuning_table": ".tuning",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
