"""The command line: ``python -m loaderlab record | report | export | replay | run | stacks | merge``.

Twin of nothing in torch. :mod:`.parser` is the grammar and help, :mod:`.commands` what each command does,
:mod:`.targets` finds the user's ``FILE:FACTORY``; knows nothing of plotly or streamlit. Every mistake a user
can make (a wrong path, a factory that raises, an unreadable trace file) ends as one line on stderr starting
with ``loaderlab: error:`` and exit status 2, never as a traceback; a traceback means a LoaderLab bug.
"""

from __future__ import annotations

import sys

from .commands import COMMANDS
from .job_commands import run_command, split_run
from .parser import EXIT_USAGE, build_parser, fail
from .targets import UserError

__all__ = ["main", "build_parser", "EXIT_USAGE", "UserError"]


def main(argv: list[str] | None = None) -> int:
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
