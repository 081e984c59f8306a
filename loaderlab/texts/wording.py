"""The one way LoaderLab words a message: each key's English and Korean kept side by side, looked up by language.

Twin of nothing in torch. A text table maps a key to its entry ``{"en": template, "ko": template}`` — both
languages in one place, so an edited English sentence sits right above the Korean that must follow it. A
template is a ``str.format`` string or a :class:`Plural` (English count-dependent forms; Korean has no plural).
The dashboard's tables (:mod:`loaderlab.ui.texts`) and the findings' (:mod:`loaderlab.texts.words`) are
both checked and looked up here. Knows nothing of streamlit, of pages or of findings.
"""

from __future__ import annotations

import string
from typing import Any, Mapping, NamedTuple

__all__ = ["LANGUAGES", "Plural", "by_language", "check", "lookup", "placeholders", "plural"]

LANGUAGES = ("en", "ko")


class Plural(NamedTuple):
    """Forms of one sentence chosen by the number in ``params[count]``: ``one`` for exactly 1, else ``other``.

    A form may itself be a Plural, for a sentence with two counts ("1 worker on 2 cores")."""

    count: str
    one: str | Plural
    other: str | Plural

    def form(self, params: Mapping[str, Any]) -> str:
        chosen = self.one if params.get(self.count) == 1 else self.other
        return chosen.form(params) if isinstance(chosen, Plural) else chosen

    def format(self, **params: Any) -> str:
        """Like ``str.format``, so a caller holding a template need not care whether it has plural forms."""
        return self.form(params).format(**params)

    def forms(self) -> tuple[str, ...]:
        return tuple(f for part in (self.one, self.other)
                     for f in (part.forms() if isinstance(part, Plural) else (part,)))

    def strip(self) -> str:
        return self.forms()[-1].strip()


def plural(count: str, *, one: str | Plural, other: str | Plural) -> Plural:
    """A template whose wording depends on the number passed as ``count``."""
    return Plural(count, one, other)


def placeholders(template: str | Plural) -> set[tuple[str, str, str]]:
    """(field, conversion, format spec) of every ``{…}`` in ``template`` (all forms of a Plural)."""
    forms = template.forms() if isinstance(template, Plural) else (template,)
    return {(name, conversion or "", spec or "") for form in forms
            for _, name, spec, conversion in string.Formatter().parse(form) if name is not None}


def check(table: Mapping[str, Mapping[str, Any]], where: str) -> None:
    """Raise ``ValueError`` naming the key when an entry lacks a language or its languages differ in placeholders."""
    for key, entry in table.items():
        if not isinstance(entry, Mapping) or set(entry) != set(LANGUAGES):
            raise ValueError(f"{where}: text {key!r} must have exactly the languages {', '.join(LANGUAGES)}")
        for lang, template in entry.items():
            if not isinstance(template, (str, Plural)) or not template.strip():
                raise ValueError(f"{where}: text {key!r} has no {lang} wording")
            if isinstance(template, Plural) and len({frozenset(placeholders(f)) for f in template.forms()}) > 1:
                raise ValueError(f"{where}: the plural forms of {key!r} ({lang}) differ in placeholders")
        if len({frozenset(placeholders(t)) for t in entry.values()}) > 1:
            raise ValueError(f"{where}: text {key!r} has different placeholders in {' and '.join(LANGUAGES)}")


def by_language(table: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, str | Plural]]:
    """``{key: {lang: template}}`` → ``{lang: {key: template}}``."""
    return {lang: {key: entry[lang] for key, entry in table.items()} for lang in LANGUAGES}


def lookup(table: Mapping[str, Mapping[str, Any]], key: str, lang: str, **params: Any) -> str:
    """``key`` worded in ``lang``: its template (the plural form the count asks for) formatted with ``params``."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    template = table[key][lang]
    if isinstance(template, Plural):
        template = template.form(params)
    return template.format(**params) if params else template
