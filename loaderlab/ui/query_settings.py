"""Settings carried in a link: RunConfig values in the URL's query → the sidebar's widgets, once per link.

A lesson's "change it yourself" link opens a page as ``/Worker_timelines?lang=ko&num_workers=2&in_order=false``.
On that page's load, :func:`apply_query_settings` (called by the sidebar) puts every RunConfig field found in
the query into session state — the other fields back to their defaults, as a preset does — and remembers
the link, so that the attendee's own changes afterwards are not overwritten on the next rerun. Values are
fitted to the controls' ranges under the server's caps (:mod:`.control_ranges`): above a control's most they
are clamped, otherwise unusable they are left out, and either way the page says so once, in its language.
Knows RunConfig and streamlit's query params; nothing of the pages.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import streamlit as st

from ..scenarios.limits import DEFAULTS, Limits
from .control_ranges import APP_KEYS, LinkNote, fit_link
from .texts import t

_APPLIED = "_query_settings_applied"  # session key: the link whose settings were applied last


def to_query(values: Mapping[str, Any]) -> dict[str, str]:
    """RunConfig values → query-string values (``True`` → ``"true"``, ``0.5`` → ``"0.5"``)."""
    out = {}
    for key, value in values.items():
        if isinstance(value, bool):
            out[key] = "true" if value else "false"
        elif isinstance(value, float):
            out[key] = f"{value:g}"
        else:
            out[key] = str(value)
    return out


def settings_from_query(query: Mapping[str, str], caps: Limits = DEFAULTS) -> dict[str, Any]:
    """The RunConfig fields in ``query``, typed and fitted to ``caps``; unknown keys and unusable values left out."""
    return fit_link(query, caps)[0]


def note_text(note: LinkNote) -> str:
    """One sentence, in the page's language, on what became of one setting of the link."""
    return t(f"link.{note.what}", name=note.key, value=note.value, allowed=note.allowed, used=note.used)


def apply_query_settings(defaults: Mapping[str, Any], caps: Limits,
                         put: Callable[[str, Any], None]) -> list[str]:
    """Set the query's RunConfig values (the rest: ``defaults``) with ``put`` (the sidebar's setter), once per
    link; return the sentences on values clamped or left out (empty when the link was applied before or had
    none)."""
    query = {k: st.query_params[k] for k in st.query_params}
    found, notes = fit_link(query, caps)
    if not found and not notes:
        return []
    link = tuple(sorted((k, str(v)) for k, v in query.items() if k not in APP_KEYS))  # a language switch is no new link
    if st.session_state.get(_APPLIED) == link:
        return []
    st.session_state[_APPLIED] = link
    if found:
        for key, value in {**defaults, **found}.items():
            put(key, value)
    return [note_text(n) for n in notes]
