"""The cheap tracer (``loaderlab.engine.records``) records into arrays and builds its table with numpy at the
end; the table must be the one the event-object path builds for the same records, row for row."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import torch

from loaderlab import DataLoader
from loaderlab.engine import events as ev, records as rec
from loaderlab.engine.records import RecordTracer
from loaderlab.trace.core.frame import by_time, chunks_frame
from loaderlab.trace.core.frame import events_frame, tracer_frame
from loaderlab.trace.recording.live import LiveView
from tests.helpers.datasets import FailingDataset, GetItemsDataset, MapDataset, RangeIterable


def label_of(index, sample):
    return (None if index % 3 == 0 else int(index) % 4), int(index) + 1


def both(loader, sample_info=None, epochs=1, expect_error=False) -> tuple[pd.DataFrame, pd.DataFrame]:
    tracer = loader.tracer = RecordTracer(sample_info)
    for _ in range(epochs):
        try:
            for _batch in loader:
                pass
        except Exception:
            if not expect_error:
                raise
    if loader.persistent_workers:
        loader.release_persistent_workers()  # its workers exit and flush: every event is in before we read
    return tracer_frame(tracer), events_frame(tracer.snapshot())


CASES = {
    "main process": lambda: DataLoader(MapDataset(11), batch_size=3),
    "two workers, two epochs": lambda: DataLoader(MapDataset(11), batch_size=3, num_workers=2,
                                                  persistent_workers=True),
    "__getitems__": lambda: DataLoader(GetItemsDataset(9), batch_size=4, num_workers=1),
    "iterable": lambda: DataLoader(RangeIterable(5), batch_size=2, num_workers=2),
    "no batching": lambda: DataLoader(MapDataset(5), batch_size=None, pin_memory=True),
}


@pytest.mark.parametrize("case", CASES)
def test_the_array_table_is_the_event_table(case):
    built, reference = both(CASES[case](), sample_info=label_of, epochs=2)
    assert len(built) > 20
    pd.testing.assert_frame_equal(built, reference, check_exact=True)


def test_failed_samples_and_labels_survive():
    built, reference = both(DataLoader(FailingDataset(12, fail_at=5), batch_size=4), sample_info=label_of,
                            expect_error=True)
    pd.testing.assert_frame_equal(built, reference, check_exact=True)
    failed = built[(built.kind == ev.FETCH_END) & (built.arg0 == 0)]
    assert failed["index"].tolist() == [5] and failed["detail"].tolist() == ["ValueError"]
    assert built.loc[(built.kind == ev.FETCH_END) & (built["index"] == 4), "label"].tolist() == [0.0]


def test_without_a_hook_labels_stay_none():
    built, reference = both(DataLoader(MapDataset(6), batch_size=2, num_workers=1))
    pd.testing.assert_frame_equal(built, reference, check_exact=True)
    assert built["label"].isna().all() and built["label"].dtype == object


def test_the_live_view_counts_what_arrives():
    loader = DataLoader(MapDataset(12), batch_size=3, num_workers=2)
    tracer = loader.tracer = RecordTracer()
    view = LiveView()
    view.attach(tracer)
    it = iter(loader)
    next(it)
    first = view.snapshot()
    assert first.batches == 1
    for _ in it:
        pass
    loader.tracer = ev.NULL_TRACER
    del it
    last = view.snapshot()
    frame = tracer_frame(tracer)
    assert last.batches == 4 and last.events == len(frame) + _repeats(tracer)
    assert {w.worker for w in last.workers} == {0, 1}


def _repeats(tracer) -> int:
    """Fetch rows sent twice (a slow sample reported early): the view counts arrivals, the table dedups."""
    return len(events_frame([e for e in tracer.snapshot()])) - len(tracer_frame(tracer))


def test_an_int_like_index_and_a_failing_emit_value_do_not_break_the_record():
    tracer = RecordTracer()
    tracer.emit_fetches(0, 0, 0, [torch.tensor(3), 10, 20])
    tracer.emit(ev.ERROR, -1, 0, detail="x", arg0=2**70)  # out of int64: stored as -1, the record stays whole
    frame = tracer_frame(tracer)
    assert frame["index"].tolist() == [3, 3, -1]
    assert frame.loc[frame.kind == ev.ERROR, "arg0"].tolist() == [-1]


def test_numeric_fields_packed_without_an_object_read_as_the_object_path_reads_them():
    """emit's fast path (fields that are all numbers: a loop's clocks, a collate's sizes) against the
    general path, and a value it cannot pack handed to the general one (stored as -1, never raised)."""
    fast, slow = RecordTracer(), rec.RecordTracer()
    fields = [dict(arg0=5, arg1=6, arg2=7), dict(nbytes=2**40, length=3), dict(arg3=np.int64(9)), dict(arg0=2**70),
              dict(arg1=torch.tensor(4))]
    for k, f in enumerate(fields):
        fast.emit(ev.CONSUMER_BEGIN, -1, 0, k, **f)
        slow._record(ev.CONSUMER_BEGIN, 0, slow._pid, -1, 0, k, ev.NO_BATCH, f)
    assert not fast.objs
    got, want = (tracer_frame(t).drop(columns=["t_ns", "t_s"]) for t in (fast, slow))
    pd.testing.assert_frame_equal(got.reset_index(drop=True), want.reset_index(drop=True))
    assert got["arg0"].tolist() == [5, -1, -1, -1, -1] and got["nbytes"].tolist()[1] == 2**40
    assert got["arg3"].tolist()[2] == 9 and got["arg1"].tolist()[4] == 4


def test_a_list_of_events_from_an_older_sender_is_read_too():
    from loaderlab.engine.records import detailed

    events = [ev.Event(ev.STACK, 5, 9, 0, 0, detail="File x"), ev.Event(ev.INDEX_GET, 6, 9, 0, 0, 1)]
    tracer = RecordTracer()
    tracer.emit_records(events + [ev.FetchSpans(9, 0, 0, 1, ((4, 7, 8, None, -1, ""),))])
    assert detailed(events) == [(ev.STACK, 0, -1, -1, "File x")]
    built = tracer_frame(tracer)
    pd.testing.assert_frame_equal(built, events_frame(tracer.snapshot()), check_exact=True)
    assert built["kind"].tolist() == [ev.STACK, ev.INDEX_GET, ev.FETCH_BEGIN, ev.FETCH_END]


def length_of(index, sample):
    return int(index) % 5, int(sample.shape[0])


def test_a_slow_sample_reported_early_keeps_its_batchs_labels():
    from tests.helpers.epoch_workload import SLOW_EVERY, VarLen, pad_collate

    # index SLOW_EVERY (second of its batch) waits in __getitem__ until its worker reported it with index 99
    loader = DataLoader(VarLen(SLOW_EVERY + 6), batch_size=3, num_workers=1, collate_fn=pad_collate)
    built, reference = both(loader, sample_info=length_of)
    pd.testing.assert_frame_equal(built, reference, check_exact=True)
    ends = built[built.kind == ev.FETCH_END]
    assert len(ends) == SLOW_EVERY + 6 and ends["label"].notna().all() and (ends["length"] > 0).all()
    begins = built[built.kind == ev.FETCH_BEGIN]
    assert begins.duplicated(["pid", "t_ns", "index"]).sum() == 0  # the report's copies were dropped


def _shifted(chunk: rec.Chunk, by: int) -> rec.Chunk:
    """``chunk`` with every time moved by ``by`` ns (its records' t_ns, its samples' begin and end)."""
    rows = np.frombuffer(chunk.rows, dtype=np.int64).reshape(-1, rec.STRIDE).copy()
    samples = np.frombuffer(chunk.samples, dtype=np.int64).reshape(-1, 3).copy()
    rows[:, 1] += by
    samples[:, 1:] += by
    return chunk._replace(rows=rows.tobytes(), samples=samples.tobytes())


def test_events_of_two_processes_in_one_nanosecond_keep_one_order_whatever_arrives_first():
    # Two processes' clocks can read the same nanosecond (it happened in CI: a worker's index_get and the
    # other worker's fetch_begin). The table must not depend on which process's chunk came in first.
    loader = DataLoader(MapDataset(11), batch_size=3, num_workers=2)
    tracer = loader.tracer = RecordTracer(label_of)
    for _batch in loader:
        pass
    own, *received = tracer.parts()
    main_t = np.frombuffer(own.rows, dtype=np.int64).reshape(-1, rec.STRIDE)[:, 1]
    worker_rows = np.frombuffer(received[0].rows, dtype=np.int64).reshape(-1, rec.STRIDE)
    # move that worker's chunks in time so its first record meets a main-process record exactly
    by = int(main_t[len(main_t) // 2] - worker_rows[0, 1])
    pid = int(worker_rows[0, 2])
    chunks = [own, *[_shifted(c, by) if _pid_of(c) == pid else c for c in received]]
    first = chunks_frame(chunks)
    assert first.duplicated(["t_ns"]).any() and (first.groupby("t_ns")["pid"].nunique() > 1).any()
    reordered = chunks_frame(chunks[::-1])
    events = [e for chunk in chunks[::-1] for e in rec.chunk_events(chunk)]
    pd.testing.assert_frame_equal(first, reordered, check_exact=True)
    pd.testing.assert_frame_equal(first, events_frame(ev.expand(events)), check_exact=True)
    ties = first[first.duplicated(["t_ns"], keep=False)]
    assert (ties.groupby("t_ns")["pid"].apply(lambda p: p.is_monotonic_increasing)).all()


def _pid_of(chunk: rec.Chunk) -> int:
    rows = np.frombuffer(chunk.rows, dtype=np.int64).reshape(-1, rec.STRIDE)
    heads = np.frombuffer(chunk.heads, dtype=np.int64).reshape(-1, rec.HEAD_STRIDE)
    return int(rows[0, 2]) if len(rows) else int(heads[0, 0])


@pytest.mark.parametrize("seed", range(20))
def test_by_time_is_a_stable_sort_by_time_then_pid(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 400))
    t = rng.integers(0, max(1, n // 3), n)  # many nanoseconds shared
    pid = rng.integers(0, 4, n)
    assert by_time(t, pid).tolist() == np.lexsort((pid, t)).tolist()
