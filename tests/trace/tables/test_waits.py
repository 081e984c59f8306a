"""The analysis tables on real traces: spans, per-batch latency, queue depths, main wait, throughput, utilisation.

Every trace comes from a real ``loaderlab.record`` run (see ``faulty.py``). No assertion depends on how
fast the machine is: only on order, counts, sleeps' lower bounds and comparisons within one run.
"""

from __future__ import annotations

import math

import pandas as pd
import pytest

from loaderlab.trace.tables.stays import queue_depths
from loaderlab.trace.tables.utilisation import worker_utilisation
from loaderlab.trace.tables import processes, waits
from loaderlab.trace.core import lookups
from loaderlab.trace.tables.stays import DEPTH_COLUMNS
from tests.helpers import faulty

# Every table function, with the columns it promises even when it has nothing to say.
TABLES = {
    waits.stage_spans: waits.SPAN_COLUMNS,
    waits.batch_latency: ["epoch", "batch", "worker", "pid", "samples", "dispatch_s", "get_s", "ready_s",
                             "outcome", "received_s", "parked_s", "position", "yield_s", "latency_s"],
    waits.main_wait: ["epoch", "position", "batch", "start_s", "end_s", "wait_s"],
    waits.wait_totals: ["epoch", "batches", "wait_s", "first_wait_s", "steady_wait_s", "consume_s", "wait_share"],
    waits.throughput: ["epoch", "batches", "samples", "start_s", "end_s", "duration_s", "batches_per_s",
                          "samples_per_s", "first_batch_s", "steady_batches_per_s"],
    queue_depths: DEPTH_COLUMNS,
    worker_utilisation: ["pid", "worker", "epoch", "startup_s", "lifetime_s", "busy_s", "idle_s",
                                  "capped_idle_s", "busy_fraction", "capped_idle_fraction"],
}
MULTI_WORKER = {
    "in_order": lambda: faulty.straggler_trace(True),
    "out_of_order": lambda: faulty.straggler_trace(False),
    "two_epochs": faulty.clean_trace,
    "pin_memory": faulty.pin_trace,
    "restarted_workers": lambda: faulty.slow_start_trace(False),
    "model_bound": lambda: faulty.bound_trace(True),
    "iterable": lambda: faulty.stream_trace(False),
    "early_stop": faulty.early_stop_trace,
}


# --- spans ----------------------------------------------------------------------------------------


def test_spans_cover_every_sample_batch_and_worker():
    spans = waits.stage_spans(faulty.straggler_trace(True))
    assert set(spans["stage"]) <= set(waits.STAGES)
    assert not spans["open"].any()
    assert (spans["duration_s"] >= 0).all()
    fetch = spans[spans["stage"] == "fetch"]
    assert sorted(fetch["index"]) == list(range(16))
    assert fetch.groupby("batch")["index"].apply(sorted).to_dict() == {b: [2 * b, 2 * b + 1] for b in range(8)}
    assert set(fetch["track"]) == {"worker 0", "worker 1"}
    slowest = fetch.loc[fetch["duration_s"].idxmax()]
    assert (slowest["index"], slowest["worker"], slowest["batch"]) == (5, 0, 2)
    assert slowest["duration_s"] >= 0.3  # the sleep is a lower bound
    assert len(spans[spans["stage"] == "collate"]) == 8
    assert sorted(spans[spans["stage"] == "startup"]["worker"]) == [0, 1]
    for stage in ("wait", "consume"):
        main = spans[spans["stage"] == stage]
        assert sorted(main["batch"]) == list(range(8)) and set(main["track"]) == {"main"}
    idle = spans[spans["stage"] == "idle"]
    assert set(idle["worker"]) == {0, 1}


def test_spans_show_the_stuck_sample_as_open():
    spans = waits.stage_spans(faulty.hang_trace())
    stuck = spans[spans["open"]]
    assert len(stuck) == 1
    assert stuck.iloc[0][["stage", "worker", "batch", "index"]].tolist() == ["fetch", 1, 3, 7]
    assert stuck.iloc[0]["end_s"] == faulty.hang_trace()["t_s"].max()


def test_pin_spans_are_on_the_pin_track():
    spans = waits.stage_spans(faulty.pin_trace())
    pin = spans[spans["stage"] == "pin"]
    assert sorted(pin["batch"]) == list(range(8)) and set(pin["track"]) == {"pin"}


def test_single_process_spans_are_all_on_main():
    spans = waits.stage_spans(faulty.single_process_trace())
    assert set(spans["track"]) == {"main"}
    assert set(spans["stage"]) == {"fetch", "collate", "wait", "consume"}
    assert len(spans[spans["stage"] == "fetch"]) == 16


# --- batch latency --------------------------------------------------------------------------------


def test_batch_latency_follows_each_task_in_order():
    lat = waits.batch_latency(faulty.straggler_trace(True))
    assert lat["batch"].tolist() == list(range(8))
    assert lat["worker"].tolist() == [0, 1] * 4  # round-robin dispatch
    assert (lat["samples"] == 2).all() and (lat["outcome"] == "Result").all()
    for earlier, later in [("dispatch_s", "get_s"), ("get_s", "ready_s"), ("ready_s", "received_s"),
                           ("received_s", "yield_s")]:
        assert (lat[earlier] <= lat[later]).all(), (earlier, later)
    assert lat["position"].tolist() == list(range(8))


def test_head_of_line_parking_appears_in_order_only():
    in_order = waits.batch_latency(faulty.straggler_trace(True)).set_index("batch")
    # Batches 3 and 5 (worker 1) were ready long before batch 2 (the straggler's) and waited for it.
    assert in_order.loc[3, "parked_s"] > 0 and in_order.loc[5, "parked_s"] > 0
    assert in_order.loc[2, "parked_s"] == 0
    assert in_order.loc[[3, 5], "parked_s"].min() > in_order.drop(index=[3, 5])["parked_s"].max()
    free = waits.batch_latency(faulty.straggler_trace(False)).set_index("batch")
    assert (free["parked_s"] == 0).all()
    assert free.loc[2, "position"] > free.loc[3, "position"]  # handed over after later batches


def test_results_drained_from_an_epoch_cut_short_are_not_taken_for_the_next_epochs():
    lat = waits.batch_latency(faulty.early_stop_trace())
    assert sorted(set(lat["epoch"])) == [0, 1]
    assert lat[["epoch", "batch"]].value_counts().max() == 1
    arrived = lat.dropna(subset=["received_s"])
    assert (arrived["received_s"] >= arrived["ready_s"]).all()
    handed = lat.dropna(subset=["yield_s"])
    assert sorted(zip(handed["epoch"], handed["batch"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_batch_latency_without_workers_dispatches_at_the_sampler():
    lat = waits.batch_latency(faulty.single_process_trace())
    assert len(lat) == 4 and (lat["worker"] == -1).all()
    assert (lat["latency_s"] >= 0).all() and lat["received_s"].isna().all()


# --- queue depths ---------------------------------------------------------------------------------


@pytest.mark.parametrize("trace", list(MULTI_WORKER))
def test_queue_depths_stay_within_the_prefetch_cap(trace):
    frame = MULTI_WORKER[trace]()
    depths = queue_depths(frame)
    cap = frame.attrs["loader"]["prefetch_factor"] * frame.attrs["loader"]["num_workers"]
    assert (depths["depth"] >= 0).all()
    assert {"index_queue[0]", "index_queue[1]", "result_queue", "outstanding"} <= set(depths["queue"])
    outstanding = depths[depths["queue"] == "outstanding"]
    assert outstanding["depth"].max() == cap  # the cap is reached, never passed
    index_queues = depths[depths["queue"].str.startswith("index_queue")]
    assert index_queues["depth"].max() <= cap
    final = depths.groupby("queue")["depth"].last()
    assert (final == 0).all(), final  # complete runs leave nothing behind


def test_reorder_buffer_fills_only_in_order():
    depths = queue_depths(faulty.straggler_trace(True))
    assert depths[depths["queue"] == "reorder"]["depth"].max() >= 2
    free = queue_depths(faulty.straggler_trace(False))
    assert "reorder" not in set(free["queue"])


def test_pin_stage_has_a_data_queue():
    depths = queue_depths(faulty.pin_trace())
    assert depths[depths["queue"] == "data_queue"]["depth"].max() >= 1


# --- main wait and throughput ---------------------------------------------------------------------


def test_main_wait_is_longest_for_the_straggler_batch():
    wait = waits.main_wait(faulty.straggler_trace(True))
    assert wait["position"].tolist() == list(range(8)) and (wait["wait_s"] >= 0).all()
    assert wait.loc[wait["wait_s"].idxmax(), "batch"] == faulty.STRAGGLER_BATCH
    totals = waits.wait_totals(faulty.straggler_trace(True))
    assert totals["wait_s"].iloc[0] == pytest.approx(wait["wait_s"].sum())
    assert totals["wait_share"].iloc[0] > 0.5


def test_wait_share_separates_loader_bound_from_model_bound():
    model = waits.wait_totals(faulty.bound_trace(True))
    loader = waits.wait_totals(faulty.bound_trace(False))
    assert model["wait_share"].iloc[0] < 0.5 < loader["wait_share"].iloc[0]


def test_throughput_counts_batches_and_samples_per_epoch():
    tp = waits.throughput(faulty.order_trace("random"))
    assert tp["epoch"].tolist() == [0, 1]
    assert tp["batches"].tolist() == [4, 4] and tp["samples"].tolist() == [16, 16]
    assert (tp["batches_per_s"] > 0).all() and (tp["duration_s"] > 0).all()
    stream = waits.throughput(faulty.stream_trace(False))
    assert stream["batches"].iloc[0] == 8 and stream["samples"].iloc[0] == 16  # 2 workers × 8 items


# --- worker utilisation ---------------------------------------------------------------------------


def test_utilisation_adds_up_and_blames_the_straggler_worker():
    util = worker_utilisation(faulty.straggler_trace(True)).set_index("worker")
    assert sorted(util.index) == [0, 1]
    assert (util["busy_s"] + util["idle_s"]).tolist() == pytest.approx(util["lifetime_s"].tolist())
    assert (util["capped_idle_s"] <= util["idle_s"] + 1e-9).all()
    assert util.loc[0, "busy_s"] > util.loc[1, "busy_s"]
    # Worker 1 sat idle while the straggler's batch held the outstanding tasks at the cap.
    assert util.loc[1, "capped_idle_s"] > 0.5 * util.loc[1, "idle_s"]


def test_workers_wait_on_the_prefetch_cap_when_model_bound():
    model = worker_utilisation(faulty.bound_trace(True))
    loader = worker_utilisation(faulty.bound_trace(False))
    assert model["capped_idle_fraction"].min() > loader["capped_idle_fraction"].max()
    assert model["busy_fraction"].max() < loader["busy_fraction"].min()


def test_each_epoch_of_non_persistent_workers_has_its_own_processes():
    procs = processes.worker_processes(faulty.slow_start_trace(False))
    assert sorted(zip(procs["epoch"], procs["worker"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert procs["pid"].nunique() == 4
    util = worker_utilisation(faulty.slow_start_trace(False))
    assert (util["startup_s"] > 1.0).all()  # the worker_init_fn's 1.2 s sleep is part of start-up


# --- robustness -----------------------------------------------------------------------------------

TORCH_LACKS = ["index_put", "index_get", "result_put", "result_get", "reorder_park", "reorder_release",
               "sampler_yield", "worker_start", "worker_ready", "consumer_begin", "consumer_end"]


def stripped(frame: pd.DataFrame, kinds) -> pd.DataFrame:
    out = frame[~frame["kind"].isin(kinds)].reset_index(drop=True)
    out.attrs = {}
    return out


@pytest.mark.parametrize("function", list(TABLES), ids=lambda f: f.__name__)
def test_tables_survive_missing_events(function):
    frame = faulty.straggler_trace(True)
    for variant in (stripped(frame, TORCH_LACKS), stripped(frame, ["fetch_begin", "fetch_end"]),
                    frame.iloc[:0], frame[["kind", "t_ns", "pid", "worker", "epoch", "batch"]]):
        table = function(variant)
        assert list(table.columns) == TABLES[function]


def test_tables_without_dispatch_events_fall_back_to_nan():
    frame = stripped(faulty.straggler_trace(True), TORCH_LACKS)
    lat = waits.batch_latency(frame)
    assert len(lat) == 8 and lat["parked_s"].isna().all() and lat["dispatch_s"].isna().all()
    assert queue_depths(frame).empty
    util = worker_utilisation(frame)
    assert len(util) == 2 and util["capped_idle_s"].isna().all() and util["startup_s"].isna().all()
    assert waits.main_wait(frame)["wait_s"].iloc[1:].isna().all()  # no consumer_end to start from
    assert math.isnan(waits.wait_totals(frame)["wait_share"].iloc[0])


@pytest.mark.parametrize("function", list(TABLES), ids=lambda f: f.__name__)
def test_tables_of_a_stock_torch_trace(function):
    frame = faulty.stock_torch_trace()
    table = function(frame)
    assert list(table.columns) == TABLES[function]
    if function is queue_depths:
        assert table.empty  # torch's DataLoader reports no queue traffic
    elif function is waits.batch_latency:
        assert table["batch"].tolist() == list(range(8)) and table["parked_s"].isna().all()
    elif function is waits.throughput:
        assert table[["batches", "samples"]].values.tolist() == [[8, 16]]
