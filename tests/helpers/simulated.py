"""A simulated loader's trace, written event by event as a recording would write it: no process, no timing.

A 3-worker, in-order loader with a prefetch cap of 2 tasks per worker (loader-bound by default: 2 ms samples,
8 to a batch, a 0.5 ms step). Tests plant into it what a real run cannot plant on demand: a pause of the whole
machine (every clock reading after ``pause_at`` is PAUSE_S later), one slow sample, a long step, a step that
waited for a core.
"""

from __future__ import annotations

from loaderlab.engine import events as ev
from loaderlab.trace.core.frame import events_frame
from loaderlab.trace.core.run import Run

MAIN, WORKERS, BATCH, BATCHES = 100, 3, 8, 40
COST_S, COLLATE_S, STEP_S, PAUSE_S, PAUSE_AT_S = 0.002, 0.0002, 0.0005, 0.11, 0.12
SLOW_S = 0.3  # a slow sample that costs the loop more than half its wait: the straggler verdict


def simulate(pause_at: float | None = None, slow_index: int | None = None, step_s: float = STEP_S,
             waited_s: float = 0.0, slow_waited: bool = False, step_cores: float | None = 1.0,
             wait_cores: float | None = None) -> Run:
    """The events of one epoch; ``pause_at``: the machine pauses for PAUSE_S there; ``slow_index``: that sample
    takes SLOW_S more; each loop body takes ``step_s`` on the clock, ``waited_s`` of it waiting for a core (its
    run-queue clock, as a recording's ``consumer_begin``/``consumer_end`` carry it); ``slow_waited``: the slow
    sample's worker spent its SLOW_S waiting for a core (its batch's ``collate_end`` says so); ``step_cores``: the
    cores the main process kept busy during each body's own time (its process CPU clock; None: no clock, as
    traces before it was kept); ``wait_cores``: the cores the main process's other threads kept busy while the
    loop waited between bodies (the loop's thread clock is then written too; None: it is not, as a trace whose
    waits cannot be told apart)."""
    out: list[ev.Event] = []

    def at(v: float) -> int:  # the machine's clock: after a pause every reading is PAUSE_S later
        return int(1e9 * (v + (PAUSE_S if pause_at is not None and v >= pause_at else 0.0)))

    def emit(kind: str, v: float, pid: int, worker: int, batch: int = -1, **more) -> None:
        out.append(ev.Event(kind, at(v), pid, worker, 0, batch, **more))

    def cpu(bodies: int) -> int:  # the process CPU clock after that many bodies
        return -1 if step_cores is None else int(bodies * (step_s - waited_s) * step_cores * 1e9)

    spun = [0.0]  # the other threads' CPU seconds so far, while the loop waited

    def clocks(bodies: int) -> dict:
        own = bodies * (step_s - waited_s)  # the loop's thread: its bodies' own time, on one core
        if wait_cores is None:
            return {"arg3": cpu(bodies)}
        return {"arg2": int(own * 1e9), "arg3": cpu(bodies) + int(spun[0] * 1e9)}

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
        waited = SLOW_S if slow_waited and slow_index in indices else 0.0
        emit(ev.COLLATE_END, t, pid, w, b, arg2=int(waited * 1e9))
        emit(ev.RESULT_PUT, t, pid, w, b, queue="result_queue", nbytes=1024)
        free[w] = t
        got[b] = max(t + 0.0001, main_free)
        emit(ev.RESULT_GET, got[b], MAIN, -1, b, queue="result_queue", nbytes=1024)
        emit(ev.BATCH_YIELD, got[b], MAIN, -1, b, arg0=b)
        if b and wait_cores is not None:
            spun[0] += (got[b] - main_free) * wait_cores
        emit(ev.CONSUMER_BEGIN, got[b], MAIN, -1, b, arg0=int(b * waited_s * 1e9), **clocks(b))
        main_free = got[b] + step_s
        emit(ev.CONSUMER_END, main_free, MAIN, -1, b, arg0=int((b + 1) * waited_s * 1e9), **clocks(b + 1))
    emit(ev.EPOCH_END, main_free, MAIN, -1)
    for w in range(WORKERS):
        emit(ev.WORKER_EXIT, main_free + 0.001, MAIN + 1 + w, w)
    return Run(events_frame(out), loader={"num_workers": WORKERS, "batch_size": BATCH, "prefetch_factor": 2,
                                          "in_order": True, "persistent_workers": False, "pin_memory": False})
