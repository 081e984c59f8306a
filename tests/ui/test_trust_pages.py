"""What the pages say must be true (issue 12, item 8): the Pinned memory page starts from the sidebar's real
batch, the Padding page does not show a red "+0" for a dataset with nothing to pad, no Deploy button, the
run settings leave the sidebar while an uploaded trace is shown, and "server busy" is worded in the page's
language."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from streamlit import config as st_config
from streamlit.testing.v1 import AppTest

from loaderlab.scenarios.run import RunConfig, run
from loaderlab.trace.files.io import trace_document
from loaderlab.ui.texts import EN, KO

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120
TRANSFER = str(ROOT / "pages" / "6_Pinned_memory.py")
PADDING = str(ROOT / "pages" / "5_Padding_and_collate.py")
TRACE = str(ROOT / "pages" / "7_Your_trace.py")

pytestmark = pytest.mark.usefixtures("fresh_cache")


def _page(path: str, **state) -> AppTest:
    at = AppTest.from_file(path, default_timeout=TIMEOUT_S)
    for key, value in {"n_samples": 64, "cost_ms": 0.0, "consumer_ms": 0.0, **state}.items():
        at.session_state[key] = value
    return at.run()


def _metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


# Pinned memory: the copy model starts from the real batch -------------------------------------------------

def test_pinned_memory_starts_from_the_sidebars_real_batch_and_follows_it():
    at = _page(TRANSFER, batch_size=4, num_workers=0)
    assert not at.exception
    real = int(_metrics(at)["bytes per batch (median)"].replace(",", ""))
    assert real == 4 * 8 * 8 + 4 * 8  # 4 samples of 8 int64 tokens, and 4 int64 labels
    assert at.number_input(key="transfer_batch_mb").value * 1e6 == pytest.approx(real)
    assert any("batch_size=4 makes 288 bytes per batch" in c.value for c in at.caption)

    at.sidebar.slider(key="batch_size").set_value(8).run()  # the sidebar changes: the default follows
    assert int(_metrics(at)["bytes per batch (median)"].replace(",", "")) == 576
    assert at.number_input(key="transfer_batch_mb").value * 1e6 == pytest.approx(576)

    at.number_input(key="transfer_batch_mb").set_value(64.0).run()  # the user's own size stays
    at.sidebar.slider(key="batch_size").set_value(2).run()
    assert not at.exception
    assert at.number_input(key="transfer_batch_mb").value == 64.0


def _fake_gpu(monkeypatch, gbps: dict[str, float]) -> None:
    """The page's GPU path without a GPU: torch says CUDA is there, and the measurement is the copy model at
    ``gbps`` (the page's wiring is under test, not the GPU; benchmarks/ measures a real one)."""
    import torch

    from loaderlab.scenarios.transfer import model_transfers
    from loaderlab.ui import transfer_page

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Stand-in GPU")
    monkeypatch.setattr(transfer_page, "_measured", lambda nbytes, n, compute_ms: model_transfers(
        nbytes, n, compute_ms, **gbps))


def test_on_a_gpu_a_tiny_sidebar_batch_opens_on_the_image_batch_and_says_so(monkeypatch):
    _fake_gpu(monkeypatch, {"pageable_gbps": 6.8, "pinned_gbps": 45.0, "pin_gbps": 10.0})
    at = _page(TRANSFER, batch_size=4, num_workers=0)
    assert not at.exception
    assert at.number_input(key="transfer_batch_mb").value == 64.0
    assert any("64 MB image batch" in c.value and "288 bytes" in c.value for c in at.caption)
    metrics = _metrics(at)
    assert (metrics["pageable copy, measured"], metrics["pinned copy, measured"]) == ("6.8 GB/s", "45.0 GB/s")


def test_on_a_gpu_a_megabyte_sidebar_batch_is_kept():
    from loaderlab.ui.transfer_page import FALLBACK_MB, start_mb

    assert start_mb(2_000_000, measured=True) == (2.0, False)
    assert start_mb(288, measured=True) == (FALLBACK_MB, True)
    assert start_mb(288, measured=False) == (288 / 1e6, False)  # modelled: the sidebar's own batch


def test_a_bandwidth_never_reads_zero():
    from loaderlab.scenarios.transfer import rate

    assert rate(45.04) == (45.04, "GB/s")
    assert rate(0.0016) == pytest.approx((1.6, "MB/s"))  # 16 bytes in 10 µs: "0.0 GB/s" before
    assert rate(float("nan")) == (None, "")


# Padding: nothing to pad is said, not drawn as zeros --------------------------------------------------------

def test_padding_page_offers_ragged_data_instead_of_a_red_zero():
    at = _page(PADDING)  # the default synthetic dataset: every sample 8 long
    assert not at.exception
    assert at.info[0].value == EN["padding.equal_lengths"].format(length=8)
    assert not at.metric and not at.get("plotly_chart")  # no grids of nothing, no "↑ +0 cells"
    at.button(key="padding_use_docstrings").click().run()
    assert not at.exception
    assert at.session_state["source"] == "stdlib_docstrings"
    deltas = [m for m in at.metric if m.proto.delta]
    assert len(deltas) == 1 and deltas[0].proto.delta.startswith("-")  # bucketing saves padding


# Deploy button -------------------------------------------------------------------------------------------

def test_the_toolbar_is_for_viewers():
    configured = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert configured["client"]["toolbarMode"] == "viewer"
    assert "viewer" in st_config._config_options_template["client.toolbarMode"].description  # a real option


# Your trace: the run's settings leave the sidebar while an upload is shown -------------------------------------

def test_an_uploaded_trace_hides_the_run_settings_and_keeps_them(tmp_path):
    frame = run(RunConfig(n_samples=24, num_workers=0, cost_ms=0.0, consumer_ms=0.0))
    data = json.dumps(trace_document(frame)).encode("utf-8")
    at = _page(TRACE)
    at.sidebar.slider(key="batch_size").set_value(9).run()
    assert at.sidebar.slider(key="batch_size").value == 9
    at.file_uploader(key="trace_upload").set_value(("mine.json", data, "application/json")).run()
    assert not at.exception
    assert not at.sidebar.slider and "preset" not in [s.key for s in at.sidebar.selectbox]
    assert at.sidebar.info[0].value == EN["yourtrace.sidebar.hidden"]
    at.run()  # a rerun with the upload still there: the settings survive runs that do not draw them
    at.file_uploader(key="trace_upload").set_value(None).run()
    assert not at.exception
    assert at.sidebar.slider(key="batch_size").value == 9


# server busy --------------------------------------------------------------------------------------------

BUSY = """
import streamlit as st
from loaderlab.scenarios.limits import ServerBusy
from loaderlab.ui.language import page_setup
from loaderlab.ui.settings import running
page_setup()
with running():
    raise ServerBusy("The server is busy: 2 run(s) already in progress (LOADERLAB_MAX_CONCURRENT_RUNS=2).")
"""


@pytest.mark.parametrize("lang, table", [("en", EN), ("ko", KO)])
def test_server_busy_is_said_in_the_pages_language(monkeypatch, lang, table):
    monkeypatch.setenv("LOADERLAB_MAX_CONCURRENT_RUNS", "2")
    at = AppTest.from_string(BUSY, default_timeout=TIMEOUT_S)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    assert [w.value for w in at.warning] == [table["error.busy"]]
    assert [c.value for c in at.caption] == [table["error.busy.detail"].format(slots=2)]


@pytest.mark.browser
@pytest.mark.slow
def test_no_deploy_button_in_a_real_browser_on_localhost():
    """On 127.0.0.1 the default toolbar ("auto") shows the Deploy button and the developer menu."""
    import os
    import signal

    from tests.ui.test_browser import ARGS, CHROMIUM, _settle, needs_browser, start_streamlit

    needs_browser()
    from playwright.sync_api import sync_playwright

    url, proc = start_streamlit()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            page.goto(f"{url}/Event_table?n_samples=64")
            _settle(page)
            assert page.locator("[data-testid=stAppDeployButton]").count() == 0
            assert page.get_by_text("Deploy", exact=True).count() == 0
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)
