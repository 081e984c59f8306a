"""Settings carried in a link: RunConfig values in the URL's query → the sidebar's widgets, once per link.

A lesson's "change it yourself" link opens a page as ``/Worker_timelines?lang=ko&num_workers=2&in_order=false``.
On that page's load, :func:`apply_query_settings` (called by the sidebar) puts every RunConfig field found in
the query into session state — the other fields back to their defaults, as a preset does — and remembers
the link, so that the attendee's own changes afterwards are not overwritten on the next rerun. Values that
do not parse, or that RunConfig rejects, are left out. Knows RunConfig and streamlit's query params;
nothing of the pages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, replace
from typing import Any

import streamlit as st

from ..scenarios.run import RunConfig

_APPLIED = "_query_settings_applied"  # session key: the link whose settings were applied last
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
_TYPES = {f.name: type(getattr(RunConfig(), f.name)) for f in fields(RunConfig)
          if not f.name.startswith("uploaded_")}


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


def _parse(kind: type, text: str) -> Any:
    if kind is bool:
        if text.lower() in _TRUE:
            return True
        if text.lower() in _FALSE:
            return False
        raise ValueError(text)
    if kind is int:
        return int(text)
    if kind is float:
        return float(text)
    return text


def settings_from_query(query: Mapping[str, str]) -> dict[str, Any]:
    """The RunConfig fields in ``query``, typed; unknown keys, unparsable or rejected values left out."""
    found = {}
    for key, text in query.items():
        if key not in _TYPES:
            continue
        try:
            value = _parse(_TYPES[key], str(text))
            replace(RunConfig(), **{key: value})  # RunConfig's own checks (e.g. allowed kinds)
        except (ValueError, TypeError):
            continue
        found[key] = value
    return found


def apply_query_settings(defaults: Mapping[str, Any]) -> None:
    """Put the query's RunConfig values (the rest: ``defaults``) into session state, once per link."""
    found = settings_from_query({k: st.query_params[k] for k in st.query_params})
    if not found:
        return
    link = tuple(sorted(found.items()))
    if st.session_state.get(_APPLIED) == link:
        return
    st.session_state[_APPLIED] = link
    for key, value in {**defaults, **found}.items():
        st.session_state[key] = value
