"""Every word the report, the findings and the diagnosis print, as one table (``WORDS``), and the two ways to
say one of them: :func:`text` (a key with its parameters) and :func:`render` (a finding's key with its evidence).

Twin of nothing in torch. The table is the union of :mod:`.findings` (``finding.*``, ``part.*``, ``where.*``,
``severity.*``), :mod:`.diagnosis` (``verdict.*``, ``replay.*``), :mod:`.suggestions` (``suggestion.*``), :mod:`.threads` (``finding.busy_wait*``) and :mod:`.report`
(``report.*``, ``rank.*``); a key is defined once. Entries follow :mod:`loaderlab.texts.wording` (both languages, the same
placeholders, plural forms where English needs them; checked at import). The dashboard's page words
(:mod:`loaderlab.ui.texts`) look these up too. Knows nothing of streamlit, plotly or how findings are found.
"""

from __future__ import annotations

from typing import Any, Mapping

from .diagnosis import TEXTS as DIAGNOSIS_TEXTS
from .findings import TEXTS as FINDING_TEXTS
from .imbalance import TEXTS as IMBALANCE_TEXTS
from .report import TEXTS as REPORT_TEXTS
from .suggestions import TEXTS as SUGGESTION_TEXTS
from .threads import TEXTS as THREAD_TEXTS
from .tuning import TEXTS as TUNING_TEXTS
from .wording import by_language, check, lookup

WORDS: dict = {}
for _part in (FINDING_TEXTS, IMBALANCE_TEXTS, DIAGNOSIS_TEXTS, SUGGESTION_TEXTS, REPORT_TEXTS, TUNING_TEXTS,
              THREAD_TEXTS):
    if WORDS.keys() & _part.keys():
        raise KeyError(f"text keys defined twice: {sorted(WORDS.keys() & _part.keys())}")
    WORDS.update(_part)
check(WORDS, __name__)
_BY_LANGUAGE = by_language(WORDS)
EN, KO = _BY_LANGUAGE["en"], _BY_LANGUAGE["ko"]  # one language's templates, for code that formats them itself



def text(key: str, lang: str = "en", **params: Any) -> str:
    """``key`` in ``lang``, formatted with ``params``."""
    return lookup(WORDS, key, lang, **params)


def render(key: str, evidence: Mapping[str, Any], lang: str = "en") -> str:
    """A finding's sentence: template ``key`` (``finding.<key>``, ``rank.<key>``) in ``lang`` with its evidence. An error's
    ``where_worker`` (None = the main process) is worded in ``lang`` as ``where``; a straggler's ``worst``
    (a list of samples) as ``part.straggler`` items joined, and its ``more`` as ``and_more``."""
    params = dict(evidence)
    if "worst" in params:  # a list of samples, each worded in the language, and how many more there were
        params["worst"] = ", ".join(text("part.straggler", lang, **item) for item in params["worst"])
        params["and_more"] = text("part.more", lang, n=params["more"]) if params.get("more") else ""
    if "most_unseen" in params:  # the label most of an epoch's unseen samples have (issue 35)
        params["worst_part"] = text("part.unseen_label", lang, **params["most_unseen"]) if params["most_unseen"] else ""
    if "torch_error" in params:  # torch's own words, where the trace kept them
        params["error_part"] = text("part.torch_said", lang, error=params["torch_error"]) if params["torch_error"] else ""
    if "where_worker" in params:
        who = params["where_worker"]
        params["where"] = text("where.main", lang) if who is None else text("where.worker", lang, worker=who)
    return text(key, lang, **params)
