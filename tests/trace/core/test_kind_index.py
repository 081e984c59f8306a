"""The per-kind row index (lookups.kind_positions) gives the tables the whole-table filters gave.

Big traces select each kind's rows from an index worked out once per ``kind`` column; short tables (every
test trace) filter as before, so here the index is forced on and every analysis output compared with the
plain filter's."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.engine import events as ev
from loaderlab.trace.tables import processes
from loaderlab.trace.core import lookups
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis.summary import summarise
from tests.helpers.datasets import MapDataset


@pytest.fixture(scope="module")
def traces() -> dict[str, pd.DataFrame]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
            "single": record(DataLoader(MapDataset(8), batch_size=2), sample_info=lambda i, s: (int(i) % 3, 1)),
            "persistent": record(DataLoader(MapDataset(16), batch_size=2, num_workers=2, in_order=False,
                                            persistent_workers=True), epochs=2,
                                 sample_info=lambda i, s: (int(i) % 2, 1)),
        }
    out["cut_short"] = out["workers"].iloc[:len(out["workers"]) // 2].reset_index(drop=True)
    return out


def _outputs(frame: pd.DataFrame) -> dict:
    return {"report": report_text(frame), "findings": [f.to_dict() if hasattr(f, "to_dict") else repr(f)
                                                       for f in all_findings(frame)],
            "summary": repr(summarise(frame)), "tasks": processes.worker_tasks(frame),
            "procs": processes.worker_processes(frame), "order": lookups.sampler_order(frame)}


@pytest.mark.parametrize("name", ["workers", "single", "persistent", "cut_short"])
def test_indexed_rows_give_the_same_analysis(traces, name, monkeypatch):
    frame = traces[name]
    monkeypatch.setattr(lookups, "INDEX_MIN_ROWS", 10**12)
    plain = _outputs(frame)
    monkeypatch.setattr(lookups, "INDEX_MIN_ROWS", 0)
    assert lookups._kind_index(lookups.normal(frame)) is not None  # the index is really used
    indexed = _outputs(frame)
    for key, value in plain.items():
        if isinstance(value, pd.DataFrame):
            pd.testing.assert_frame_equal(indexed[key], value)
        else:
            assert indexed[key] == value, key


def test_rows_equal_the_filter_and_follow_a_changed_kind_column(traces, monkeypatch):
    monkeypatch.setattr(lookups, "INDEX_MIN_ROWS", 0)
    f = lookups.normal(traces["workers"]).copy()
    for kinds in [(ev.FETCH_END,), (ev.BATCH_YIELD, ev.SAMPLER_YIELD, ev.EPOCH_BEGIN), ("no_such_kind",), ()]:
        pd.testing.assert_frame_equal(lookups.rows(f, *kinds), f[f["kind"].isin(kinds)])
    before = len(lookups.rows(f, ev.FETCH_END))
    f.loc[f["kind"] == ev.FETCH_END, "kind"] = ev.FETCH_BEGIN  # a new kind column: the old index must not serve it
    assert len(lookups.rows(f, ev.FETCH_END)) == 0 < before
    pd.testing.assert_frame_equal(lookups.rows(f, ev.FETCH_BEGIN), f[f["kind"] == ev.FETCH_BEGIN])
    assert lookups.has_kind(f, ev.FETCH_BEGIN) and not lookups.has_kind(f, ev.FETCH_END)


def old_pair(begins: pd.DataFrame, ends: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """lookups.pair as a merge on every key (the oracle)."""
    b = begins[keys + ["t_s"]].rename(columns={"t_s": "start_s"})
    e = ends[keys + ["t_s"]].rename(columns={"t_s": "end_s"})
    b = b.assign(_n=b.groupby(keys).cumcount())
    e = e.assign(_n=e.groupby(keys).cumcount())
    return b.merge(e, on=keys + ["_n"], how="left").drop(columns="_n")


@pytest.mark.parametrize("seed", range(6))
def test_pair_equals_the_merge_with_repeated_and_unmatched_keys(seed):
    rng = np.random.default_rng(seed)
    def table(n):
        return pd.DataFrame({"pid": rng.integers(0, 3, n), "epoch": rng.integers(0, 2, n),
                             "batch": rng.integers(-1, 4, n).astype("int32"), "t_s": rng.random(n),
                             "other": rng.random(n)}, index=rng.permutation(n) + 100)
    keys = ["pid", "epoch", "batch"]
    for nb, ne in ((40, 35), (0, 10), (10, 0), (0, 0), (25, 60)):
        b, e = table(nb), table(ne)
        pd.testing.assert_frame_equal(lookups.pair(b, e, keys), old_pair(b, e, keys), check_dtype=False)
        pd.testing.assert_frame_equal(lookups.pair(b, e, keys).dtypes.to_frame(), old_pair(b, e, keys).dtypes.to_frame())
