"""Trace files: exact round trips of recorded traces, and one clear sentence for every broken file."""

from __future__ import annotations

import json

import pandas as pd
import pytest
import torch.utils.data

from loaderlab import DataLoader, record
from loaderlab.trace.files.io import FORMAT, VERSION
from loaderlab.trace.files.columnar_read import TraceFileError
from loaderlab.trace.files.io import load_trace, load_trace_bytes, save_trace, trace_document
from tests.helpers.datasets import MapDataset


def label_and_length(index, sample):
    """sample_info hook: a label that is an int, and a length (top level, so workers can unpickle it)."""
    return int(index) % 3, int(index) + 1


@pytest.fixture(scope="module")
def traces() -> dict[str, pd.DataFrame]:
    return {
        "single": record(DataLoader(MapDataset(7), batch_size=3)),
        "workers_2_epochs_2": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
        "labelled": record(DataLoader(MapDataset(5), batch_size=2, shuffle=True), sample_info=label_and_length),
        "torch": record(torch.utils.data.DataLoader(MapDataset(6), batch_size=2, num_workers=2)),
    }


def assert_same(loaded: pd.DataFrame, original: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(loaded, original, check_exact=True)
    assert loaded.attrs == original.attrs
    assert list(loaded.dtypes) == list(original.dtypes)


@pytest.mark.parametrize("name", ["single", "workers_2_epochs_2", "labelled", "torch"])
def test_round_trip_is_exact(traces, tmp_path, name):
    frame = traces[name]
    save_trace(frame, tmp_path / "trace.json")
    assert_same(load_trace(tmp_path / "trace.json"), frame)
    assert_same(load_trace_bytes((tmp_path / "trace.json").read_bytes(), "upload.json"), frame)


def test_round_trip_keeps_workers_epochs_and_settings(traces, tmp_path):
    frame = traces["workers_2_epochs_2"]
    save_trace(frame, tmp_path / "t.json")
    loaded = load_trace(tmp_path / "t.json")
    assert set(loaded["worker"]) == {-1, 0, 1}
    assert set(loaded["epoch"]) == {0, 1}
    assert loaded.attrs["epochs"] == 2
    assert loaded.attrs["loader"]["num_workers"] == 2


def test_labels_survive_as_ints(traces, tmp_path):
    frame = traces["labelled"]
    save_trace(frame, tmp_path / "t.json")
    fetched = load_trace(tmp_path / "t.json").query("kind == 'fetch_end'")
    assert sorted(fetched["label"].tolist()) == sorted(i % 3 for i in range(5))
    assert sorted(fetched["length"].tolist()) == [1, 2, 3, 4, 5]


def test_a_slice_keeps_its_own_t_s(traces, tmp_path):
    part = traces["workers_2_epochs_2"].iloc[10:30].reset_index(drop=True)
    assert "t_s" in trace_document(part)["columns"]  # not derivable from its own first row any more
    save_trace(part, tmp_path / "t.json")
    assert_same(load_trace(tmp_path / "t.json"), part)


def test_an_empty_table_round_trips(traces, tmp_path):
    empty = traces["single"].iloc[0:0]
    save_trace(empty, tmp_path / "t.json")
    assert_same(load_trace(tmp_path / "t.json"), empty)


def test_the_file_is_compact_and_documented(traces, tmp_path):
    save_trace(traces["single"], tmp_path / "t.json")
    text = (tmp_path / "t.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    assert (doc["format"], doc["version"]) == (FORMAT, VERSION) == ("loaderlab-trace", 1)
    assert doc["settings"] == traces["single"].attrs["loader"] and doc["epochs"] == 1
    assert "t_s" not in doc["columns"]  # recomputed from t_ns on load
    assert len(doc["events"]) == len(traces["single"])
    assert len(text) < len(json.dumps(doc)) and text.count("\n") == 1  # no spaces after separators, one line


def test_save_refuses_tables_that_are_not_event_tables(traces, tmp_path):
    with pytest.raises(ValueError, match="extra"):
        save_trace(traces["single"].assign(duration_s=1.0), tmp_path / "t.json")
    odd = traces["single"].copy()
    odd["label"] = [object()] * len(odd)
    with pytest.raises(ValueError, match="convert such labels"):
        save_trace(odd, tmp_path / "t.json")


# --- broken files ----------------------------------------------------------------------------------


def good_doc(traces) -> dict:
    return json.loads(json.dumps(trace_document(traces["single"])))


def broken(traces, change) -> bytes:
    doc = good_doc(traces)
    change(doc)
    return json.dumps(doc).encode()


CASES = {
    "empty": (lambda t: b"", "upload.json is empty"),
    "blank": (lambda t: b"  \n", "upload.json is empty"),
    "not utf-8": (lambda t: b"\xff\xfe\x00{", "is not UTF-8 text"),
    "truncated": (lambda t: json.dumps(good_doc(t)).encode()[:200], "looks cut short"),
    "not json": (lambda t: b"kind,t_ns\nfetch,1\n", "is not valid JSON"),
    "a list": (lambda t: b"[1, 2]", "not a LoaderLab trace (it holds a list"),
    "wrong format": (lambda t: broken(t, lambda d: d.update(format="csv")), 'its "format" is "csv"'),
    "no format": (lambda t: b'{"events": []}', 'no "format": "loaderlab-trace" field'),
    "chrome trace": (lambda t: b'{"traceEvents": []}', "is a Chrome trace"),
    "future version": (lambda t: broken(t, lambda d: d.update(version=3)),
                       "upload.json was written by a newer LoaderLab (format version 3); this LoaderLab reads "
                       "version 1 — upgrade LoaderLab."),
    "version as text": (lambda t: broken(t, lambda d: d.update(version="1")), '"version" field'),
    "missing column": (lambda t: broken(t, lambda d: d["columns"].remove("kind")), "lacks the column kind"),
    "unknown column": (lambda t: broken(t, lambda d: d["columns"].append("colour")), "unknown columns colour"),
    "no events": (lambda t: broken(t, lambda d: d.pop("events")), 'has no "events" field'),
    "events not a list": (lambda t: broken(t, lambda d: d.update(events={})), '"events" field'),
    "short row": (lambda t: broken(t, lambda d: d["events"][2].pop()), "event 2 of upload.json has 16 values"),
    "row not a list": (lambda t: broken(t, lambda d: d["events"].__setitem__(0, "x")), "event 0 of upload.json is the string \"x\", not a list of 17 values"),
    "text in t_ns": (lambda t: broken(t, lambda d: d["events"][1].__setitem__(1, "soon")),
                     'the string "soon" in column t_ns, where an integer belongs'),
    "float in batch": (lambda t: broken(t, lambda d: d["events"][1].__setitem__(5, 1.5)), "in column batch"),
    "list label": (lambda t: broken(t, lambda d: d["events"][1].__setitem__(9, [1])), "a list in column label"),
    "settings a list": (lambda t: broken(t, lambda d: d.update(settings=[])), '"settings" field'),
    "epochs text": (lambda t: broken(t, lambda d: d.update(epochs="two")), '"epochs" field'),
    "bad dtype": (lambda t: broken(t, lambda d: d["dtypes"].update(kind="category")), 'the unknown dtype "category"'),
    "no dtypes": (lambda t: broken(t, lambda d: d.pop("dtypes")), 'no "dtypes" field'),
}


@pytest.mark.parametrize("case", CASES)
def test_broken_files_raise_one_clear_sentence(traces, case):
    make, fragment = CASES[case]
    with pytest.raises(TraceFileError) as info:
        load_trace_bytes(make(traces), "upload.json")
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message and message.startswith(("upload.json", "event ", "the ")) and message.endswith(".")
    assert isinstance(info.value, ValueError)
    error = info.value
    assert error.__cause__ is None and (error.__context__ is None or error.__suppress_context__)  # nothing chained


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(TraceFileError, match="there is no file .*nothere.json; check the path"):
        load_trace(tmp_path / "nothere.json")
    with pytest.raises(TraceFileError, match="is a folder, not a trace file"):
        load_trace(tmp_path)
