"""A pause of the whole machine is not a slow sample (issue 34, item 3).

Synthetic traces, no timing: a small simulation of a 3-worker, in-order loader (loader-bound: 2 ms samples,
a 0.5 ms step) writes the events a recording would. Into it we plant either a pause of the whole machine
(every clock reading after ``T`` is ``D`` later: every process, busy or not, makes no progress for ``D``) or
one slow sample (only its worker is ``D`` late; the others go on with their batches).
"""

from __future__ import annotations

import pytest

from loaderlab.engine import events as ev
from loaderlab.trace.core import Run, events_frame, normal
from loaderlab.trace.diagnosis import all_findings, verdict
from loaderlab.trace.tables import slow

MAIN, WORKERS, BATCH, BATCHES = 100, 3, 8, 40
COST_S, COLLATE_S, STEP_S, PAUSE_S, PAUSE_AT_S = 0.002, 0.0002, 0.0005, 0.11, 0.12
SLOW_S = 0.3  # a slow sample that costs the loop more than half its wait: the straggler verdict


def simulate(pause_at: float | None = None, slow_index: int | None = None) -> Run:
    """The events of one epoch; ``pause_at``: the machine pauses for PAUSE_S there; ``slow_index``: that sample
    takes SLOW_S more."""
    out: list[ev.Event] = []

    def at(v: float) -> int:  # the machine's clock: after a pause every reading is PAUSE_S later
        return int(1e9 * (v + (PAUSE_S if pause_at is not None and v >= pause_at else 0.0)))

    def emit(kind: str, v: float, pid: int, worker: int, batch: int = -1, **more) -> None:
        out.append(ev.Event(kind, at(v), pid, worker, 0, batch, **more))

    cap = 2 * WORKERS
    emit(ev.EPOCH_BEGIN, 0.0, MAIN, -1)
    free = {}
    for w in range(WORKERS):
        emit(ev.WORKER_START, 0.001 * w, MAIN, -1, arg0=MAIN + 1 + w)
        emit(ev.WORKER_READY, 0.01, MAIN + 1 + w, w, arg0=w)
        free[w] = 0.01
    got, main_free = {}, 0.0
    for b in range(BATCHES):
        w, pid = b % WORKERS, MAIN + 1 + b % WORKERS
        put = 0.0 if b < cap else got[b - cap]
        indices = list(range(b * BATCH, (b + 1) * BATCH))
        emit(ev.SAMPLER_YIELD, put, MAIN, -1, b, arg0=BATCH, indices=indices)
        emit(ev.INDEX_PUT, put, MAIN, -1, b, queue=f"index_queue[{w}]", arg0=w)
        t = max(put, free[w])
        emit(ev.INDEX_GET, t, pid, w, b, queue=f"index_queue[{w}]", arg0=w)
        for i in indices:
            emit(ev.FETCH_BEGIN, t, pid, w, b, index=i, arg0=1)
            t += COST_S + (SLOW_S if i == slow_index else 0.0)
            emit(ev.FETCH_END, t, pid, w, b, index=i, arg0=1)
        emit(ev.COLLATE_BEGIN, t, pid, w, b)
        t += COLLATE_S
        emit(ev.COLLATE_END, t, pid, w, b)
        emit(ev.RESULT_PUT, t, pid, w, b, queue="result_queue", nbytes=1024)
        free[w] = t
        got[b] = max(t + 0.0001, main_free)
        emit(ev.RESULT_GET, got[b], MAIN, -1, b, queue="result_queue", nbytes=1024)
        emit(ev.BATCH_YIELD, got[b], MAIN, -1, b, arg0=b)
        emit(ev.CONSUMER_BEGIN, got[b], MAIN, -1, b)
        main_free = got[b] + STEP_S
        emit(ev.CONSUMER_END, main_free, MAIN, -1, b)
    emit(ev.EPOCH_END, main_free, MAIN, -1)
    for w in range(WORKERS):
        emit(ev.WORKER_EXIT, main_free + 0.001, MAIN + 1 + w, w)
    return Run(events_frame(out), loader={"num_workers": WORKERS, "batch_size": BATCH, "prefetch_factor": 2,
                                          "in_order": True, "persistent_workers": False, "pin_memory": False})


def test_a_pause_of_the_whole_machine_is_named_and_no_sample_is_blamed():
    run = simulate(pause_at=PAUSE_AT_S)
    windows = slow.machine_stalls(normal(run.events))
    assert len(windows) == 1
    (window,) = windows.itertuples()
    assert window.end_s - window.start_s >= PAUSE_S
    assert window.processes >= 2  # the workers inside a sample, at least
    found = all_findings(run)
    assert "straggler" not in {f.kind for f in found}
    (stall,) = [f for f in found if f.kind == "machine_stall"]
    assert stall.evidence["start_s"] == pytest.approx(window.start_s)
    for lang in ("en", "ko"):
        assert stall.text(lang)
    assert verdict(run).kind != "straggler"


def test_one_slow_sample_while_the_others_progress_is_still_a_straggler():
    slow_index = 5 * BATCH + 3  # worker 2's batch 5, well after the workers' warm-up
    run = simulate(slow_index=slow_index)
    assert not len(slow.machine_stalls(normal(run.events)))
    found = all_findings(run)
    assert "machine_stall" not in {f.kind for f in found}
    (straggler,) = [f for f in found if f.kind == "straggler"]
    assert straggler.index == slow_index
    assert (verdict(run).kind, verdict(run).index) == ("straggler", slow_index)


def test_a_quiet_run_has_no_machine_stall():
    assert not len(slow.machine_stalls(normal(simulate().events)))
