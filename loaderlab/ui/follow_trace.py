"""The "Your trace" page's live view: follow a trace that ``python -m loaderlab run`` is still writing, on this machine.

Wiring only: a path (typed, or one of the newest ``.lltrace`` files under the server's folder) →
:class:`loaderlab.jobs.follow.Follower` (kept per path; each look reads only the chunks added since the last) →
the page's own views of the trace so far, in a fragment that reruns every ``REFRESH_S`` while the job runs
and stops once it ended. For a job on this machine a button asks its processes for their Python stacks
(:func:`loaderlab.jobs.stacks.job_stacks`, what ``python -m loaderlab stacks PID`` prints), shown as the page
shows its own stuck workers (:mod:`.outcome`: a headline per process, the stack in an expander). Every
problem with a path is one sentence in the page's language.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
import streamlit as st

from ..jobs import follow, stacks, trace_paths
from ..trace.files.columnar_read import TraceFileError
from ..trace.core.run import as_run
from .job_trace import pick_loader
from .outcome import show_warnings
from .texts import t

REFRESH_S = 2.0  # how often a live view looks again (a look after a new chunk of a 1 M-event trace: < 0.5 s)
STALE_S = 10.0  # an unclosed trace of no job on this machine counts as live while it grew this recently
KEY = "trace_follow"  # the path's text input
VIEW_KEY = "trace_follow_view"  # ((path, follower id), the trace the views draw) while a big trace is live
LIVE_VIEW_EVENTS = 20_000  # a live trace up to this many events gets its views redrawn on every refresh
STACKS_KEY = "trace_follow_stacks"  # the last answer of the stacks button: (main pid, asked at, answers or None)


@dataclass(frozen=True)
class Status:
    """Where the followed job stands: ``state`` is live (its process runs here), live_elsewhere (the file grows,
    no process here), waiting (no chunk yet), ended (closed) or stopped (not closed and no longer written)."""

    state: str
    events: int
    batches: int
    ago_s: float  # since the last chunk reached the disk
    pid: int | None  # the job's main process (the first rank's, under torchrun)
    exit_status: int | None

    @property
    def live(self) -> bool:
        return self.state in ("live", "live_elsewhere", "waiting")


def status(follower: follow.Follower, frame: pd.DataFrame, now: float | None = None) -> Status:
    """The job's state from its trace's metadata (closed: ended; else its process here: live)."""
    now = time.time() if now is None else now
    metas = follower.metas()
    jobs = [m.get("job") or {} for m in metas]
    pid = next((j.get("pid") for j in jobs if isinstance(j.get("pid"), int)), None)
    ago = max(now - follower.last_write(), 0.0)
    if follower.closed:
        codes = [m.get("exit_status") for m in metas]
        state, code = "ended", next((c for c in codes if c not in (0, None)), codes[0] if codes else None)
    else:
        code = None
        if any(follow.job_alive(m) for m in metas):
            state = "live"
        elif ago < STALE_S:  # a file with no column list yet does not name its job: its first chunk will
            state = "live_elsewhere" if any(jobs) else "waiting"
        else:
            state = "stopped"
    batches = int((frame["kind"] == "batch_yield").sum()) if "kind" in frame.columns else 0
    return Status(state, len(frame), batches, ago, pid, code)


def path_error(exc: TraceFileError) -> str:
    """One sentence in the page's language for a path the live view cannot follow."""
    if isinstance(exc, trace_paths.PathRefused):
        return t(f"jobs.follow.error.{exc.reason}", path=exc.path, cwd=os.getcwd(),
                 dirs=os.pathsep.join(trace_paths.allowed_dirs()))
    return t("jobs.follow.error.other", detail=exc)


# One Follower per path and server: it holds the trace read so far, so each look reads only the new chunks.
@st.cache_resource(max_entries=4, show_spinner=False)
def _follower(path: str, cwd: str) -> follow.Follower:
    return follow.Follower(path)


def follower_for(path: str) -> follow.Follower:
    return _follower(path, os.getcwd())


def path_input() -> str:
    """The path box and the newest traces under the server's folder; the path to follow ('' for none)."""
    st.subheader(t("jobs.follow.title"))
    st.caption(t("jobs.follow.explain", seconds=REFRESH_S))
    cwd = os.getcwd()
    recent = trace_paths.recent_traces(cwd)
    if recent:
        def _pick() -> None:
            st.session_state[KEY] = st.session_state.get("trace_follow_recent") or ""

        st.selectbox(t("jobs.follow.recent", cwd=cwd), recent, index=None, key="trace_follow_recent",
                     placeholder=t("jobs.follow.recent.placeholder"), on_change=_pick)
    else:
        st.caption(t("jobs.follow.recent.none", cwd=cwd))
    return st.text_input(t("jobs.follow.path"), key=KEY, help=t("jobs.follow.path.help", cwd=cwd)).strip()


def look(follower: follow.Follower) -> tuple[pd.DataFrame | None, Status | None]:
    """Read what is new; (None, None) after saying why when the trace cannot be read."""
    try:
        frame = follower.poll()
    except follow.TraceRewritten:
        _follower.clear()  # a new job writes the file from its start: follow it afresh
        return look(follower_for(follower.path))
    except TraceFileError as exc:
        st.error(path_error(exc))
        return None, None
    return frame, status(follower, frame)


def show_follow(path: str, show_trace: Callable[..., None]) -> None:
    """The live view of ``path``; ``show_trace``: the page's views of one trace (:func:`.trace_page.show_trace`)."""
    try:
        follower = follower_for(path)
    except TraceFileError as exc:
        st.error(path_error(exc))
        return
    frame, now = look(follower)
    if frame is None:
        return
    refreshing = now.live

    def _view() -> None:
        frame, state = look(follower_for(path))
        if frame is None:
            return
        if refreshing and not state.live:
            st.rerun()  # the job just ended: once more, without the timer (else the fragment never stops)
        _status(state, follower_for(path))
        if state.pid is not None:
            _stacks(state, frame)
        if not len(frame):
            return
        frame, token = _snapshot(path, frame, state, follower_for(path))
        picked, which = pick_loader(frame, "trace_loader", token)
        show_trace(picked, token=token + which, name=path, stem=os.path.basename(path).rsplit(".", 1)[0],
                   warnings=lambda: show_warnings(as_run(picked)))

    st.fragment(_view, run_every=REFRESH_S if refreshing else None)()


def _snapshot(path: str, frame: pd.DataFrame, state: Status, follower: follow.Follower) -> tuple[pd.DataFrame, str]:
    """The trace the views draw, and its cache token: all of it while it is small or once the job stopped;
    for a bigger live trace the one drawn last, until the user asks for the views of now (drawing them costs
    seconds, more than a refresh's interval: see benchmarks/follow_trace.py --page)."""
    kept = st.session_state.get(VIEW_KEY)
    mine = (path, id(follower))  # a file written again by a new job gets a new follower
    if kept is None or kept[0] != mine or not state.live or len(frame) <= LIVE_VIEW_EVENTS:
        kept = (mine, frame)
    elif len(kept[1]) < len(frame):
        if st.button(t("jobs.follow.update", events=len(frame)), key="follow_update_views"):
            kept = (mine, frame)
        else:
            st.caption(t("jobs.follow.snapshot", shown=len(kept[1]), events=len(frame)))
    st.session_state[VIEW_KEY] = kept
    return kept[1], f"follow:{path}:{id(follower)}:{len(kept[1])}:{'live' if state.live else 'done'}"


def _status(state: Status, follower: follow.Follower) -> None:
    words = dict(events=state.events, batches=state.batches, ago=state.ago_s, seconds=REFRESH_S)
    if state.state == "waiting" or (state.state == "live" and not state.events):
        st.info(t("jobs.follow.waiting", **words))
    elif state.state == "live":
        st.info(t("jobs.follow.live", **words))
    elif state.state == "live_elsewhere":
        st.info(t("jobs.follow.live.elsewhere", **words))
    elif state.state == "ended":
        st.success(t("jobs.follow.ended", status=state.exit_status, **words))
    else:
        st.warning(t("jobs.follow.stopped", **words))
    if state.live:
        st.caption(t("jobs.follow.read_cost", ms=follower.polled_s * 1e3))


def who_text(who: dict) -> str:
    if who["role"] == "main":
        return t("jobs.stacks.main", pid=who["pid"])
    return t("jobs.stacks.worker", worker=who["worker"], loader=who["loader"], pid=who["pid"])


def ask_stacks(pid: int, events: pd.DataFrame | None = None) -> tuple[int, list[stacks.Answer]] | None:
    """Each process of the job's answer (main first), or None when the job no longer runs here; ``events``:
    the trace read so far (each process's last event comes from it, not from reading the file again)."""
    try:
        return stacks.job_stacks(pid, events)
    except stacks.NoSuchJob:
        return None


def _stacks(state: Status, frame: pd.DataFrame) -> None:
    if st.button(t("jobs.stacks.button"), key="follow_stacks_button", help=t("jobs.stacks.help", pid=state.pid)):
        with st.spinner(t("jobs.stacks.button")):
            st.session_state[STACKS_KEY] = (state.pid, time.time(), ask_stacks(state.pid, frame))
    kept = st.session_state.get(STACKS_KEY)
    if not kept or kept[0] != state.pid:
        return
    _, asked, found = kept
    if found is None:
        st.warning(t("jobs.stacks.gone", pid=state.pid))
        return
    st.caption(t("jobs.stacks.asked", ago=time.time() - asked))
    show_answers(found[1])


def show_answers(answers: list[stacks.Answer]) -> None:
    """Each process: a headline (a worker inside ``dataset[i]`` as an error), its stack in an expander."""
    for answer in answers:
        who = who_text(answer.who)
        last = answer.last
        if last is None:
            st.info(t("jobs.stacks.no_event", who=who))
        elif last["kind"] == "fetch_begin" and answer.who["role"] == "worker":
            st.error(t("jobs.stacks.stuck", who=who, index=last["index"], batch=last["batch"], ago=last["ago_s"]))
        else:
            st.info(t("jobs.stacks.last", who=who, kind=last["kind"], batch=last["batch"], index=last["index"],
                      ago=last["ago_s"]))
        if answer.stack is None:
            st.caption(t("jobs.stacks.no_answer", who=who, seconds=stacks.ANSWER_WAIT_S))
        else:
            with st.expander(t("jobs.stacks.stack", who=who), expanded=answer.who["role"] == "worker"
                             and last is not None and last["kind"] == "fetch_begin"):
                st.code(answer.stack, language="text")
