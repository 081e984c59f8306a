"""Every user-facing sentence of the dashboard, kept out of page and plotting code, in English and Korean.

One module per page holds that page's ``TEXTS`` table (``common`` holds the sidebar's and the home page's):
each key (prefixed by the page: ``queues.title``) maps to ``{"en": …, "ko": …}``, the two languages side by
side so that an edited English sentence cannot leave its Korean silently stale; a sentence whose English depends
on a number is a :func:`loaderlab.texts.wording.plural`. Entries are checked at import (both languages, the same
placeholders). ``t(key, **params)`` looks a key up in the current language and formats it — the findings'
words (:mod:`loaderlab.texts.words`) included, through the same lookup (:func:`loaderlab.texts.wording.lookup`).
Parameter and API names (``num_workers``, ``collate_fn``…) stay as code in every language.

To add a text: add one entry to the page's ``TEXTS``, English and Korean together, e.g.::

    "queues.depth.note": {
        "en": "{n} batches waited here.",
        "ko": "배치 {n}개가 여기서 기다렸습니다.",
    },

The current language is per thread: Streamlit runs each session's script in its own thread, and the page
sets the language (:func:`set_language`) before drawing anything.
"""

from __future__ import annotations

import pkgutil
import threading
from collections.abc import Callable
from importlib import import_module

from ...texts import by_language, check, LANGUAGES, lookup, WORDS

PAGES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__)))  # every module in this package


def _load() -> dict[str, dict]:
    merged: dict[str, dict] = {}
    for name in PAGES:
        table = import_module(f"{__name__}.{name}").TEXTS
        check(table, f"{__name__}.{name}")
        clash = merged.keys() & table.keys()
        if clash:
            raise KeyError(f"text keys defined twice: {sorted(clash)}")
        merged.update(table)
    return merged


PAGE_TEXTS = _load()  # the dashboard's own entries
if PAGE_TEXTS.keys() & WORDS.keys():
    raise KeyError(f"text keys defined twice: {sorted(PAGE_TEXTS.keys() & WORDS.keys())}")
ALL_TEXTS = {**WORDS, **PAGE_TEXTS}  # what t() finds: the pages' words and the findings'
_BY_LANGUAGE = by_language(PAGE_TEXTS)
EN, KO = _BY_LANGUAGE["en"], _BY_LANGUAGE["ko"]  # one language's page templates (tests, format_func helpers)
TEXTS = _BY_LANGUAGE
_state = threading.local()


def set_language(lang: str) -> None:
    if lang not in TEXTS:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _state.lang = lang


def language() -> str:
    return getattr(_state, "lang", "en")


def t(key: str, **params) -> str:
    """``key``'s text (a page's or a finding's) in the current language, formatted with ``params``."""
    return lookup(ALL_TEXTS, key, language(), **params)


def bound(lang: str | None = None) -> Callable[..., str]:
    """:func:`t` fixed to ``lang`` (default: the current language), for functions Streamlit may call later from
    another thread, such as a widget's ``format_func``."""
    lang = lang or language()

    def text(key: str, **params) -> str:
        return lookup(ALL_TEXTS, key, lang, **params)

    return text
