"""A recording that can be stopped and that keeps what it saw, whatever happens to the loader.

Twin of nothing in torch. ``record_session`` is the loop behind :func:`loaderlab.record` for LoaderLab's
own loader, with three additions the dashboard needs on a shared server:

- a ``RunGuard`` (time cap, stop flag; :mod:`loaderlab.engine.interrupt`): the engine's waits and this
  loop check it, and a stopped run ends cleanly (every worker shut down) with the trace so far;
- a failure (a worker's exception, a dead worker, torch's ``timeout``) does not lose the trace: the
  ``Recording`` holds the partial table *and* the exception, exactly as the loader raised it;
- optionally a ``MemorySampler`` (:mod:`loaderlab.engine.memory`) adds ``memory`` events.

When the guard stops a run, every live worker is asked for its Python stack (``request_stacks``) before
shutdown, so a worker stuck inside ``__getitem__`` shows where. A batch a worker could not pickle (an
``error`` event whose cause is ``events.CAUSE_UNSENT``) stops a guarded run at once with ``UnsentResult``:
torch would wait for it forever. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable

from ...engine import events as ev
from ...engine.interrupt import RunGuard, RunStopped, UnsentResult
from ...engine.memory import MemorySampler
from ...engine.records import detailed, RecordTracer
from ..core.frame import tracer_frame
from ..core.settings import loader_settings
from ..core.run import Run

STACKS_WAIT_S = 1.5  # how long a stopped run waits for its workers' stacks before shutting them down


class UnsentBatchError(RuntimeError):
    """A worker could not pickle a batch to send it: torch prints this in the worker and waits forever;
    a recording stops and raises it, with the pickler's own message."""


@dataclass
class Recording:
    """What one recording produced: the run so far (events, settings, epochs), and why it ended early."""

    run: Run
    error: BaseException | None = None  # what the loader raised (torch's exception, unchanged)
    stopped: Any = None  # the guard's reason (TimeCap, UnsentResult, StopAsked), None if not stopped
    stopped_at_ns: int | None = None  # when the stop was noticed (time.monotonic_ns)


class SessionTracer(RecordTracer):
    """A RecordTracer that carries the guard, notices unsendable batches and counts arriving stacks."""

    def __init__(self, sample_info=None, guard: RunGuard | None = None) -> None:
        super().__init__(sample_info)
        self.guard = guard
        self.stacks_from: set[int] = set()
        self._stacks = threading.Condition()

    def emit_records(self, records: Any) -> None:
        super().emit_records(records)
        for kind, worker, batch, cause, detail in detailed(records):
            if kind == ev.STACK:
                with self._stacks:
                    self.stacks_from.add(worker)
                    self._stacks.notify_all()
            elif kind == ev.ERROR and self.guard is not None and cause == ev.CAUSE_UNSENT:
                self.guard.stop(UnsentResult(worker, batch, detail))

    def wait_for_stacks(self, workers: set[int], timeout: float) -> None:
        with self._stacks:
            self._stacks.wait_for(lambda: workers <= self.stacks_from, timeout=timeout)


def _ask_for_stacks(it: Any, tracer: SessionTracer) -> None:
    alive = it.live_workers
    if not alive:
        return
    tracer.stacks_from.clear()
    it.request_stacks()
    tracer.wait_for_stacks(alive, STACKS_WAIT_S)


def close_epoch(it: Any, stop_workers: bool) -> None:
    """End an epoch the loop left early: close the consumer span and, unless persistent, stop the workers."""
    it.end_consumer_span()
    if stop_workers:
        it.stop_workers()


def record_session(loader, epochs: int = 1, *, max_batches: int | None = None,
                   consumer: Callable[[Any], Any] | None = None, sample_info=None,
                   guard: RunGuard | None = None, memory_interval_s: float | None = None,
                   live: Any = None) -> Recording:
    """Iterate ``loader`` (a loaderlab DataLoader) like ``record``; never raises what the loader raised.

    Arguments are checked by the caller (:func:`loaderlab.trace.recording.recorder.record`). ``live``: a
    :class:`loaderlab.trace.recording.live.LiveView` to attach to the tracer, so other threads can watch the run.
    """
    tracer = SessionTracer(sample_info, guard)
    if live is not None:
        live.attach(tracer)
    previous, loader.tracer = loader.tracer, tracer
    it = None
    error = stopped = stopped_at = None
    sampler = MemorySampler(tracer, lambda: it, memory_interval_s).start() if memory_interval_s else None
    try:
        for _ in range(epochs):
            if guard is not None:
                guard.check()
            it = iter(loader)
            limit = max_batches if max_batches is not None else math.inf
            seen = 0
            while seen < limit:
                try:
                    batch = next(it)
                except StopIteration:
                    break
                seen += 1
                if consumer is not None:
                    consumer(batch)
                del batch
                if guard is not None:
                    guard.check()
            close_epoch(it, stop_workers=not loader.persistent_workers)
    except RunStopped as exc:
        stopped, stopped_at = exc.reason, time.monotonic_ns()
        if it is not None:
            _ask_for_stacks(it, tracer)
    except Exception as exc:  # noqa: BLE001 - handed to the caller with the trace so far
        error = exc
    finally:
        if sampler is not None:
            sampler.stop()
        if it is not None:
            close_epoch(it, stop_workers=True)
        if loader.persistent_workers:
            loader.release_persistent_workers()
        loader.tracer = previous
    run = Run(tracer_frame(tracer), loader=loader_settings(loader), epochs=epochs)
    return Recording(run, error, stopped, stopped_at)
