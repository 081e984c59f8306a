"""The command line: ``python -m loaderlab record | report | export``.

Twin of nothing in torch. Wires :func:`loaderlab.record` and :mod:`loaderlab.trace.io` /
:mod:`loaderlab.trace.chrome` to a shell; knows nothing of plotly or streamlit. Every mistake a user can
make (a wrong path, a factory that raises, an unreadable trace file) ends as one line on stderr starting
with ``loaderlab: error:`` and exit status 2, never as a traceback; a traceback means a LoaderLab bug.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any, Callable

from .targets import UserError, exception_line, import_target, make_loader, one_line

EXIT_USAGE = 2
PROGRESS_EVERY_S = 0.2  # redraw interval of the batch counter on a terminal
LOG_EVERY_S = 5.0  # a progress line this often when stderr is a file or pipe (CI logs)


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        _fail(f"{message} (see `{self.prog} --help`)")


def _fail(message: str) -> None:
    sys.stderr.write(f"loaderlab: error: {one_line(message)}\n")
    sys.exit(EXIT_USAGE)


def _positive_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


_EXAMPLES = """\
examples:
  python -m loaderlab record my_data.py:make_loader -o trace.json --batches 50
  python -m loaderlab report trace.json
  python -m loaderlab export trace.json --chrome trace.chrome.json
  python -m loaderlab replay trace.json --num-workers 4
"""

_RECORD_HELP = """\
Import MODULE_OR_FILE, call FACTORY() to get a DataLoader, iterate it (--epochs
times, at most --batches batches each), and save every event of every process as
a LoaderLab trace file (JSON). A factory file looks like this:

  # my_data.py
  from loaderlab import DataLoader      # same arguments as torch's DataLoader

  def make_loader():
      return DataLoader(MyDataset(), batch_size=32, num_workers=4)

A stock torch.utils.data.DataLoader works too, but torch hides its queues: the
trace then lacks queue hops, reordering and worker start-up.

With --world-size N (2-4), N ranks run as separate processes in one
torch.distributed process group (gloo on 127.0.0.1), and each calls
FACTORY(rank, world_size), after init_process_group, for its own DataLoader:

  def make_loader(rank, world_size):
      dataset = MyDataset()
      sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank)
      return DataLoader(dataset, batch_size=32, sampler=sampler, num_workers=2)

Before each epoch sampler.set_epoch(epoch) is called, as a training loop should
(--no-set-epoch leaves it out). The trace then has a rank column.
"""


def build_parser() -> argparse.ArgumentParser:
    raw = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="python -m loaderlab", formatter_class=raw, epilog=_EXAMPLES,
        description="Record what a DataLoader does (every fetch, collate, queue hop and\n"
                    "wait, in every worker), save it as a trace file, summarise it, or export it\n"
                    "for Perfetto. `python -m loaderlab COMMAND --help` explains each command.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     title="commands (one of)")

    record = commands.add_parser(
        "record", help="run a DataLoader and save every event to a trace file", formatter_class=raw,
        description=_RECORD_HELP,
        epilog="examples:\n"
               "  python -m loaderlab record my_data.py:make_loader -o trace.json --batches 50 --epochs 2\n"
               "  python -m loaderlab record mypackage.data:make_loader   # a module importable from here\n")
    record.add_argument("target", metavar="MODULE_OR_FILE:FACTORY",
                        help="a .py file or dotted module name, a colon, and the name of a zero-argument "
                             "function in it that returns a DataLoader (with --world-size: FACTORY(rank, world_size))")
    record.add_argument("-o", "--output", default="trace.json", metavar="TRACE.json",
                        help="where to write the trace (default: trace.json)")
    record.add_argument("--batches", type=_positive_int, default=None, metavar="N",
                        help="stop each epoch after N batches (default: run whole epochs)")
    record.add_argument("--epochs", type=_positive_int, default=1, metavar="E",
                        help="how many epochs to run (default: 1)")
    record.add_argument("--world-size", type=int, default=None, metavar="N",
                        help="run N ranks (2-4) in a torch.distributed process group; FACTORY(rank, world_size) "
                             "builds each rank's DataLoader (default: one process, FACTORY())")
    record.add_argument("--no-set-epoch", dest="set_epoch", action="store_false",
                        help="with --world-size: do not call sampler.set_epoch(epoch) before each epoch")

    report = commands.add_parser(
        "report", help="print a plain-text summary of a trace and what it suggests", formatter_class=raw,
        description="Load a trace written by `record` and print where the time went and what to try.",
        epilog="examples:\n  python -m loaderlab report trace.json\n"
               "  python -m loaderlab report trace.json --lang ko   # 한국어 보고서\n")
    report.add_argument("trace", metavar="TRACE.json", help="a trace file written by `python -m loaderlab record`")
    report.add_argument("--lang", choices=("en", "ko"), default="en",
                        help="the report's language: en (English, the default) or ko (Korean)")

    export = commands.add_parser(
        "export", help="convert a trace for Perfetto / chrome://tracing", formatter_class=raw,
        description="Convert a LoaderLab trace into Chrome trace-event JSON. Open the result at\n"
                    "https://ui.perfetto.dev (or chrome://tracing) to see one track per process\n"
                    "(main, worker 0, worker 1, ...) with every fetch, collate and wait as a span.",
        epilog="example:\n  python -m loaderlab export trace.json --chrome trace.chrome.json\n")
    export.add_argument("trace", metavar="TRACE.json", help="a trace file written by `python -m loaderlab record`")
    export.add_argument("--chrome", required=True, metavar="OUT.json", help="where to write the Chrome trace")

    replay = commands.add_parser(
        "replay", help="re-run a trace's workload with other loader settings (\"what if\")", formatter_class=raw,
        description="Re-run the engine on a stand-in dataset that costs what the recorded one cost (per-sample\n"
                    "fetch time, labels, sizes, collate time, your training step), with the settings you\n"
                    "change, and compare: a real run, not a model. Unchanged settings keep their recorded value.\n"
                    "The stand-in waits out each sample's recorded time. A trace cannot tell computing from\n"
                    "waiting, so by default at most as many samples run at once as this machine has cores\n"
                    "(CPU-bound work): more workers than cores then add no speed. --io-bound lifts that cap\n"
                    "(the time was disk or network waiting). The output's `model:` line says which ran.",
        epilog="examples:\n  python -m loaderlab replay trace.json --num-workers 4\n"
               "  python -m loaderlab replay trace.json --num-workers 2 --out-of-order --prefetch-factor 4 -o what_if.json\n")
    replay.add_argument("trace", metavar="TRACE.json", help="a trace file written by `python -m loaderlab record`")
    replay.add_argument("--num-workers", type=int, metavar="N", help="worker processes")
    replay.add_argument("--prefetch-factor", type=int, metavar="N", help="batches in flight per worker")
    replay.add_argument("--batch-size", type=_positive_int, metavar="N", help="samples per batch")
    order = replay.add_mutually_exclusive_group()
    order.add_argument("--out-of-order", dest="in_order", action="store_false", default=None,
                       help="hand batches over as they arrive (in_order=False)")
    order.add_argument("--in-order", dest="in_order", action="store_true", help="keep sampler order (in_order=True)")
    replay.add_argument("--persistent-workers", action="store_true", default=None, help="keep workers between epochs")
    replay.add_argument("--io-bound", action="store_true",
                        help="the recorded sample time was waiting (disk, network), not computing: do not cap the "
                             "samples running at once at this machine's cores")
    replay.add_argument("-o", "--output", metavar="OUT.json", help="also save the replay's trace here")
    return parser


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
    from .trace.io import save_trace
    from .trace.recorder import record

    folder = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(folder):  # checked first: a long recording should not be lost to a typo
        raise UserError(f"cannot write {args.output}: there is no folder {folder}")
    factory, name = import_target(args.target)
    if args.world_size is not None:
        return _record_ranks(args, factory, name)
    loader = make_loader(factory, name)
    progress = _Progress(loader, args.batches, args.epochs)
    try:
        frame = record(loader, args.epochs, max_batches=args.batches, consumer=progress)
    except Exception as exc:
        raise UserError(f"recording {name} failed after {progress.count} batches: {exception_line(exc)}") from None
    finally:
        progress.close()
    _write(save_trace, frame, args.output)
    seconds = frame["t_s"].iloc[-1] if len(frame) else 0.0
    print(f"wrote {args.output}: {len(frame)} events, {progress.count} batches in {args.epochs} epoch(s), "
          f"{seconds:.3f} s. Next: python -m loaderlab report {args.output}")


def _record_ranks(args: argparse.Namespace, factory: Callable[..., Any], name: str) -> None:
    """``record --world-size N``: the ranks and their merge live in :mod:`loaderlab.trace.ranks`."""
    from .trace.io import save_trace
    from .trace.ranks import DistributedRunError, record_ranks

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


def _load(path: str) -> Any:
    from .trace.io import TraceFileError, load_trace

    try:
        return load_trace(path)
    except TraceFileError as exc:
        raise UserError(str(exc)) from None


def _write(save: Callable[[Any, str], None], frame: Any, path: str) -> None:
    try:
        save(frame, path)
    except OSError as exc:
        raise UserError(f"cannot write {path} ({exc.strerror or exc}); check the folder exists and is writable") from None


def summary_text(frame: Any) -> str:
    """A minimal report (used until :mod:`loaderlab.trace.findings` is there): counts and duration."""
    settings = frame.attrs.get("loader") or {}
    yields = frame[frame["kind"] == "batch_yield"]
    seconds = float(frame["t_s"].iloc[-1]) if len(frame) else 0.0
    lines = [f"{len(frame)} events over {seconds:.3f} s, {frame.attrs.get('epochs', '?')} epoch(s), "
             f"{len(yields)} batches handed to the loop"]
    if settings:
        lines.append("loader: " + ", ".join(f"{k}={v}" for k, v in settings.items()))
    lines.append("events per kind:")
    for kind, count in frame["kind"].value_counts(sort=False).items():
        lines.append(f"  {kind:<16} {count}")
    return "\n".join(lines)


def cmd_report(args: argparse.Namespace) -> None:
    frame = _load(args.trace)
    try:
        from .trace.report import report_text
    except ModuleNotFoundError as exc:
        if exc.name != "loaderlab.trace.findings":
            raise
        print(summary_text(frame))
        return
    print(report_text(frame, args.lang))


def cmd_export(args: argparse.Namespace) -> None:
    from .trace.chrome import save_chrome_trace

    frame = _load(args.trace)
    _write(save_chrome_trace, frame, args.chrome)
    print(f"wrote {args.chrome}: open it at https://ui.perfetto.dev (or chrome://tracing)")


def _rate(frame: Any) -> tuple[float, str]:
    """(batches per second, the loop's wait as the report and the pages word it) of a trace."""
    from .trace.analysis import SECONDS_SPEC, loop_wait

    yields = frame[frame["kind"] == "batch_yield"]
    seconds = float(frame["t_s"].iloc[-1]) if len(frame) else 0.0
    loop = loop_wait(frame)  # one definition of waiting: the report's, the timelines page's, the verdict's
    return (len(yields) / seconds if seconds else 0.0), f"{format(loop.wait_s, SECONDS_SPEC)} s ({loop.share_text()})"


def cmd_replay(args: argparse.Namespace) -> None:
    from .trace.replay import model_note, replay
    from .trace.io import save_trace

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
    print(model_note(out.attrs["replay_model"]))


COMMANDS = {"record": cmd_record, "report": cmd_report, "export": cmd_export, "replay": cmd_replay}


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        COMMANDS[args.command](args)
    except UserError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        sys.stderr.write("loaderlab: interrupted\n")
        return 130
    return 0
