"""What each command of ``python -m loaderlab`` does: record, report, export, replay.

Twin of nothing in torch. Wires :func:`loaderlab.record` and :mod:`loaderlab.trace.files.io` /
:mod:`loaderlab.trace.export.chrome` / :mod:`loaderlab.trace.rerun.replayer` to a shell; knows nothing of argparse's
grammar (:mod:`.parser`), plotly or streamlit. Every mistake a user can make is raised as a
:class:`~.targets.UserError`, which :func:`loaderlab.cli.main` prints as one line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

from . import job_commands
from .targets import UserError, exception_line, import_target, make_loader

PROGRESS_EVERY_S = 0.2  # redraw interval of the batch counter on a terminal
LOG_EVERY_S = 5.0  # a progress line this often when stderr is a file or pipe (CI logs)


# --- record --------------------------------------------------------------------------------------


class _Progress:
    """A batch counter on stderr: redrawn in place on a terminal, an occasional line in a log."""

    def __init__(self, loader: Any, batches: int | None, epochs: int) -> None:
        try:
            per_epoch = len(loader)
        except Exception:  # an IterableDataset without __len__
            per_epoch = batches
        self.count, self.total = 0, min(per_epoch, batches or per_epoch) * epochs if per_epoch else None
        self.tty = sys.stderr.isatty()
        self.started = self.shown = time.monotonic()

    def __call__(self, batch: Any) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.shown >= (PROGRESS_EVERY_S if self.tty else LOG_EVERY_S):
            self.shown = now
            of = f"/{self.total}" if self.total else ""
            text = f"recording: {self.count}{of} batches, {now - self.started:.0f} s"
            sys.stderr.write(f"\r{text}" if self.tty else f"{text}\n")
            sys.stderr.flush()

    def close(self) -> None:
        if self.tty and self.shown != self.started:
            sys.stderr.write("\r\033[K")


def cmd_record(args: argparse.Namespace) -> None:
    from ..trace.files.io import save_trace
    from ..trace.recording.recorder import record
    from ..trace.recording.sample_guess import SampleGuess

    folder = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(folder):  # checked first: a long recording should not be lost to a typo
        raise UserError(f"cannot write {args.output}: there is no folder {folder}")
    factory, name = import_target(args.target)
    if args.world_size is not None:
        return _record_ranks(args, factory, name)
    loader = make_loader(factory, name)
    progress = _Progress(loader, args.batches, args.epochs)
    try:
        # Labels and lengths read from what the dataset returns, for the label and padding findings.
        frame = record(loader, args.epochs, max_batches=args.batches, consumer=progress,
                       sample_info=SampleGuess.for_loader(loader, getattr(args, "label", None)))
    except Exception as exc:
        raise UserError(f"recording {name} failed after {progress.count} batches: {exception_line(exc)}") from None
    finally:
        progress.close()
    _write(save_trace, frame, args.output)
    seconds = frame["t_s"].iloc[-1] if len(frame) else 0.0
    print(f"wrote {args.output}: {len(frame)} events, {progress.count} batches in {args.epochs} epoch(s), "
          f"{seconds:.3f} s. Next: python -m loaderlab report {args.output}")


def _record_ranks(args: argparse.Namespace, factory: Callable[..., Any], name: str) -> None:
    """``record --world-size N``: the ranks and their merge live in :mod:`loaderlab.trace.ranks.launch`."""
    from ..trace.files.io import save_trace
    from ..trace.ranks.launch import DistributedRunError, record_ranks

    try:
        frame = record_ranks(factory, args.world_size, args.epochs, max_batches=args.batches,
                             set_epoch=args.set_epoch, timeout_s=24 * 3600.0)
    except (ValueError, TypeError) as exc:  # arguments rejected before any rank started
        raise UserError(str(exc)) from None
    except DistributedRunError as exc:
        raise UserError(f"recording {name} across {args.world_size} ranks failed: {exc.failure.line()}") from None
    _write(save_trace, frame, args.output)
    batches = int((frame["kind"] == "batch_yield").sum())
    print(f"wrote {args.output}: {len(frame)} events from {args.world_size} ranks, {batches} batches in "
          f"{args.epochs} epoch(s), {frame['t_s'].iloc[-1]:.3f} s. Next: python -m loaderlab report {args.output}")


# --- report and export -----------------------------------------------------------------------------


COMPACT_LOAD = True  # report and export read a .lltrace as the compact table: same output, a third of the memory


def _load(path: str, loader: str | None = None, *, compact: bool = False) -> Any:
    """A trace file, a folder or glob of rank traces (``run`` under torchrun); ``loader``: keep that one.
    ``compact``: a single ``.lltrace`` file is read as the compact table (:func:`loaderlab.jobs.read.load_any`)."""
    from ..jobs.read import load_any, select_loader
    from ..trace.files.columnar_read import TraceFileError

    try:
        frame = load_any(path, compact=compact and COMPACT_LOAD)
        return select_loader(frame, loader) if loader is not None else frame
    except TraceFileError as exc:
        raise UserError(str(exc)) from None


def _loaders(frame: Any) -> list[str]:
    from ..jobs.read import loader_names

    return loader_names(frame)


def _write(save: Callable[[Any, str], None], frame: Any, path: str) -> None:
    try:
        save(frame, path)
    except OSError as exc:
        raise UserError(f"cannot write {path} ({exc.strerror or exc}); check the folder exists and is writable") from None


def cmd_report(args: argparse.Namespace) -> None:
    from ..trace.diagnosis.report import report_text

    from ..jobs.read import select_loader

    from ..trace.core.cache import shared_tables

    wanted = getattr(args, "suggestions", False)  # the model's suggestions (the compact table serves them too)
    frame = _load(args.trace, getattr(args, "loader", None), compact=True)
    names = _loaders(frame) if getattr(args, "loader", None) is None else []
    if getattr(args, "json", False):
        return _report_json(frame, names, args)
    if names:  # a `run` trace: each loader by its name and the user's file:line (one report each)
        for name in names:
            site = ((frame.attrs.get("loaders") or {}).get(name) or {}).get("site", "")
            print(f"=== {name} ({site}) ===")
            part = select_loader(frame, name)
            with shared_tables():  # the suggestions read the report's tables
                print(report_text(part, args.lang, _suggestions(part) if wanted else None))
        return
    with shared_tables():
        print(report_text(frame, args.lang, _suggestions(frame) if wanted else None))


def _suggestions(frame: Any) -> list | None:
    """The predicted suggestions of a trace's verdict (None for a multi-rank trace: one verdict per rank)."""
    from ..trace.diagnosis.suggestions import suggest

    return None if "rank" in getattr(frame, "columns", ()) else suggest(frame)


def _report_json(frame: Any, names: list, args: argparse.Namespace) -> None:
    """``report --json``: one diagnosis (or one per loader of a `run` trace with several)."""
    import json

    from ..jobs.read import select_loader
    from ..trace.diagnosis.document import diagnose

    def one(part: Any) -> dict:
        return diagnose(part, args.lang,
                        with_suggestions=args.suggestions and "rank" not in getattr(part, "columns", ()))

    doc = one(select_loader(frame, names[0]) if names else frame) if len(names) < 2 else \
        {"loaders": {name: one(select_loader(frame, name)) for name in names}}
    print(json.dumps(doc, indent=2, ensure_ascii=False))


def cmd_export(args: argparse.Namespace) -> None:
    from ..trace.export.chrome import save_chrome_trace

    from ..jobs.read import select_loader

    cut = None
    if any(getattr(args, k, None) is not None for k in ("start_s", "end_s", "epoch")):
        cut = _cut_export(args)
    if cut is not None:  # only the rows the cut keeps were read
        frame, cuts = cut
    else:
        frame = _load(args.trace, getattr(args, "loader", None), compact=True)
        names = _loaders(frame) if getattr(args, "loader", None) is None else []
        if len(names) > 1:
            raise UserError(f"{args.trace} holds {len(names)} DataLoaders ({', '.join(names)}); "
                            f"pick one with --loader NAME")
        if names:
            frame = select_loader(frame, names[0])
        length = float(frame["t_ns"].max() - frame["t_ns"].min()) / 1e9 if len(frame) else 0.0
        cuts = _export_cuts(length, sorted(int(e) for e in frame["epoch"].unique()), args)
    _write(lambda f, path: save_chrome_trace(f, path, **cuts), frame, args.chrome)
    print(f"wrote {args.chrome}: open it at https://ui.perfetto.dev (or chrome://tracing)")


def _cut_export(args: argparse.Namespace) -> tuple[Any, dict] | None:
    """A cut of one ``.lltrace`` file, read without its whole table (a 10 M-event trace's table is 0.7 GB):
    (the rows the cut keeps, the cuts with the whole table's ``origin_ns``); None: load the whole table."""
    from ..jobs.read import load_cut, survey_for_cut
    from ..trace.files.columnar_read import TraceFileError

    picked = survey_for_cut(args.trace, getattr(args, "loader", None))
    if picked is None:
        return None
    found, loader = picked
    part = found.parts[loader]
    cuts = _export_cuts(part.length_s, sorted(part.epochs), args)
    try:
        frame = load_cut(args.trace, found, loader, cuts)
    except TraceFileError as exc:
        raise UserError(str(exc)) from None
    return frame, {**cuts, "origin_ns": part.t_min}


def _export_cuts(length: float, epochs: list[int], args: argparse.Namespace) -> dict:
    """``--from/--to/--epoch`` checked against the trace (its ``length`` in seconds, its ``epochs``): a value
    outside it is a usage mistake, said as one."""
    import math

    start, end, epoch = getattr(args, "start_s", None), getattr(args, "end_s", None), getattr(args, "epoch", None)
    for flag, value in (("--from", start), ("--to", end)):
        if value is not None and not (math.isfinite(value) and 0 <= value <= length):
            raise UserError(f"{flag} {value:g} is outside the trace: give seconds from 0 to {length:.3f} "
                            f"(its length)")
    if start is not None and end is not None and end <= start:
        raise UserError(f"--to {end:g} must be after --from {start:g}")
    if epoch is not None and epoch not in epochs:
        have = f"{epochs[0]} to {epochs[-1]}" if epochs else "none (the trace is empty)"
        raise UserError(f"--epoch {epoch} is not in the trace: its epochs are {have}")
    return {"start_s": start, "end_s": end, "epoch": epoch}


def _rate(frame: Any) -> tuple[float, str]:
    """(batches per second, the loop's wait as the report and the pages word it) of a trace, from its summary
    (the one definition of both: the report's, the pages', the verdict's)."""
    from ..trace.tables.waits import SECONDS_SPEC
    from ..trace.diagnosis.summary import summarise

    found = summarise(frame)
    rate = found.batches_per_s if found.batches_per_s == found.batches_per_s else 0.0
    return rate, f"{format(found.loop.wait_s, SECONDS_SPEC)} s ({found.loop.share_text()})"


def cmd_replay(args: argparse.Namespace) -> None:
    from ..trace.rerun.replayer import model_note, replay
    from ..trace.files.io import save_trace

    frame = _load(args.trace)
    changes = {name: value for name, value in (("num_workers", args.num_workers),
               ("prefetch_factor", args.prefetch_factor), ("batch_size", args.batch_size),
               ("in_order", args.in_order), ("persistent_workers", args.persistent_workers)) if value is not None}
    if not changes:
        raise UserError("say what to change, e.g. --num-workers 4 (see `python -m loaderlab replay --help`)")
    try:
        out = replay(frame, io_bound=args.io_bound, **changes)
    except (ValueError, TypeError) as exc:
        raise UserError(exception_line(exc)) from None
    if args.output:
        _write(save_trace, out, args.output)
    (rate_a, wait_a), (rate_b, wait_b) = _rate(frame), _rate(out)
    print("changed: " + ", ".join(f"{k}={v}" for k, v in changes.items()))
    print(f"recorded: {rate_a:8.1f} batches/s, loop waited {wait_a}")
    print(f"replayed: {rate_b:8.1f} batches/s, loop waited {wait_b}  ({rate_b / rate_a if rate_a else float('nan'):.2f}x)")
    from ..trace.core.run import as_run

    print(model_note(as_run(out).extra["replay_model"]))


COMMANDS = {"record": cmd_record, "report": cmd_report, "export": cmd_export, "replay": cmd_replay,
            "stacks": job_commands.cmd_stacks, "merge": job_commands.cmd_merge}
