"""The columnar trace file: exact round trips of every dtype, cut-off files, old JSON traces, foreign files."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.trace.files.columnar import TraceWriter
from loaderlab.trace.files.columnar_read import MAGIC, read_columnar, TraceFileError
from loaderlab.trace.files.io import load_trace, load_trace_bytes, save_trace
from loaderlab.trace.files import columnar
from tests.helpers.datasets import MapDataset

OLD_TRACES = Path(__file__).resolve().parents[1] / "data"


def every_dtype(n: int = 12, start: int = 0) -> pd.DataFrame:
    """One column of each kind the writer stores, with missing values and a label of every type."""
    labels = [None, math.nan, 1, True, 1.0, "1", "cat", 2**70, -3, False, 2.5, ""]
    lists = [[1, 2, 3], None, [], [2**40], None, [0], [5, 4], None, [7], [], [1], None]
    i = np.arange(start, start + n)
    frame = pd.DataFrame({
        "kind": pd.Series(np.array(["fetch_end", "index_put", "", "batch_yield"], dtype=object)[i % 4], dtype="str"),
        "t_ns": 10**12 + i * 1_000 + (i % 3) * 7,
        "worker": (i % 3 - 1).astype("int64"),
        "queue": pd.Series([None if k % 5 == 0 else f"q{k % 2}" for k in i], dtype="str"),
        "flag": (i % 2 == 0),
        "seconds": np.where(i % 4 == 0, np.nan, i / 7),
        "label": pd.Series([labels[k % len(labels)] for k in i], dtype=object),
        "stage": pd.Categorical([["a", "b", "c"][k % 3] for k in i], categories=["c", "b", "a", "unused"]),
        "indices": pd.Series([lists[k % len(lists)] for k in i], dtype=object),
        "rank": (i % 2).astype("int64"),
    })
    frame["t_s"] = (frame["t_ns"] - 10**12) / 1e9
    frame.loc[3, "t_s"] = -1.5  # not derivable from t_ns: stored as is
    frame.loc[5, "t_s"] = math.nan
    return frame


def same_cells(loaded: pd.DataFrame, original: pd.DataFrame) -> None:
    """Equal frames, dtypes, and each object cell of the same Python type (1, True and 1.0 differ)."""
    pd.testing.assert_frame_equal(loaded, original, check_exact=True)
    assert list(loaded.dtypes) == list(original.dtypes)
    for column in original.columns[original.dtypes == object]:
        for got, want in zip(loaded[column], original[column]):
            assert type(got) is type(want) and (got == want or (got != got and want != want)), (column, got, want)


def test_every_dtype_round_trips_over_chunks_with_meta(tmp_path):
    frame = every_dtype(30)
    with TraceWriter(tmp_path / "t.lltrace", {"loader": {"num_workers": 2}}) as writer:
        writer.write_frame(frame.iloc[:7])
        writer.set_meta("warnings", ["careful"])
        writer.write_frame(frame.iloc[7:20])
        writer.write_frame(frame.iloc[20:])
        writer.set_meta("epochs", 3)
        writer.set_meta("warnings", ["careful", "twice"])  # the last value set wins
    loaded, meta = read_columnar(tmp_path / "t.lltrace")
    same_cells(loaded, frame.reset_index(drop=True))
    assert meta == {"loader": {"num_workers": 2}, "warnings": ["careful", "twice"], "epochs": 3}
    assert list(loaded["stage"].cat.categories) == ["c", "b", "a", "unused"]


def test_an_empty_frame_keeps_its_columns_and_dtypes(tmp_path):
    empty = every_dtype().iloc[0:0]
    with TraceWriter(tmp_path / "t.lltrace", {}) as writer:
        writer.write_frame(empty)
    loaded, meta = read_columnar(tmp_path / "t.lltrace")
    assert list(loaded.columns) == list(empty.columns) and len(loaded) == 0 and meta == {}
    assert [str(d) for d in loaded.dtypes] == [str(d) for d in empty.dtypes]


def test_a_writer_with_no_chunk_still_makes_a_readable_file(tmp_path):
    with TraceWriter(tmp_path / "t.lltrace", {"a": 1}) as writer:
        writer.set_meta("b", 2)
    loaded, meta = read_columnar(tmp_path / "t.lltrace")
    assert loaded.shape == (0, 0) and meta == {"a": 1, "b": 2}


def test_a_later_chunk_must_match_the_first(tmp_path):
    with TraceWriter(tmp_path / "t.lltrace", {}) as writer:
        writer.write_frame(every_dtype(8))
        with pytest.raises(ValueError, match="'worker' is float64 in this chunk but int64 in the first"):
            writer.write_frame(every_dtype(8).astype({"worker": "float64"}))
        with pytest.raises(ValueError, match="expects the columns of the first chunk"):
            writer.write_frame(every_dtype(8).drop(columns="flag"))


def test_a_file_cut_off_mid_write_loads_its_whole_chunks(tmp_path):
    frame = every_dtype(30)
    path = tmp_path / "t.lltrace"
    sizes = []
    with TraceWriter(path, {"loader": {}}) as writer:
        for part in (frame.iloc[:10], frame.iloc[10:20], frame.iloc[20:]):
            writer.write_frame(part)
            sizes.append(path.stat().st_size)  # each chunk is on disk once write_frame returns
        writer.set_meta("epochs", 1)
    data = path.read_bytes()
    for cut, rows in ((sizes[2] - 1, 20), ((sizes[1] + sizes[2]) // 2, 20), (sizes[1] + 3, 20), (sizes[0] + 1, 10)):
        cut_path = tmp_path / f"cut{cut}.lltrace"
        cut_path.write_bytes(data[:cut])
        loaded, meta = read_columnar(cut_path)
        same_cells(loaded, frame.iloc[:rows].reset_index(drop=True))
        assert meta == {"loader": {}, "cut_short": True}  # the end's meta never made it to disk
    cut_path.write_bytes(data[:sizes[2]])  # every chunk, but the writer never closed: no end marker either
    loaded, meta = read_columnar(cut_path)
    assert len(loaded) == 30 and meta["cut_short"] and "epochs" not in meta


def test_a_recorded_trace_round_trips_through_save_trace(tmp_path):
    frame = record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2,
                   sample_info=lambda index, sample: (int(index) % 3, int(index) + 1))
    save_trace(frame, tmp_path / "t.lltrace")
    for loaded in (load_trace(tmp_path / "t.lltrace"), load_trace_bytes((tmp_path / "t.lltrace").read_bytes())):
        same_cells(loaded, frame)
        assert loaded.attrs == frame.attrs
    assert (tmp_path / "t.lltrace").read_bytes().startswith(MAGIC)


def test_the_columnar_file_is_sniffed_not_named(tmp_path):
    frame = record(DataLoader(MapDataset(5), batch_size=2))
    save_trace(frame, tmp_path / "t.lltrace")
    (tmp_path / "t.lltrace").rename(tmp_path / "renamed.json")
    same_cells(load_trace(tmp_path / "renamed.json"), frame)


def test_an_old_json_trace_still_loads():
    """tests/trace/data/trace_v1.json: written by save_trace's JSON (format version 1) before the columnar format."""
    path = OLD_TRACES / "trace_v1.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    loaded = load_trace(path)
    assert (doc["format"], doc["version"]) == ("loaderlab-trace", 1)
    assert len(loaded) == len(doc["events"]) == 54
    assert loaded["kind"].tolist() == [row[doc["columns"].index("kind")] for row in doc["events"]]
    assert loaded.attrs["loader"]["num_workers"] == 2 and loaded.attrs["epochs"] == 1
    assert sorted(loaded.loc[loaded["kind"] == "fetch_end", "label"].tolist()) == [0, 0, 1, 1, 2, 2]


@pytest.mark.parametrize("data, says", [
    (MAGIC, "ends before its column list"),
    (MAGIC + b"\xff\xff\xff\xff\x10\x00\x00\x00garbagegarbage!!", "ends before its column list"),
    (MAGIC[:7] + b"\x09" + b"\x00" * 20, "newer LoaderLab"),
])
def test_a_damaged_columnar_file_is_one_sentence(tmp_path, data, says):
    with pytest.raises(TraceFileError, match=says) as info:
        load_trace_bytes(data, "up.lltrace")
    message = str(info.value)
    assert message.startswith("up.lltrace") and message.count(". ") == 0 and "\n" not in message


def test_a_foreign_arrow_stream_is_refused_in_one_sentence(tmp_path):
    import pyarrow as pa

    sink = pa.BufferOutputStream()
    table = pa.table({"x": [1, 2]})
    with pa.ipc.new_stream(sink, table.schema) as writer:
        writer.write_table(table)
    with pytest.raises(TraceFileError, match="lacks LoaderLab's column notes"):
        load_trace_bytes(MAGIC + sink.getvalue().to_pybytes(), "x.lltrace")
    with pytest.raises(TraceFileError, match="not UTF-8 text"):  # no magic: not ours, read as (bad) JSON
        load_trace_bytes(sink.getvalue().to_pybytes(), "x.arrow")


def test_a_columnar_file_that_is_not_an_event_table_is_refused(tmp_path):
    with TraceWriter(tmp_path / "t.lltrace", {}) as writer:
        writer.write_frame(pd.DataFrame({"x": [1, 2]}))
    with pytest.raises(TraceFileError, match="lacks the columns kind, t_ns"):
        load_trace(tmp_path / "t.lltrace")


def test_save_trace_checks_the_table_for_the_columnar_format_too(tmp_path):
    frame = record(DataLoader(MapDataset(4), batch_size=2))
    with pytest.raises(ValueError, match="stores column 'rank' as int64"):
        save_trace(frame.assign(rank=0.5), tmp_path / "t.lltrace")


def test_compressed_small_and_chunked_bytes_per_event(tmp_path, monkeypatch):
    """Fetch-heavy rows with labels cost well under the 15 bytes-per-event goal (the benchmark measures 10 M)."""
    monkeypatch.setattr(columnar, "BATCH_ROWS", 5_000)  # several batches, as a long run writes them
    n = 20_000
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({
        "kind": pd.Series(np.where(np.arange(n) % 2, "fetch_end", "fetch_begin"), dtype="str"),
        "t_ns": 10**13 + np.cumsum(rng.integers(1_000, 50_000, n)), "worker": (np.arange(n) // 64 % 4).astype("int64"),
        "label": pd.Series(rng.integers(0, 10, n).tolist(), dtype=object), "detail": pd.Series([""] * n, dtype="str")})
    with TraceWriter(tmp_path / "t.lltrace", {}) as writer:
        writer.write_frame(frame)
    assert (tmp_path / "t.lltrace").stat().st_size / n < 6
    same_cells(read_columnar(tmp_path / "t.lltrace")[0], frame)
