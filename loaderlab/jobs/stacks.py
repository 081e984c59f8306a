"""A running job's Python stacks, from outside: ``python -m loaderlab stacks PID``.

Twin of nothing in torch (``py-spy dump`` for one job's DataLoader workers). The app asks its own engine's
workers for their stacks over the event queue; another process cannot reach that queue, so ``run`` gives the
job's main process and each DataLoader worker a :mod:`faulthandler` dump on ``STACKS_SIGNAL`` into a file
of a per-job folder (``stacks_dir(main pid)``), with a note of who each worker is. faulthandler writes from
C inside the signal handler, so a worker stuck in a C call (a lock, a read) still answers. ``stacks``
signals each process and prints what it wrote. Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import dataclasses
import faulthandler
import json
import os
import shutil
import signal
import tempfile
import time
from typing import Any, Callable

STACKS_SIGNAL = signal.SIGUSR1  # the same signal the app's own workers answer with their stack
ANSWER_WAIT_S = 2.0  # how long `stacks` waits for one process to write its stack
_open: list = []  # the dump files faulthandler writes to: kept open for the process's life


def stacks_dir(pid: int) -> str:
    return os.path.join(tempfile.gettempdir(), "loaderlab-stacks", str(pid))


def _register(folder: str, who: dict[str, Any]) -> None:
    pid = os.getpid()
    f = open(os.path.join(folder, f"{pid}.stack"), "w", encoding="utf-8")  # noqa: SIM115 - lives with the process
    _open.append(f)
    faulthandler.register(STACKS_SIGNAL, file=f, all_threads=True, chain=False)
    with open(os.path.join(folder, f"{pid}.who"), "w", encoding="utf-8") as note:
        json.dump(who, note)


def install_main(pid: int, trace: str) -> str:
    """In the job's main process: create its folder and answer ``STACKS_SIGNAL`` with a dump."""
    folder = stacks_dir(pid)
    parent = os.path.dirname(folder)
    for name in os.listdir(parent) if os.path.isdir(parent) else []:  # left by jobs killed outright
        if name.isdigit() and (int(name) == pid or not _alive(int(name))):
            shutil.rmtree(os.path.join(parent, name), ignore_errors=True)
    os.makedirs(folder, exist_ok=True)
    _register(folder, {"role": "main", "pid": pid, "trace": os.path.abspath(trace)})
    return folder


def remove(folder: str) -> None:
    faulthandler.unregister(STACKS_SIGNAL)
    shutil.rmtree(folder, ignore_errors=True)


class StackDumpInit:
    """A worker's first step (inside the traced clone's ``worker_init_fn``), then the user's own."""

    def __init__(self, inner: Callable | None, folder: str, loader: str) -> None:
        self.inner, self.folder, self.loader = inner, folder, loader

    def __call__(self, worker_id: int) -> None:
        try:
            _register(self.folder, {"role": "worker", "worker": worker_id, "loader": self.loader,
                                    "pid": os.getpid()})
        except OSError:  # the folder is gone (the job is ending): no stacks, the worker still runs
            pass
        if self.inner is not None:
            self.inner(worker_id)


# --- the `stacks` command's side -------------------------------------------------------------------


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def job_processes(pid: int) -> list[dict[str, Any]]:
    """The job's main process and its live workers, main first; [] when ``pid`` runs no traced job."""
    folder = stacks_dir(pid)
    found = []
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if name.endswith(".who"):
            try:
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    who = json.load(f)
            except (OSError, ValueError):
                continue
            if _alive(who["pid"]):
                found.append(who)
    found.sort(key=lambda w: (w["role"] != "main", w.get("loader", ""), w.get("worker", -1)))
    return found


def ask(pid: int, folder: str, wait_s: float = ANSWER_WAIT_S) -> str | None:
    """Signal ``pid`` and return the stack it wrote (None if it did not answer within ``wait_s``)."""
    path = os.path.join(folder, f"{pid}.stack")
    before = os.path.getsize(path) if os.path.exists(path) else 0
    os.kill(pid, STACKS_SIGNAL)
    deadline = time.monotonic() + wait_s
    text, last = "", -1
    while time.monotonic() < deadline:
        size = os.path.getsize(path) if os.path.exists(path) else 0
        if size > before and size == last:  # written and no longer growing
            with open(path, encoding="utf-8", errors="replace") as f:
                f.seek(before)
                text = f.read()
            return text
        last = size
        time.sleep(0.05)  # polling another process's file: nothing to wait on
    return None


_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # loaderlab/


def user_stack(dump: str, role: str) -> str:
    """One process's answer, as the user needs it: the thread doing the work, most recent call first,
    without what lies below the user's code (a forked worker's copy of the parent's stack, ``run`` and
    runpy in the main process) and without LoaderLab's own frames."""
    marker = "runpy" if role == "main" else "_worker_loop"
    threads = [t for t in dump.split("\n\n") if t.strip()]
    thread = next((t for t in threads if marker in t), threads[0] if threads else "")
    frames = []
    for line in thread.splitlines()[1:]:
        if ("in _bootstrap" in line and role != "main") or (role == "main" and "<frozen runpy>" in line):
            break
        if f'"{_PACKAGE}{os.sep}' not in line:
            frames.append(line)
    return "\n".join(["  (most recent call first)", *frames])


def last_event_rows(trace: str, frame: Any = None) -> dict[int, dict[str, Any]]:
    """Each process's last event in the trace written so far: kind, batch and index (-1: none), seconds ago.
    ``frame``: the trace already read (the dashboard's live view has it), instead of reading ``trace``."""
    from .read import load_any

    if frame is None:
        try:
            frame = load_any(trace)
        except Exception:  # noqa: BLE001 - the trace is a bonus here; the stacks are the answer
            return {}
    if frame.empty:
        return {}
    frame = frame[~frame["kind"].isin(("stack", "memory"))]
    now = time.monotonic_ns()  # one clock for every process of the machine (see engine.events)
    out = {}
    for pid, rows in frame.groupby("pid"):
        last = rows.iloc[-1]
        out[int(pid)] = {"kind": str(last["kind"]), "batch": int(last["batch"]), "index": int(last["index"]),
                         "ago_s": round((now - int(last["t_ns"])) / 1e9, 1)}
    return out


def last_event_text(row: dict[str, Any]) -> str:
    """"last event fetch_begin (batch 5, index 5) 3.2 s ago"."""
    where = ", ".join(f"{k} {row[k]}" for k in ("batch", "index") if row[k] >= 0)
    return f"last event {row['kind']}{f' ({where})' if where else ''} {row['ago_s']:.1f} s ago"


def describe(who: dict[str, Any]) -> str:
    if who["role"] == "main":
        return f"main process (pid {who['pid']})"
    return f"worker {who['worker']} of {who['loader']} (pid {who['pid']})"


class NoSuchJob(LookupError):
    """``pid`` is not a running job of ``python -m loaderlab run`` (nor one of its workers); one sentence."""


@dataclasses.dataclass(frozen=True)
class Answer:
    """One process of a job: who it is, its last event in the trace (or ''), its stack (None: no answer)."""

    who: dict[str, Any]
    last: dict[str, Any] | None  # :func:`last_event_rows`' entry for this process
    stack: str | None

    def title(self) -> str:
        return describe(self.who) + (f", {last_event_text(self.last)}" if self.last else "")


def job_stacks(pid: int, events: Any = None) -> tuple[int, list[Answer]]:
    """(the job's main pid, each of its processes' answer, main first): what ``stacks PID`` prints and the
    dashboard's live view shows. ``pid`` may be a worker's; ``events``: the job's trace already read (else
    it is read from the file the job names). Raises :class:`NoSuchJob`."""
    import psutil

    if not psutil.pid_exists(pid):
        raise NoSuchJob(f"there is no process {pid}; give the process id of a running `python -m loaderlab run` job")
    procs = job_processes(pid)
    if not procs:  # perhaps a worker's pid: its parent runs the job
        try:
            parent = psutil.Process(pid).ppid()
        except psutil.Error:
            parent = None
        procs = job_processes(parent) if parent else []
        pid = parent if procs else pid
    if not procs:
        raise NoSuchJob(f"process {pid} is not a job started with `python -m loaderlab run` "
                        f"(it has no stacks folder {stacks_dir(pid)})")
    folder = stacks_dir(pid)
    dumps = [(who, ask(who["pid"], folder)) for who in procs]
    trace = next((w.get("trace") for w in procs if w["role"] == "main"), None)
    last = last_event_rows(trace, events) if trace or events is not None else {}
    return pid, [Answer(who, last.get(who["pid"]),
                        None if dump is None else user_stack(dump, who["role"])) for who, dump in dumps]
