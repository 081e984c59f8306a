"""The "Your trace" page on a big trace: the overview first, the detailed views only for the chosen window.

A real small recording stands in for a big one: the test lowers the page's "big" threshold (and the window
sizes) instead of recording millions of events. AppTest runs the page's ``show_trace`` with that table.
"""

from __future__ import annotations

import base64
import json

import numpy as np
import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest

import loaderlab
from loaderlab.trace.tables import waits
from loaderlab.trace.diagnosis.bottleneck import verdict
from loaderlab.ui import big_trace


class Labelled(torch.utils.data.Dataset):
    def __len__(self):
        return 240

    def __getitem__(self, i):
        return torch.zeros(2), i % 4


def label_of(index, sample):
    return int(sample[1]), 2


@pytest.fixture(scope="module")
def frame():
    return loaderlab.record(loaderlab.DataLoader(Labelled(), batch_size=4, num_workers=2), sample_info=label_of)


def _show(frame):
    from loaderlab.ui.texts import set_language
    from loaderlab.ui.trace_page import show_trace

    set_language("en")
    show_trace(frame, token="test-big", name="big.json", stem="big")


@pytest.fixture
def big(monkeypatch, frame, fresh_cache):
    """The page treats the recording (about 1,000 events or more) as big; its first window holds 200 events."""
    st.cache_resource.clear()  # the overview is kept per trace token, across AppTest instances
    monkeypatch.setattr(big_trace, "BIG_EVENTS", 500)
    monkeypatch.setattr(big_trace, "WINDOW_EVENTS", 200)
    monkeypatch.setattr(big_trace, "MAX_WINDOW_EVENTS", 400)
    assert len(frame) > 800
    at = AppTest.from_function(_show, args=(frame,), default_timeout=60)
    return at.run()


def _spec(at, i):
    return json.loads(at.get("plotly_chart")[i].proto.spec)


def _values(v) -> list:
    """A spec array: plotly sends numeric arrays as base64 (``bdata``), others as lists."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def _bars(spec) -> int:
    return sum(len(_values(tr["x"])) for tr in spec["data"] if tr["type"] == "bar")


def test_a_big_trace_shows_the_overview_then_a_window_at_its_start(big, frame):
    at = big
    assert not at.exception
    assert "too many to draw span by span" in at.info[0].value
    assert len(at.get("plotly_chart")) == 4  # overview, the window's timeline and queue depths, labels per epoch
    labels = {tr["name"]: _values(tr["y"]) for tr in _spec(at, 3)["data"]}
    assert labels == {"epoch 0": [60, 60, 60, 60]}  # the whole run's: 240 samples, labels 0-3
    overview = _spec(at, 0)
    assert [tr["type"] for tr in overview["data"]][0] == "heatmap"
    t0, t1 = at.slider(key="trace_window:test-big").value
    assert t0 == pytest.approx(frame["t_s"].iloc[0]) and t1 == pytest.approx(frame["t_s"].iloc[200], abs=2e-3)
    shade = overview["layout"]["shapes"][0]
    assert (shade["x0"], shade["x1"]) == pytest.approx((t0, t1))
    timeline = _spec(at, 1)
    assert timeline["layout"]["xaxis"]["range"] == pytest.approx([t0, t1])
    assert 0 < _bars(timeline) < len(waits.stage_spans(frame)) / 3  # only the window's spans, not the run's
    assert [d.proto.label for d in at.get("download_button")] == [
        "Download this window (LoaderLab JSON)", "Download this window for Perfetto (Chrome trace JSON)"]


def test_findings_wait_for_the_button(big):
    at = big
    assert not at.table and at.button(key="trace_findings_button").label == "Look for findings"
    at.button(key="trace_findings_button").click().run()
    assert not at.exception
    assert at.table or any("No findings" in s.value for s in at.success)
    at.run()  # asked once: the findings stay on the page through later reruns
    assert at.table or any("No findings" in s.value for s in at.success)


def test_moving_the_window_redraws_the_details_there(big, frame):
    at = big
    end = float(frame["t_s"].iloc[-1])
    at.slider(key="trace_window:test-big").set_value((end * 0.5, end * 0.55)).run()
    assert not at.exception
    t0, t1 = at.slider(key="trace_window:test-big").value
    assert _spec(at, 1)["layout"]["xaxis"]["range"] == pytest.approx([t0, t1])
    shade = _spec(at, 0)["layout"]["shapes"][0]
    assert (shade["x0"], shade["x1"]) == pytest.approx((t0, t1))
    assert any(c.value.startswith(f"The views below show {t0:.3f}") for c in at.caption)


def test_a_window_too_wide_is_cut_with_a_sentence(big, frame):
    at = big
    end = float(frame["t_s"].iloc[-1])
    at.slider(key="trace_window:test-big").set_value((0.0, end)).run()
    assert not at.exception
    assert len(at.warning) == 1 and "Choose a narrower window" in at.warning[0].value
    x0, x1 = _spec(at, 1)["layout"]["xaxis"]["range"]
    assert x1 == pytest.approx(float(frame["t_s"].iloc[400]))  # the first 400 events of the window


def test_a_small_trace_is_drawn_whole_as_before(frame, fresh_cache):
    at = AppTest.from_function(_show, args=(frame,), default_timeout=60).run()
    assert not at.exception
    # the only note is the verdict box's (ui/diagnosis_view.py), not the big-trace window's
    assert [i.value.split("**")[1] for i in [*at.info, *at.warning]] == [verdict(frame).title("en")]
    assert [d.proto.label for d in at.get("download_button")] == ["Download the trace (LoaderLab JSON)",
                                                                  "Download for Perfetto (Chrome trace JSON)"]
    # the whole timeline, queue depths, labels per epoch, then the data's, the sampler's and the loop's label shares
    assert len(at.get("plotly_chart")) == 4
    assert {t["name"] for t in _spec(at, 3)["data"]} >= {"the dataset", "the loop received"}
    assert _bars(_spec(at, 0)) == len(waits.stage_spans(frame))


def test_an_uploaded_lltrace_past_the_threshold_opens_on_the_overview(monkeypatch, frame, tmp_path, fresh_cache):
    """The whole page: upload a columnar trace; its limit is said under the uploader."""
    from pathlib import Path

    from loaderlab.trace.files.io import save_trace

    st.cache_resource.clear()
    monkeypatch.setattr(big_trace, "BIG_EVENTS", 500)
    path = tmp_path / "mine.lltrace"
    save_trace(frame, path)
    page = str(Path(__file__).resolve().parents[2] / "pages" / "7_Your_trace.py")
    at = AppTest.from_file(page, default_timeout=120).run()
    uploader = at.file_uploader(key="trace_upload")
    assert "up to 1,024 MB" in uploader.help and "--server.maxUploadSize 2,048" in uploader.help
    uploader.set_value(("mine.lltrace", path.read_bytes(), "application/octet-stream")).run()
    assert not at.exception and not at.error
    assert any(c.value.startswith(f"Showing mine.lltrace: {len(frame):,} events") for c in at.caption)
    assert any("too many to draw span by span" in i.value for i in at.info)
    assert _spec(at, 0)["data"][0]["type"] == "heatmap"
