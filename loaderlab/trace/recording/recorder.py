"""Recording: run a loader with a tracer attached and return its events as one tidy table.

Twin of nothing in torch (its profiler sees one ``__next__`` span in the main process). Knows the event
vocabulary of :mod:`loaderlab.engine.events` and pandas; knows nothing of plotly or streamlit.

The table has one row per event, sorted by ``t_ns``; its columns are ``EVENT_COLUMNS`` (see the README).
"""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd
import torch.utils.data

from ...engine import events as ev
from ...engine.fetch import body_clocks
from ...engine.loader import DataLoader
from . import torch_recorder as tr
from .stock_worker import handed_task
from .bandwidth import host_to_device
from .event_channel import EventChannel
from ...engine.interrupt import RunGuard, UnsentResult
from ..core.payload import PayloadProbe
from ..core.run import Run, to_frame
from ...engine.records import RecordTracer
from ..core.frame import tracer_frame
from ..core.settings import loader_settings
from .session import record_session, UnsentBatchError
from .label_reading import label_sources

def _record_torch(loader, epochs: int, max_batches: int | None, consumer, sample_info) -> pd.DataFrame:
    """``record`` for a stock torch DataLoader: iterate a traced clone (see torch_recorder)."""
    tracer = RecordTracer(sample_info)
    channel = EventChannel(loader, tracer)
    dial = tr.EpochDial()
    clone = tr.traced_clone(loader, tracer, channel.queue, dial)
    tr.set_process_tracer(tracer)
    it = None
    try:
        for epoch in range(epochs):
            dial(epoch)  # before iter(): the workers it starts copy the epoch they start in
            tracer.emit(ev.EPOCH_BEGIN, ev.MAIN_PROCESS, epoch)
            it = iter(clone)
            position = 0
            while max_batches is None or position < max_batches:
                try:
                    got = next(it)
                except StopIteration:
                    break
                task = handed_task(it)  # an iterable's tasks skip those of workers whose stream had ended
                tracer.emit(ev.BATCH_YIELD, ev.MAIN_PROCESS, epoch, position, arg0=position if task is None else task)
                tracer.emit(ev.CONSUMER_BEGIN, ev.MAIN_PROCESS, epoch, position, **body_clocks())
                # the last batch is let go in the body, as `for batch in loader:` lets it go (its shared memory
                # unmapped there): the cost model reads the same body from record() and `loaderlab run`
                batch = got
                if consumer is not None:
                    consumer(batch)
                tracer.emit(ev.CONSUMER_END, ev.MAIN_PROCESS, epoch, position, **body_clocks())
                position += 1
            tracer.emit(ev.EPOCH_END, ev.MAIN_PROCESS, epoch)
            if not loader.persistent_workers and hasattr(it, "_shutdown_workers"):
                it._shutdown_workers()
    finally:
        for iterator in (it, clone._iterator):
            if hasattr(iterator, "_shutdown_workers"):
                iterator._shutdown_workers()
        channel.close()
        tr.set_process_tracer(ev.NULL_TRACER)
    settings = {**loader_settings(loader), "recorded_from": "torch.utils.data.DataLoader"}
    return to_frame(Run(tracer_frame(tracer), loader=settings, epochs=epochs))


def record(loader: DataLoader, epochs: int = 1, *, max_batches: int | None = None,
           consumer: Callable[[Any], Any] | None = None,
           sample_info: Callable[[Any, Any], tuple[Any, int]] | None = None) -> pd.DataFrame:
    """Iterate ``loader`` for ``epochs`` epochs and return every event the engine emitted.

    ``consumer(batch)`` stands in for the training step (its time shows as the consumer span).
    ``sample_info(index, sample) -> (label, length)`` labels each fetched sample (it runs in the workers,
    so it must be a top-level function). ``max_batches`` stops each epoch early. The loader's workers,
    persistent or not, are shut down before this returns, so every worker event is in the table.
    If the loader raises, so does ``record`` (the same exception); a batch a worker cannot pickle raises
    ``UnsentBatchError`` with the pickler's message (torch would wait for it forever). To keep the trace up to a failure, or
    to stop a run by a deadline, use :func:`loaderlab.trace.recording.session.record_session`.

    The table's ``attrs`` carry the run's metadata, as a trace file keeps it (:func:`loaderlab.trace.core.run.metadata`):
    ``loader`` (the loader's settings: ``num_workers``, ``prefetch_factor``, …) and ``epochs``. Every
    function of :mod:`loaderlab.trace` reads them through :func:`loaderlab.trace.core.run.as_run`, which gives
    the typed :class:`~loaderlab.trace.core.run.Run`; pandas keeps ``attrs`` through copies but not through
    every operation (a ``concat``, a ``merge``), so analyse the table as returned, or keep its ``as_run``.
    """
    if not isinstance(loader, (DataLoader, torch.utils.data.DataLoader)):
        raise TypeError("record() expects a loaderlab.DataLoader or a torch.utils.data.DataLoader, "
                        f"but got {type(loader).__name__}")
    if not isinstance(epochs, int) or isinstance(epochs, bool) or epochs < 1:
        raise ValueError(f"epochs should be a positive integer, but got epochs={epochs!r}")
    if max_batches is not None and (not isinstance(max_batches, int) or max_batches < 1):
        raise ValueError(f"max_batches should be None or a positive integer, but got max_batches={max_batches!r}")
    probe = PayloadProbe(consumer)  # what each batch carries (tensors, bytes): replay rebuilds that shape
    frame = _record(loader, epochs, max_batches, probe, sample_info)
    if probe.result() is not None:
        frame.attrs["payload"] = probe.result()
    frame.attrs["torch_threads"] = torch.get_num_threads()  # the loop's intra-op threads (1 in a worker)
    sources = label_sources(loader)  # what the dataset and the sampler say of labels (issue 35)
    if sources:
        frame.attrs["label_sources"] = sources
    if getattr(loader, "pin_memory", False):  # what not pinning would cost, on this GPU (none: nothing kept)
        measured = host_to_device()
        if measured is not None:
            frame.attrs["bandwidth"] = measured
    return frame


def _record(loader, epochs: int, max_batches: int | None, consumer, sample_info) -> pd.DataFrame:
    if isinstance(loader, torch.utils.data.DataLoader):
        return _record_torch(loader, epochs, max_batches, consumer, sample_info)
    # A guard without a deadline: only a batch that cannot be sent stops the run (torch would hang).
    recording = record_session(loader, epochs, max_batches=max_batches, consumer=consumer, sample_info=sample_info,
                               guard=RunGuard())
    if recording.error is not None:
        raise recording.error
    if isinstance(recording.stopped, UnsentResult):
        unsent = recording.stopped
        raise UnsentBatchError(f"DataLoader worker {unsent.worker} could not send batch {unsent.task} "
                               f"(torch would wait for it forever): {unsent.message}")
    return to_frame(recording.run)
