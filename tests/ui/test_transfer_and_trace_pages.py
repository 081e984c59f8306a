"""AppTest runs of the "Pinned memory" and "Your trace" pages, and the upload logic on good and bad files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import streamlit as st
import torch
from streamlit.testing.v1 import AppTest

from loaderlab.figures.transfer import breakdown
from loaderlab.scenarios.run import RunConfig, run
from loaderlab.scenarios.transfer import model_transfers, summarise
from loaderlab.trace.files.io import load_trace_bytes, trace_document
from loaderlab.ui.texts import EN, KO, set_language
from loaderlab.ui.trace_page import build_views, trace_from_upload
from loaderlab.ui.transfer_page import _verdict, change_text, ms_text

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
TRANSFER = str(ROOT / "pages" / "6_Pinned_memory.py")
TRACE = str(ROOT / "pages" / "7_Your_trace.py")
SMALL = 64  # samples: 4 batches of the sidebar's default 16


@pytest.fixture(autouse=True)
def fresh_cache():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


@pytest.fixture(scope="module")
def good_bytes() -> bytes:
    frame = run(RunConfig(n_samples=48, num_workers=2, cost_ms=0.1, consumer_ms=0.2))
    return json.dumps(trace_document(frame)).encode("utf-8")


def _page(path: str) -> AppTest:
    at = AppTest.from_file(path, default_timeout=TIMEOUT_S)
    at.session_state["n_samples"] = SMALL
    return at.run()


def _spec(at: AppTest, i: int) -> dict:
    return json.loads(at.get("plotly_chart")[i].proto.spec)


# --- Pinned memory ---------------------------------------------------------------------------------


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the modelled (no GPU) page")
def test_transfer_page_is_labelled_modelled_and_draws_both_modes():
    at = _page(TRANSFER)
    at.number_input(key="transfer_batch_mb").set_value(64.0).run()  # an image batch (it starts at the real one)
    assert not at.exception
    assert any(w.value.startswith("Modelled, no GPU on this machine") for w in at.warning)
    assert any("6 GB/s" in c.value and "12 GB/s" in c.value and "10 GB/s" in c.value for c in at.caption)
    assert not at.number_input(key="transfer_pinned_gbps").disabled  # assumptions are editable when modelled
    timeline, totals = _spec(at, 0), _spec(at, 1)
    assert [a["text"] for a in timeline["layout"]["annotations"]] == [
        "pageable: batch.to('cuda')", "pinned: pin_memory=True, then .to('cuda', non_blocking=True) on a copy stream"]
    assert sum(len(tr["y"]) for tr in timeline["data"]) == 8 * 2 + 8 * 3  # 8 batches, 2 and 3 stages
    assert [tr["name"] for tr in totals["data"]] == ["GPU computing", "copying while nothing computes",
                                                     "GPU idle, waiting for a pinned batch"]
    metrics = {m.label: m.value for m in at.metric}
    assert float(metrics["epoch, pinned + non_blocking (ms)"]) < float(metrics["epoch, pageable (ms)"])


def test_transfer_page_follows_the_bandwidth_assumptions():
    at = _page(TRANSFER)
    at.number_input(key="transfer_batch_mb").set_value(64.0).run()  # an image batch (it starts at the real one)
    before = {m.label: m.value for m in at.metric}["epoch, pageable (ms)"]
    at.number_input(key="transfer_pageable_gbps").set_value(3.0).run()  # half the bandwidth
    assert not at.exception
    after = {m.label: m.value for m in at.metric}["epoch, pageable (ms)"]
    # 8 × (64 MB / 3 GB/s + 10 ms) = 250.7 ms, up from 8 × (64 MB / 6 GB/s + 10 ms) = 165.3 ms
    assert (before, after) == ("165.3", "250.7")


@pytest.mark.skipif(torch.cuda.is_available(), reason="without an accelerator the pin stage is skipped")
def test_transfer_page_shows_the_loaders_skipped_pin_stage():
    at = _page(TRANSFER)
    metrics = {m.label: m.value for m in at.metric}
    assert metrics["pin events"] == "8" and metrics["batches through the pin stage"] == "4"
    assert any("“skipped: no accelerator”" in i.value for i in at.info)
    assert any("no accelerator is found" in w.value for w in at.warning)  # torch's own warning, shown
    assert "pin_memory=True" in at.code[-1].value  # the plain-torch loader


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the modelled page on the sidebar's small batch")
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_transfer_page_never_shows_minus_zero_and_names_the_copying_it_hides(lang):
    """Issue 34: the sidebar's 1,152-byte batch made the pinned epoch 0.001 ms shorter, shown as a "−0.0"
    change, and "87% of copying hidden" stood beside "both ways take the same time" with nothing saying
    that the copying was 0.0015 ms in all."""
    texts = {"en": EN, "ko": KO}[lang]
    at = AppTest.from_file(TRANSFER, default_timeout=TIMEOUT_S)
    at.query_params["lang"] = lang
    at.session_state["n_samples"] = SMALL
    at.run()
    assert not at.exception
    pageable, pinned, hidden = at.metric[:3]
    assert pinned.label == texts["transfer.metric.pinned"] and pinned.proto.delta == "0.0"
    shown = [m.value for m in at.metric] + [m.proto.delta for m in at.metric] + [m.value for m in at.markdown]
    shown += [a["text"] for a in _spec(at, 1)["layout"]["annotations"]]  # the totals' bar ends
    assert not [s for s in shown if "-0.0" in s or "−0.0" in s]
    verdict = next(m.value for m in at.markdown if m.value.startswith(texts["transfer.verdict.same_small_copy"][:12]))
    copy = re.search(r"\((?:of )?(.+?) ms", hidden.label)[1]  # the copying the share is of, in the metric's label
    assert hidden.value in verdict and f"{copy} ms" in verdict  # the same share of the same copying
    assert f"{pageable.value} ms" in verdict and f"{pinned.value} ms" in verdict  # and the same two epochs
    bar_end = next(a["text"] for a in _spec(at, 1)["layout"]["annotations"] if hidden.value in a["text"])
    assert f"{copy} ms" in bar_end and f"{pinned.value} ms" in bar_end  # the totals' pinned bar, the same way


def test_a_change_that_rounds_to_nothing_has_no_sign_and_short_times_do_not_read_zero():
    assert change_text(80.0, 80.0013248) == "0.0" and change_text(80.0, 80.0) == "0.0"
    assert (change_text(80.0, 80.06), change_text(80.06, 80.0)) == ("-0.1", "+0.1")
    assert [ms_text(x) for x in (0.0, 0.0004, 0.0015, 0.095, 12.345)] == ["0.0", "< 0.001", "0.0015", "0.095", "12.3"]


def test_an_even_verdict_names_the_hidden_copying_and_the_wait_from_the_same_rows():
    """Pinning slow enough (3.4 GB/s) that the pinned epoch ends within 0.5 % of the pageable one."""
    set_language("en")
    summary = summarise(model_transfers(64_000_000, 8, 10.0, pin_gbps=3.4), 64_000_000)
    verdict, rows = _verdict(summary), summary.set_index("mode")
    pinned = breakdown(summary).set_index("mode").loc["pinned"]
    assert verdict.startswith("Here both ways take about the same time (165.3 ms pageable, 165.9 ms pinned)")
    assert f"hides {rows.loc['pinned', 'overlap']:.0%} of its copying ({rows.loc['pinned', 'hidden_copy_ms']:.1f} ms)" in verdict
    assert f"waits {pinned['idle_ms']:.1f} ms for pinned batches" in verdict


# --- Your trace ------------------------------------------------------------------------------------


def test_trace_page_shows_the_current_run_and_offers_two_downloads():
    at = _page(TRACE)
    assert not at.exception
    assert any(c.value.startswith("Showing the current run") and "4 batches" in c.value for c in at.caption)
    downloads = at.get("download_button")
    assert [d.proto.label for d in downloads] == ["Download the trace (LoaderLab JSON)",
                                                  "Download for Perfetto (Chrome trace JSON)"]
    assert len(at.get("plotly_chart")) == 3  # timeline, queue depths, labels
    lanes = {y for tr in _spec(at, 0)["data"] for y in tr["y"]}
    assert lanes == {"main", "worker 0", "worker 1"}


def test_trace_page_draws_an_uploaded_trace_and_reports_a_bad_one(good_bytes):
    at = _page(TRACE)
    at.file_uploader(key="trace_upload").set_value(("mine.json", good_bytes, "application/json")).run()
    assert not at.exception
    assert any(c.value.startswith("Showing mine.json") and "3 batches" in c.value for c in at.caption)
    assert len(at.get("download_button")) == 2
    at.file_uploader(key="trace_upload").set_value(("cut.json", good_bytes[:300], "application/json")).run()
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value.startswith("cut.json is not valid JSON")
    assert len(at.get("plotly_chart")) == 0 and len(at.get("download_button")) == 0


# --- trace_from_upload -----------------------------------------------------------------------------


def test_a_good_upload_gives_its_frame(good_bytes):
    frame, error = trace_from_upload(good_bytes, "good.json")
    assert error is None
    assert frame.equals(load_trace_bytes(good_bytes))
    views = build_views(frame)
    assert views.batches == 3  # 48 samples / 16
    assert json.loads(views.trace_json)["format"] == "loaderlab-trace"
    assert "traceEvents" in json.loads(views.chrome_json)
    assert list(views.findings.columns) == ["severity", "message", "epoch", "batch", "worker", "index"]


def _future(data: bytes) -> bytes:
    doc = json.loads(data)
    doc["version"] = 99
    return json.dumps(doc).encode()


def _no_events(data: bytes) -> bytes:
    doc = json.loads(data)
    doc["events"] = []
    return json.dumps(doc).encode()


@pytest.mark.parametrize("make,expected", [
    (lambda b: b[: len(b) // 2], "up.json is not valid JSON"),
    (lambda b: b"", "up.json is empty"),
    (lambda b: b"\xff\xfe\x00 not text", "up.json is not UTF-8 text"),
    (_future, "up.json was written by a newer LoaderLab (format version 99)"),
    (lambda b: b'{"traceEvents": []}', "up.json is a Chrome trace"),
    (_no_events, "up.json holds no events"),
])
def test_a_bad_upload_gives_one_sentence(good_bytes, make, expected):
    frame, error = trace_from_upload(make(good_bytes), "up.json")
    assert frame is None
    assert error.startswith(expected)
    assert "\n" not in error and error.endswith(".")
    assert "Traceback" not in error
