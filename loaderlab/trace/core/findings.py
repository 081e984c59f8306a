"""One finding: what is wrong (or worth knowing) about a run, how serious it is, where, and the evidence its
words are made from.

Twin of nothing in torch. Every producer makes a :class:`Finding` through :func:`finding` — the stall and
slow-sample checks, memory, duplicates in a stream, the label and padding audits, the ranks — and every reader
(the report's text, its JSON, the dashboard's pages) reads the same fields: ``kind`` (one of
:mod:`loaderlab.trace.core.kinds`), ``severity`` (a :class:`Severity`), ``key`` (which words: the kind, or a
variant of it), ``evidence`` (the words' parameters) and, where they apply, the ``batch`` (task id), ``worker``,
``index`` (dataset index or stream position) and ``epoch``. ``words`` names the family of texts in
:mod:`loaderlab.texts` (``finding.<key>`` for a run, ``rank.<key>`` for the ranks of a multi-rank trace).
Knows nothing of how findings are found, of plotly or of streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from ...texts import render, text

__all__ = ["SEVERITIES", "Finding", "Severity", "finding"]


class Severity(StrEnum):
    """How serious a finding is; its value is what JSON and the texts' ``severity.*`` keys say."""

    ERROR = "error"  # the run is wrong or failed: wrong samples, a dead worker, a full /dev/shm
    WARNING = "warning"  # the run is right but slow or wasteful
    INFO = "info"  # worth knowing: the loader-bound / model-bound verdict, a slow worker the loop never waited for


SEVERITIES = tuple(Severity)  # most severe first


@dataclass(frozen=True)
class Finding:
    """One finding. ``batch`` is the task id; ``index`` the dataset index (or stream position); None = n/a.
    ``message`` is the English text (what ``text("en")`` says)."""

    kind: str
    severity: Severity
    message: str
    batch: int | None = None
    worker: int | None = None
    index: int | None = None
    epoch: int | None = None
    evidence: dict[str, Any] = field(default_factory=dict)
    key: str = ""
    words: str = "finding"

    def __post_init__(self) -> None:
        object.__setattr__(self, "severity", Severity(self.severity))  # "warning" → Severity.WARNING; a typo raises

    def text(self, lang: str = "en") -> str:
        """The finding in ``lang`` (``"en"``, ``"ko"``); one made without a ``key`` says its ``message``."""
        return render(f"{self.words}.{self.key}", self.evidence, lang) if self.key else self.message

    def severity_text(self, lang: str = "en") -> str:
        return text(f"severity.{self.severity}", lang)


def finding(kind: str, severity: Severity | str, key: str | None = None, *, words: str = "finding",
            **evidence: Any) -> Finding:
    """A Finding, worded from ``<words>.<key>`` (key defaults to the kind) with ``evidence``; ``batch``,
    ``worker``, ``index`` and ``epoch`` in the evidence also fill its fields."""
    key = key or kind
    named = {k: (None if evidence.get(k) is None else int(evidence[k])) for k in ("batch", "worker", "index", "epoch")}
    return Finding(kind, severity, render(f"{words}.{key}", evidence), evidence=evidence, key=key,
                   words=words, **named)
