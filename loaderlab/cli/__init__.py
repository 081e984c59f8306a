"""The command line: ``python -m loaderlab record | report | export | replay | run | stacks | merge``.

Twin of nothing in torch. :mod:`.parser` is the grammar and help, :mod:`.commands` what each command does,
:mod:`.targets` finds the user's ``FILE:FACTORY``; knows nothing of plotly or streamlit. Every mistake a user
can make (a wrong path, a factory that raises, an unreadable trace file) ends as one line on stderr starting
with ``loaderlab: error:`` and exit status 2, never as a traceback; a traceback means a LoaderLab bug.
A reader that goes away (``report | head``) ends the command quietly with status 141, as a Unix tool
killed by SIGPIPE (:func:`main`).
"""

from __future__ import annotations

import os
import sys

from .commands import COMMANDS
from .job_commands import run_command, split_run
from .parser import EXIT_USAGE, build_parser, fail
from .targets import UserError

__all__ = ["main", "build_parser", "EXIT_USAGE", "UserError"]


EXIT_READER_GONE = 141  # 128 + SIGPIPE: what a shell reports for `seq 100000 | head`'s seq


def main(argv: list[str] | None = None) -> int:
    """Python's recipe for a reader that goes away (the signal module's "Note on SIGPIPE"): the
    BrokenPipeError caught here, stdout's last bytes flushed inside the ``try``, then stdout pointed at
    devnull so the interpreter's own flush at exit cannot raise it again. SIGPIPE's disposition is left
    alone (SIG_DFL would also kill the process on a socket closed under it). The recipe exits 1, Python's
    own status for it; 141 is what a shell reports for every other tool of a pipeline cut short, so a
    ``set -o pipefail`` script sees ``loaderlab report | head`` as it sees ``seq 100000 | head``; and the
    run's own 130 and 143 are 128 + their signal too. Not 0: the output was not all written."""
    try:
        try:
            return _main(argv)
        finally:
            sys.stdout.flush()
    except BrokenPipeError:
        _stdout_to_devnull()
        return EXIT_READER_GONE


def _stdout_to_devnull() -> None:
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a stream with no file behind it (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def _main(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    rest: list[str] = []
    if argv[:1] == ["run"]:  # run's own options end at the script: the rest is the script's (see job_commands)
        own, rest = split_run(argv[1:])
        argv = ["run", *own]
    args = build_parser().parse_args(argv)
    try:
        if args.command == "run":
            return run_command(args, rest)
        COMMANDS[args.command](args)
    except UserError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        sys.stderr.write("loaderlab: interrupted\n")
        return 130
    return 0
