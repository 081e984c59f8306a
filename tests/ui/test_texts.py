"""Every text exists in English and Korean with the same placeholders, and Korean follows the glossary.

Covers the dashboard's texts (``loaderlab.ui.texts``) and the findings' and report's
(``loaderlab.trace.finding_texts``). Pure dict checks: no streamlit run.
"""

from __future__ import annotations

import re
import string

import pytest

from loaderlab.trace import finding_texts
from loaderlab.ui import texts
from loaderlab.ui.glossary import TERMS, english_terms

TABLES = {"ui": (texts.EN, texts.KO), "findings": (finding_texts.EN, finding_texts.KO)}



def is_code(key: str) -> bool:
    """Texts shown with st.code (``….code``, ``….loop_code``, ``….code_wrong``): their words are identifiers."""
    last = key.rsplit(".", 1)[-1]
    return last == "code" or last.startswith("code_") or last.endswith("_code")

# Korean sentences that legitimately say a glossary term another way: key → terms they may leave out.
REPHRASED: dict[str, set[str]] = {
    "lessons.collate.why.error": {"batch"},  # "batch samples of equal length": the verb, 묶다
    "lessons.pin.choice.workers": {"batch"},  # "before the batch goes on the result queue": 결과 큐에 넣기 전에
    "memory.none": {"sample"},  # "memory samples" are measurements (측정값), not dataset samples
}


def placeholders(template: str) -> set[tuple[str, str, str]]:
    """(field, conversion, format spec) of every ``{…}`` in ``template``."""
    return {(name, conversion or "", spec or "") for _, name, spec, conversion in string.Formatter().parse(template)
            if name is not None}


@pytest.mark.parametrize("table", TABLES)
def test_every_key_exists_in_both_languages(table):
    en, ko = TABLES[table]
    assert sorted(set(en) - set(ko)) == [], "missing in Korean"
    assert sorted(set(ko) - set(en)) == [], "missing in English"
    assert [k for k, v in ko.items() if not v.strip()] == []


@pytest.mark.parametrize("table", TABLES)
def test_both_languages_have_the_same_placeholders(table):
    en, ko = TABLES[table]
    differ = {k: (placeholders(en[k]), placeholders(ko[k])) for k in en.keys() & ko.keys()
              if placeholders(en[k]) != placeholders(ko[k])}
    assert differ == {}


def test_placeholder_check_catches_a_difference():
    assert placeholders("batch {batch} of {n:.1f}") != placeholders("배치 {batch} / {n}")
    assert placeholders("{label!r}") == {("label", "r", "")}


def test_korean_texts_are_korean():
    hangul = re.compile(r"[가-힣]")
    for table, (en, ko) in TABLES.items():
        untranslated = [k for k in ko if ko[k] == en[k] and re.search(r"[A-Za-z]{3,} [a-z]{3,}", en[k])
                        and not hangul.search(ko[k])]
        assert untranslated == [], table


def test_korean_texts_use_the_glossary_terms():
    misses = {}
    for table, (en, ko) in TABLES.items():
        for key, english in en.items():
            if is_code(key):
                continue
            needed = set(english_terms(english)) - REPHRASED.get(key, set())
            missing = sorted(term for term in needed if TERMS[term] not in ko[key])
            if missing:
                misses[key] = missing
    assert misses == {}


def test_glossary_reads_words_not_code():
    assert english_terms("Sample 3 took 1 s in worker 0 (batch 2)") == ["sample", "worker", "batch"]
    assert english_terms("stopped inside dataset[{index}]; call sampler.set_epoch(epoch)") == []
    assert english_terms("set `num_workers` and `batch_size`; in_order=False") == []
    assert english_terms("a CSV with a 'label' column for your DataLoader") == []
    assert english_terms("the worker processes and the workers") == ["worker process", "worker"]
