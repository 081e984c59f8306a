"""Tables computed once per trace while one report, findings list or export is being made.

Twin of nothing in torch. A report asks for the same tables many times over (worker processes and queue stays
each feed the summary, the verdict, the utilisation rows and several findings): on a 10 M-event trace each
is seconds. Inside :func:`shared_tables` a function marked :func:`shared` is computed once per trace and
handed back to every later caller; outside it nothing is kept and every call computes, as before.

The cache lives only as long as the outermost ``with shared_tables():`` (a report, an export), so it never
holds a trace after its caller is done. A table is recognised by its columns' data buffers (their addresses,
which stay taken while the entry holds the arrays) and the table's length and column names, never by the
object's identity: a normalised shallow copy of a trace is the same trace, a filtered copy is another. The
analysis never writes into a table it was given, so equal buffers are equal tables. A cached DataFrame is
handed out as a shallow copy (copy-on-write: a caller that changes its copy changes nothing else).
Knows pandas; nothing of events' meaning, plotly or streamlit.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
from typing import Any, Callable, Iterator

import numpy as np
import pandas as pd

_SCOPE: contextvars.ContextVar[dict | None] = contextvars.ContextVar("loaderlab_shared_tables", default=None)


@contextlib.contextmanager
def shared_tables() -> Iterator[None]:
    """Within this block, :func:`shared` functions compute each table once per trace (nested blocks share
    the outermost one's tables)."""
    if _SCOPE.get() is not None:
        yield
        return
    token = _SCOPE.set({})
    try:
        yield
    finally:
        _SCOPE.reset(token)


def active() -> bool:
    return _SCOPE.get() is not None


def release(*functions: Callable) -> None:
    """Let go of the tables of these :func:`shared` functions kept so far (a caller that knows nothing later
    reads them: a 10 M-event trace's fetch pairs are ~150 MB); a later call computes them again."""
    cache = _SCOPE.get()
    if cache is None:
        return
    names = {(f.__module__, f.__qualname__) for f in functions}
    for key in [k for k in cache if k[:2] in names]:
        del cache[key]


def _buffer(values: Any) -> tuple[Any, Any]:
    """(an address-like key, the object to keep alive so that the key stays unique) for one column."""
    if isinstance(values, pd.Categorical):
        values = values.codes
    elif hasattr(values, "_data") and hasattr(values, "_mask"):  # a nullable (masked) column: its values and mask
        (data, _), (mask, _) = _buffer(values._data), _buffer(values._mask)
        return ("masked", data, mask), (values._data, values._mask)
    data = getattr(values, "_pa_array", None)
    if data is not None:
        return ("arrow", id(data)), data
    array = np.asarray(values)
    interface = array.__array_interface__
    return (interface["data"][0], array.strides, str(array.dtype)), array


def fingerprint(frame: pd.DataFrame) -> tuple[tuple, list] | None:
    """``(key, keep)``: what tells this table's data apart while ``keep`` is held; None if it cannot be told."""
    try:
        parts, keep = [len(frame), tuple(map(str, frame.columns))], []
        for i in range(frame.shape[1]):
            key, alive = _buffer(frame.iloc[:, i].array)
            parts.append(key)
            keep.append(alive)
        return tuple(parts), keep
    except (TypeError, ValueError, AttributeError):
        return None


def _settings_key(trace: Any) -> str:
    from .run import as_run

    run = as_run(trace)
    return json.dumps([run.loader, run.extra.get("payload")], sort_keys=True, default=str)


def _hashable(value: Any) -> Any:
    """Lists (column names, say) as tuples, so that they can be part of a key."""
    if isinstance(value, (list, tuple)):
        return tuple(_hashable(v) for v in value)
    return value


def _fresh(value: Any) -> Any:
    if isinstance(value, (pd.DataFrame, pd.Series)):
        return value.copy(deep=False)
    return value


def shared(func: Callable | None = None, *, settings: bool = False, at_hand: tuple[str, ...] = ()) -> Callable:
    """Mark a table function ``f(trace, *args, **kwargs)`` as computed once per trace inside
    :func:`shared_tables`. ``settings``: its result depends on the loader settings that travel with the trace
    (a run's, or a table's ``attrs``). ``at_hand``: keyword arguments that only hand over tables of the same
    trace already computed (``procs=``…): they do not change the result, so they are not part of the key."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def inner(trace: Any, *args: Any, **kwargs: Any) -> Any:
            cache = _SCOPE.get()
            if cache is None:
                return fn(trace, *args, **kwargs)
            from .run import events_of

            found = fingerprint(events_of(trace))
            rest = {k: v for k, v in kwargs.items() if k not in at_hand}
            try:
                key = (fn.__module__, fn.__qualname__, found[0] if found else None, _hashable(args),
                       _hashable(tuple(sorted(rest.items()))), _settings_key(trace) if settings else None)
                hash(key)
            except TypeError:
                return fn(trace, *args, **kwargs)
            if found is None:
                return fn(trace, *args, **kwargs)
            if key not in cache:
                cache[key] = (fn(trace, *args, **kwargs), found[1])
            return _fresh(cache[key][0])

        return inner

    return wrap(func) if func is not None else wrap
