"""The pin-memory stage: a thread between the result queue and the main process.

Twin of ``torch/utils/data/_utils/pin_memory.py``: the same recursive ``pin_memory`` over a batch and the
same loop that takes from the result queue, pins, and hands on through a thread queue. One difference, on
purpose: without an accelerator torch starts no thread at all (it warns and skips); LoaderLab still runs
the stage, passes batches through unpinned, and records ``pin_begin``/``pin_end`` with
``detail="skipped: no accelerator"`` so the stage is visible in the trace. Knows nothing of dispatch or
reordering.
"""

from __future__ import annotations

import collections.abc
import copy
import queue
import threading
from typing import Any, Callable

import torch
from torch._utils import ExceptionWrapper

from . import events as ev
from .messages import Failure, Result, Stop
from .tree import tree_nbytes

POLL_S = 0.5  # how often a waiting pin thread checks whether it should stop
SKIPPED = "skipped: no accelerator"


def accelerator_type() -> str | None:
    """The device type batches would be pinned for (``"cuda"``, …), or None on a CPU-only machine."""
    if not torch.accelerator.is_available():
        return None
    acc = torch.accelerator.current_accelerator()
    return None if acc is None or acc.type == "mps" else acc.type  # torch does not pin for MPS


def pin_memory(data: Any, device: str | None = None) -> Any:
    """Copy every tensor in ``data`` into page-locked memory, keeping the containers' types."""
    if isinstance(data, torch.Tensor) or hasattr(data, "pin_memory"):
        return data.pin_memory()
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, collections.abc.Mapping):
        pinned = {k: pin_memory(v, device) for k, v in data.items()}
        try:
            if isinstance(data, collections.abc.MutableMapping):
                clone = copy.copy(data)  # keeps the mapping's own type and extra attributes
                clone.update(pinned)
                return clone
            return type(data)(pinned)
        except TypeError:  # a mapping type whose constructor takes something else
            return pinned
    if isinstance(data, tuple):
        if hasattr(data, "_fields"):  # namedtuple
            return type(data)(*(pin_memory(v, device) for v in data))
        return type(data)(pin_memory(v, device) for v in data)
    if isinstance(data, collections.abc.Sequence):
        try:
            if isinstance(data, collections.abc.MutableSequence):
                clone = copy.copy(data)
                for i, item in enumerate(data):
                    clone[i] = pin_memory(item, device)
                return clone
            return type(data)([pin_memory(v, device) for v in data])
        except TypeError:
            return [pin_memory(v, device) for v in data]
    return data


def pin_memory_loop(in_queue, out_queue: queue.Queue, done_event: threading.Event, device: str | None,
                    tracer: ev.Tracer, epoch_of: Callable[[], int]) -> None:
    """Move messages from ``in_queue`` to ``out_queue``, pinning the batches inside ``Result``s."""
    torch.set_num_threads(1)
    if device is not None:
        device_id = torch.accelerator.current_device_index()
        torch.accelerator.set_device_index(device_id)
    while not done_event.is_set():
        try:
            msg = in_queue.get(timeout=POLL_S)
        except queue.Empty:
            continue
        if isinstance(msg, Stop):
            break
        if isinstance(msg, Result) and not done_event.is_set():
            epoch = epoch_of()
            nbytes = tree_nbytes(msg.data) if tracer.enabled else 0
            detail = "" if device else SKIPPED
            tracer.emit(ev.PIN_BEGIN, ev.MAIN_PROCESS, epoch, msg.task_id, nbytes=nbytes, detail=detail)
            if device is not None:
                try:
                    msg = Result(msg.task_id, pin_memory(msg.data, device))
                except Exception:
                    error = ExceptionWrapper(where=f"in pin memory thread for device {device_id}")
                    msg = Failure(msg.task_id, error, ev.MAIN_PROCESS)
            tracer.emit(ev.PIN_END, ev.MAIN_PROCESS, epoch, msg.task_id, nbytes=nbytes, detail=detail)
        while not done_event.is_set():
            try:
                out_queue.put(msg, timeout=POLL_S)
                break
            except queue.Full:
                continue
