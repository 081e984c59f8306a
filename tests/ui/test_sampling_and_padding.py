"""AppTest runs of the "Sampling & class imbalance" and "Padding & collate" pages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
SAMPLING = str(ROOT / "pages" / "4_Sampling_and_imbalance.py")
PADDING = str(ROOT / "pages" / "5_Padding_and_collate.py")
TIMEOUT_S = 120
FAST = dict(cost_ms=0.0, consumer_ms=0.0)  # widget keys = RunConfig fields
SMALL_90_10 = dict(FAST, n_samples=320, imbalance=0.9)
DOCSTRINGS = dict(FAST, source="stdlib_docstrings")

pytestmark = pytest.mark.usefixtures("fresh_cache")


def _page(path: str, **state) -> AppTest:
    at = AppTest.from_file(path, default_timeout=TIMEOUT_S)
    for key, value in state.items():
        at.session_state[key] = value
    return at.run()


def _charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def test_sampling_page_compares_three_samplers_batch_by_batch():
    at = _page(SAMPLING, **SMALL_90_10)
    assert not at.exception
    assert at.title[0].value == "Sampling and class imbalance"
    batches, shares, coverage = _charts(at)
    assert len(batches["frames"]) == 20  # 320 samples / 16
    assert [a["text"] for a in batches["layout"]["annotations"]] == [
        "RandomSampler (shuffle=True)", "WeightedRandomSampler, inverse class frequency",
        "WeightedRandomSampler, your class weights"]
    assert [tr["name"] for tr in batches["data"]] == ["label 0", "label 1"] * 3
    assert all(a + b == 16 for a, b in zip(batches["data"][0]["y"], batches["data"][1]["y"]))
    assert {tr["name"] for tr in shares["data"]} == {"share of the dataset", "intended by the weights",
                                                     "realised, epoch 0"}
    drawn, distinct, _ = coverage["data"]
    assert drawn["y"] == [320, 320, 320]
    assert distinct["y"][0] == 320 and distinct["y"][1] < 320  # with replacement, weighted draws repeat
    assert [m.value for m in at.metric][0] == "320 / 320"  # RandomSampler: every sample once
    mistake = [w.value for w in at.warning if "distinct ones" in w.value]
    assert mistake == ["The epoch drew 320 samples but only 2 distinct ones — dataset indices 0, 1 — out of 320."]
    assert "WeightedRandomSampler(weights, num_samples=len(dataset), replacement=True,\n" in at.expander[0].code[0].value


def test_without_replacement_the_weighted_runs_fall_back_to_the_data_ratio():
    at = _page(SAMPLING, **SMALL_90_10)
    at.checkbox(key="sampling_replacement").uncheck().run()
    assert not at.exception
    assert at.session_state["replacement"] is False  # the page's checkbox sets the sidebar's
    assert [m.value for m in at.metric] == ["320 / 320"] * 3  # no sample drawn twice in any run
    shares = _charts(at)[1]["data"]
    data, weighted = shares[0]["y"], shares[5]["y"]
    assert weighted == pytest.approx(data)  # every sample once: the data's own ratio, whatever the weights
    assert any("intended 50.0%" in w.value for w in at.warning)  # the drift finding
    assert any(c.value.startswith("cannot sample n_sample > prob_dist.size(-1)") for c in at.code)  # the mistake


def test_sampling_page_names_the_classes_of_the_stdlib_files():
    at = _page(SAMPLING, **FAST, source="stdlib_files", batch_size=64)
    assert not at.exception
    legend = [tr["name"] for tr in _charts(at)[0]["data"]][:3]
    assert legend == ["python", "extension", "other"]


def test_sampling_page_asks_for_a_map_style_dataset():
    at = _page(SAMPLING, **SMALL_90_10, kind="iterable_sharded")
    assert not at.exception
    assert _charts(at) == []
    assert "map-style Dataset" in at.info[0].value


def test_padding_page_shows_torchs_collate_error_and_bucketing_pads_less():
    at = _page(PADDING, **DOCSTRINGS)
    assert not at.exception
    assert at.title[0].value == "Padding and collate"
    error = at.code[0].value
    assert error.startswith("RuntimeError: stack expects each tensor to be equal size, but got [")
    random_grid, bucket_grid, fractions = _charts(at)
    assert random_grid["data"][0]["type"] == bucket_grid["data"][0]["type"] == "heatmap"
    assert len(random_grid["layout"]["yaxis"]["tickvals"]) == len(bucket_grid["layout"]["yaxis"]["tickvals"]) == 3
    padded = sum(v == 0 for line in random_grid["data"][0]["z"] for v in line)
    assert random_grid["layout"]["title"]["text"] == (
        f"random batches (shuffle=True)<br><sup>{padded:,} padded cells in these batches</sup>")
    assert [tr["name"] for tr in fractions["data"]][::2] == ["random batches (shuffle=True)", "length-bucketed batches"]
    random, bucket = (int(m.value.replace(",", "")) for m in at.metric if m.label == "padded cells")
    assert bucket < random
    assert any("of the batch cells are padding" in w.value for w in at.warning)  # the padding finding

    at.slider(key="padding_batches").set_value(5).run()
    assert len(_charts(at)[0]["layout"]["yaxis"]["tickvals"]) == 5


def test_padding_page_says_when_there_is_nothing_to_pad():
    at = _page(PADDING, **FAST, n_samples=64, length_spread=0)
    assert not at.exception
    assert "same length (8)" in at.info[0].value
    assert at.success[0].value.startswith("The default collate stacks this batch")
