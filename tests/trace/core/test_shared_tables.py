"""Tables computed once per trace inside ``shared_tables()`` (a report, findings, an export): the same tables
as computed fresh, never another trace's, and a caller's change to its copy changes nothing else."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.tables import processes
from loaderlab.trace.core.cache import shared_tables
from loaderlab.trace.core import cache, lookups
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.diagnosis.report import report_text
from tests.helpers.datasets import MapDataset


@pytest.fixture(scope="module")
def trace() -> pd.DataFrame:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return record(DataLoader(MapDataset(12), batch_size=2, num_workers=2), epochs=2)


def _counting(monkeypatch) -> list:
    calls = []
    original = processes.worker_processes.__wrapped__

    @cache.shared
    def counted(frame):
        calls.append(len(frame))
        return original(frame)

    monkeypatch.setattr(processes, "worker_processes", counted)
    return calls


def test_a_table_is_computed_once_per_trace_inside_the_scope_and_every_time_outside(trace, monkeypatch):
    calls = _counting(monkeypatch)
    fresh = processes.worker_processes(trace)
    processes.worker_processes(trace)
    assert len(calls) == 2  # no scope: nothing kept
    with shared_tables():
        first = processes.worker_processes(trace)
        again = processes.worker_processes(lookups.normal(trace))  # a normalised shallow copy: the same trace
        with shared_tables():  # a nested scope shares the outer one's tables
            processes.worker_processes(trace)
        half = trace.iloc[: len(trace) // 2].reset_index(drop=True)  # another trace: computed for itself
        part = processes.worker_processes(half)
    assert len(calls) == 4
    pd.testing.assert_frame_equal(first, fresh)
    pd.testing.assert_frame_equal(again, fresh)
    pd.testing.assert_frame_equal(part, processes.worker_processes(half.copy()))


def test_a_changed_copy_leaves_the_kept_table_alone(trace):
    with shared_tables():
        first = processes.worker_processes(trace)
        first.loc[:, "end_s"] = -1.0
        first["extra"] = 1
        second = processes.worker_processes(trace)
    pd.testing.assert_frame_equal(second, processes.worker_processes(trace))
    assert "extra" not in second.columns and (second["end_s"] >= 0).all()


def test_a_table_that_reads_the_settings_is_kept_per_settings(trace):
    bare = trace.copy(deep=False)
    bare.attrs = {}
    with shared_tables():
        with_cap = worker_utilisation(trace)
        without = worker_utilisation(bare)
    assert with_cap["capped_idle_s"].notna().all() and without["capped_idle_s"].isna().all()


def test_report_and_findings_are_the_same_with_the_tables_shared(trace, monkeypatch):
    report, found = report_text(trace), repr(all_findings(trace))
    monkeypatch.setattr(cache, "shared_tables", lambda: _no_scope())  # every table computed fresh
    monkeypatch.setattr("loaderlab.trace.diagnosis.report.shared_tables", lambda: _no_scope())
    monkeypatch.setattr("loaderlab.trace.diagnosis.findings.shared_tables", lambda: _no_scope())
    assert report_text(trace) == report and repr(all_findings(trace)) == found


class _no_scope:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_released_tables_are_computed_again(trace, monkeypatch):
    calls = _counting(monkeypatch)
    with shared_tables():
        first = processes.worker_processes(trace)
        cache.release(processes.worker_processes)
        again = processes.worker_processes(trace)
    assert len(calls) == 2
    pd.testing.assert_frame_equal(first, again)
