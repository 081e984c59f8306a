"""The pin stage of a stock ``torch.utils.data.DataLoader``, traced without touching torch's source.

Twin of the events of :mod:`loaderlab.engine.pin_memory` (and of the engine's single-process pin step):
per batch a ``pin_begin``/``pin_end`` pair with the batch's tensor bytes (``nbytes``), the main process's
pid, worker -1, the epoch running and the batch's task number; ``detail="skipped: no accelerator"`` where
torch pins nothing. What torch itself does stays torch's:

- With workers, torch's own pin thread runs ``_utils.pin_memory._pin_memory_loop``, which the iterator's
  ``__init__`` reads as the Thread's target. While a traced clone makes its iterator, that name is a wrapper
  that marks the thread as the clone's and hands the loop a result queue whose ``get`` notes each batch's
  task number in the thread.
- Torch pins through the module-global ``_utils.pin_memory.pin_memory(data, device)`` (the loop's global
  name; ``_SingleProcessDataLoaderIter._next_data`` calls it through the module). A dispatcher installed
  there once times the top-level call of a marked thread and passes every other call straight to torch's
  function: other loaders, unmarked threads, and the items of a batch's containers (torch's recursion).
- With ``num_workers=0`` the clone's iterator's ``_next_data`` marks the main thread for that one call.
- Without an accelerator (or on MPS) torch warns, pins nothing and starts no thread, so the skipped stage is
  recorded where the engine's pin stage meets the batch: as the main process takes it from the result queue
  (workers), or right after the fetch (``num_workers=0``).

Knows nothing of how the recorder numbers epochs (it is told: :class:`StockPin` is an ``EpochDial`` part) or
what becomes of the events; nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import functools
import sys
import threading
import weakref
from typing import Any, Callable

import torch.utils.data
import torch.utils.data._utils.pin_memory as torch_pin
from torch._utils import ExceptionWrapper

from ...engine import events as ev
from ...engine.pin_memory import SKIPPED
from ...engine.tree import tree_nbytes

# Per thread: ``pin`` = the StockPin this thread pins for (None: not a traced clone's), ``batch`` = the task
# number of the batch it is about to pin (None: nothing to record, e.g. a worker's resume acknowledgement),
# ``owner`` = in the main thread, the iterator whose own call it must be (None in a pin thread).
_local = threading.local()
_lock = threading.Lock()  # one clone at a time swaps torch's loop function; the dispatcher installs once
_torch_pin_memory: Callable | None = None  # torch's own pin_memory, once the dispatcher stands in its place


def _dispatch(data: Any, device: str | None = None) -> Any:
    """Stands in for torch's ``pin_memory``: records the batch a marked thread pins, passes all else through."""
    pin, batch = getattr(_local, "pin", None), getattr(_local, "batch", None)
    if pin is None or batch is None:
        return _torch_pin_memory(data, device)
    owner = getattr(_local, "owner", None)
    if owner is not None and sys._getframe(1).f_locals.get("self") is not owner:
        return _torch_pin_memory(data, device)  # another loader, iterated inside this one's fetch
    _local.batch = None  # torch's recursion over the batch's containers comes back here: pass it through
    return pin.pinned(batch, data, device)


def _install() -> None:
    global _torch_pin_memory
    with _lock:
        if torch_pin.pin_memory is not _dispatch:
            _torch_pin_memory = torch_pin.pin_memory
            torch_pin.pin_memory = _dispatch


def _batch_of(item: Any) -> int | None:
    """The task number of a ``(idx, data)`` item from torch's result queue that carries a batch, else None.

    The engine's pin stage records its ``Result`` messages only: not failures, an iterable's end, a resume
    acknowledgement (its idx is a ``_ResumeIteration``) or the shutdown's ``(None, None)``."""
    if type(item) is not tuple or len(item) != 2 or type(item[0]) is not int:
        return None
    data = item[1]
    if isinstance(data, (ExceptionWrapper, torch.utils.data._utils.worker._IterableDatasetStopIteration)):
        return None
    return item[0]


class _Taking:
    """A queue whose ``get`` shows each item to ``seen`` before returning it (torch's loops only ``get``)."""

    def __init__(self, inner: Any, seen: Callable[[Any], None]) -> None:
        self.inner, self.seen = inner, seen

    def get(self, *args: Any, **kwargs: Any) -> Any:
        item = self.inner.get(*args, **kwargs)
        self.seen(item)
        return item

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)


def _note_batch(item: Any) -> None:
    _local.batch = _batch_of(item)


def _traced_loop(pin: "StockPin", loop: Callable, in_queue: Any, *args: Any, **kwargs: Any) -> None:
    """torch's pin loop ``loop`` in its own thread, marked as ``pin``'s, noting each batch's task number."""
    _local.pin, _local.batch, _local.owner = pin, None, None
    loop(_Taking(in_queue, _note_batch), *args, **kwargs)


class StockPin:
    """One traced clone's pin stage: where its events go and the epoch running (``epoch`` is set by the dial)."""

    def __init__(self, tracer: ev.Tracer) -> None:
        self.tracer, self.epoch = tracer, 0

    def pinned(self, batch: int, data: Any, device: str | None) -> Any:
        """torch's ``pin_memory(data, device)`` between the batch's ``pin_begin`` and ``pin_end``."""
        tracer, epoch = self.tracer, self.epoch
        nbytes = tree_nbytes(data) if tracer.enabled else 0
        tracer.emit(ev.PIN_BEGIN, ev.MAIN_PROCESS, epoch, batch, nbytes=nbytes, detail="")
        try:
            return _torch_pin_memory(data, device)
        finally:  # a failed pin ends too, as the engine's does (torch wraps the error for the loop)
            tracer.emit(ev.PIN_END, ev.MAIN_PROCESS, epoch, batch, nbytes=nbytes, detail="")

    def skipped(self, batch: int, data: Any) -> None:
        tracer, epoch = self.tracer, self.epoch
        nbytes = tree_nbytes(data) if tracer.enabled else 0
        tracer.emit(ev.PIN_BEGIN, ev.MAIN_PROCESS, epoch, batch, nbytes=nbytes, detail=SKIPPED)
        tracer.emit(ev.PIN_END, ev.MAIN_PROCESS, epoch, batch, nbytes=nbytes, detail=SKIPPED)

    def _skipped_item(self, item: Any) -> None:
        batch = _batch_of(item)
        if batch is not None:
            self.skipped(batch, item[1])

    def iterator(self, own: weakref.WeakMethod, workers: int) -> Any:
        """The clone's own ``_get_iterator()`` (``own``) with the pin stage traced, as the module docstring says."""
        _install()
        make = own()
        if workers > 0:
            with _lock:
                loop = torch_pin._pin_memory_loop
                torch_pin._pin_memory_loop = functools.partial(_traced_loop, self, loop)
                try:
                    it = make()
                finally:
                    torch_pin._pin_memory_loop = loop
            if not it._pin_memory:  # no pin thread: the main process takes batches off the result queue
                it._data_queue = _Taking(it._data_queue, self._skipped_item)
            return it
        it = make()
        # an instance attribute: __next__ calls self._next_data(); weak, so the iterator holds no cycle
        it._next_data = functools.partial(_next_data, self, weakref.WeakMethod(it._next_data), weakref.ref(it))
        return it


def _next_data(pin: StockPin, own: weakref.WeakMethod, it_ref: weakref.ref) -> Any:
    """A single-process iterator's ``_next_data``, its pin (or skipped pin) recorded under its task number."""
    it = it_ref()
    batch = it._num_yielded  # __next__ counts the batch after _next_data returns: this one's task number
    if not it._pin_memory:
        data = own()()
        pin.skipped(batch, data)
        return data
    before = getattr(_local, "pin", None), getattr(_local, "batch", None), getattr(_local, "owner", None)
    _local.pin, _local.batch, _local.owner = pin, batch, it
    try:
        return own()()
    finally:  # a traced loader iterated inside this one's fetch has its own window: ours is back after it
        _local.pin, _local.batch, _local.owner = before


def with_pin_stage(clone: torch.utils.data.DataLoader, tracer: ev.Tracer, dial: Any) -> torch.utils.data.DataLoader:
    """``clone``, its pin stage traced when it asks for pinning (its iterators are made through
    :meth:`StockPin.iterator`: ``iter()`` calls ``_get_iterator``, found on the instance first); ``dial``
    (an EpochDial) tells the stage which epoch runs."""
    if clone.pin_memory:
        pin = StockPin(tracer)
        # weak: the clone holding its own method would be a cycle, kept alive past the recording
        own = weakref.WeakMethod(clone._get_iterator)
        clone._get_iterator = functools.partial(pin.iterator, own, clone.num_workers)
        dial.parts.append(pin)
    return clone
