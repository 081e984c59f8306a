"""What a batch carries: how many tensors and how many bytes, measured on the batches the loop receives.

Twin of nothing in torch. Moving a batch from a worker to the main process costs per tensor (each one is
moved to shared memory and sent as a handle) and per byte; the events say the bytes (``result_put``'s
``nbytes``) but not how many tensors, so :func:`loaderlab.record` passes each batch through a
:class:`PayloadProbe` on its way to the loop body, and keeps ``{"tensors", "nbytes", "batches"}`` (medians
over the first batches) in the trace as ``attrs["payload"]``; :mod:`loaderlab.trace.rerun.replayer` rebuilds batches of that shape.
Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from typing import Any, Callable

PROBED_BATCHES = 8  # the first batches are measured; a loader's batches rarely change shape after them


def tree_shape(data: Any) -> tuple[int, int]:
    """(tensors, bytes of tensor data) in ``data``: a tensor, or mappings / sequences of them."""
    tensor = _TENSOR[0] if _TENSOR else _tensor_class()
    if isinstance(data, tensor):
        return 1, data.element_size() * data.nelement()
    if type(data) in (tuple, list):  # before the Mapping ABC check: every batch of a traced job passes here
        items = data
    elif isinstance(data, (str, bytes)):
        items = ()
    elif isinstance(data, Mapping):
        items = data.values()
    else:
        items = data if isinstance(data, (list, tuple)) else ()
    tensors = nbytes = 0
    for item in items:
        t, b = tree_shape(item)
        tensors, nbytes = tensors + t, nbytes + b
    return tensors, nbytes


_TENSOR: list = []  # torch.Tensor once a batch is measured: reading a saved trace's payload needs no torch


def _tensor_class() -> type:
    import torch

    _TENSOR.append(torch.Tensor)
    return torch.Tensor


class PayloadProbe:
    """Wraps the loop body: measures the first :data:`PROBED_BATCHES` batches, then calls ``consumer``."""

    def __init__(self, consumer: Callable[[Any], Any] | None) -> None:
        self.consumer, self.shapes = consumer, []

    def __call__(self, batch: Any) -> Any:
        if len(self.shapes) < PROBED_BATCHES:
            self.shapes.append(tree_shape(batch))
        return None if self.consumer is None else self.consumer(batch)

    def result(self) -> dict[str, Any] | None:
        """``{"tensors", "nbytes", "batches"}`` (medians over the probed batches), None if none came."""
        if not self.shapes:
            return None
        return {"tensors": statistics.median(t for t, _ in self.shapes),
                "nbytes": statistics.median(b for _, b in self.shapes), "batches": len(self.shapes)}


def size_text(nbytes: float) -> str:
    """Bytes as a reader takes them in: B, KiB, MiB or GiB, whichever keeps the number under 1024; "?" if unknown."""
    if nbytes != nbytes:  # NaN: no payload was recorded
        return "?"
    step = 0
    while nbytes >= 1024 and step < 3:
        nbytes, step = nbytes / 1024, step + 1
    return f"{int(nbytes)} B" if step == 0 else f"{nbytes:.1f} {('KiB', 'MiB', 'GiB')[step - 1]}"


def recorded_payload(trace: Any) -> dict[str, Any]:
    """The payload a recording kept (``{}`` when none), from a run's ``extra`` (a bare table's ``attrs``)."""
    from .run import as_run  # result knows pandas; this module's probe runs without it

    return dict(as_run(trace).extra.get("payload") or {})
