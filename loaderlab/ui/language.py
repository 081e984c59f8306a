"""The page's language: ``?lang=ko`` / ``?lang=en`` in a workshop link, then the sidebar's choice.

Every page calls :func:`page_setup` first, before any text is drawn. The choice lives in session state
(so it survives page switches) and is written back to the URL (so a copied link keeps it).
"""

from __future__ import annotations

import streamlit as st

from .texts import LANGUAGES, set_language

_NAMES = {"en": "English", "ko": "한국어"}


def use_language() -> str:
    """Set this run's language from the URL (on arrival) or the sidebar, and return it."""
    if "lang" not in st.session_state:
        asked = st.query_params.get("lang", "en")
        st.session_state["lang"] = asked if asked in LANGUAGES else "en"
    st.sidebar.radio("Language · 언어", LANGUAGES, key="lang", horizontal=True, format_func=_NAMES.__getitem__)
    lang = st.session_state["lang"]
    set_language(lang)
    if st.query_params.get("lang") != lang:
        st.query_params["lang"] = lang
    return lang


def page_setup() -> str:
    """Page config and language: the first call of every page's ``main``."""
    st.set_page_config(page_title="LoaderLab", layout="wide")
    return use_language()
