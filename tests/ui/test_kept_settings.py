"""The sidebar's settings are one state per session (issue 28): kept outside the widgets, they win over what
Streamlit hands a page's fresh widgets on a page switch, and a rerun of the same page keeps the user's change.

AppTest cannot make Streamlit's browser-side reset, so the test makes it by hand: after a page switch it
writes the controls' minimums into the widgets' keys, as the browser did (``test_browser_switch.py`` clicks
the real sidebar)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.usefixtures("fresh_cache")


def _slider(at: AppTest, key: str):
    return next(s for s in at.sidebar.slider if s.key == key)


def test_a_page_switch_draws_the_kept_settings_not_what_the_new_widgets_were_handed():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.session_state["n_samples"] = 48
    at.switch_page("pages/1_Event_table.py").run()
    _slider(at, "batch_size").set_value(24).run()
    _slider(at, "num_workers").set_value(1).run()
    assert (_slider(at, "batch_size").value, _slider(at, "num_workers").value) == (24, 1)

    at.switch_page("pages/2_Index_queues.py")
    at.session_state["batch_size"], at.session_state["num_workers"] = 1, 0  # the reset a switch brings
    at.run()
    assert not at.exception
    assert (_slider(at, "batch_size").value, _slider(at, "num_workers").value) == (24, 1)
    assert _slider(at, "n_samples").value == 48

    _slider(at, "batch_size").set_value(8).run()  # the same page again: the user's change stands
    assert _slider(at, "batch_size").value == 8
    at.switch_page("pages/0_Lessons.py").run()  # a page without the controls, then one with them
    at.switch_page("pages/3_Worker_timelines.py").run()
    assert not at.exception
    assert (_slider(at, "batch_size").value, _slider(at, "num_workers").value) == (8, 1)
