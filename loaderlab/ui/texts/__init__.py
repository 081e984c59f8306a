"""Every user-facing sentence of the dashboard, kept out of page and plotting code, in English and Korean.

One module per page holds that page's ``EN`` and ``KO`` dicts (``common`` holds the sidebar's and the
home page's); keys are prefixed by the page (``queues.title``); both dicts have the same keys and the same
format placeholders (a test checks). ``t(key, **params)`` looks a key up in the current language and
formats it. Parameter and API names (``num_workers``, ``collate_fn``…) stay as code in every language.

The current language is per thread: Streamlit runs each session's script in its own thread, and the page
sets the language (:func:`set_language`) before drawing anything.
"""

from __future__ import annotations

import pkgutil
import threading
from collections.abc import Callable
from importlib import import_module

LANGUAGES = ("en", "ko")
PAGES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__)))  # every module in this package


def _load(attribute: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for name in PAGES:
        texts = getattr(import_module(f"{__name__}.{name}"), attribute, {})
        clash = merged.keys() & texts.keys()
        if clash:
            raise KeyError(f"text keys defined twice: {sorted(clash)}")
        merged.update(texts)
    return merged


EN = _load("EN")
KO = _load("KO")
TEXTS = {"en": EN, "ko": KO}
_state = threading.local()


def set_language(lang: str) -> None:
    if lang not in TEXTS:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    _state.lang = lang


def language() -> str:
    return getattr(_state, "lang", "en")


def t(key: str, **params) -> str:
    """``key``'s text in the current language (English where a translation is missing, which a test forbids)."""
    template = TEXTS[language()].get(key) or EN[key]
    return template.format(**params) if params else template


def bound(lang: str | None = None) -> Callable[..., str]:
    """:func:`t` fixed to ``lang`` (default: the current language), for functions Streamlit may call later from
    another thread, such as a widget's ``format_func``."""
    lang = lang or language()

    def text(key: str, **params) -> str:
        template = TEXTS[lang].get(key) or EN[key]
        return template.format(**params) if params else template

    return text
