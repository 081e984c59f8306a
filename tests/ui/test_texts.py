"""Every text exists in English and Korean with the same placeholders, and Korean follows the glossary.

Covers the dashboard's texts (``loaderlab.ui.texts``) and the findings' and report's
(``loaderlab.texts.findings``). Pure dict checks: no streamlit run.
"""

from __future__ import annotations

import re

import pytest

from loaderlab.texts import wording, words
from loaderlab.ui import texts
from loaderlab.ui.glossary import english_terms, TERMS

TABLES = {"ui": (texts.EN, texts.KO), "findings": (words.EN, words.KO)}


def prose(template) -> str:
    """A template's words: every form of a plural, one after another."""
    return " ".join(template.forms()) if isinstance(template, wording.Plural) else template



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


def placeholders(template) -> set[tuple[str, str, str]]:
    """(field, conversion, format spec) of every ``{…}`` in ``template`` (every form of a plural)."""
    return wording.placeholders(template)


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
        untranslated = [k for k in ko if ko[k] == en[k] and re.search(r"[A-Za-z]{3,} [a-z]{3,}", prose(en[k]))
                        and not hangul.search(prose(ko[k]))]
        assert untranslated == [], table


def test_korean_texts_use_the_glossary_terms():
    misses = {}
    for table, (en, ko) in TABLES.items():
        for key, english in en.items():
            if is_code(key):
                continue
            needed = set(english_terms(prose(english))) - REPHRASED.get(key, set())
            missing = sorted(term for term in needed if TERMS[term] not in prose(ko[key]))
            if missing:
                misses[key] = missing
    assert misses == {}


def test_glossary_reads_words_not_code():
    assert english_terms("Sample 3 took 1 s in worker 0 (batch 2)") == ["sample", "worker", "batch"]
    assert english_terms("stopped inside dataset[{index}]; call sampler.set_epoch(epoch)") == []
    assert english_terms("set `num_workers` and `batch_size`; in_order=False") == []
    assert english_terms("a CSV with a 'label' column for your DataLoader") == []
    assert english_terms("the worker processes and the workers") == ["worker process", "worker"]


# --- the side-by-side tables and their one lookup (loaderlab.texts.wording) ---------------------------------


def test_plural_picks_the_form_by_its_count():
    template = wording.plural("n", one="{n} batch waited", other="{n} batches waited")
    table = {"k": {"en": template, "ko": "배치 {n}개가 기다렸습니다"}}
    assert [wording.lookup(table, "k", "en", n=n) for n in (0, 1, 2)] == [
        "0 batches waited", "1 batch waited", "2 batches waited"]
    assert wording.lookup(table, "k", "ko", n=1) == "배치 1개가 기다렸습니다"


def test_a_plural_with_two_counts_nests():
    template = wording.plural("w", one=wording.plural("c", one="{w} worker, {c} core", other="{w} worker, {c} cores"),
                              other=wording.plural("c", one="{w} workers, {c} core", other="{w} workers, {c} cores"))
    assert [template.format(w=w, c=c) for w, c in ((1, 1), (1, 2), (3, 1), (3, 2))] == [
        "1 worker, 1 core", "1 worker, 2 cores", "3 workers, 1 core", "3 workers, 2 cores"]


@pytest.mark.parametrize("entry, says", [
    ({"en": "one {n}"}, "exactly the languages"),
    ({"en": "one {n}", "ko": "하나 {m}"}, "different placeholders"),
    ({"en": "", "ko": "하나"}, "no en wording"),
    ({"en": wording.plural("n", one="{n} x", other="xs"), "ko": "{n}"}, "plural forms"),
])
def test_check_names_the_key_and_what_is_wrong(entry, says):
    with pytest.raises(ValueError, match=says) as info:
        wording.check({"page.key": entry}, "somewhere")
    assert "'page.key'" in str(info.value)


def test_pages_and_findings_share_one_lookup():
    evidence = {"batch": 4, "worker": 1, "blocked_s": 0.5, "epoch": 0, "index": 17, "fetch_s": 0.4}
    texts.set_language("ko")
    try:
        assert texts.t("severity.warning") == words.text("severity.warning", "ko")
        assert texts.t("finding.head_of_line", parked=1, **evidence) == words.text(
            "finding.head_of_line", "ko", parked=1, **evidence)
    finally:
        texts.set_language("en")
    assert "held 1 ready batch in" in texts.t("finding.head_of_line", parked=1, **evidence)
    assert "held 3 ready batches in" in words.text("finding.head_of_line", "en", parked=3, **evidence)


@pytest.mark.parametrize("table", [texts.EN, texts.KO])
def test_your_trace_leads_with_loaderlab_run_then_record_and_following(table):
    """The way the README tells users to trace their own job comes first on the page (issue 28, item 3)."""
    explain = table["yourtrace.explain"]
    assert explain.index("python -m loaderlab run") < explain.index("python -m loaderlab record")
    assert "loaderlab run" in table["yourtrace.upload"]
