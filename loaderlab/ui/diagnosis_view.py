"""The diagnosis box pages lead with: the bottleneck verdict, and on request the replayed suggestions.

Twin of nothing in torch. Wiring only: :func:`loaderlab.trace.verdict.verdict` and
:func:`loaderlab.trace.suggestions.suggest` decide, their words come from the trace layer's texts; this
module draws them with streamlit. Replaying takes seconds (it runs the loader again), so it waits for a click.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from ..trace.suggestions import replayable, suggest, why_none
from ..trace.verdict import CONSUMER, NONE, verdict
from .texts import language, t


def show_diagnosis(trace: Any, key: str) -> None:
    """The verdict of ``trace`` (an events table or a run) and a button that replays its suggestions;
    ``key`` tells the pages' buttons apart."""
    lang = language()
    found = verdict(trace)
    (st.info if found.kind in (CONSUMER, NONE) else st.warning)(f"**{found.title(lang)}** · {found.text(lang)}")
    if found.kind in (CONSUMER, NONE) or not replayable(trace):
        return
    if st.button(t("diagnosis.replay"), key=f"diagnosis_replay_{key}", help=t("diagnosis.replay.help")):
        with st.spinner(t("diagnosis.replaying")):
            found_suggestions = suggest(trace, found)
        if not found_suggestions:
            st.caption(t("suggestion.none", why=t(why_none(found, trace))))
            return
        st.markdown(t("diagnosis.suggestions"))
        st.markdown("\n".join(f"- {s.text(lang)}" for s in found_suggestions))
