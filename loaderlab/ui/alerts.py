"""How the dashboard shows a finding: one Streamlit box per :class:`~loaderlab.trace.core.findings.Severity`
(an error red, a warning yellow, the rest blue), the same on every page.

Twin of nothing in torch. Knows streamlit and the severities; nothing of how a finding is found or worded.
"""

from __future__ import annotations

import streamlit as st

from ..trace.core.findings import Severity

BOX = {Severity.ERROR: st.error, Severity.WARNING: st.warning, Severity.INFO: st.info}


def show(severity: Severity | str, sentence: str) -> None:
    """``sentence`` in the box of ``severity``."""
    BOX[Severity(severity)](sentence)
