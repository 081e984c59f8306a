"""Every user-facing sentence of the dashboard, kept out of page and plotting code.

One module per page holds that page's ``EN`` dict (``common`` holds the sidebar's and the home page's);
keys are prefixed by the page (``queues.title``). ``t(key, **params)`` looks a key up and formats it.
A translation adds a dict per module beside ``EN`` with the same keys and placeholders. Parameter and
API names (``num_workers``, ``collate_fn``…) stay as code in every language.
"""

from __future__ import annotations

import pkgutil
from importlib import import_module

PAGES = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__)))  # every module in this package


def _load() -> dict[str, str]:
    merged: dict[str, str] = {}
    for name in PAGES:
        texts = import_module(f"{__name__}.{name}").EN
        clash = merged.keys() & texts.keys()
        if clash:
            raise KeyError(f"text keys defined twice: {sorted(clash)}")
        merged.update(texts)
    return merged


EN = _load()


def t(key: str, **params) -> str:
    return EN[key].format(**params) if params else EN[key]
