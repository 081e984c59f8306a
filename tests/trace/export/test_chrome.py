"""Chrome trace export: valid JSON, one named track per process, spans that nest, arrows that pair up."""

from __future__ import annotations

import json
import warnings
from collections import defaultdict

import pandas as pd
import pytest
import torch.utils.data

from loaderlab import DataLoader, record
from loaderlab.trace.export.chrome_events import MAIN_PID, PIN_TID
from loaderlab.trace.export.chrome import save_chrome_trace, to_chrome_trace
from tests.helpers.datasets import MapDataset


@pytest.fixture(scope="module")
def traces() -> dict[str, pd.DataFrame]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pin_memory on a machine without an accelerator warns, as torch does
        pinned = record(DataLoader(MapDataset(6), batch_size=2, num_workers=2, pin_memory=True))
    return {
        "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
        "single": record(DataLoader(MapDataset(5), batch_size=2)),
        "pinned": pinned,
        "torch": record(torch.utils.data.DataLoader(MapDataset(6), batch_size=2, num_workers=2)),
    }


def events(doc: dict, ph: str, name: str | None = None) -> list[dict]:
    return [e for e in doc["traceEvents"] if e["ph"] == ph and (name is None or e["name"] == name)]


def track_names(doc: dict) -> dict[tuple[int, int], str]:
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in events(doc, "M", "thread_name")}


def assert_spans_nest(doc: dict) -> None:
    """On each track, two spans are either disjoint or one inside the other (what Perfetto can draw)."""
    by_track = defaultdict(list)
    for e in events(doc, "X"):
        by_track[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"]))
    for track, spans in by_track.items():
        stack: list[tuple] = []
        for begin, end, name in sorted(spans, key=lambda s: (s[0], -s[1])):
            while stack and stack[-1][1] <= begin + 1e-6:
                stack.pop()
            assert not stack or end <= stack[-1][1] + 1e-6, f"{name} overlaps {stack[-1][2]} on track {track}"
            stack.append((begin, end, name))


@pytest.mark.parametrize("name", ["workers", "single", "pinned", "torch"])
def test_valid_json_with_non_negative_spans(traces, tmp_path, name):
    save_chrome_trace(traces[name], tmp_path / "chrome.json")
    doc = json.loads((tmp_path / "chrome.json").read_text(encoding="utf-8"))
    assert doc == json.loads(json.dumps(to_chrome_trace(traces[name])))
    assert {e["ph"] for e in doc["traceEvents"]} <= {"M", "X", "i", "s", "t", "f"}
    for e in doc["traceEvents"]:
        assert isinstance(e["pid"], int) and isinstance(e["tid"], int) and isinstance(e["name"], str)
        if e["ph"] != "M":
            assert e["ts"] >= 0
        if e["ph"] == "X":
            assert e["dur"] >= 0
    assert min(e["ts"] for e in doc["traceEvents"] if e["ph"] != "M") == 0
    assert_spans_nest(doc)


def test_one_named_track_per_process(traces):
    doc = to_chrome_trace(traces["workers"])
    assert sorted(track_names(doc).values()) == ["main", "worker 0", "worker 1"]
    processes = {e["pid"]: e["args"]["name"] for e in events(doc, "M", "process_name")}
    assert processes == {MAIN_PID: "main", MAIN_PID + 1: "worker 0", MAIN_PID + 2: "worker 1"}
    order = {e["pid"]: e["args"]["sort_index"] for e in events(doc, "M", "process_sort_index")}
    assert sorted(order, key=order.get) == [MAIN_PID, MAIN_PID + 1, MAIN_PID + 2]
    # two epochs without persistent workers: each slot was two OS processes, both named in its label
    labels = {e["pid"]: e["args"]["labels"] for e in events(doc, "M", "process_labels")}
    assert all(labels[pid].count(",") == 1 for pid in (MAIN_PID + 1, MAIN_PID + 2))


def test_spans_for_every_stage(traces):
    frame = traces["workers"]
    doc = to_chrome_trace(frame)
    count = frame["kind"].value_counts()
    names = track_names(doc)
    fetches = events(doc, "X", "fetch")
    assert len(fetches) == count["fetch_end"]
    assert all(names[(e["pid"], e["tid"])].startswith("worker") and "index" in e["args"] for e in fetches)
    assert len(events(doc, "X", "collate")) == count["collate_end"]
    assert len(events(doc, "X", "consume")) == count["consumer_end"]
    assert len(events(doc, "X", "wait for batch")) == count["batch_yield"]
    startups = events(doc, "X", "start-up")
    assert len(startups) == count["worker_start"] == 4
    assert all(names[(e["pid"], e["tid"])].startswith("worker") for e in startups)
    tasks = [e for e in events(doc, "X") if e["name"].startswith("batch ")]
    assert len(tasks) == count["result_put"]
    assert not any(e["args"].get("unfinished") for e in events(doc, "X"))


def test_instants_for_queue_hops_and_reordering(traces):
    frame = traces["workers"]
    doc = to_chrome_trace(frame)
    instants = events(doc, "i")
    for kind in ("index_put", "index_get", "result_put", "result_get", "reorder_park", "reorder_release"):
        assert sum(e["name"].startswith(kind) for e in instants) == (frame["kind"] == kind).sum()
    assert all(e["s"] == "t" for e in instants)


def test_flows_pair_up_one_per_batch(traces):
    frame = traces["workers"]
    doc = to_chrome_trace(frame)
    by_id = defaultdict(dict)
    for e in doc["traceEvents"]:
        if e["ph"] in ("s", "t", "f"):
            assert e["ph"] not in by_id[e["id"]], f"flow {e['id']} has two {e['ph']!r} events"
            by_id[e["id"]][e["ph"]] = e
    assert len(by_id) == (frame["kind"] == "batch_yield").sum() == 10
    names = track_names(doc)
    for flow in by_id.values():
        assert set(flow) == {"s", "t", "f"}
        assert flow["s"]["ts"] <= flow["t"]["ts"] <= flow["f"]["ts"]
        assert len({(e["name"], e["cat"]) for e in flow.values()}) == 1  # Perfetto joins flows by (id, cat, name)
        assert names[(flow["s"]["pid"], flow["s"]["tid"])] == "main" == names[(flow["f"]["pid"], flow["f"]["tid"])]
        assert names[(flow["t"]["pid"], flow["t"]["tid"])].startswith("worker")


def test_single_process_has_only_main_and_no_flows(traces):
    doc = to_chrome_trace(traces["single"])
    assert list(track_names(doc).values()) == ["main"]
    assert not events(doc, "s") and not events(doc, "f")
    assert len(events(doc, "X", "fetch")) == 5


def test_pin_thread_has_its_own_track(traces):
    doc = to_chrome_trace(traces["pinned"])
    assert track_names(doc)[(MAIN_PID, PIN_TID)] == "pin_memory thread"
    pins = events(doc, "X", "pin")
    assert len(pins) == 3 and all((e["pid"], e["tid"]) == (MAIN_PID, PIN_TID) for e in pins)


def test_copes_with_missing_kinds_and_cut_short_traces(traces):
    frame = traces["workers"]
    assert to_chrome_trace(frame.iloc[0:0])["traceEvents"] == []
    only_main = frame[frame["worker"] < 0].reset_index(drop=True)
    assert_spans_nest(to_chrome_trace(only_main))
    # cut just after a worker began a fetch: that fetch and its task have no end
    first_fetch = frame.index[frame["kind"] == "fetch_begin"][0]
    cut = frame.iloc[: first_fetch + 1]
    doc = to_chrome_trace(cut)
    assert_spans_nest(doc)
    unfinished = [e for e in events(doc, "X") if e["args"].get("unfinished")]
    assert {e["name"].split()[0] for e in unfinished} >= {"fetch", "batch"}
    no_starts = frame[frame["kind"] != "worker_start"]
    assert len(events(to_chrome_trace(no_starts), "i", "worker_ready")) == 4
    unknown = frame.copy()
    unknown.loc[0, "kind"] = "something_new"
    assert events(to_chrome_trace(unknown), "i", "something_new")


def test_a_stock_torch_trace_has_tracks_spans_and_arrows(traces):
    # torch hides its queues: no index_put / index_get / worker_start, so arrows run sampler → collate → loop
    doc = to_chrome_trace(traces["torch"])
    assert sorted(track_names(doc).values()) == ["main", "worker 0", "worker 1"]
    assert len(events(doc, "X", "fetch")) == 6 and len(events(doc, "X", "collate")) == 3
    assert len(events(doc, "s")) == len(events(doc, "t")) == len(events(doc, "f")) == 3
    assert all(e["pid"] != MAIN_PID for e in events(doc, "t"))


def test_a_worker_ready_before_main_noted_its_start_still_pairs(traces):
    frame = traces["workers"].copy()
    start = frame.index[frame["kind"] == "worker_start"][0]
    pid = int(frame.loc[start, "arg0"])
    ready = frame.index[(frame["kind"] == "worker_ready") & (frame["pid"] == pid)][0]
    frame.loc[start, "t_ns"] = frame.loc[ready, "t_ns"] + 1_000
    startups = events(to_chrome_trace(frame), "X", "start-up")
    assert len(startups) == 4 and not any(e["args"].get("unfinished") for e in startups)
    assert min(e["dur"] for e in startups) == 0
