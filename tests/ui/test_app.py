"""AppTest runs of the dashboard's pages: no exception, the key elements, torch's errors in place."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.helpers.processes import live_children

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120

pytestmark = pytest.mark.usefixtures("fresh_cache")


def test_home_page_runs_and_tours_the_first_batch():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S).run()
    assert not at.exception
    assert at.title[0].value.startswith("LoaderLab")
    charts = at.get("plotly_chart")
    assert len(charts) == 1
    spec = json.loads(charts[0].proto.spec)
    assert spec["layout"]["title"]["text"] == "Batch 0 of epoch 0, made by worker 0"
    assert live_children() == []


def test_invalid_combination_shows_torchs_message_not_a_traceback():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=TIMEOUT_S).run()
    at.slider(key="num_workers").set_value(0).run()
    at.checkbox(key="persistent_workers").check().run()
    assert not at.exception
    errors = [e.value for e in at.sidebar.error]
    assert errors == ["torch rejects these settings: persistent_workers option needs num_workers > 0"]
    assert len(at.get("plotly_chart")) == 0


def test_event_table_page_lists_events():
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=TIMEOUT_S).run()
    assert not at.exception
    table = at.dataframe[0].value
    assert {"kind", "worker", "batch", "index"} <= set(table.columns)
    assert (table["kind"] == "batch_yield").sum() == 32  # 512 samples / batch_size 16


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_event_table_page_says_where_its_columns_are_described(lang):
    """Issue 34: the page sent readers to the README, which has no schema; it lives in docs/trace-files.md."""
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=TIMEOUT_S)
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    said = " ".join(m.value for m in at.markdown)
    assert "README" not in said
    where = re.search(r"`(docs/[\w.-]+\.md)#([\w-]+)`", said)
    assert where, said
    sections = {re.sub(r"[^\w\- ]", "", head.strip().lower()).replace(" ", "-"): body  # GitHub's anchors
                for head, body in re.findall(r"^#+ ([^\n]+)\n(.*?)(?=^#+ |\Z)", (ROOT / where[1]).read_text(), re.M | re.S)}
    table = at.dataframe[0].value
    assert all(f"`{column}`" in sections[where[2]] for column in ("kind", "t_s", "worker", "nbytes", "detail"))
    assert {"kind", "t_s", "worker", "nbytes", "detail"} <= set(table.columns)


def test_a_run_that_fails_shows_torchs_error_in_place():
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=TIMEOUT_S)
    at.session_state["source"] = "stdlib_docstrings"  # ragged lengths: the default collate cannot stack them
    at.run()
    assert not at.exception
    assert len(at.error) == 1
    assert "stack expects each tensor to be equal size" in at.error[0].value
    assert at.error[0].value.startswith("The loader failed with these settings (RuntimeError)")
    assert live_children() == []
