"""The "Your trace" page draws an uploaded trace's three label distributions and its re-balancing findings,
in English and Korean (issue 35); a trace that knows only what the loop received shows no such section."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest
from torch.utils.data import DataLoader, WeightedRandomSampler

import loaderlab
from loaderlab.trace.files import trace_document
from tests.trace.tables.test_label_shares import LABELS, Said, label_of

ROOT = Path(__file__).resolve().parents[2]
TRACE = str(ROOT / "pages" / "7_Your_trace.py")


@pytest.fixture(autouse=True)
def fresh_cache():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


@pytest.fixture(scope="module")
def class_weights_bytes() -> bytes:
    sampler = WeightedRandomSampler(1.0 / np.bincount(LABELS), 600, generator=torch.Generator().manual_seed(0))
    frame = loaderlab.record(DataLoader(Said(LABELS), batch_size=32, sampler=sampler), sample_info=label_of)
    return json.dumps(trace_document(frame)).encode("utf-8")


def _uploaded(data: bytes, lang: str) -> AppTest:
    at = AppTest.from_file(TRACE, default_timeout=120)
    at.session_state["n_samples"] = 64
    at.query_params["lang"] = lang
    at.run()
    at.file_uploader(key="trace_upload").set_value(("mine.json", data, "application/json")).run()
    assert not at.exception
    return at


def _shares_chart(at: AppTest) -> dict:
    specs = [json.loads(c.proto.spec) for c in at.get("plotly_chart")]
    (spec,) = [s for s in specs if s["layout"].get("yaxis", {}).get("tickformat") == ".0%"]
    return spec


@pytest.mark.slow
def test_the_three_distributions_and_the_mistake_are_drawn_in_english(class_weights_bytes):
    at = _uploaded(class_weights_bytes, "en")
    assert "Labels: the data, what the sampler intends, what the loop received" in [s.value for s in at.subheader]
    spec = _shares_chart(at)
    assert [tr["name"] for tr in spec["data"]] == ["the dataset", "the sampler intends", "the loop received"]
    assert spec["data"][0]["x"] == ["0", "1"] and spec["data"][0]["y"] == pytest.approx([0.95, 0.05])
    assert spec["data"][1]["y"] == pytest.approx([1.0])  # both weights sit on rows 0 and 1, both label 0
    assert any("got 2 weights for a dataset of 3,000 samples" in w.value for w in at.warning)


@pytest.mark.slow
def test_the_same_in_korean(class_weights_bytes):
    at = _uploaded(class_weights_bytes, "ko")
    spec = _shares_chart(at)
    assert [tr["name"] for tr in spec["data"]] == ["데이터셋", "샘플러가 의도한 것", "루프가 받은 것"]
    assert any("가중치를 2개만 받아서" in w.value for w in at.warning)
