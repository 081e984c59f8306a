"""Which files the dashboard may read from its own machine, named by a path: a file, a folder of rank files, a glob.

Twin of nothing in torch. The live view (:mod:`.follow`) takes a path typed into a page, so it reads only
trace files (``.lltrace``, ``.json``) and says in one sentence why any other path is refused, with a
``reason`` the page words in its own language. Also finds the newest traces under a folder for the page
to offer. Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import os

from ..trace.files.columnar_read import TraceFileError
from ..trace.files.suffix import COLUMNAR_SUFFIX as EXTENSION
from . import read

SUFFIXES = (EXTENSION, ".json")  # the only files the dashboard reads from the server's disk
# A server others reach (a workshop) can keep the live view to some folders: os.pathsep-separated; unset: any.
DIRS_ENV = "LOADERLAB_TRACE_DIRS"
MAX_FOLDERS = 2_000  # folders looked through for recent traces, at most


class PathRefused(TraceFileError):
    """A path the live view cannot follow; ``reason`` names which (the dashboard words it in its language)."""

    def __init__(self, reason: str, path: str, message: str) -> None:
        super().__init__(message)
        self.reason, self.path = reason, path


def allowed_dirs() -> list[str]:
    """The folders ``LOADERLAB_TRACE_DIRS`` allows (resolved), or [] when it is unset: any folder."""
    return [os.path.realpath(os.path.expanduser(d)) for d in os.environ.get(DIRS_ENV, "").split(os.pathsep) if d]


def check_path(path: str) -> None:
    """Refuse what the dashboard must not read: a file not ending in .lltrace or .json, or one outside the
    folders ``LOADERLAB_TRACE_DIRS`` allows (symbolic links resolved first) — one sentence each."""
    if not path.endswith(SUFFIXES):
        raise PathRefused("suffix", path, f"{path} is not a trace file: the dashboard reads only files ending in "
                                          f"{' or '.join(SUFFIXES)} from this machine.")
    dirs = allowed_dirs()
    real = os.path.realpath(path)
    if dirs and not any(os.path.commonpath([real, d]) == d for d in dirs):
        raise PathRefused("outside", path, f"{path} is outside the folders this server reads traces from "
                                           f"({os.pathsep.join(dirs)}, set by {DIRS_ENV}).")


def trace_files(path: str) -> list[str]:
    """The files a path names (a file, a folder of rank files, a glob), each checked by :func:`check_path`."""
    path = os.path.expanduser(path.strip())
    if not path:
        raise PathRefused("empty", path, "give the path of a trace file, or of the folder `python -m loaderlab run "
                                         "-o` wrote.")
    pattern = any(c in path for c in "*?[")
    if not pattern and not os.path.exists(path):
        raise PathRefused("missing", path, f"there is no file or folder {path} (relative paths start in "
                                           f"{os.getcwd()}).")
    try:
        found = read.files(path)
    except TraceFileError as exc:
        raise PathRefused("no_match" if pattern else "empty_folder", path, str(exc)) from None
    for name in found:
        check_path(name)
    return found


def recent_traces(root: str = ".", limit: int = 12, depth: int = 3) -> list[str]:
    """The newest ``.lltrace`` files under ``root`` (at most ``depth`` folders down), newest first."""
    found = []
    root = os.path.abspath(root)
    for seen, (folder, dirs, names) in enumerate(os.walk(root)):
        if seen >= MAX_FOLDERS:  # a dashboard started in a big tree (a home folder) still draws at once
            break
        if folder[len(root):].count(os.sep) >= depth:
            dirs[:] = []
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "__pycache__")]
        for name in names:
            if name.endswith(EXTENSION):
                path = os.path.join(folder, name)
                try:
                    found.append((os.stat(path).st_mtime, os.path.relpath(path, root)))
                except OSError:
                    continue
    return [p for _, p in sorted(found, reverse=True)[:limit]]
