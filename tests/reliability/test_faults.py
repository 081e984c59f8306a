"""Fault injection through the app's own run function: each fault gives its message, keeps the trace up to
the failure, and leaves no process behind; the time cap stops a run cleanly; the server caps are enforced.

Every scenario runs through :func:`loaderlab.scenarios.run.run` (what the dashboard's cached run calls),
and the messages the page shows are checked with AppTest. Processes are checked with psutil (bounded
``wait_procs``), never with sleeps.
"""

from __future__ import annotations

import pickle
import re
from dataclasses import replace
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from loaderlab.engine import events as ev
from loaderlab.scenarios import limits
from loaderlab.scenarios.run import RunConfig, RunFailed, build_loader, run
from loaderlab.trace.export.chrome import to_chrome_trace
from loaderlab.trace.diagnosis.findings import stall_findings
from loaderlab.trace.files.io import load_trace, save_trace
from loaderlab.trace.core.run import as_run, events_of, StuckWorker, TimeCapped, to_frame
from loaderlab.ui.texts import EN

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)

ROOT = Path(__file__).resolve().parents[2]
FAULT_AT = 37  # in batch 2 (batch_size 16), which worker 0 fetches: tasks go round-robin
BASE = RunConfig(n_samples=200, cost_ms=0.2, consumer_ms=0.0, num_workers=2, fault_index=FAULT_AT)


def failed(config: RunConfig, **kwargs) -> RunFailed:
    with pytest.raises(RunFailed) as info:
        run(config, **kwargs)
    return info.value


def batches(frame) -> int:
    return int((events_of(frame)["kind"] == ev.BATCH_YIELD).sum())


# --- faults through run() --------------------------------------------------------------------------


def test_raise_in_a_worker_names_worker_and_index_and_keeps_the_trace(no_leftover_workers):
    error = failed(replace(BASE, fault="raise"))
    report = error.report
    assert report.kind == "ValueError"
    assert report.message.startswith("Caught ValueError in DataLoader worker process 0.")  # torch's text
    assert "Original Traceback" in report.message and "sample 37 is corrupt" in report.message
    assert (report.site.what, report.site.worker, report.site.index, report.site.task) == ("fetch", 0, 37, 2)
    assert str(error).startswith("worker 0 failed on index 37: ValueError: sample 37 is corrupt")
    frame = report.frame
    failing = frame[(frame["kind"] == ev.FETCH_END) & (frame["detail"] == "ValueError")]
    assert failing["index"].tolist() == [37] and failing["worker"].tolist() == [0]
    assert batches(frame) == 2  # batches 0 and 1 reached the loop before batch 2 failed
    assert report.run.config["fault"] == "raise"
    no_leftover_workers("after a worker raised")


def test_raise_in_the_main_process(no_leftover_workers):
    report = failed(replace(BASE, fault="raise", num_workers=0)).report
    assert (report.site.what, report.site.worker, report.site.index) == ("fetch", -1, 37)
    assert report.message == "sample 37 is corrupt (a fault injected by LoaderLab)"  # unwrapped, as torch
    assert batches(report.frame) == 2


def test_killed_worker_is_reported_with_pid_and_signal(no_leftover_workers):
    report = failed(replace(BASE, fault="kill")).report
    site = report.site
    assert (site.what, site.worker, site.signal) == ("killed", 0, "Killed")
    started = report.frame.query("kind == 'worker_start' and worker == 0")["arg0"].tolist()
    assert site.pid in started
    # Usually torch's "exited unexpectedly"; a worker killed right after sending tensors makes the main
    # process fail to receive them instead (EOFError / ConnectionResetError, torch's race too).
    if report.kind == "RuntimeError":
        assert report.message == f"DataLoader worker (pid(s) {site.pid}) exited unexpectedly"
    else:
        assert report.kind in ("EOFError", "ConnectionResetError"), report.kind
    assert "2" in site.unfinished.split(", ") or site.index == FAULT_AT
    no_leftover_workers("after a worker was killed")


def test_unpicklable_batch_shows_torchs_message_instead_of_waiting_forever(no_leftover_workers):
    report = failed(replace(BASE, fault="unpicklable")).report
    assert report.kind == "RuntimeError"
    assert report.message.startswith("Cowardly refusing to serialize non-leaf tensor which requires_grad")
    assert (report.site.what, report.site.worker, report.site.task) == ("unsent", 0, 2)
    assert "37" in report.site.indices
    assert batches(report.frame) <= 2  # the run stops as soon as the worker says so, maybe before batch 1
    no_leftover_workers("after an unsendable batch")


def test_unpicklable_is_harmless_without_workers():
    frame = run(replace(BASE, fault="unpicklable", num_workers=0))
    assert batches(frame) == 13 and frame.stop is None


def test_hang_is_stopped_by_the_time_cap_with_the_stuck_workers_stack(no_leftover_workers):
    frame = run(replace(BASE, fault="hang"), max_seconds=1.5)
    stopped = frame.stop
    assert isinstance(stopped, TimeCapped) and stopped.seconds == 1.5
    assert stopped.text == "stopped after 1.5 s (LOADERLAB_MAX_RUN_SECONDS)"
    [stuck] = stopped.stuck
    assert isinstance(stuck, StuckWorker) and (stuck.worker, stuck.index, stuck.last_event) == (0, 37, "fetch_begin")
    assert stuck.since_s > 0 and stuck.last_ago_s > 0
    assert "inject_fault" in stuck.stack and "time.sleep" in stuck.stack
    assert batches(frame) >= 2  # the batches before the stuck one were handed over
    no_leftover_workers("after a hung run was stopped")


def test_a_long_healthy_run_is_stopped_and_keeps_its_trace(no_leftover_workers):
    frame = run(replace(BASE, n_samples=20000, cost_ms=2.0), max_seconds=1.0)
    assert isinstance(frame.stop, TimeCapped)
    assert 0 < batches(frame) < 1250
    no_leftover_workers("after the time cap")


@pytest.mark.parametrize("fault", ["kill", "hang"])
def test_faults_that_would_take_the_server_down_need_workers(fault):
    with pytest.raises(ValueError, match=f"fault='{fault}' needs num_workers > 0"):
        build_loader(replace(BASE, fault=fault, num_workers=0))


def test_failure_survives_the_cache():
    """st.cache_data pickles what the cached run returns: the failure report with its trace."""
    error = failed(replace(BASE, fault="raise"))
    back = pickle.loads(pickle.dumps(error))
    assert back.report.site == error.report.site and len(back.report.frame) == len(error.report.frame)


def test_stopped_trace_saves_loads_and_exports(tmp_path):
    frame = run(replace(BASE, fault="hang", n_samples=64), max_seconds=1.0)
    save_trace(to_frame(frame), tmp_path / "t.json")  # the file keeps the stop; loading gives it back typed
    back = as_run(load_trace(tmp_path / "t.json"))
    assert isinstance(back.stop, TimeCapped) and back.stop == frame.stop and back.loader == frame.loader
    to_chrome_trace(frame)


# --- caps ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, value, fragment", [
    ("LOADERLAB_MAX_WORKERS", "many", "use a whole number ≥ 0"),
    ("LOADERLAB_MAX_SAMPLES", "0", "use a whole number ≥ 1"),
    ("LOADERLAB_MAX_RUN_SECONDS", "-3", "use a number of seconds > 0"),
    ("LOADERLAB_MAX_RUN_SECONDS", "inf", "use a number of seconds > 0"),
    ("LOADERLAB_MAX_CONCURRENT_RUNS", "1.5", "use a whole number ≥ 1"),
])
def test_malformed_caps_name_the_variable_and_the_allowed_values(monkeypatch, name, value, fragment):
    monkeypatch.setenv(name, value)
    with pytest.raises(limits.LimitError) as info:
        limits.limits()
    assert str(info.value).startswith(f"{name}={value!r} is not allowed") and fragment in str(info.value)


def test_caps_are_read_from_the_environment(monkeypatch):
    assert limits.limits() == limits.DEFAULTS
    monkeypatch.setenv("LOADERLAB_MAX_RUN_SECONDS", "2.5")
    monkeypatch.setenv("LOADERLAB_MAX_CONCURRENT_RUNS", "3")
    assert (limits.limits().max_run_seconds, limits.limits().max_concurrent_runs) == (2.5, 3)


def test_runs_beyond_the_caps_are_refused(monkeypatch):
    monkeypatch.setenv("LOADERLAB_MAX_WORKERS", "1")
    monkeypatch.setenv("LOADERLAB_MAX_SAMPLES", "100")
    with pytest.raises(limits.LimitError, match=re.escape("num_workers=2 is more than this server allows "
                                                         "(LOADERLAB_MAX_WORKERS=1)")):
        build_loader(BASE)
    with pytest.raises(limits.LimitError, match=re.escape("200 samples are more than this server allows")):
        build_loader(replace(BASE, num_workers=1))


def test_the_time_cap_comes_from_the_environment(monkeypatch, no_leftover_workers):
    monkeypatch.setenv("LOADERLAB_MAX_RUN_SECONDS", "1")
    frame = run(replace(BASE, fault="hang", n_samples=64))
    assert frame.stop == TimeCapped(seconds=1.0, stuck=frame.stop.stuck)


# --- the page --------------------------------------------------------------------------------------


@pytest.fixture
def fresh_cache():
    st.cache_data.clear()
    yield
    st.cache_data.clear()


def page(fault: str, **state) -> AppTest:
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=120)
    for key, value in {"fault": fault, "fault_index": FAULT_AT, "n_samples": 200, "cost_ms": 0.2, **state}.items():
        at.session_state[key] = value
    return at.run()


def test_page_shows_the_failing_worker_and_index_with_the_trace_so_far(fresh_cache, no_leftover_workers):
    at = page("raise")
    assert not at.exception
    [error] = at.error
    assert error.value.startswith("The loader failed with these settings (ValueError): ValueError: sample 37 is corrupt")
    assert error.value.endswith("worker 0 failed on index 37.")
    [details] = [e for e in at.expander if e.label.startswith("What torch reported")]
    assert "Original Traceback" in details.code[0].value
    events = at.dataframe[0].value
    assert (events["kind"] == "batch_yield").sum() == 2 and 37 in set(events["index"])
    assert len(at.get("plotly_chart")) == 1  # the timeline of the partial trace
    no_leftover_workers("after the page showed a failure")


def test_page_shows_a_killed_worker_with_pid_and_signal(fresh_cache, no_leftover_workers):
    at = page("kill")
    assert not at.exception
    assert re.search(r"worker 0 \(pid \d+\) died \(Killed\)", at.error[0].value), at.error[0].value
    no_leftover_workers("after the page showed a killed worker")


def test_page_shows_torchs_pickling_message(fresh_cache, no_leftover_workers):
    at = page("unpicklable")
    assert "(RuntimeError): Cowardly refusing to serialize non-leaf tensor" in at.error[0].value
    assert "could not send batch 2" in at.error[0].value
    assert "waits for the batch forever" in at.info[0].value


def test_page_says_the_run_was_stopped_and_shows_where_the_worker_hung(fresh_cache, monkeypatch,
                                                                         no_leftover_workers):
    monkeypatch.setenv("LOADERLAB_MAX_RUN_SECONDS", "1.5")
    at = page("hang")
    assert not at.exception
    assert at.warning[0].value.startswith("Stopped after 1.5 s (LOADERLAB_MAX_RUN_SECONDS)")
    assert at.error[0].value.startswith("Worker 0 (pid ") and "stuck inside dataset[37]" in at.error[0].value
    stack = [e for e in at.expander if e.label.startswith("Where worker 0 was stuck")][0]
    assert "inject_fault" in stack.code[0].value
    assert (at.dataframe[0].value["kind"] == "batch_yield").sum() >= 2  # the page drew the trace up to then
    no_leftover_workers("after the page showed a stopped run")


def test_page_in_korean(fresh_cache):
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=120)
    at.query_params["lang"] = "ko"
    for key, value in {"fault": "raise", "fault_index": FAULT_AT, "n_samples": 200}.items():
        at.session_state[key] = value
    at.run()
    assert "워커 0가 인덱스 37에서 실패했습니다." in at.error[0].value


def test_misconfigured_server_says_so_on_its_first_page(fresh_cache, monkeypatch):
    monkeypatch.setenv("LOADERLAB_MAX_RUN_SECONDS", "soon")
    at = AppTest.from_file(str(ROOT / "pages" / "1_Event_table.py"), default_timeout=120).run()
    assert not at.exception
    assert at.error[0].value.startswith("LOADERLAB_MAX_RUN_SECONDS='soon' is not allowed")


def test_a_full_server_says_busy_on_a_page_with_its_own_runs(fresh_cache, monkeypatch):
    # The lessons page's own runs (not RunConfig runs) go through the same slots as the sidebar's runs.
    from loaderlab.ui.settings import run_lock

    slots = run_lock()
    monkeypatch.setattr(slots, "wait_s", 0.05)
    at = AppTest.from_file(str(ROOT / "pages" / "0_Lessons.py"), default_timeout=120)
    at.query_params["lesson"] = "14"
    at.run()
    at.radio(key="lesson14_pick").set_value("raises")
    with slots:  # someone else's run holds the only slot
        at.button(key="lesson14_check").click().run()
    assert not at.exception
    assert [w.value for w in at.warning] == [EN["error.busy"]]


def test_a_run_stopped_while_its_loop_waits_is_loader_bound_and_names_the_stuck_worker(no_leftover_workers):
    # The loop was blocked in next() on the hung worker's batch when the cap stopped the run: that open wait
    # counts, so the verdict cannot read "model-bound, 0% waiting" beside a stuck loader.
    frame = run(replace(BASE, fault="hang", consumer_ms=0.5), max_seconds=1.5)
    assert frame.stop is not None
    found = stall_findings(frame)
    verdicts = [f for f in found if f.kind in ("loader_bound", "model_bound")]
    assert [f.kind for f in verdicts] == ["loader_bound"]
    assert verdicts[0].evidence["share"] > 0.9
    # the stack the stop asked for is no sign of life: the hung worker is named stuck inside its sample
    silent = [(f.kind, f.evidence.get("index")) for f in found if f.kind in ("stalled_worker", "worker_vanished")]
    assert silent == [("stalled_worker", FAULT_AT)]
