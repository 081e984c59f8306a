"""Who made a DataLoader: the user's own line, or a library re-creating a loader the user made.

Twin of nothing in torch (a debugger's "first frame in my code"). A loader is named from the first frame of
the user's own code (whose code a file is: :mod:`.libraries`, from what Python knows of it). A library that re-creates the user's loader hands the new one the same dataset or
batch sampler, or one wrapping it: PyTorch Lightning's ``_update_dataloader`` (a DistributedSampler put in),
HF Accelerate's ``prepare()`` (a ``DataLoaderShard`` whose ``base_dataloader`` takes the user's
``batch_sampler``, or a ``BatchSamplerShard`` around it). Such a loader keeps the original's ``file:line`` and
name, and carries the original's settings as written with the library's changes beside them (:data:`ORIGIN`).
Knows nothing of how a loader is traced (:mod:`.traced`), of pandas, plotly or streamlit.
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import re
import weakref
from typing import Any

from .libraries import is_loaderlabs, is_users, library_at

SITE = "_loaderlab_site"  # the loader's instance attribute: (file, line, name or None)
ORIGIN = "_loaderlab_origin"  # a re-created loader's: {"written", "by", "inside", "at", "changed", "keeps_batches"}
_ASSIGNED = re.compile(r"^\s*([A-Za-z_][\w.]*)\s*(?::[^=]+)?=(?!=)")
_RETURNED = re.compile(r"^\s*return\b")
_made: list[weakref.ref] = []  # loaders made so far in the job's process, oldest first


def _first_arg(frame: Any) -> tuple[str | None, Any]:
    code = frame.f_code
    if code.co_argcount == 0:
        return None, None
    name = code.co_varnames[0]
    return name, frame.f_locals.get(name)


def _line_name(frame: Any) -> str | None:
    """The variable the frame's line assigns to; for ``return …`` in a function, the function's name."""
    text = linecache.getline(frame.f_code.co_filename, frame.f_lineno)
    match = _ASSIGNED.match(text)
    if match:
        return match.group(1).rsplit(".", 1)[-1]
    function = frame.f_code.co_name
    if function.startswith("<"):  # a module, a lambda, a comprehension: no name of its own
        return None
    returns = _return_lines(frame.f_code)
    returned = _RETURNED.match(text) if returns is None else frame.f_lineno in returns
    if returned:
        return function  # `def train_dataloader(self): return DataLoader(...)` names it train_dataloader
    return None


@functools.lru_cache(maxsize=256)
def _return_lines(code: Any) -> frozenset[int] | None:
    """The lines of the function's own ``return`` statements, a one-line ``def f(): return …`` and a return
    written over several lines included (not those of functions or classes inside it); None: no source."""
    try:
        lines, first = inspect.getsourcelines(code)
        text = "".join(lines)
        if text[:1].isspace():  # a method: parsed as the body of an `if` (dedent would trip on its strings)
            text, first = "if 1:\n" + text, first - 1
        tree = ast.parse(text)
    except (OSError, TypeError, SyntaxError, ValueError):
        return None
    top = tree.body[0].body[0] if isinstance(tree.body[0], ast.If) else tree.body[0]
    if not isinstance(top, (ast.FunctionDef, ast.AsyncFunctionDef)) or top.name != code.co_name:
        return None
    found: set[int] = set()
    todo = list(top.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return):
            found.update(range(node.lineno + first - 1, (node.end_lineno or node.lineno) + first))
        todo.extend(ast.iter_child_nodes(node))
    return frozenset(found)


def note(loader: Any, frame: Any) -> tuple[tuple[str, int, str | None], dict | None]:
    """Where ``loader`` was made (``frame``: the caller of its ``__init__``) and, for a library's re-creation
    of an earlier loader, that loader's settings as written and the library's changes."""
    # frames whose first argument is the loader: its classes' __init__ chain and wrappers of it
    # (Lightning wraps every DataLoader __init__ while it calls the user's train_dataloader())
    while frame is not None and _first_arg(frame)[1] is loader:
        frame = frame.f_back
    if frame is None:
        return ("?", 0, None), None
    maker, path = frame, frame.f_code.co_filename
    if is_loaderlabs(path):  # the job's own traced clones: never anyone's original
        return (path, maker.f_lineno, None), None
    origin, site = None, None
    if is_users(path):
        site = (path, maker.f_lineno, _line_name(maker))
    else:
        original = _original_of(loader, maker)
        if original is not None and SITE in original.__dict__:
            site, origin = original.__dict__[SITE], _origin(original, loader, maker)
        else:
            site = _users_site(maker)
    _remember(loader)
    return site, origin


def _users_site(maker: Any) -> tuple[str, int, str | None]:
    """A loader a library made: the first of the user's frames above it, named by its line, else by the
    library's own line (``base_dataloader``); the library's frame when no user code called it."""
    frame = maker.f_back
    while frame is not None and not is_users(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return maker.f_code.co_filename, maker.f_lineno, _line_name(maker)
    return frame.f_code.co_filename, frame.f_lineno, _line_name(frame) or _line_name(maker)


def _links(loader: Any) -> list[Any]:
    """What a re-created loader takes over from its original: the dataset, the batch sampler, or what wraps
    them (``IterableDatasetShard.dataset``, ``BatchSamplerShard.batch_sampler``)."""
    out = []
    for held in (loader.dataset, loader.batch_sampler, loader.sampler):
        out += [held, getattr(held, "dataset", None), getattr(held, "batch_sampler", None)]
    return [x for x in out if x is not None]


def _original_of(loader: Any, maker: Any) -> Any:
    """The earlier loader that a library's frames hold while they make ``loader`` from its dataset or batch
    sampler; None for a loader a library builds from a dataset alone (a factory given the user's dataset)."""
    mine = _links(loader)
    shared = []
    for ref in reversed(_made):  # the latest first: a loader re-made each epoch points at this epoch's
        old = ref()
        if old is not None and old is not loader and any(
                a is b for a in mine for b in (old.dataset, old.batch_sampler) if b is not None):
            shared.append(old)
    if not shared:
        return None
    held = _held_by_library(maker)
    return next((old for old in shared if any(h is old for h in held)), None)


def _held_by_library(frame: Any) -> list[Any]:
    """The values in the locals of the library frames from ``frame`` up to the user's code (one level into
    tuples and lists: ``Accelerator.prepare(*args)``)."""
    out: list[Any] = []
    while frame is not None and not is_users(frame.f_code.co_filename):
        for value in frame.f_locals.values():
            out.append(value)
            if isinstance(value, (tuple, list)) and len(value) < 64:
                out += value
        frame = frame.f_back
    return out


def _origin(original: Any, loader: Any, maker: Any) -> dict:
    from ..trace.core.settings import loader_settings

    earlier = original.__dict__.get(ORIGIN)
    written = dict(earlier["written"]) if earlier else loader_settings(original)
    ran = loader_settings(loader)
    by, at = library_at(maker.f_code.co_filename, maker.f_lineno)
    name, holder = _first_arg(maker)
    inside = f"{type(holder).__module__}.{type(holder).__qualname__}" if name == "self" else None
    theirs = original.batch_sampler
    keeps = theirs is not None and any(x is theirs for x in (loader.batch_sampler, loader.sampler,
                                                             getattr(loader.batch_sampler, "batch_sampler", None),
                                                             getattr(loader.sampler, "batch_sampler", None)))
    return {"written": written, "by": by, "inside": inside, "at": at,
            "changed": {k: v for k, v in ran.items() if written.get(k) != v}, "keeps_batches": keeps}


def _remember(loader: Any) -> None:
    _made[:] = [r for r in _made if r() is not None]
    _made.append(weakref.ref(loader))


def forget() -> None:
    _made.clear()


def wrapper_entry(origin: dict) -> dict:
    """The ``wrapper`` entry of a loader's settings in the trace (JSON-able)."""
    return {k: origin[k] for k in ("by", "inside", "at", "changed", "keeps_batches")}
