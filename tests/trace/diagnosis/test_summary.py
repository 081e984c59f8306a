"""The run summary: one definition of each number, read the same by the report, the findings, the pages and the CLI."""

from __future__ import annotations

import json
import math

import pytest

from loaderlab.cli import main as cli_main
from loaderlab.trace.tables import waits
from loaderlab.trace.core import kinds
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis.summary import summarise
from loaderlab.trace.files.io import save_trace
from loaderlab.trace.diagnosis.summary import STAGE_NAMES
from tests.helpers.planted import record_cause


@pytest.fixture(scope="module")
def ipc_trace():
    return record_cause("ipc")


def test_the_summary_counts_the_run(ipc_trace):
    s = summarise(ipc_trace)
    thr = waits.throughput(ipc_trace)
    assert (s.batches, s.samples) == (200, 1600.0)
    assert s.wall_s == pytest.approx(float(thr["duration_s"].sum()))
    assert s.samples_per_s == pytest.approx(1600 / s.wall_s)
    assert set(s.stages) == set(STAGE_NAMES)
    assert s.stage("fetch").count == 1600 and s.stage("collate").count == 200 and s.stage("step").count == 200
    assert s.stage("move").count == 200 and s.stage("startup").count == 2
    for stage in s.stages.values():
        if stage.count:
            assert stage.p50_s <= stage.p90_s <= stage.p99_s
    assert s.payload.tensors == 2 and s.payload.nbytes == 8 * 4 * 4 + 8 * 8  # floats (8x4) and int64 labels


def test_the_queues_say_depth_stay_and_blocked_get(ipc_trace):
    q = summarise(ipc_trace).queues.set_index("queue")
    assert {"index_queue[0]", "index_queue[1]", "result_queue", "outstanding"} <= set(q.index)
    assert q.loc["result_queue", "items"] == 200
    assert q.loc["outstanding", "depth_max"] == 4  # prefetch_factor 2 x 2 workers
    # The workers mostly waited on their index queues (the run is IPC-bound): blocked gets add up.
    assert q.loc["index_queue[0]", "get_wait_s"] > 0 and q.loc["result_queue", "get_wait_s"] > 0


def test_every_place_shows_the_same_wait_share(ipc_trace, tmp_path, capsys):
    """The issue's "83% vs 78%": the summary, the loader-bound finding, the report and the CLI's JSON
    all read the one wait share."""
    share = summarise(ipc_trace).wait_share
    assert share == waits.loop_wait(ipc_trace).share
    bound = [f for f in all_findings(ipc_trace) if f.kind == kinds.LOADER_BOUND]
    assert bound and bound[0].evidence["share"] == share
    assert f"({share:.0%})" in report_text(ipc_trace) or f"{share:.0%}" in report_text(ipc_trace)
    path = tmp_path / "t.json"
    save_trace(ipc_trace, str(path))
    cli_main(["report", str(path), "--json", "--no-suggestions"])
    doc = json.loads(capsys.readouterr().out)
    assert math.isclose(doc["summary"]["wait_share"], share, rel_tol=1e-9)


def test_a_run_value_reads_as_its_table_does(ipc_trace):
    """Pages hand the summary a Run (events, settings and extra apart): the same numbers, payload included."""
    from loaderlab.trace.rerun.workload import measured_workload
    from loaderlab.trace.core.run import as_run

    run = as_run(ipc_trace)
    a, b = summarise(ipc_trace), summarise(run)
    assert (a.batches, a.wait_share, a.settings, a.payload) == (b.batches, b.wait_share, b.settings, b.payload)
    assert measured_workload(run)["tensors"] == measured_workload(ipc_trace)["tensors"]
