"""What every epoch iterator shares, and the single-process iterator (``num_workers=0``).

Twin of ``_BaseDataLoaderIter`` and ``_SingleProcessDataLoaderIter`` in torch's ``dataloader.py``: the
same warnings at the same moment (pin memory without an accelerator, deprecated ``pin_memory_device``),
the same order of random draws (for an IterDataPipe the shared seed first, then the sampler iterator,
then the base seed from ``generator``), the same IterableDataset length warning, the same DataPipe
seeding and sharding (:mod:`.datapipes`). Knows nothing of worker processes (see :mod:`.multi`) or of pandas.
"""

from __future__ import annotations

import warnings
from typing import Any

import torch

from . import datapipes, events as ev
from .fetch import body_clocks, make_fetcher
from .pin_memory import accelerator_type, pin_memory, SKIPPED
from .tree import tree_nbytes


class BaseIter:
    """One epoch's iterator (or, with persistent workers, every epoch's)."""

    _torch_name = "_BaseDataLoaderIter"  # the torch class this iterator stands for, as profilers name it

    def __init__(self, loader) -> None:
        self._dataset = loader.dataset
        self._shared_seed = None
        self._seed_group = None
        if isinstance(self._dataset, torch.utils.data.IterDataPipe):
            self._seed_group = datapipes.seed_group()
            self._shared_seed = datapipes.share_seed(loader.generator, self._seed_group)
            self._dataset = datapipes.seed_pipes(self._dataset, self._shared_seed)
        self._is_iterable = loader._is_iterable
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        self._auto_collation = loader._auto_collation
        self._drop_last = loader.drop_last
        self._index_sampler = loader._index_sampler
        self._num_workers = loader.num_workers
        self._world_size, self._rank = datapipes.distributed_settings()
        self._tracer: ev.Tracer = loader.tracer
        self._epoch = loader._epochs_started
        if loader.pin_memory and loader.pin_memory_device:
            warnings.warn(
                "pin_memory_device is deprecated, the current accelerator will be used as the device,"
                f"ignore pin_memory_device='{loader.pin_memory_device}'.", stacklevel=3)
        if loader.pin_memory and not torch.accelerator.is_available():
            warnings.warn("'pin_memory' argument is set as true but no accelerator is found, "
                          "then device pinned memory won't be used.", stacklevel=3)
        self._pin_stage = loader.pin_memory  # the stage runs (and is traced) even when it can't pin
        self._pin_device = accelerator_type() if loader.pin_memory else None
        if loader.pin_memory and torch.accelerator.is_available() and self._pin_device is None:
            warnings.warn("'pin_memory' argument is set as true but not supported on MPS now, "
                          "device pinned memory won't be used.", stacklevel=3)
        self._timeout = loader.timeout
        self._collate_fn = loader.collate_fn
        self._sampler_iter = iter(self._index_sampler)
        self._base_seed = torch.empty((), dtype=torch.int64).random_(generator=loader.generator).item()
        self._persistent_workers = loader.persistent_workers
        self._num_yielded = 0
        self._consumer_running = False
        self._profile_name = f"enumerate(DataLoader)#{self._torch_name}.__next__"
        self._tracer.emit(ev.EPOCH_BEGIN, ev.MAIN_PROCESS, self._epoch)

    def __iter__(self):
        return self

    def _reset(self, loader, first_iter: bool = False) -> None:
        self._sampler_iter = iter(self._index_sampler)
        self._num_yielded = 0
        self._IterableDataset_len_called = loader._IterableDataset_len_called
        if isinstance(self._dataset, torch.utils.data.IterDataPipe):  # a new shared seed every epoch
            self._shared_seed = datapipes.share_seed(loader.generator, self._seed_group)
            self._dataset = datapipes.seed_pipes(self._dataset, self._shared_seed)
        if not first_iter:
            self._epoch = loader._epochs_started
            self._tracer.emit(ev.EPOCH_BEGIN, ev.MAIN_PROCESS, self._epoch)

    def _next_index(self) -> Any:
        return next(self._sampler_iter)

    def _next_data(self) -> Any:
        raise NotImplementedError

    def __next__(self) -> Any:
        # torch.profiler users see the same span torch's own iterators open around each next(). The loop
        # body's span ends before it and begins after it: entering and leaving it runs torch ops that let go
        # of the GIL, and beside workers the loader's own threads (index queue feeders, the event collector)
        # take it there (a median 40-140 us a batch, measured), which is next()'s time, not the loop body's.
        self.end_consumer_span()
        with torch.autograd.profiler.record_function(self._profile_name):
            data = self._next_traced()
        if self._tracer.enabled:
            self._tracer.emit(ev.CONSUMER_BEGIN, ev.MAIN_PROCESS, self._epoch, self._num_yielded - 1,
                              **body_clocks())
            self._consumer_running = True
        return data

    def _next_traced(self) -> Any:
        tracer = self._tracer
        try:
            data = self._next_data()
        except StopIteration:
            tracer.emit(ev.EPOCH_END, ev.MAIN_PROCESS, self._epoch)
            raise
        self._num_yielded += 1
        if (self._is_iterable and self._IterableDataset_len_called is not None
                and self._num_yielded > self._IterableDataset_len_called):
            warn_msg = (f"Length of IterableDataset {self._dataset} was reported to be "
                        f"{self._IterableDataset_len_called}(when accessing len(dataloader)), but "
                        f"{self._num_yielded} samples have been fetched. ")
            if self._num_workers > 0:
                warn_msg += ("For multiprocessing data-loading, this could be caused by not properly configuring "
                             "the IterableDataset replica at each worker. Please see "
                             "https://pytorch.org/docs/stable/data.html#torch.utils.data.IterableDataset for examples.")
            warnings.warn(warn_msg, stacklevel=3)
        if tracer.enabled:
            tracer.emit(ev.BATCH_YIELD, ev.MAIN_PROCESS, self._epoch, self._num_yielded - 1,
                        detail=f"task {self._last_task_id}", arg0=self._last_task_id)
        return data

    def __len__(self) -> int:
        return len(self._index_sampler)

    # --- what a recorder asks of an iterator (loaderlab.trace.recording.session); torch's iterators have none of it ---

    def end_consumer_span(self) -> None:
        """Close the loop-body span of the last batch handed out, if open: ``next()`` closes it, and a
        loop that stops early (``break``, a batch limit, a stop) never calls ``next()`` again."""
        if self._consumer_running:
            self._tracer.emit(ev.CONSUMER_END, ev.MAIN_PROCESS, self._epoch, self._num_yielded - 1,
                              **body_clocks())
            self._consumer_running = False

    @property
    def live_workers(self) -> set[int]:
        """Ids of the worker processes still running; none without workers or once they were shut down."""
        return set()

    def stop_workers(self) -> None:
        """Shut every worker down now (idempotent); nothing to do without workers."""

    def __getstate__(self):
        raise NotImplementedError("{} cannot be pickled", self.__class__.__name__)


class SingleProcessIter(BaseIter):
    """Fetch, collate and (maybe) pin in the caller's thread, one batch per ``next()``."""

    _torch_name = "_SingleProcessDataLoaderIter"

    def __init__(self, loader) -> None:
        super().__init__(loader)
        if self._timeout != 0:
            raise AssertionError("_SingleProcessDataLoaderIter requires timeout == 0")
        if datapipes.is_datapipe(self._dataset):  # one process per rank: shard over the ranks
            datapipes.shard(self._dataset, self._world_size, self._rank)
        self._fetcher = make_fetcher(self._is_iterable, self._dataset, self._auto_collation, self._collate_fn,
                                     self._drop_last, tracer=self._tracer, worker=ev.MAIN_PROCESS)
        self._task_id = 0
        self._last_task_id = -1

    def _next_data(self) -> Any:
        index = self._next_index()
        task_id, tracer, epoch = self._task_id, self._tracer, self._epoch
        self._task_id += 1
        if tracer.enabled:
            indices, samples = ev.index_list(index)
            tracer.emit(ev.SAMPLER_YIELD, ev.MAIN_PROCESS, epoch, task_id, arg0=samples, indices=indices)
        data = self._fetcher.fetch(index, task_id, epoch)
        if self._pin_stage:
            nbytes = tree_nbytes(data) if tracer.enabled else 0
            detail = "" if self._pin_device else SKIPPED
            tracer.emit(ev.PIN_BEGIN, ev.MAIN_PROCESS, epoch, task_id, nbytes=nbytes, detail=detail)
            if self._pin_device is not None:
                data = pin_memory(data, self._pin_device)
            tracer.emit(ev.PIN_END, ev.MAIN_PROCESS, epoch, task_id, nbytes=nbytes, detail=detail)
        self._last_task_id = task_id
        return data
