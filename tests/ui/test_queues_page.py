"""AppTest runs of the "Index queues" page: the animation, its rows, the depth plots, the findings."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "pages" / "2_Index_queues.py")
TIMEOUT_S = 120
SMALL = dict(n_samples=48, batch_size=4, cost_ms=1.0, consumer_ms=2.0)  # widget keys = RunConfig fields

pytestmark = pytest.mark.usefixtures("fresh_cache")


def _page(**state) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=TIMEOUT_S)
    for key, value in {**SMALL, **state}.items():
        at.session_state[key] = value
    return at.run()


def _charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def _rows(spec: dict) -> list[str]:
    return spec["layout"]["yaxis"]["categoryarray"]


def test_page_animates_every_queue_and_plots_their_depths():
    at = _page()
    assert not at.exception
    assert at.title[0].value == "Index queues: where every batch waits"
    animation, depths = _charts(at)
    assert len(animation["frames"]) > 10
    assert len(animation["layout"]["sliders"][0]["steps"]) == len(animation["frames"])
    assert [b["label"] for b in animation["layout"]["updatemenus"][0]["buttons"]] == ["▶ Play", "❚❚ Pause"]
    assert _rows(animation)[::-1] == ["index_queue[0]", "index_queue[1]", "worker 0 (fetching)",
                                      "worker 1 (fetching)", "result_queue", "reorder buffer", "your loop"]
    assert any("outstanding tasks: 4 / 4" in f["layout"]["annotations"][0]["text"] for f in animation["frames"])
    names = {t.get("name") for t in depths["data"]}
    assert {"outstanding tasks", "index_queue[0]", "index_queue[1]", "cap: prefetch_factor × num_workers"} <= names
    assert [m.value for m in at.metric][:2] == ["4", "4"]  # the cap, and the most tasks out reached it
    assert "num_workers=2" in at.expander[0].code[0].value


def test_three_workers_give_three_index_queue_rows():
    at = _page()
    at.slider(key="num_workers").set_value(3).run()
    assert not at.exception
    rows = _rows(_charts(at)[0])
    assert [r for r in rows if r.startswith("index_queue")][::-1] == [f"index_queue[{k}]" for k in range(3)]
    assert len(rows) == 2 * 3 + 3


def test_a_straggler_in_order_shows_head_of_line_blocking():
    at = _page(straggler_index=10, straggler_ms=300.0)
    assert not at.exception
    animation = _charts(at)[0]
    parked = [y for f in animation["frames"] for t in f["data"] for y in t["y"] if y == "reorder buffer"]
    assert parked
    assert any("reorder buffer" in w.value and "index 10" in w.value for w in at.warning)
    at.checkbox(key="in_order").uncheck().run()
    animation = _charts(at)[0]
    assert not [y for f in animation["frames"] for t in f["data"] for y in t["y"] if y == "reorder buffer"]


def test_without_workers_the_page_says_there_are_no_queues():
    at = _page(num_workers=0)
    assert not at.exception
    assert _charts(at) == []
    assert "num_workers=0" in at.info[0].value



def test_one_rerun_counts_the_runs_queue_stays_once(monkeypatch):
    """The depth panels, the verdict's summary and the findings read the same queue stays, the animation its
    own places: each counted once per rerun (five times in all before: 0.6 s of a 1 s re-render).

    Counted by ``main_pid``, which the body of ``queue_stays`` calls once whatever the run holds (a count of
    ``_first_leave`` calls depends on whether any batch was parked, which is up to the workers' timing)."""
    import loaderlab
    from loaderlab.trace.tables import stays
    calls = []
    real = stays.main_pid
    monkeypatch.setattr(stays, "main_pid", lambda *a, **k: calls.append(1) or real(*a, **k))
    frame = loaderlab.record(loaderlab.DataLoader(list(range(8)), batch_size=2, num_workers=2))
    stays.queue_stays(frame, stays.MEASURED)  # the summary's and the depths' places
    stays.queue_stays(frame, stays.ROWS)  # the animation's
    assert len(calls) == 2
    calls.clear()
    at = _page(batch_size=3)
    assert not at.exception and at.get("plotly_chart")
    assert len(calls) == 2
