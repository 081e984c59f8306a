"""The job commands of ``python -m loaderlab``: run (a script, traced), stacks (of a running job), merge.

Twin of nothing in torch. ``run`` has its own small grammar, like the interpreter's: options up to the
script (or ``-m MODULE``), everything after it is the script's (:func:`split_run`). The work lives in
:mod:`loaderlab.jobs`; this module wires it to a shell. Mistakes are :class:`~.targets.UserError` (one line,
status 2); ``run`` otherwise ends with the script's own status. Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .targets import UserError

RUN_HELP = """\
Run a Python script (or -m MODULE) unchanged, as `python SCRIPT.py ARGS...` would,
and trace every torch.utils.data.DataLoader it iterates: every fetch and collate in
every worker, your loop's own time between batches (the consumer span), the epochs
your script runs, and a set_epoch it forgets. The trace is written as the job goes
(flushed every 0.5 s): a crash, Ctrl-C or SIGTERM leaves it readable up to that
moment, and `run` exits with the script's status.

Each loader is named after the variable it was assigned to (train_loader; the
function's name for `return DataLoader(...)`, as Lightning's train_dataloader; or
loader0, loader1...) and your file:line; a loader Lightning or Accelerate re-creates
keeps yours, with the settings you wrote. Pick one in report/export with --loader.
Under torchrun, -o names a folder with one file per rank (rank0.lltrace...);
`report FOLDER` reads them as one multi-rank trace.

While it runs, `python -m loaderlab stacks PID` prints where the job and each of
its DataLoader workers are (PID: the job's process id).
"""


# Epochs traced after tuning unless --tune-trace-epochs says: tracing costs a job of small samples 1.1-1.3x an
# epoch, 1.7x where they take a few us (benchmarks/trace_cost.py), more than --tune's whole budget, so a tuned
# job traced to its end cannot run at the speed its tuning measured; one epoch shows the measured best at work
# (docs/performance.md).
TRACE_EPOCHS_DEFAULT = 1
_VALUED = ("--output", "--label", "--tune-budget", "--tune-trace-epochs")  # run's long options that take a value


def split_run(argv: list[str]) -> tuple[list[str], list[str]]:
    """``run``'s own options, and the rest (``SCRIPT ARGS…`` or ``-m MODULE ARGS…``), split at the script."""
    own: list[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "-o" or token in _VALUED:
            own += argv[i:i + 2]
            i += 2
        elif token.startswith(tuple(f"{o}=" for o in _VALUED)) or (token.startswith("-o") and token != "-o"):
            own.append(token)
            i += 1
        elif token in ("-h", "--help", "--tune"):
            own.append(token)
            i += 1
        elif token == "--":
            return own, argv[i + 1:]
        else:
            return own, argv[i:]
    return own, []


def add_parsers(commands: Any, raw: type) -> None:
    run = commands.add_parser(
        "run", help="run your training script unchanged and trace its DataLoaders", formatter_class=raw,
        usage="python -m loaderlab run [-o TRACE] [--label KEY] [--tune [--tune-budget B] "
              "[--tune-trace-epochs N]] SCRIPT.py [ARGS ...]\n"
              "       python -m loaderlab run [-o TRACE] [--label KEY] [--tune [--tune-budget B] "
              "[--tune-trace-epochs N]]\n"
              "                                   -m MODULE [ARGS ...]",
        description=RUN_HELP,
        epilog="examples:\n  python -m loaderlab run train.py --epochs 3\n"
               "  python -m loaderlab run -o val_trace -m mypackage.train --config c.yaml\n"
               "  python -m loaderlab run --tune train.py      # measure num_workers/prefetch_factor inside the job\n"
               "  torchrun --nproc-per-node 2 -m loaderlab run -o trace train.py   # trace/rank0.lltrace, rank1.lltrace\n"
               "  python -m loaderlab report trace.lltrace --loader train_loader\n")
    run.add_argument("-o", "--output", default="trace", metavar="TRACE",
                     help="where to write the trace (default: trace, written as trace.lltrace; under torchrun a "
                          "folder trace/ with rank0.lltrace, rank1.lltrace...)")
    run.add_argument("--label", metavar="KEY", default=None,
                     help="where each sample keeps its class, when the guess is wrong: a dict key, or a position "
                          "as digits (default: the second item of a tuple, or a label/labels/target/y key)")
    run.add_argument("--tune", action="store_true",
                     help="measure, inside the job, the settings that leave the batches alone (num_workers, "
                          "prefetch_factor; pin_memory where a GPU exists): the first batches go, a slice at a time "
                          "and in turn, to loaders with each setting, with your real step between batches; the "
                          "measured best runs the rest of the job and `report` prints what each one measured")
    run.add_argument("--tune-budget", default="10%", metavar="B",
                     help="the most time tuning may add to the job (its slices' time beyond the fastest setting "
                          "measured): a share of each epoch at the fastest setting measured (10%%, the default: that "
                          "share of each epoch it reaches, until it is done; your own setting's pace until one is "
                          "measured faster) or seconds (30, 30s)")
    run.add_argument("--tune-trace-epochs", default=None, metavar="N",
                     help="how many epochs that begin after tuning ends are traced (default: 1; 'all' traces every "
                          "one); the later ones run untraced with the measured best, at its own speed (tracing "
                          "costs a job of small samples 1.1-1.3x an epoch, up to 1.7x for samples of a few "
                          "microseconds): the report counts them")
    run.add_argument("script", nargs="*", metavar="SCRIPT.py [ARGS]", help="the script and its own arguments")

    stacks = commands.add_parser(
        "stacks", help="print the Python stacks of a running job and its DataLoader workers", formatter_class=raw,
        description="Ask a job started with `python -m loaderlab run` (and each of its DataLoader\n"
                    "workers) where it is now, and print each Python stack: which worker is stuck,\n"
                    "in which line of your __getitem__.",
        epilog="example:\n  python -m loaderlab stacks 12345\n")
    stacks.add_argument("pid", type=int, metavar="PID", help="the process id of the job (or of one of its workers)")

    merge = commands.add_parser(
        "merge", help="merge the rank files of a torchrun job into one trace file", formatter_class=raw,
        description="Read traces written by `run` under torchrun (files, a folder or a glob) and\n"
                    "write them as one multi-rank trace file.",
        epilog="example:\n  python -m loaderlab merge all_ranks.lltrace trace/\n")
    merge.add_argument("output", metavar="OUT.lltrace", help="the merged trace to write")
    merge.add_argument("inputs", nargs="+", metavar="IN", help="rank trace files, a folder of them, or a glob")


def run_command(args: argparse.Namespace, rest: list[str]) -> int:
    from ..jobs.candidates import parse_budget
    from ..jobs.script import ScriptNotFound, Target

    if not rest or (rest[0] == "-m" and len(rest) < 2):
        raise UserError("say what to run: `python -m loaderlab run SCRIPT.py [ARGS]` or `run -m MODULE [ARGS]`")
    target = Target(rest[1], True, tuple(rest[2:])) if rest[0] == "-m" else Target(rest[0], False, tuple(rest[1:]))
    try:
        target.check()
    except ScriptNotFound as exc:
        raise UserError(str(exc)) from None
    folder = os.path.dirname(os.path.abspath(args.output))
    if not os.path.isdir(folder):  # checked first: a long job should not be lost to a typo
        raise UserError(f"cannot write {args.output}: there is no folder {folder}")
    tune = None
    if args.tune:
        try:
            tune = parse_budget(args.tune_budget)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    elif args.tune_budget != "10%":
        raise UserError("--tune-budget needs --tune: `python -m loaderlab run --tune --tune-budget 30 train.py`")
    trace_epochs = TRACE_EPOCHS_DEFAULT if args.tune else None
    if args.tune_trace_epochs is not None:
        if not args.tune:
            raise UserError("--tune-trace-epochs needs --tune: "
                            "`python -m loaderlab run --tune --tune-trace-epochs 1 train.py`")
        raw = args.tune_trace_epochs.strip()
        if raw != "all" and not raw.isdigit():
            raise UserError(f"--tune-trace-epochs must be a whole number of epochs, 0 or more, or 'all', not "
                            f"{args.tune_trace_epochs!r}")
        trace_epochs = None if raw == "all" else int(raw)
    from ..jobs import trace_process

    trace_process.start_early("loaderlab.jobs.rows:RowWriter")  # before torch: see trace_process
    try:
        from ..jobs.job import run_job

        return run_job(target, args.output, args.label, tune, trace_epochs)
    finally:
        trace_process.release_early()


def cmd_stacks(args: argparse.Namespace) -> None:
    from ..jobs import stacks

    try:
        _, answers = stacks.job_stacks(args.pid)
    except stacks.NoSuchJob as exc:
        raise UserError(str(exc)) from None
    for answer in answers:
        print(answer.title() + ":")
        if answer.stack is None:
            print(f"  (no answer within {stacks.ANSWER_WAIT_S:g} s)")
            continue
        print(answer.stack)
        print()
    sys.stdout.flush()


def cmd_merge(args: argparse.Namespace) -> None:
    from ..jobs.read import files, load_one, merge
    from ..trace.files.columnar import TraceWriter
    from ..trace.files.columnar_read import TraceFileError

    try:
        paths = [path for name in args.inputs for path in files(name)]
        frames = [load_one(path) for path in paths]
        for frame, path in zip(frames, paths):
            if "rank" in frame.columns:
                raise TraceFileError(f"{path} is a multi-rank trace already; give the rank files instead.")
        if len(frames) < 2:
            raise TraceFileError("give at least two rank traces (or a folder holding them) to merge.")
        merged = merge(frames, paths)
    except TraceFileError as exc:
        raise UserError(str(exc)) from None
    try:
        with TraceWriter(args.output, dict(merged.attrs)) as sink:
            sink.write_frame(merged)
    except OSError as exc:
        raise UserError(f"cannot write {args.output} ({exc.strerror or exc}); check the folder exists and is writable") from None
    print(f"wrote {args.output}: {len(merged)} events from {merged.attrs['world_size']} ranks. "
          f"Next: python -m loaderlab report {args.output}")
