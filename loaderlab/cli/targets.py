"""Finding the user's FACTORY for ``python -m loaderlab record``: ``file.py:make`` or ``pkg.mod:make``.

Twin of nothing in torch. Imports the file or module (so that spawn/forkserver workers can import what it
defines), calls the factory and checks it returned a DataLoader. Every mistake is a ``UserError`` whose
message is one line that says what to fix. Knows nothing of argparse, plotly or streamlit.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from typing import Any, Callable


class UserError(Exception):
    """A mistake the user can fix; its message is the one line shown after ``loaderlab: error:``."""


def one_line(text: str) -> str:
    """Multi-line messages (a worker's traceback inside an exception) → their first and last lines."""
    lines = [line.strip() for line in str(text).strip().splitlines() if line.strip()] or [""]
    return lines[0] if len(lines) == 1 else f"{lines[0]} … {lines[-1]}"


def exception_line(exc: BaseException) -> str:
    return one_line(f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__)


def import_target(spec: str) -> tuple[Callable[[], Any], str]:
    """``"file.py:make"`` or ``"pkg.mod:make"`` → (the factory, how to name it in messages)."""
    where, sep, attr = spec.rpartition(":")
    if not sep or not where or not attr:
        raise UserError(f"expected MODULE_OR_FILE:FACTORY such as my_data.py:make_loader, but got {spec!r}")
    if where.endswith(".py") or os.sep in where or (os.altsep and os.altsep in where):
        module = import_file(where)
    else:
        module = import_module_named(where)
    name = f"{where}:{attr}"
    if not hasattr(module, attr):
        defined = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                         and getattr(v, "__module__", None) == module.__name__)
        hint = f"; it defines {', '.join(defined)}" if defined else ""
        raise UserError(f"{where} has no attribute {attr!r}{hint}")
    factory = getattr(module, attr)
    if not callable(factory):
        raise UserError(f"{name} is a {type(factory).__name__}, not a function that returns a DataLoader")
    return factory, name


def import_file(path: str) -> Any:
    if not os.path.isfile(path):
        raise UserError(f"there is no file {path} (looked in {os.getcwd()})")
    folder, stem = os.path.split(os.path.abspath(path))
    stem = stem[:-3] if stem.endswith(".py") else stem
    # Its folder goes on sys.path, and the module under its own name in sys.modules, so that spawn and
    # forkserver workers can import the classes it defines when they unpickle the dataset.
    if folder not in sys.path:
        sys.path.insert(0, folder)
    known = sys.modules.get(stem)
    if known is not None and os.path.abspath(getattr(known, "__file__", "") or "") != os.path.abspath(path):
        raise UserError(f"{path} has the same name as the module {stem} that is already imported; rename the file")
    spec = importlib.util.spec_from_file_location(stem, path)
    if spec is None or spec.loader is None:
        raise UserError(f"{path} cannot be imported as Python (is it a .py file?)")
    module = importlib.util.module_from_spec(spec)
    sys.modules[stem] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        del sys.modules[stem]
        raise UserError(f"importing {path} raised {exception_line(exc)}") from None
    return module


def import_module_named(name: str) -> Any:
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        return importlib.import_module(name)
    except Exception as exc:
        missing = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
        if missing and (name == missing or name.startswith(missing + ".")):  # not a module it imports
            raise UserError(f"no module named {name} in {os.getcwd()} or on the Python path; "
                            f"give a file path (my_data.py:make_loader) or run from the folder that holds it") from None
        raise UserError(f"importing {name} raised {exception_line(exc)}") from None


def make_loader(factory: Callable[[], Any], name: str) -> Any:
    import torch.utils.data

    from ..engine.loader import DataLoader

    try:
        loader = factory()
    except Exception as exc:
        raise UserError(f"{name}() raised {exception_line(exc)}") from None
    # a stock torch loader is recorded through a traced clone (see loaderlab.trace.recording.torch_recorder)
    if isinstance(loader, (DataLoader, torch.utils.data.DataLoader)):
        return loader
    kind = ("" if type(loader).__module__ == "builtins" else type(loader).__module__ + ".") + type(loader).__qualname__
    raise UserError(f"{name}() returned an object of type {kind}, not a DataLoader; make it return "
                    f"`loaderlab.DataLoader(dataset, ...)` (or a torch.utils.data.DataLoader)")
