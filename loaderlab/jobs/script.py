"""Running the user's script or module as ``__main__``, as ``python SCRIPT.py`` / ``python -m MODULE`` would.

Twin of the interpreter's own start-up (``runpy``): ``sys.argv`` is the script's, ``sys.path[0]`` its
folder (the current folder for ``-m``), the working directory is left alone, and the outcome is an exit
status: ``sys.exit(n)`` gives ``n`` (a message gives 1, printed), an uncaught exception prints its
traceback (without LoaderLab's frames) and gives 1, Ctrl-C gives 130 and SIGTERM 143 (:class:`Terminated`,
raised by the job's handler). Knows nothing of DataLoaders, pandas, plotly or streamlit.
"""

from __future__ import annotations

import importlib.util
import os
import runpy
import sys
import traceback
from dataclasses import dataclass

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a Ctrl-C'd command
EXIT_TERMINATED = 143  # 128 + SIGTERM


class Terminated(BaseException):
    """SIGTERM arrived: raised in the script's main thread so its ``finally`` blocks run, like Ctrl-C."""


class ScriptNotFound(Exception):
    """The script or module to run does not exist; the message is one sentence."""


@dataclass(frozen=True)
class Target:
    """What to run: a path (``module`` False) or a dotted module name, and its arguments."""

    name: str
    module: bool
    args: tuple[str, ...] = ()

    def check(self) -> None:
        if self.module:
            _with_cwd()
            try:
                found = importlib.util.find_spec(self.name)
            except ModuleNotFoundError as exc:  # a parent package is missing
                found = None if exc.name and self.name.startswith(exc.name) else True
            except Exception:  # noqa: BLE001 - a parent package that fails to import: running it shows why
                found = True
            if found is None:
                raise ScriptNotFound(f"there is no module named {self.name} in {os.getcwd()} or on the Python path")
        elif not os.path.isfile(self.name):
            where = "" if os.path.isabs(self.name) else f" (looked in {os.getcwd()})"
            raise ScriptNotFound(f"there is no file {self.name}{where}")


def _with_cwd() -> None:
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())


def _status(code: object) -> int:
    """``SystemExit.code`` → an exit status, as the interpreter maps it (a message is printed, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code & 0xFF
    sys.stderr.write(f"{code}\n")
    return 1


def _print_traceback(exc: BaseException) -> None:
    """Python's own report of an uncaught exception, starting at the user's first frame."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_frame.f_code.co_filename in (__file__, runpy.__file__, "<frozen runpy>"):
        tb = tb.tb_next
    traceback.print_exception(type(exc), exc, tb or exc.__traceback__)
    sys.stderr.flush()


def run_target(target: Target) -> int:
    """Run it to the end; return its exit status (never raises what the script raised)."""
    saved_argv, saved_path0 = sys.argv[:], sys.path[0] if sys.path else None
    try:
        if target.module:
            sys.argv = [target.name, *target.args]  # runpy puts the module's file in argv[0]
            sys.path[0] = ""  # as `python -m`: the current folder first
            runpy.run_module(target.name, run_name="__main__", alter_sys=True)
        else:
            sys.argv = [target.name, *target.args]
            sys.path[0] = os.path.dirname(os.path.abspath(target.name))
            runpy.run_path(target.name, run_name="__main__")
        return 0
    except SystemExit as exc:
        return _status(exc.code)
    except KeyboardInterrupt as exc:
        _print_traceback(exc)
        return EXIT_INTERRUPTED
    except Terminated:
        return EXIT_TERMINATED
    except BaseException as exc:  # noqa: BLE001 - the script's own failure, reported as Python would
        _print_traceback(exc)
        return 1
    finally:
        sys.argv = saved_argv
        if saved_path0 is not None:
            sys.path[0] = saved_path0
        sys.stdout.flush()
