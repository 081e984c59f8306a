"""One ``python -m loaderlab run`` job: hooks in, the script run, every loader traced and written, hooks out.

Twin of nothing in torch. Wires :mod:`.script` (run as ``__main__``), :mod:`.patch` (every DataLoader the
script iterates), :mod:`.traced` (one loader each), :mod:`.stream` (the file, flushed as the job goes) and
:mod:`.stacks` (dumps on request). SIGTERM becomes :class:`~.script.Terminated` in the script, so its
``finally`` blocks run and the trace is closed as after Ctrl-C. Under torchrun (``WORLD_SIZE`` > 1 in the
environment) the output is a folder with one file per rank (``rank{RANK}``). Every worker is stopped before
``run`` returns. Knows nothing of argparse, plotly or streamlit.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import weakref
from typing import Any, Callable

from . import interrupts, patch, stacks
from .script import EXIT_TERMINATED, Target, Terminated, run_target
from .stream import StreamWriter
from ..trace.files.suffix import COLUMNAR_SUFFIX as EXTENSION
from ..trace.recording.bandwidth import host_to_device
from .terminate import TermWatch, children_as_python_would
from .traced import LoaderTrace

LOG_EVERY_S = 5.0  # a progress line this often when stderr is a file or pipe (as `record`)
CLOSE_FROM_OUTSIDE_S = 5.0  # SIGTERM in C: how long the trace's writer may take to end the file
PROGRESS_ENV = "LOADERLAB_RUN_PROGRESS_S"  # overrides that interval (tests: 0 = a line after every flush)


def rank_env() -> tuple[int, int]:
    """(rank, world size) from torchrun's environment; (0, 1) outside it."""
    try:
        world = int(os.environ.get("WORLD_SIZE", "1"))
        rank = int(os.environ.get("RANK", os.environ.get("LOCAL_RANK", "0")))
    except ValueError:
        return 0, 1
    return rank, max(world, 1)


def output_path(output: str, rank: int, world: int) -> str:
    """``trace`` → ``trace.lltrace``; under torchrun ``trace`` (or ``trace.lltrace``) → ``trace/rank{R}.lltrace``;
    one process with an existing folder ``runs/`` → ``runs/trace.lltrace``."""
    if world > 1:  # -o names the ranks' folder (made by whichever rank comes first)
        stem, ext = os.path.splitext(output.rstrip("/" + os.sep) or output)
        folder = stem if ext == EXTENSION else output
        return os.path.join(folder, f"rank{rank}{EXTENSION}")
    if os.path.isdir(output) or output.endswith(("/", os.sep)):  # a folder: the file goes in it
        output = os.path.join(output, "trace")
    stem, ext = os.path.splitext(output)
    return output if ext else output + EXTENSION


class Job:
    def __init__(self, target: Target, path: str, rank: int, world: int, label_key: str | None = None,
                 tune: tuple[str, float] | None = None, trace_epochs: int | None = None) -> None:
        self.target, self.path, self.rank, self.world = target, path, rank, world
        self.label_key = label_key  # run --label: where each sample keeps its class
        self.tune = tune  # run --tune: the budget, ("share", 0.1) or ("seconds", 30.0)
        self.trace_epochs = trace_epochs  # --tune-trace-epochs: epochs traced after tuning (None: all)
        self.pid = os.getpid()
        self.loaders: list[LoaderTrace] = []
        self.owners: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # user loader → its LoaderTrace
        self.started = time.monotonic()
        self.tty = sys.stderr.isatty()
        every = os.environ.get(PROGRESS_ENV)
        self.log_every = float(every) if every else LOG_EVERY_S
        self.shown = self.started
        self.stacks_dir: str | None = None
        self.writer: StreamWriter | None = None

    # --- the hooks' side ---

    def active(self) -> bool:
        return patch.in_job_process(self.pid)

    def iterate(self, loader: Any, original_iter: Callable) -> Any:
        owner = self.owners.get(loader)
        if owner is None:
            owner = self.owners[loader] = self._trace(loader)
        return owner.start_epoch()

    def _trace(self, loader: Any) -> LoaderTrace:
        site = loader.__dict__.get(patch.SITE) or ("?", 0, None)
        owner = LoaderTrace(loader, self._name(site), site, self.stacks_dir, self.label_key, self.tune,
                            self.trace_epochs)
        earlier = [lt for lt in self.loaders if lt.name == owner.name]
        if earlier:  # the same line made it again (a loader per epoch): its epochs go on from there
            owner.epochs = earlier[-1].epochs
        if not self.loaders:  # readers that know one loader per trace (the dashboard) see the first one's
            self.writer.set_meta("loader", owner.settings)
        self.loaders.append(owner)
        self.writer.add(owner)
        self.writer.set_meta("loaders", self.describe_loaders())
        return owner

    def _name(self, site: tuple) -> str:
        """The variable the loader was assigned to (``train_loader``), else ``loader0``, ``loader1``…

        A line that makes a new loader each epoch keeps one name; a name taken by another line, or by a
        loader of the same line that is still alive, gets the line number or a count added.
        """
        alive = {lt.name for lt in self.owners.values()}
        used = {lt.name: lt.site[:2] for lt in self.loaders}
        name = site[2]
        if name is None:
            name = f"loader{len(used)}"
        elif name in used and used[name] != site[:2]:
            name = f"{name}_{site[1]}"
        base, k = name, 2
        while name in alive or (name in used and used[name] != site[:2]):
            name, k = f"{base}_{k}", k + 1
        return name

    def describe_loaders(self, bandwidth: dict[str, Any] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for lt in self.loaders:
            entry = lt.describe(bandwidth)
            if lt.name in out:  # the same line made it again: keep the first's settings, count every epoch
                entry["epochs"] = max(entry["epochs"], out[lt.name]["epochs"])
            out[lt.name] = entry
        return out

    # --- progress ---

    def batches(self) -> int:
        return sum(lt.batches for lt in self.loaders)

    def progress(self, writer: StreamWriter) -> None:
        now = time.monotonic()
        if not self.tty and now - self.shown < self.log_every:
            return
        self.shown = now
        who = f"rank {self.rank}: " if self.world > 1 else ""
        text = f"loaderlab run: {who}{self.batches()} batches, {writer.events} events, {now - self.started:.0f} s"
        sys.stderr.write(f"\r{text}\033[K" if self.tty else f"{text}\n")
        sys.stderr.flush()

    # --- the whole job ---

    def meta(self) -> dict[str, Any]:
        return {"job": {"argv": [self.target.name, *self.target.args], "module": self.target.module,
                        "pid": self.pid, "rank": self.rank, "world_size": self.world, "cwd": os.getcwd()},
                "loaders": {}}

    def run(self) -> int:
        self.writer = StreamWriter(self.path, self.meta(), on_flush=self.progress)
        self.stacks_dir = stacks.install_main(self.pid, self.path)
        previous_term = signal.getsignal(signal.SIGTERM)
        watch = None
        if previous_term in (signal.SIG_DFL, None):
            watch = TermWatch(self._close_from_outside)

            def _raise_terminated(signum: int, frame: Any) -> None:
                watch.handled.set()
                raise Terminated()

            watch.handler = _raise_terminated
            signal.signal(signal.SIGTERM, _raise_terminated)
            children_as_python_would(self.pid)
        patch.install(self.iterate, self.active)
        interrupts.install()
        status = 1
        try:
            status = run_target(self.target)
        finally:
            interrupts.uninstall()
            # a second Ctrl-C or SIGTERM must not cut the closing short: it is bounded (workers' joins)
            old_int = signal.signal(signal.SIGINT, signal.SIG_IGN)
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
            if watch is not None:
                watch.stop()
                children_as_python_would(None)
            try:
                self._close(status)
            finally:
                signal.signal(signal.SIGINT, old_int)
                signal.signal(signal.SIGTERM, previous_term if previous_term is not None else signal.SIG_DFL)
        return status

    def _close(self, status: int) -> None:
        patch.uninstall()
        for lt in self.loaders:
            try:
                lt.shut_down()
            except Exception as exc:  # noqa: BLE001 - one loader's trouble must not lose the others' trace
                sys.stderr.write(f"loaderlab: stopping {lt.name}'s workers: {type(exc).__name__}: {exc}\n")
        # measured once, as the job ends (never while it runs), and only where a loader pins
        pinned = any(lt.settings.get("pin_memory") for lt in self.loaders)
        self.writer.set_meta("loaders", self.describe_loaders(host_to_device() if pinned else None))
        self.writer.set_meta("epochs", max((lt.epochs for lt in self.loaders), default=0))
        self.writer.set_meta("exit_status", status)
        self.writer.set_meta("elapsed_s", round(time.monotonic() - self.started, 6))
        self.writer.close()
        stacks.remove(self.stacks_dir)
        if self.tty:
            sys.stderr.write("\r\033[K")
        sys.stderr.write(self.summary(status) + "\n")
        sys.stderr.flush()

    def _close_from_outside(self) -> None:
        """SIGTERM while the script is stuck in C: keep what was traced (the workers notice their parent's
        end by themselves, within torch's 5 s check)."""
        try:
            self.writer.set_meta("exit_status", EXIT_TERMINATED)
            self.writer.close(timeout_s=CLOSE_FROM_OUTSIDE_S)  # what is left, then the file's end, before the exit
            stacks.remove(self.stacks_dir)
            sys.stderr.write(f"\nloaderlab: SIGTERM while the script was blocked outside Python; wrote {self.path} "
                             f"({self.writer.events} events) and stopped\n")
            sys.stderr.flush()
        except Exception:  # noqa: BLE001 - ending anyway
            pass

    def summary(self, status: int) -> str:
        if not self.loaders:
            return (f"loaderlab: the script made no torch.utils.data.DataLoader it iterated (exit status {status}); "
                    f"{self.path} has no events")
        names = ", ".join(f"{name} {sum(lt.batches for lt in self.loaders if lt.name == name)} batches"
                          for name in dict.fromkeys(lt.name for lt in self.loaders))
        target = os.path.dirname(self.path) if self.world > 1 else self.path
        return (f"loaderlab: wrote {self.path}: {self.writer.events} events ({names}), exit status {status}. "
                f"Next: python -m loaderlab report {target}")


def run_job(target: Target, output: str, label_key: str | None = None, tune: tuple[str, float] | None = None,
            trace_epochs: int | None = None) -> int:
    """Run ``target`` traced, writing ``output``; the script's exit status. ``label_key``: see ``run --label``;
    ``tune``: see ``run --tune`` (:mod:`.tuner`); ``trace_epochs``: ``--tune-trace-epochs`` (None: all)."""
    rank, world = rank_env()
    path = output_path(output, rank, world)
    if world > 1:
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    return Job(target, path, rank, world, label_key, tune, trace_epochs).run()
