"""AppTest runs of the home page's pipeline tour and of the "Worker timelines" page.

Small runs via session state (widget keys equal RunConfig field names). Round robin decides which worker
makes a batch; a 300 ms straggler against 1 ms samples decides what stalls. No timing is asserted.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from loaderlab.scenarios.run import PRESET_FINDINGS, PRESETS, RunConfig, build_loader
from loaderlab.ui.timelines_page import SWEEP_MOST, sweep_config

ROOT = Path(__file__).resolve().parents[2]
HOME, TIMELINES = str(ROOT / "app.py"), str(ROOT / "pages" / "3_Worker_timelines.py")
TIMEOUT_S = 120
SMALL = dict(n_samples=48, batch_size=4, cost_ms=1.0, consumer_ms=2.0)
STRAGGLER = dict(straggler_index=10, straggler_ms=300.0)  # index 10: task 2, worker 0

pytestmark = [pytest.mark.usefixtures("fresh_cache"), pytest.mark.timing]


def _page(path: str, **state) -> AppTest:
    at = AppTest.from_file(path, default_timeout=TIMEOUT_S)
    for key, value in {**SMALL, **state}.items():
        at.session_state[key] = value
    return at.run()


def _charts(at: AppTest) -> list[dict]:
    return [json.loads(el.proto.spec) for el in at.get("plotly_chart")]


def _values(v) -> list:
    """A spec array: plotly sends numeric arrays as base64 (``bdata``), others as lists."""
    if isinstance(v, dict) and "bdata" in v:
        return np.frombuffer(base64.b64decode(v["bdata"]), dtype=v["dtype"]).tolist()
    return list(v)


def _highlighted(spec: dict) -> set[str]:
    return {s["name"] for s in spec["layout"]["shapes"] if s["type"] == "rect" and s["line"]["width"] == 3}


# --- the pipeline tour (home) ----------------------------------------------------------------------


def test_home_tours_one_batch_and_the_slider_steps_to_another():
    at = _page(HOME)
    assert not at.exception
    assert at.title[0].value.startswith("LoaderLab")
    assert at.select_slider(key="tour_batch").value == 0
    (spec,) = _charts(at)
    assert spec["layout"]["title"]["text"] == "Batch 0 of epoch 0, made by worker 0"
    assert {"index_queue[0]", "worker[0]"} <= _highlighted(spec)
    assert not {"index_queue[1]", "worker[1]"} & _highlighted(spec)

    at.select_slider(key="tour_batch").set_value(3).run()
    assert not at.exception
    (spec,) = _charts(at)
    assert spec["layout"]["title"]["text"] == "Batch 3 of epoch 0, made by worker 1"
    assert {"index_queue[1]", "worker[1]"} <= _highlighted(spec)
    assert not {"index_queue[0]", "worker[0]"} & _highlighted(spec)
    captions = [c.value for c in at.caption]
    assert any(c.startswith("This batch: drew indices · 12, 13, 14, 15") for c in captions)


def test_home_explains_every_stage_and_links_every_page():
    at = _page(HOME)
    headings = [m.value for m in at.markdown if m.value.startswith("**")]
    assert len(headings) == 8
    for argument in ("batch_size", "sampler", "shuffle", "batch_sampler", "num_workers", "prefetch_factor",
                     "collate_fn", "in_order", "pin_memory"):
        assert any(f"`{argument}`" in h for h in headings), argument
    links = at.main.get("page_link")  # the sidebar lists the pages too
    assert len(links) == len(list((ROOT / "pages").glob("*.py")))
    assert "Worker_timelines" in {link.proto.page for link in links}
    assert "num_workers=2" in at.expander[0].code[0].value


def test_home_with_a_straggler_shows_the_parked_batch():
    at = _page(HOME, **STRAGGLER, tour_batch=3)
    assert not at.exception
    (spec,) = _charts(at)
    reorder = next(a["text"] for a in spec["layout"]["annotations"] if a["text"].startswith("<b>reorder buffer"))
    assert "parked" in reorder and reorder.replace("<br>", " ").endswith("waiting for batch 2")
    assert "parked (reorder)" in {t["y"][0] for t in spec["data"]}


def test_home_without_workers_tours_the_main_process():
    at = _page(HOME, num_workers=0)
    assert not at.exception
    (spec,) = _charts(at)
    assert spec["layout"]["title"]["text"] == "Batch 0 of epoch 0, made by the main process"
    dashed = {s["name"] for s in spec["layout"]["shapes"] if s["type"] == "rect" and s["line"].get("dash") == "dash"}
    assert {"index_queue", "result_queue", "reorder", "pin"} == dashed


def test_a_smaller_run_keeps_the_chosen_batch_in_range():
    at = _page(HOME, tour_batch=11)
    at.session_state["n_samples"] = 16  # 4 batches: batch 11 no longer exists
    at.run()
    assert not at.exception
    assert at.select_slider(key="tour_batch").value == 3


# --- worker timelines ------------------------------------------------------------------------------


def _lanes(spec: dict) -> set[str]:
    return {y for trace in spec["data"] for y in trace["y"]}


def _preset_page(path: str, name: str) -> AppTest:
    """``path`` with workshop preset ``name``'s settings (as the sidebar's preset choice sets them)."""
    at = AppTest.from_file(path, default_timeout=TIMEOUT_S)
    for key, value in PRESETS[name].items():
        at.session_state[key] = value
    return at.run()


def _verdict_numbers(at: AppTest) -> tuple[str, str]:
    """(seconds waited, share waiting) as the loader-bound / model-bound verdict words them."""
    (verdict,) = [i.value for i in at.info if "-bound:" in i.value]
    return (re.search(r"waited (?:only )?(\d+\.\d+) s for batches", verdict).group(1),
            re.search(r"\((\d+%) waiting", verdict).group(1))


def test_timelines_draw_a_lane_per_process_with_metrics_and_no_stalls():
    at = _page(TIMELINES, consumer_ms=20.0)  # a 20 ms step: model-bound, nothing to report
    assert not at.exception
    assert at.title[0].value == "Worker timelines: who did what, when"
    (gantt,) = _charts(at)
    assert _lanes(gantt) == {"main", "worker 0", "worker 1"}
    assert [m.label for m in at.metric] == ["batches / s", "main process waited (s)",
                                            "share of the loop spent waiting", "workers busy (mean)"]
    assert float(at.metric[0].value) > 0
    assert at.success[0].value.startswith("No stalls in this run")
    assert "stall (see the table)" not in {t.get("name") for t in gantt["data"]}
    assert (at.metric[1].value, at.metric[2].value) == _verdict_numbers(at)  # one definition of waiting


def test_one_slow_worker_preset_names_the_worker_and_what_it_costs():
    at = _preset_page(TIMELINES, "one slow worker")
    assert not at.exception
    assert not at.success  # no green "no stalls" beside a slow worker
    table = at.table[0].value
    slow = table[table["what"] == "slow worker"]
    assert slow["worker"].tolist() == ["1"]
    details = slow["details"].iloc[0]
    ratio = float(re.search(r"Worker 1 is (\d+\.\d)x slower than the others", details).group(1))
    assert ratio >= 2.0
    assert re.search(r"The loop waited \d+\.\d{3} s longer for its \d+ batches", details)
    # The metrics and the verdict say the same: one definition of waiting, shown the same way.
    wait, share = _verdict_numbers(at)
    assert (at.metric[1].value, at.metric[2].value) == (wait, share)
    assert PRESET_FINDINGS["one slow worker"] == ("slow_worker", "3_Worker_timelines")


def test_one_slow_worker_preset_in_korean():
    at = AppTest.from_file(TIMELINES, default_timeout=TIMEOUT_S)
    for key, value in PRESETS["one slow worker"].items():
        at.session_state[key] = value
    at.query_params["lang"] = "ko"
    at.run()
    assert not at.exception
    table = at.table[0].value
    (details,) = table[table[table.columns[0]] == "느린 워커"][table.columns[-1]].tolist()
    assert details.startswith("워커 1: 다른 워커보다") and "배 느립니다" in details


def test_changing_num_workers_reruns_with_that_many_lanes():
    at = _page(TIMELINES)
    at.slider(key="num_workers").set_value(3).run()
    assert not at.exception
    assert _lanes(_charts(at)[0]) == {"main", "worker 0", "worker 1", "worker 2"}


def test_a_straggler_is_outlined_and_listed_with_its_batch_worker_and_index():
    at = _page(TIMELINES, **STRAGGLER)
    assert not at.exception
    table = at.table[0].value
    slow = table[table["what"] == "slow samples"]
    assert slow[["batch", "worker", "sample index"]].values.tolist() == [["2", "0", "10"]]
    assert "Slowest: index 10 (batch 2, worker 0, " in slow["details"].iloc[0]
    (gantt,) = _charts(at)
    mark = next(t for t in gantt["data"] if t.get("name") == "stall (see the table)")
    assert "worker 0" in mark["y"]


def test_the_sweep_button_plots_measured_and_ideal_throughput():
    at = _page(TIMELINES)
    assert len(_charts(at)) == 1
    at.button(key="timelines_sweep").click().run()
    assert not at.exception
    _, sweep = _charts(at)
    measured, ideal = sweep["data"]
    assert (measured["name"], ideal["name"]) == ("measured", "ideal: 1 worker's rate × num_workers, up to the cores")
    assert _values(measured["x"]) == list(range(SWEEP_MOST + 1))
    assert all(v > 0 for v in _values(measured["y"]))
    assert _values(ideal["x"]) == list(range(1, SWEEP_MOST + 1))
    assert sweep["layout"]["xaxis"]["title"]["text"] == "num_workers"

    at.run()  # a rerun keeps the sweep (cached) on screen
    assert len(_charts(at)) == 2
    at.slider(key="batch_size").set_value(8).run()  # other settings: the old sweep no longer applies
    assert len(_charts(at)) == 1
    assert any(c.value.startswith("The sidebar's settings changed since the sweep") for c in at.caption)


def test_the_sweep_without_workers_drops_what_torch_forbids_there():
    config = RunConfig(num_workers=2, persistent_workers=True, timeout=5.0, epochs=3)
    zero, two = sweep_config(config, 0), sweep_config(config, 2)
    assert (zero.num_workers, zero.persistent_workers, zero.timeout, zero.epochs) == (0, False, 0.0, 1)
    assert (two.num_workers, two.persistent_workers, two.timeout, two.epochs) == (2, True, 5.0, 1)
    build_loader(zero)  # torch accepts it (persistent_workers=True would raise without workers)
