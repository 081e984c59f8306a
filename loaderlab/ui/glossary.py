"""The English → Korean glossary every Korean text of LoaderLab follows (dashboard and report).

The Korean terms are those of the Korean PyTorch documentation and tutorials (파이토치 한국 사용자 모임,
tutorials.pytorch.kr): 데이터셋, 데이터로더, 샘플러, 미니배치, 워커 프로세스… A test checks that every
Korean text whose English twin uses a term here uses the Korean term (``tests/ui/test_texts.py``, with its
short allow-list of sentences that rephrase). Parameter and API names (``num_workers``, ``collate_fn``,
``WeightedRandomSampler``) are code and are not translated; so is ``shuffle``, whose verb reads 섞다 in
running Korean. Plain data: knows nothing of streamlit or of
where the texts are shown.
"""

from __future__ import annotations

import re

# English term (lower case, singular) → Korean term. Longer terms first where one contains another.
TERMS: dict[str, str] = {
    "data loader": "데이터로더",
    "dataset": "데이터셋",
    "minibatch": "미니배치",
    "batch sampler": "배치 샘플러",
    "batch": "배치",
    "sampler": "샘플러",
    "sample": "샘플",
    "worker process": "워커 프로세스",
    "worker": "워커",
    "main process": "메인 프로세스",
    "pinned memory": "고정 메모리",
    "index queue": "인덱스 큐",
    "result queue": "결과 큐",
    "reorder buffer": "재정렬 버퍼",
    "queue": "큐",
    "collate": "콜레이트",
    "epoch": "에폭",
    "seed": "시드",
    "label": "레이블",
    "padding": "패딩",
    "index": "인덱스",
    "training step": "학습 단계",
    "timeline": "타임라인",
    "trace": "트레이스",
    "finding": "발견 사항",
    "weight": "가중치",
    "accelerator": "가속기",
    "throughput": "처리량",
    "idle": "유휴",
}

# What is code inside a sentence: `code spans`, format fields, plotly %{fields}, calls, subscripts,
# dotted names, name=value pairs, 'quoted' names and CamelCase class names (DataLoader, IterableDataset).
# Terms inside these are not words to translate.
_CODE = re.compile(r"`[^`]*`|%\{[^}]*\}|\{[^}]*\}|\w+(?:\.\w+)*\([^)]*\)|\w+\[[^\]]*\]|\w+(?:\.\w+)+|\w+=\S+"
                   r"|'\w+'|\b[A-Z][a-z]+[A-Z]\w*")


def english_terms(text: str) -> list[str]:
    """The glossary terms ``text`` uses as words (not inside code), longest match first, each once."""
    prose = _CODE.sub(" ", text).lower()
    found = []
    for term in sorted(TERMS, key=len, reverse=True):
        pattern = re.compile(rf"\b{re.escape(term)}(?:s|es)?\b")
        if pattern.search(prose):
            found.append(term)
            prose = pattern.sub(" ", prose)  # "worker process" is not also a bare "worker"
    return found
