"""A page's run, watched live: events so far, a stalled worker named while it is stuck, a Stop button.

The run goes on in a background thread (:mod:`loaderlab.scenarios.background`, one registry per server);
this module is the script thread's side. ``outcome(config)`` returns the cached outcome when there is one.
Otherwise it starts ``config``'s run — or re-attaches to the one in progress: a rerun (fastReruns) or a
second visitor never starts a second run — and, once it has gone on for ``QUIET_S``, about twice a second
redraws a status placeholder from ``run.snapshot()``: the events so far and, once no batch has come for
``STALL_S``, each worker's last event and how long ago ("worker 0: last event fetch_begin (index 37) 2.4 s ago") with a "Stop this run"
button. The button's callback stops the run (``UserStopped``); the page then shows the stopped report with
the stuck worker's stack. The finished outcome is moved into ``st.cache_data``, so later reruns hit the cache.

Only this thread calls ``st.*``; the run's thread never does.
"""

from __future__ import annotations

import streamlit as st

from ..scenarios.background import RunRegistry
from ..scenarios.limits import DEFAULTS, LimitError, limits
from ..scenarios.queue import FairQueue
from ..scenarios.run import RunConfig
from ..trace.recording.live import LiveSnapshot
from ..trace.core.run import UserStopped
from .texts import t
from .waiting_line import checkpoint, wait_turn

POLL_S = 0.5  # how often the status is redrawn
STALL_S = 1.5  # no batch for this long: name the workers' last events and offer to stop
# A run shorter than this shows only the page's spinner: the status would have been drawn once or twice and
# removed (each a render of the attendee's page: about 18 ms of browser CPU; a room's runs take seconds).
QUIET_S = 1.0


def _caps():
    try:
        return limits()
    except LimitError:  # the sidebar says what is wrong
        return DEFAULTS


@st.cache_resource
def run_lock() -> FairQueue:
    """At most ``LOADERLAB_MAX_CONCURRENT_RUNS`` runs at once per server (overlapping runs share the cores
    and distort each other); the others wait in a fair line (:mod:`loaderlab.scenarios.queue`).
    ``with run_lock():`` waits its turn (ServerBusy only after minutes)."""
    return FairQueue(_caps().max_concurrent_runs)


@st.cache_resource
def live_registry() -> RunRegistry:
    """The server's background runs (they hold slots of :func:`run_lock`)."""
    return RunRegistry(run_lock())


class NotReady(Exception):
    """Raised by the cached function when the run has not finished: exceptions are not cached."""


@st.cache_data(max_entries=16, show_spinner=False)  # the page shows its own spinner and live status
def _cached_run(config: RunConfig):
    handle = live_registry().collect(config)
    if handle is None:
        raise NotReady(config)
    if handle.error is not None:
        raise handle.error  # not cached: the next visit runs again
    return handle.outcome  # the Run, or a FailureReport: cached


def stop_run(config: RunConfig) -> None:
    """The Stop button's callback (runs in the script thread, before the rerun)."""
    live_registry().stop(config, UserStopped())  # the run's Stop says who stopped it: no text to compare


def _where(last) -> str:
    if last.index >= 0:
        return t("live.where.index", index=last.index)
    if last.batch >= 0:
        return t("live.where.batch", batch=last.batch)
    return ""


def status_text(snap: LiveSnapshot) -> str:
    """The live status, in the page's language (markdown, one line per worker when stalled)."""
    head = t("live.progress", events=snap.events, batches=snap.batches, seconds=f"{snap.elapsed_s:.1f}")
    if snap.since_batch_s < STALL_S:
        return head
    lines = [head, t("live.stalled", seconds=f"{snap.since_batch_s:.1f}")]
    lines += [t("live.worker", worker=w.worker, kind=w.kind, where=_where(w), ago=f"{snap.ago_s(w):.1f}")
              for w in snap.quiet_workers()]
    return "  \n".join(lines)


def _watch(handle, config: RunConfig) -> None:
    """Redraw the status until the run ends, from its first ``QUIET_S``; a rerun interrupts this at its next
    st.* call or checkpoint. The status's places are made when first drawn: a quick run sends nothing."""
    status = button = None
    handle.attach()
    try:
        offered = False
        while not handle.wait(POLL_S):
            snap = handle.snapshot()
            if handle.guard.reason is None and snap.elapsed_s < QUIET_S:
                checkpoint()
                continue
            if status is None:
                status, button = st.empty(), st.empty()
            if handle.guard.reason is not None:  # stopped (Stop, time cap): its stacks are being taken
                status.warning(status_text(snap) + "  \n" + t("live.stopping"))
                button.empty()
                continue
            stalled = snap.since_batch_s >= STALL_S
            (status.warning if stalled else status.info)(status_text(snap))
            if stalled and not offered:
                button.button(t("live.stop"), key=f"live_stop_{hash(config)}", on_click=stop_run, args=(config,))
                offered = True
        if status is not None:
            status.empty()
            button.empty()
    finally:
        handle.detach()


def outcome(config: RunConfig):
    """``config``'s recorded outcome (trace or FailureReport), watched live while it runs; while every run
    slot is taken, the page shows its place in line (:mod:`.waiting_line`). Raises what the run raised."""
    for _ in range(3):  # a run stopped as abandoned just before we attached is started again, once
        try:
            return _cached_run(config)
        except NotReady:
            pass
        handle = wait_turn(live_registry(), config, _caps().max_run_seconds)  # the place in line meanwhile
        _watch(handle, config)
    return _cached_run(config)
