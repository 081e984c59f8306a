"""Events carry their numbers in typed fields (``arg0..arg3``, ``indices``), never as text in ``detail``;
traces recorded before that (format version 1 files) load with the same fields filled from their text."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from loaderlab import DataLoader, record
from loaderlab.engine import events as ev
from loaderlab.trace.core.frame import EVENT_COLUMNS
from loaderlab.trace.core.lookups import hand_overs, sampler_order
from loaderlab.trace.files.old_details import from_details, numbered
from loaderlab.trace.files.io import load_trace, save_trace
from loaderlab.trace.tables.memory import memory_table
from loaderlab.trace.tables.processes import worker_processes
from tests.helpers.datasets import MapDataset

DATA = Path(__file__).resolve().parents[1] / "data"
STRUCTURED = (ev.SAMPLER_YIELD, ev.WORKER_START, ev.WORKER_READY, ev.REORDER_PARK, ev.MEMORY)


def test_a_recording_has_typed_fields_and_free_text_only():
    frame = record(DataLoader(MapDataset(10), batch_size=3, num_workers=2), epochs=1)
    assert tuple(frame.columns) == EVENT_COLUMNS
    for column in ("arg0", "arg1", "arg2", "arg3"):
        assert frame[column].dtype == "int64"
    sampled = frame[frame.kind == ev.SAMPLER_YIELD].sort_values("batch")
    assert sampled["indices"].tolist() == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]
    assert sampled["arg0"].tolist() == [3, 3, 3, 1]
    assert (frame.loc[frame.kind.isin(STRUCTURED), "detail"] == "").all()
    starts = frame[frame.kind == ev.WORKER_START]
    readies = frame[frame.kind == ev.WORKER_READY]
    assert set(starts["arg0"]) == set(readies["pid"])  # worker_start names the worker's pid
    exits = frame[(frame.kind == ev.WORKER_EXIT) & frame.pid.isin(starts["pid"])]
    assert exits["arg0"].tolist() == [0, 0]  # main's worker_exit: the exit code
    yields = frame[frame.kind == ev.BATCH_YIELD]
    assert sorted(yields["arg0"]) == [0, 1, 2, 3]
    fetched = frame[frame.kind == ev.FETCH_END]
    assert (fetched["arg0"] == 1).all()


def test_an_iterable_batch_has_no_indices_but_a_count():
    class Stream(__import__("torch").utils.data.IterableDataset):
        def __iter__(self):
            return iter(range(5))

    frame = record(DataLoader(Stream(), batch_size=2))
    sampled = frame[frame.kind == ev.SAMPLER_YIELD]
    assert sampled["indices"].isna().all() and set(sampled["arg0"]) == {2}
    assert sampler_order(frame)["indices"].iloc[0] == [None, None]


def test_a_typed_trace_round_trips_through_json(tmp_path):
    frame = record(DataLoader(MapDataset(7), batch_size=2, num_workers=1), epochs=1)
    save_trace(frame, tmp_path / "t.json")
    pd.testing.assert_frame_equal(load_trace(tmp_path / "t.json"), frame, check_exact=True)


def test_a_version_1_trace_loads_with_its_text_turned_into_fields():
    frame = load_trace(DATA / "v1_workers_2_epochs_2.json")
    assert tuple(frame.columns) == EVENT_COLUMNS
    assert (frame.loc[frame.kind.isin(STRUCTURED), "detail"] == "").all()
    order = sampler_order(frame)
    assert order["indices"].iloc[0] == [0, 1] and order["indices"].iloc[4] == [8]
    assert hand_overs(frame)["batch"].tolist()[:5] == [0, 1, 2, 3, 4]
    procs = worker_processes(frame)
    assert procs["start_s"].notna().all() and len(procs) == 4  # each worker_start paired with its pid
    ready = frame[frame.kind == ev.WORKER_READY]
    assert 208768978219359271 in set(ready["arg0"])
    exits = frame[(frame.kind == ev.WORKER_EXIT) & (frame.detail == "")]
    assert set(exits["arg0"]) == {0}
    parks = frame[frame.kind == ev.REORDER_PARK]
    assert set(parks["arg0"]) >= {1}


def test_a_version_1_memory_trace_keeps_its_samples():
    frame = load_trace(DATA / "v1_stopped_with_memory.json")
    table = memory_table(frame)
    assert len(table) == 18 and (table["pid"] > 0).all() and (table["shm_total_bytes"] > 0).all()
    assert (frame.loc[frame.kind == ev.MEMORY, "detail"] == "").all()


def test_old_text_is_read_in_one_place():
    old = pd.DataFrame({"kind": [ev.ERROR, ev.ERROR, ev.FETCH_END, ev.FETCH_END, ev.WORKER_EXIT],
                        "detail": ["unsent result: PicklingError: no", "timeout", "__getitems__ 4", "ValueError",
                                   "exitcode=-9"]})
    new = from_details(old)
    assert new["arg0"].tolist() == [ev.CAUSE_UNSENT, ev.CAUSE_TIMEOUT, 4, 0, -9]
    assert new["detail"].tolist() == ["PicklingError: no", "timeout", "", "ValueError", ""]
    assert from_details(new) is new


def test_the_index_queues_worker_is_a_number_not_text():
    frame = record(DataLoader(MapDataset(12), batch_size=2, num_workers=2), epochs=1)
    queued = frame[frame.kind.isin([ev.INDEX_PUT, ev.INDEX_GET])]
    assert len(queued) == 12 and set(queued["arg0"]) == {0, 1}
    assert (queued["queue"] == "index_queue[" + queued["arg0"].astype(str) + "]").all()
    got = queued[queued.kind == ev.INDEX_GET]
    assert (got["arg0"] == got["worker"]).all()  # a worker takes its tasks from its own queue


def test_files_written_before_the_numbers_were_typed_get_them_on_reading(tmp_path):
    frame = record(DataLoader(MapDataset(12), batch_size=2, num_workers=2), epochs=2)
    old = frame.copy()
    old.loc[old.kind.isin([ev.INDEX_PUT, ev.INDEX_GET]), "arg0"] = ev.NO_ARG
    old.loc[old.kind == ev.EPOCH_BEGIN, "detail"] = ["sampler.epoch=0", "sampler.epoch=0"]
    want = frame.copy()
    want.loc[want.kind == ev.EPOCH_BEGIN, "arg0"] = 0
    pd.testing.assert_frame_equal(numbered(old), want)
    save_trace(old, tmp_path / "old.lltrace")
    pd.testing.assert_frame_equal(load_trace(tmp_path / "old.lltrace"), want, check_dtype=False)
    assert numbered(want) is want  # nothing to move: the same table, no copy


def test_the_loop_body_carries_the_main_threads_run_queue_fault_and_cpu_clocks():
    frame = record(DataLoader(MapDataset(12), batch_size=2, num_workers=2), epochs=1)
    for arg in ("arg0", "arg1", "arg2"):  # run queue (ns), minor faults, CPU (ns)
        begins = frame[frame.kind == ev.CONSUMER_BEGIN].set_index("batch")[arg]
        ends = frame[frame.kind == ev.CONSUMER_END].set_index("batch")[arg]
        assert len(begins) == len(ends) == 6 and (begins > 0).all(), arg  # Linux says it: a clock, not -1
        assert (ends >= begins).all(), arg  # it only moves forward


def test_the_analysis_reads_each_kinds_numbers_by_name():
    """``arg_column`` and ``named_rows`` take the names from ``engine.events.ARGS`` (one kind's ``cpu_ns`` is
    another's ``arg2``), and a version 1 trace on disk reads the same names."""
    from loaderlab.trace.core.frame import arg_column
    from loaderlab.trace.core.lookups import named_rows

    assert arg_column(ev.COLLATE_END, "runqueue_ns") == "arg2" and arg_column(ev.COLLATE_END, "cpu_ns") == "arg0"
    assert arg_column(ev.CONSUMER_END, "cpu_ns") == "arg2" and arg_column(ev.MEMORY, "shm_total") == "arg3"
    try:
        arg_column(ev.FETCH_END, "cpu_ns")
    except KeyError as error:
        assert "samples, fingerprint" in str(error)
    else:
        raise AssertionError("a name the kind does not carry must raise")
    frame = record(DataLoader(MapDataset(10), batch_size=3, num_workers=2), epochs=1)
    ends = named_rows(frame, ev.COLLATE_END, ["batch", "cpu_ns", "runqueue_ns"])
    assert list(ends.columns) == ["batch", "cpu_ns", "runqueue_ns"] and (ends["cpu_ns"] > 0).all()
    old = load_trace(DATA / "v1_workers_2_epochs_2.json")
    starts = named_rows(old, ev.WORKER_START, ["worker", "worker_pid"])
    assert len(starts) == 4 and starts["worker_pid"].tolist() == old.loc[old.kind == ev.WORKER_START, "arg0"].tolist()
    assert (starts["worker_pid"] > 0).all()
