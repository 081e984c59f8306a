"""``loaderlab.trace.core.kinds`` names every finding kind once, and each kind has its words in English and Korean."""

from __future__ import annotations

import pytest

from loaderlab.texts import LANGUAGES, words
from loaderlab.trace.core import kinds

CONSTANTS = {value for name, value in vars(kinds).items() if name.isupper() and isinstance(value, str)}


def test_the_kind_lists_hold_every_constant_once():
    listed = kinds.FINDING_KINDS + kinds.RANK_KINDS
    assert len(listed) == len(set(listed))
    assert set(listed) == CONSTANTS


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", kinds.FINDING_KINDS)
def test_every_run_finding_kind_has_its_words(kind, lang):
    # a finding's key defaults to its kind: finding.<kind> is the sentence shown when no variant is chosen
    assert lang in words.WORDS[f"finding.{kind}"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", kinds.RANK_KINDS)
def test_every_rank_finding_kind_has_its_words(kind, lang):
    assert lang in words.WORDS[f"rank.{kind}"]


def test_each_value_is_its_name_in_lower_case():
    # trace reports, saved findings and text keys hold these strings: renaming a value breaks them
    assert all(getattr(kinds, value.upper()) == value for value in CONSTANTS)
