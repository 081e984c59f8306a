"""The diagnosis box pages lead with: the bottleneck verdict, and on request the predicted suggestions.

Twin of nothing in torch. Wiring only: :func:`loaderlab.trace.diagnosis.bottleneck.verdict` and
:func:`loaderlab.trace.diagnosis.suggestions.suggest` decide, their words come from the trace layer's texts; this
module draws them with streamlit. The suggestions are the report's (a model of the trace's measured costs,
no re-run), shown on a click to keep the box short.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import streamlit as st

from ..trace.diagnosis.bottleneck import CONSUMER, NONE, verdict, Verdict
from ..trace.diagnosis.suggestions import has_sample_costs, suggest, why_none_said, why_none_text
from .texts import language, t


@st.cache_data(max_entries=16, show_spinner=False)
def _verdict(trace_id: Hashable, _trace: Any) -> tuple[Verdict, bool]:
    # Reruns redraw the page for every widget change; the verdict reads the whole trace (about a second at the
    # default settings), so it is worked out once per trace, not per rerun.
    return verdict(_trace), has_sample_costs(_trace)


@st.cache_data(max_entries=16, show_spinner=False)
def _suggestions(trace_id: Hashable, _trace: Any, _found: Verdict) -> list:
    return suggest(_trace, _found)


def show_diagnosis(trace: Any, key: str, trace_id: Hashable) -> None:
    """The verdict of ``trace`` (an events table or a run) and a button that shows its suggestions;
    ``key`` tells the pages' buttons apart, ``trace_id`` names the trace (its run settings, or an uploaded
    file's token) so the verdict is computed once per trace."""
    lang = language()
    found, can_suggest = _verdict(trace_id, trace)
    (st.info if found.kind in (CONSUMER, NONE) else st.warning)(f"**{found.title(lang)}** · {found.text(lang)}")
    if found.kind == NONE or not can_suggest:
        return
    if found.kind == CONSUMER and not _suggestions(trace_id, trace, found):
        # the step is the slow part and no change the model sees shortens it: no button that can only say so,
        # but a change whose costs the trace cannot show is named, with the command that measures it
        why, said = why_none_said(found, trace, lang)
        if why.startswith("suggestion.why.unseen"):
            st.caption(said)
        return
    if st.button(t("diagnosis.suggest"), key=f"diagnosis_suggest_{key}", help=t("diagnosis.suggest.help")):
        with st.spinner(t("diagnosis.suggesting")):
            found_suggestions = _suggestions(trace_id, trace, found)
        if not found_suggestions:
            st.caption(why_none_text(found, trace, lang))
            return
        st.markdown(t("diagnosis.suggestions"))
        st.markdown("\n".join(f"- {s.text(lang)}" for s in found_suggestions))
