"""A Ctrl-C that Python swallowed inside a finalizer, raised again at the job's next batch.

Twin of nothing in torch. Python runs a signal's handler between any two bytecodes of the main thread; when
those bytecodes belong to a finalizer (a ``__del__``, a weakref callback: a DataLoader iterator let go at an
epoch's end runs several), the ``KeyboardInterrupt`` cannot leave it, so Python prints "Exception ignored in
…" and the script runs on as if Ctrl-C had never been pressed. Under ``loaderlab run`` such an interrupt is
remembered (``sys.unraisablehook``, which still prints Python's message) and raised from the script's next
``next()`` on a traced loader, so one Ctrl-C stops the job. Knows nothing of loaders, files or pandas.
"""

from __future__ import annotations

import sys
from typing import Any, Callable

_pending = False
_previous: Callable[[Any], None] | None = None


def install() -> None:
    """Remember every KeyboardInterrupt a finalizer swallows (until :func:`uninstall`)."""
    global _previous, _pending
    _previous, _pending = sys.unraisablehook, False
    sys.unraisablehook = _hook


def uninstall() -> None:
    global _previous, _pending
    if _previous is not None:
        sys.unraisablehook, _previous = _previous, None
    _pending = False


def raise_pending() -> None:
    """Raise the KeyboardInterrupt a finalizer swallowed since the last call, if one did."""
    global _pending
    if _pending:
        _pending = False
        raise KeyboardInterrupt


def _hook(unraisable: Any) -> None:
    global _pending
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        _pending = True
    (_previous or sys.__unraisablehook__)(unraisable)
