"""The compact events table (categorical strings, int32 where values fit): what a big trace is loaded as.

``load_trace(path, compact=True)`` decodes a ``.lltrace`` a batch at a time into :func:`frame.compact_table`'s
dtypes; every analysis must say the same of it as of the full table (oracles: the full table's outputs)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.trace.core.frame import compact_table
from loaderlab.trace.core import lookups
from loaderlab.trace.tables.stays import queue_depths
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.tables.waits import stage_spans, throughput, wait_totals
from loaderlab.trace.export.chrome import save_chrome_trace
from loaderlab.trace.files.columnar import TraceWriter
from loaderlab.trace.files.columnar_read import read_columnar
from loaderlab.trace.files.io import load_trace, save_trace
from loaderlab.trace.diagnosis.bottleneck import verdict
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.diagnosis.report import report_text
from tests.helpers.datasets import MapDataset
from tests.helpers.planted import record_cause
from tests.trace.files.test_columnar import every_dtype, same_cells


@pytest.fixture(scope="module")
def traces() -> dict[str, pd.DataFrame]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
            "single": record(DataLoader(MapDataset(8), batch_size=2), sample_info=lambda i, s: (int(i) % 3, 1)),
            "persistent": record(DataLoader(MapDataset(16), batch_size=2, num_workers=2, in_order=False,
                                            persistent_workers=True), epochs=2,
                                 sample_info=lambda i, s: (["cat", 1, None][int(i) % 3], 1)),
            "straggler": record_cause("straggler"),
        }
    out["cut_short"] = out["workers"].iloc[:len(out["workers"]) // 2].reset_index(drop=True)
    out["cut_short"].attrs = dict(out["workers"].attrs)
    return out


def _outputs(frame: pd.DataFrame, tmp_path, name: str) -> dict:
    path = tmp_path / f"{name}.json"
    save_chrome_trace(frame, path)
    return {"report": report_text(frame),
            "findings": repr(all_findings(frame)), "verdict": repr(verdict(frame)),
            "chrome": path.read_text(), "throughput": throughput(frame), "waits": wait_totals(frame),
            "util": worker_utilisation(frame), "depths": queue_depths(frame), "spans": stage_spans(frame)}


@pytest.mark.parametrize("name", ["workers", "single", "persistent", "straggler", "cut_short"])
def test_the_compact_table_gives_the_same_analysis(traces, name, tmp_path, monkeypatch):
    frame = traces[name]
    monkeypatch.setattr(lookups, "INDEX_MIN_ROWS", 10**12)
    full = _outputs(frame, tmp_path, "full")  # the oracle: the full table, every kind filtered row by row
    monkeypatch.setattr(lookups, "INDEX_MIN_ROWS", 0)  # the compact table's kinds looked up as a big trace's are
    small = compact_table(frame)
    assert small["kind"].dtype == "category" and small["batch"].dtype == "int32"
    assert small.attrs == frame.attrs and lookups.normal(small)["pid"].dtype == "int32"  # not widened again
    compact = _outputs(small, tmp_path, "compact")
    for key, value in full.items():
        if isinstance(value, pd.DataFrame):  # the same values; int columns may be narrower
            pd.testing.assert_frame_equal(compact[key], value, check_dtype=False, check_categorical=False,
                                          check_index_type=False)
        else:
            assert compact[key] == value, key


def test_a_compact_load_is_the_compact_table_of_the_full_load(traces, tmp_path):
    path = tmp_path / "t.lltrace"
    save_trace(traces["persistent"], path)
    same_cells(load_trace(path, compact=True), compact_table(load_trace(path)))
    json_path = tmp_path / "t.json"
    save_trace(traces["persistent"], json_path)
    same_cells(load_trace(json_path, compact=True), compact_table(load_trace(json_path)))


def test_every_dtype_loads_compact_over_chunks_and_cut_off(tmp_path):
    frame = every_dtype(30)
    frame["batch"] = np.arange(30, dtype="int64")
    frame["arg1"] = np.where(np.arange(30) == 25, 2**40, 7)  # the last chunk does not fit int32: int64 throughout
    path = tmp_path / "t.lltrace"
    sizes = []
    with TraceWriter(path, {"loader": {}}) as writer:
        for part in (frame.iloc[:10], frame.iloc[10:20], frame.iloc[20:]):
            writer.write_frame(part)
            sizes.append(path.stat().st_size)
    loaded, meta = read_columnar(path, compact=True)
    want = compact_table(frame)
    assert want["kind"].dtype == "category" and want["queue"].dtype == "str"  # a missing queue: kept as text
    assert want["worker"].dtype == "int32" and want["arg1"].dtype == "int64" and want["rank"].dtype == "int64"
    same_cells(loaded, want)
    assert list(loaded["stage"].cat.categories) == ["c", "b", "a", "unused"]  # a category column's own order
    cut = tmp_path / "cut.lltrace"
    cut.write_bytes(path.read_bytes()[:sizes[1] + 3])
    loaded, meta = read_columnar(cut, compact=True)
    same_cells(loaded, compact_table(frame.iloc[:20].reset_index(drop=True)))
    assert meta["cut_short"] and loaded["arg1"].dtype == "int32"


def test_a_column_is_joined_a_piece_at_a_time_each_piece_let_go_once_copied():
    import weakref

    from loaderlab.trace.files.compact import _Pieces

    pieces, refs = _Pieces(), []
    for k in range(4):
        piece = np.arange(3, dtype=np.int32) + 10 * k
        refs.append(weakref.ref(piece))
        pieces.append(piece)
    del piece
    copied = []

    def write(here, piece, at):  # called with each piece in turn: by then every earlier piece must be gone
        copied.append([r() is not None for r in refs])
        here[:] = piece * 2

    joined = pieces.join(np.int64, write)
    assert joined.tolist() == [2 * v for k in range(4) for v in (10 * k, 10 * k + 1, 10 * k + 2)]
    assert copied == [[True, True, True, True], [False, True, True, True], [False, False, True, True],
                      [False, False, False, True]]
    assert all(r() is None for r in refs) and pieces.parts == []


def test_a_column_of_one_value_over_every_batch_loads_as_a_view_of_that_value(tmp_path):
    frame = every_dtype(30)
    frame["arg2"] = np.full(30, -1, dtype=np.int64)  # one value in every chunk
    frame["arg3"] = np.where(np.arange(30) < 20, 5, 6)  # one value in two chunks, another in the third
    path = tmp_path / "t.lltrace"
    with TraceWriter(path, {"loader": {}}) as writer:
        for part in (frame.iloc[:10], frame.iloc[10:20], frame.iloc[20:]):
            writer.write_frame(part)
    loaded, _ = read_columnar(path, compact=True)
    same_cells(loaded, compact_table(frame))
    arg2, arg3 = loaded["arg2"].to_numpy(), loaded["arg3"].to_numpy()
    assert arg2.dtype == np.int32 and arg2.strides == (0,) and not arg2.flags.writeable
    assert arg3.dtype == np.int32 and arg3.strides == (4,) and arg3.tolist() == [5] * 20 + [6] * 10


def test_a_column_of_many_batches_joins_in_their_common_type():
    from loaderlab.trace.files.compact import _Pieces

    pieces = _Pieces()  # a file written a little at a time has thousands of batches
    for k in range(200):
        pieces.append(np.full(2, k, dtype=np.int64 if k == 150 else np.int32))
    joined = pieces.join()
    assert joined.dtype == np.int64 and joined.tolist() == [k for k in range(200) for _ in range(2)]
