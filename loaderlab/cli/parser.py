"""The command line's grammar: ``python -m loaderlab record | report | export | replay`` and their help.

Twin of nothing in torch. Knows argparse and the words of ``--help``; knows nothing of what the commands
do (:mod:`.commands`), plotly or streamlit. A usage mistake ends as one line on stderr (see :func:`fail`).
"""

from __future__ import annotations

import argparse
import sys

from . import job_commands
from .targets import one_line

EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    """argparse, but a usage mistake is one line (argparse prints the whole usage first)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        fail(f"{message} (see `{self.prog} --help`)")


def fail(message: str) -> None:
    sys.stderr.write(f"loaderlab: error: {one_line(message)}\n")
    sys.exit(EXIT_USAGE)


def _positive_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


_EXAMPLES = """\
examples:
  python -m loaderlab record my_data.py:make_loader -o trace.lltrace --batches 50
  python -m loaderlab report trace.lltrace
  python -m loaderlab export trace.lltrace --chrome trace.chrome.json
  python -m loaderlab replay trace.lltrace --num-workers 4
"""

_RECORD_HELP = """\
Import MODULE_OR_FILE, call FACTORY() to get a DataLoader, iterate it (--epochs
times, at most --batches batches each), and save every event of every process as
a LoaderLab trace file (columnar .lltrace by default; a -o name ending in .json
gets JSON). A factory file looks like this:

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

A zero-argument FACTORY() works too: after init_process_group, a
DistributedSampler(dataset) finds the rank and world size itself.

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
    record.add_argument("-o", "--output", default="trace.lltrace", metavar="TRACE",
                        help="where to write the trace (default: trace.lltrace, the compact columnar format; "
                             "a name ending in .json gets the JSON format)")
    record.add_argument("--batches", type=_positive_int, default=None, metavar="N",
                        help="stop each epoch after N batches (default: run whole epochs)")
    record.add_argument("--epochs", type=_positive_int, default=1, metavar="E",
                        help="how many epochs to run (default: 1)")
    record.add_argument("--world-size", type=int, default=None, metavar="N",
                        help="run N ranks (2-4) in a torch.distributed process group; FACTORY(rank, world_size) "
                             "(or FACTORY()) builds each rank's DataLoader (default: one process, FACTORY())")
    record.add_argument("--no-set-epoch", dest="set_epoch", action="store_false",
                        help="with --world-size: do not call sampler.set_epoch(epoch) before each epoch")
    record.add_argument("--label", metavar="KEY", default=None,
                        help="where each sample keeps its class, when the guess is wrong: a dict key, or a position "
                             "as digits (default: the second item of a tuple, or a label/labels/target/y key)")

    report = commands.add_parser(
        "report", help="print a plain-text summary of a trace and what it suggests", formatter_class=raw,
        description="Load a trace written by `record` and print where the time went and what to try.",
        epilog="examples:\n  python -m loaderlab report trace.json\n"
               "  python -m loaderlab report trace.json --lang ko   # 한국어 보고서\n")
    report.add_argument("trace", metavar="TRACE.json", help="a trace file written by `python -m loaderlab record`")
    report.add_argument("--loader", metavar="NAME", help="a trace of `run` with several DataLoaders: report only this one "
                                                       "(default: each in turn)")
    report.add_argument("--lang", choices=("en", "ko"), default="en",
                        help="the report's language: en (English, the default) or ko (Korean)")
    report.add_argument("--json", action="store_true",
                        help="print one JSON object instead: summary, bottleneck, findings, suggestions (best first)")
    report.add_argument("--no-suggestions", dest="suggestions", action="store_false",
                        help="skip the suggestions (each is a direction from the trace's cost model; "
                             "`run --tune` measures settings in your job)")
    report.add_argument("--no-replay", dest="suggestions", action="store_false",
                        help=argparse.SUPPRESS)  # the flag's old name: old scripts keep working

    export = commands.add_parser(
        "export", help="convert a trace for Perfetto / chrome://tracing", formatter_class=raw,
        description="Convert a LoaderLab trace into Chrome trace-event JSON. Open the result at\n"
                    "https://ui.perfetto.dev (or chrome://tracing) to see one track per process\n"
                    "(main, worker 0, worker 1, ...) with every fetch, collate and wait as a span.",
        epilog="examples:\n  python -m loaderlab export trace.json --chrome trace.chrome.json\n"
               "  python -m loaderlab export big.lltrace --chrome part.json --from 10 --to 12   # a 2 s window\n"
               "  python -m loaderlab export big.lltrace --chrome epoch1.json --epoch 1\n")
    export.add_argument("trace", metavar="TRACE.json", help="a trace file written by `python -m loaderlab record`")
    export.add_argument("--loader", metavar="NAME", help="a trace of `run` with several DataLoaders: export this one")
    export.add_argument("--chrome", required=True, metavar="OUT.json", help="where to write the Chrome trace")
    export.add_argument("--from", dest="start_s", type=float, metavar="S",
                        help="only what overlaps the window from S seconds after the trace's first event "
                             "(a span crossing an edge is kept whole; times stay those of the whole trace)")
    export.add_argument("--to", dest="end_s", type=float, metavar="S", help="... up to S seconds (see --from)")
    export.add_argument("--epoch", type=int, metavar="N", help="only epoch N (0-based) of the trace")

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
    job_commands.add_parsers(commands, raw)
    return parser
