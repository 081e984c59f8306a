"""Turning one task's indices into one collated batch.

Twin of ``torch/utils/data/_utils/fetch.py`` (``_MapDatasetFetcher``, ``_IterableDatasetFetcher``):
same calls into the dataset in the same order (``__getitems__`` when the dataset has one, ``StopIteration``
when an iterable replica runs dry, ``drop_last`` on a short final batch). Runs in a worker process or,
with ``num_workers=0``, in the main process; it does not know which, nor what the queues look like.

With a tracer that is enabled, each sample is bracketed by ``fetch_begin`` / ``fetch_end`` and the
collate call by ``collate_begin`` / ``collate_end``. With tracing off the plain path is the same list
comprehension torch runs, so tracing off costs nothing here.
"""

from __future__ import annotations

from typing import Any, Callable

from . import events as ev


class Fetcher:
    """Shared state: the dataset, whether to batch, the collate function, and who to tell."""

    def __init__(self, dataset, auto_collation: bool, collate_fn: Callable, drop_last: bool,
                 tracer: ev.Tracer = ev.NULL_TRACER, worker: int = ev.MAIN_PROCESS,
                 sample_info: Callable | None = None) -> None:
        self.dataset = dataset
        self.auto_collation = auto_collation
        self.collate_fn = collate_fn
        self.drop_last = drop_last
        self.tracer = tracer
        self.worker = worker
        self.sample_info = sample_info

    def fetch(self, indices: Any, batch: int = ev.NO_BATCH, epoch: int = 0) -> Any:
        raise NotImplementedError

    def _collate(self, data: Any, batch: int, epoch: int) -> Any:
        if not self.tracer.enabled:
            return self.collate_fn(data)
        self.tracer.emit(ev.COLLATE_BEGIN, self.worker, epoch, batch)
        out = self.collate_fn(data)
        self.tracer.emit(ev.COLLATE_END, self.worker, epoch, batch)
        return out

    def _traced_get(self, get: Callable, index: Any, batch: int, epoch: int, position: int) -> Any:
        """Call ``get()`` between fetch events; ``position`` names the sample when ``index`` is None."""
        tracer, worker = self.tracer, self.worker
        name = position if index is None else index
        tracer.emit(ev.FETCH_BEGIN, worker, epoch, batch, name)
        try:
            sample = get()
        except BaseException as exc:  # close the span so the failing (or exhausting) sample is visible
            tracer.emit(ev.FETCH_END, worker, epoch, batch, name, detail=type(exc).__name__)
            raise
        if self.sample_info is None:
            tracer.emit(ev.FETCH_END, worker, epoch, batch, name)
        else:
            label, length = self.sample_info(name, sample)
            tracer.emit(ev.FETCH_END, worker, epoch, batch, name, label=label, length=length)
        return sample


class MapFetcher(Fetcher):
    """Indexes a map-style dataset."""

    def fetch(self, indices: Any, batch: int = ev.NO_BATCH, epoch: int = 0) -> Any:
        dataset = self.dataset
        if not self.auto_collation:
            if self.tracer.enabled:
                data = self._traced_get(lambda: dataset[indices], indices, batch, epoch, 0)
            else:
                data = dataset[indices]
            return self._collate(data, batch, epoch)
        # torch checks truthiness too: ``__getitems__ = None`` on a subclass switches it off.
        getitems = getattr(dataset, "__getitems__", None)
        if not self.tracer.enabled:
            data = getitems(indices) if getitems else [dataset[i] for i in indices]
        elif getitems:
            self.tracer.emit(ev.FETCH_BEGIN, self.worker, epoch, batch, detail=f"__getitems__ {len(indices)}")
            data = getitems(indices)
            self.tracer.emit(ev.FETCH_END, self.worker, epoch, batch, detail=f"__getitems__ {len(indices)}")
        else:
            data = [self._traced_get(lambda i=i: dataset[i], i, batch, epoch, pos) for pos, i in enumerate(indices)]
        return self._collate(data, batch, epoch)


class IterableFetcher(Fetcher):
    """Pulls from one replica of an iterable-style dataset; a worker holds one replica."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.dataset_iter = iter(self.dataset)
        self.ended = False
        self.position = 0  # how many items this replica has produced: the sample's name in events

    def _next(self, batch: int, epoch: int) -> Any:
        if not self.tracer.enabled:
            return next(self.dataset_iter)
        position, self.position = self.position, self.position + 1
        return self._traced_get(lambda: next(self.dataset_iter), None, batch, epoch, position)

    def fetch(self, indices: Any, batch: int = ev.NO_BATCH, epoch: int = 0) -> Any:
        if self.ended:
            raise StopIteration
        if not self.auto_collation:
            return self._collate(self._next(batch, epoch), batch, epoch)
        data = []
        for _ in indices:
            try:
                data.append(self._next(batch, epoch))
            except StopIteration:
                self.ended = True
                break
        if len(data) == 0 or (self.drop_last and len(data) < len(indices)):
            raise StopIteration
        return self._collate(data, batch, epoch)


def make_fetcher(is_iterable: bool, dataset, auto_collation: bool, collate_fn: Callable, drop_last: bool,
                 **tracing: Any) -> Fetcher:
    kind = IterableFetcher if is_iterable else MapFetcher
    return kind(dataset, auto_collation, collate_fn, drop_last, **tracing)
