"""Whose code a file is: the user's own, or a library's (a debugger's "just my code").

Twin of nothing in torch. Decided from what Python knows of the file, never from a folder's name, in order:

1. Python's own modules (the stdlib, ``<frozen …>``), this interpreter's site folders (sysconfig's purelib and
   platlib, :mod:`site`'s), torch and LoaderLab: a library's;
2. inside the project of an editable install (``pip install -e``, its ``direct_url.json``): the user's;
3. in a distribution installed into the file's ``sys.path`` entry (a ``.dist-info`` whose RECORD lists the
   file's top-level package: ``pip install``, ``pip install --target DIR`` then on PYTHONPATH): a library's;
4. under the script's folder as ``sys.path`` entry (the current folder for ``-m``), a folder above or inside
   it, or one inside the working folder (unless that is ``/``): the user's;
5. under any other ``sys.path`` entry (PYTHONPATH, a ``sys.path.insert``): a library's; on none (a file run
   by path, ``<string>`` of ``python -c``): the user's.

Knows nothing of DataLoaders, pandas, plotly or streamlit.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import site
import sys
import sysconfig
from urllib.parse import unquote, urlparse

_OWN = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the loaderlab package
_view: tuple[tuple, "_View"] | None = None  # the last view of sys.path, with what it decided


def _real(path: str) -> str:
    return os.path.realpath(os.path.abspath(path))


def _under(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _script_folder() -> str:
    """The ``sys.path`` entry Python gave the script: its folder, or the working folder for ``-m`` (read from
    ``__main__``, which the script may not change, unlike ``sys.path[0]``)."""
    main = sys.modules.get("__main__")
    where = getattr(main, "__file__", None)
    if where and getattr(main, "__spec__", None) is None:  # run by path, not as a module
        return os.path.dirname(_real(where))
    return _real(os.getcwd())


def _python_roots() -> list[str]:
    import torch

    paths = sysconfig.get_paths()
    found = [os.path.dirname(torch.__file__), _OWN, paths["stdlib"], paths["platstdlib"], paths["purelib"],
             paths["platlib"]]
    try:
        found += site.getsitepackages() + [site.getusersitepackages()]
    except AttributeError:  # an old virtualenv's site module
        pass
    return sorted({_real(p) for p in found if p})


def _editable_projects() -> list[str]:
    """The folders of the projects installed editable (``pip install -e``): the user's own code."""
    out = []
    for dist in importlib.metadata.distributions():
        try:
            found = json.loads(dist.read_text("direct_url.json") or "{}")
        except (ValueError, OSError):
            continue
        url = found.get("url", "")
        if found.get("dir_info", {}).get("editable") and url.startswith("file:"):
            out.append(_real(unquote(urlparse(url).path)))
    return out


def _installed_tops(entry: str) -> set[str]:
    """The top-level packages that distributions installed into ``entry`` hold (from their RECORD files)."""
    tops: set[str] = set()
    for dist in importlib.metadata.distributions(path=[entry]):
        if dist.read_text("RECORD") is None:  # not installed by an installer (a source tree's .egg-info)
            continue
        for file in dist.files or ():
            first = file.parts[0] if file.parts else ""
            if first and first != ".." and not first.endswith((".dist-info", ".egg-info", ".data")):
                tops.add(first.removesuffix(".py"))
    return tops


class _View:
    """What ``sys.path`` (and the script's and working folders) say, with each file's verdict cached."""

    def __init__(self, entries: tuple[str, ...], script: str, cwd: str) -> None:
        self.entries = sorted({_real(e or cwd) for e in entries}, key=len, reverse=True)  # longest first
        self.script, self.cwd = script, cwd
        self.python = _python_roots()
        self.editable = _editable_projects()
        self.tops: dict[str, set[str]] = {}
        self.verdicts: dict[str, bool] = {}

    def entry_of(self, path: str) -> str | None:
        return next((e for e in self.entries if _under(path, e) and path != e), None)

    def is_users(self, path: str) -> bool:
        found = self.verdicts.get(path)
        if found is None:
            found = self.verdicts[path] = self._decide(_real(path))
        return found

    def _decide(self, path: str) -> bool:
        if any(_under(path, root) for root in self.python):
            return False
        if any(_under(path, root) for root in self.editable):
            return True
        entry = self.entry_of(path)
        if entry is None:
            return True
        if entry not in self.tops:
            self.tops[entry] = _installed_tops(entry)
        if os.path.relpath(path, entry).split(os.sep)[0].removesuffix(".py") in self.tops[entry]:
            return False
        return (_under(self.script, entry) or _under(entry, self.script)
                or (self.cwd != os.path.dirname(self.cwd) and _under(entry, self.cwd)))  # not when at "/"


def _current() -> _View:
    global _view
    cwd = _real(os.getcwd())
    key = (tuple(sys.path), _script_folder(), cwd)
    if _view is None or _view[0] != key:
        _view = (key, _View(key[0], key[1], cwd))
    return _view[1]


def is_users(path: str) -> bool:
    """True for a file of the user's own code (``<string>`` of ``python -c`` too; ``<frozen …>`` is Python's)."""
    if path.startswith("<"):
        return not path.startswith("<frozen")
    return _current().is_users(path)


def is_loaderlabs(path: str) -> bool:
    return _under(os.path.abspath(path), _OWN)


def library_at(path: str, line: int) -> tuple[str, str]:
    """(the library's name, its ``file:line`` from its ``sys.path`` entry): ``("accelerate",
    "accelerate/data_loader.py:441")``."""
    real = _real(path)
    entry = _current().entry_of(real)
    if entry is None:
        return os.path.basename(os.path.dirname(path)) or path, f"{path}:{line}"
    rest = os.path.relpath(real, entry).split(os.sep)
    return rest[0].removesuffix(".py"), f"{'/'.join(rest)}:{line}"


def forget() -> None:
    """Decide afresh (a new job, or installs made since)."""
    global _view
    _view = None

