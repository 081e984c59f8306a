"""The diagnosis of a run as one JSON-able object: its summary, the bottleneck verdict, the findings, and
the predicted suggestions, best first (what ``python -m loaderlab report TRACE --json`` prints).

Twin of nothing in torch. Lays out :mod:`loaderlab.trace.diagnosis.summary`, :mod:`loaderlab.trace.diagnosis.bottleneck`, :mod:`loaderlab.trace.diagnosis.findings` and
:mod:`loaderlab.trace.diagnosis.suggestions` in one language; NaN becomes None (JSON's null). Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import math
from typing import Any

from .findings import all_findings
from .label_report import label_keys
from ..core.cache import shared_tables
from .suggestions import suggest, Suggestion, why_none_text
from .summary import RunSummary, summarise
from .tuning_report import tuning_document, tuning_suggestions
from .bottleneck import Verdict, verdict


def finding_dict(f, lang: str = "en") -> dict[str, Any]:
    """One finding: ``kind``, ``severity`` (info | warning | error), ``text``, and ``batch`` / ``worker`` /
    ``index`` / ``epoch`` where they apply."""
    out = {"kind": f.kind, "severity": f.severity, "text": f.text(lang)}
    out.update({k: getattr(f, k) for k in ("batch", "worker", "index", "epoch") if getattr(f, k) is not None})
    return out


def diagnose(trace: Any, lang: str = "en", *, with_suggestions: bool = True, summary: RunSummary | None = None,
              found: Verdict | None = None, suggestions: list[Suggestion] | None = None) -> dict[str, Any]:
    """``{"summary", "bottleneck", "findings", "suggestions"}`` (see the module docstring).
    ``with_suggestions=False`` leaves the model's suggestions out (an empty list)."""
    with shared_tables():  # the summary, the verdict and the findings read the same tables
        return _diagnosis(trace, lang, with_suggestions, summary, found, suggestions)


def _diagnosis(trace: Any, lang: str, with_suggestions: bool, summary: RunSummary | None, found: Verdict | None,
               suggestions: list[Suggestion] | None) -> dict[str, Any]:
    summary = summarise(trace) if summary is None else summary
    found = verdict(trace, summary) if found is None else found
    if suggestions is None:
        suggestions = suggest(trace, found, summary) if with_suggestions else []
    out = {"summary": summary.as_dict(), "bottleneck": found.as_dict(lang),
           "findings": [finding_dict(f, lang) for f in all_findings(trace, found)],
           "suggestions": [s.as_dict(lang) for s in suggestions],
           **label_keys(trace)}  # the three label distributions per epoch, and per rank (issue 35)
    for s in out["suggestions"]:  # scripts read `measured`: the model's are predictions, never measurements
        s.setdefault("measured", False)
    record = getattr(trace, "attrs", {}).get("tuning")
    if record:  # run --tune: the measured table, and its best first among the suggestions
        out["tuning"] = tuning_document(record, lang, getattr(trace, "attrs", {}).get("epochs") or 1)
        out["suggestions"] = tuning_suggestions(record, getattr(trace, "attrs", {}).get("epochs") or 1) + \
            out["suggestions"]
    if not suggestions and with_suggestions:
        out["no_suggestion"] = why_none_text(found, trace, lang)
    return json_safe(out)


def json_safe(value: Any) -> Any:
    """NaN / inf → None, numpy scalars → Python numbers, tuples → lists (recursively)."""
    if isinstance(value, dict):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (TypeError, ValueError):
            return str(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value
