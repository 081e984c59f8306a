"""The "Your trace" page draws an uploaded trace's three label distributions and its re-balancing findings,
in English and Korean, and a multi-rank trace's ranks one by one (issue 35)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest
from torch.utils.data import DataLoader, DistributedSampler, WeightedRandomSampler

import loaderlab
from loaderlab.trace.files.io import trace_document
from loaderlab.trace.ranks.launch import merge_rank_frames
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


@pytest.fixture(scope="module")
def strided_ranks_bytes() -> bytes:
    labels = np.array([0, 1] * 300)  # alternating: DistributedSampler(shuffle=False) gives each rank one class
    frames = [loaderlab.record(DataLoader(Said(labels), batch_size=20,
                                          sampler=DistributedSampler(Said(labels), 2, r, shuffle=False)),
                               sample_info=label_of) for r in range(2)]
    return json.dumps(trace_document(merge_rank_frames(frames))).encode("utf-8")


@pytest.mark.slow
def test_a_multi_rank_trace_shows_each_ranks_shard_beside_the_data(strided_ranks_bytes):
    at = _uploaded(strided_ranks_bytes, "en")
    radio = at.radio(key=next(r.key for r in at.radio if r.key and r.key.startswith("labelshares_rank_")))
    assert radio.options == ["every rank together", "rank 0", "rank 1"]
    together = _shares_chart(at)
    assert together["data"][2]["y"] == pytest.approx([0.5, 0.5])
    radio.set_value("rank 1").run()
    assert not at.exception
    spec = _shares_chart(at)
    received = dict(zip(spec["data"][2]["x"], spec["data"][2]["y"]))
    assert received == {"1": pytest.approx(1.0)} and spec["data"][0]["y"] == pytest.approx([0.5, 0.5])
    assert any("of what this rank received (0 of 300), but 50.0% of the data" in w.value for w in at.warning)
