"""The page's language and the sidebar's page links: ``?lang=ko`` / ``?lang=en`` in a workshop link, then
the sidebar's choice.

Every page calls :func:`page_setup` first, before any text is drawn. The choice lives in session state
under its own key (not the radio's: a widget's state is dropped on a page that has not drawn it yet), so it
survives page switches; it is written back to the URL (a copied link keeps it), and every sidebar page
link carries it. The sidebar lists the pages itself (``client.showSidebarNavigation = false``) so that
their names follow the language. Knows nothing of the pages' content.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from .texts import EN, LANGUAGES, set_language, t

ROOT = Path(__file__).resolve().parents[2]
CHOICE = "language"  # the kept choice
RADIO = "language_radio"  # the sidebar widget that edits it
_NAMES = {"en": "English", "ko": "한국어"}
_LAST_PAGE = "page_last"  # the page this session ran last
_SWITCHED = "page_switched"  # whether this run's page differs from it


def _chosen() -> None:
    st.session_state[CHOICE] = st.session_state[RADIO]


def use_language() -> str:
    """Set this run's language from the URL (on arrival), the kept choice or the sidebar, and return it."""
    if CHOICE not in st.session_state:
        asked = st.query_params.get("lang", "en")
        st.session_state[CHOICE] = asked if asked in LANGUAGES else "en"
    lang = st.session_state[CHOICE]
    set_language(lang)
    if st.query_params.get("lang") != lang:
        st.query_params["lang"] = lang
    return lang


def _page_label(stem: str) -> str:
    key = f"nav.{stem}"
    return t(key) if key in EN else stem.split("_", 1)[-1].replace("_", " ")  # a page without a name yet


def page_links(lang: str) -> None:
    """One sidebar link per page, in the current language, each carrying ``?lang=``."""
    pages = [ROOT / "app.py", *sorted((ROOT / "pages").glob("*.py"))]
    box = st.sidebar.container()
    for path in pages:
        try:
            box.page_link(str(path), label=_page_label(path.stem), query_params={"lang": lang})
        except StreamlitAPIException:  # the page runs alone (AppTest of one page file): no app to link to
            return


def _note_page() -> None:
    ctx = get_script_run_ctx()
    now = ctx.page_script_hash if ctx is not None else ""
    before = st.session_state.get(_LAST_PAGE)
    st.session_state[_SWITCHED] = before is not None and before != now
    st.session_state[_LAST_PAGE] = now


def page_switched() -> bool:
    """Whether this run opened another page than the session's previous run did (a sidebar link, back or
    forward); False on the session's first run and on a rerun of the same page."""
    return bool(st.session_state.get(_SWITCHED, False))


def page_setup(page: str | None = None) -> str:
    """Page config, language and the sidebar's page links: the first call of every page's ``main``. With
    ``page`` (its text-key prefix), also the page's ``.title``, its ``.explain`` sentences and, where the
    page has one, its ``.try`` suggestion."""
    st.set_page_config(page_title="LoaderLab", layout="wide")
    _note_page()
    lang = use_language()
    page_links(lang)
    st.session_state[RADIO] = lang
    st.sidebar.radio("Language · 언어", LANGUAGES, key=RADIO, horizontal=True, format_func=_NAMES.__getitem__,
                     on_change=_chosen)
    if page is not None:
        st.title(t(f"{page}.title"))
        st.write(t(f"{page}.explain"))
        if f"{page}.try" in EN:
            st.caption(t(f"{page}.try"))
    return lang
