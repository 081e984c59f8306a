"""AppTest runs of the Distributed page: default settings, then set_epoch switched on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "8_Distributed.py")


@pytest.fixture(autouse=True)
def fresh_cache():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def _charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def test_default_page_runs_two_ranks_and_flags_the_forgotten_set_epoch_until_it_is_switched_on():
    at = AppTest.from_file(PAGE, default_timeout=120).run()
    assert not at.exception
    assert at.title[0].value.startswith("Distributed data loading")
    assert any("set_epoch(epoch)" in w.value and "same order" in w.value for w in at.warning)
    assert any("seen twice" in i.value for i in at.info)  # 75 samples over 2 ranks: one padding copy
    partition, labels, timeline = _charts(at)
    assert len(partition["frames"]) == 2 and len(partition["data"]) == 5
    assert partition["frames"][0]["data"][0]["x"] == partition["frames"][1]["data"][0]["x"]  # nothing moves
    assert {tr["name"] for tr in labels["data"]} == {"label 0", "label 1"}
    assert {lane.split(" · ")[0] for lane in timeline["layout"]["yaxis"]["categoryarray"]} == {"rank 0", "rank 1"}
    code = at.expander[-1].code[0].value
    assert "torchrun --nproc-per-node=2" in code and "# sampler.set_epoch(epoch)  # forgotten" in code

    at.checkbox(key="dist_set_epoch").check().run()
    assert not at.exception
    assert not any("same order" in w.value for w in at.warning)
    partition = _charts(at)[0]
    assert partition["frames"][0]["data"][0]["x"] != partition["frames"][1]["data"][0]["x"]
    assert "\n    sampler.set_epoch(epoch)  # a new shuffle every epoch" in at.expander[-1].code[0].value
