"""``DataLoader``: the constructor, its validation, ``len()``, and which iterator an epoch gets.

Twin of ``torch.utils.data.DataLoader`` (torch 2.13): the same signature and defaults, the same
exceptions with the same messages in the same order, the same default sampler / batch sampler /
collate choices, the same attributes frozen after construction, the same ``len()``.
Wiring only: fetching, workers, reordering and shutdown live in their own modules.

Like torch's, the class is ``Generic`` over the batch type, so ``DataLoader[list[Tensor]]`` works in
annotations. DataPipe datasets (deprecated in torch) get torch's treatment (:mod:`.datapipes`).

One addition: ``loader.tracer`` (default: a tracer that drops everything) receives the engine's events;
:func:`loaderlab.record` sets it. It is not a constructor argument so that the signature stays torch's.
"""

from __future__ import annotations

import math
import multiprocessing as python_multiprocessing
import os
import warnings
from typing import Any, Callable, Generic, Iterable, TypeVar

import torch
import torch.multiprocessing

from . import datapipes, events as ev
from .collate import default_collate, default_convert
from .cores import cpu_count  # replay reads it here too (and tests patch it here)
from .twinned import warn_if_other_torch
from .multi import MultiProcessIter
from .sampler import BatchSampler, InfiniteConstantSampler, RandomSampler, SequentialSampler
from .single import BaseIter, SingleProcessIter

_T_co = TypeVar("_T_co", covariant=True)
_FROZEN_AFTER_INIT = ("batch_size", "batch_sampler", "sampler", "drop_last", "dataset", "persistent_workers")


class DataLoader(Generic[_T_co]):
    """Combines a dataset and a sampler, and provides an iterable over the given dataset.

    Same arguments and behaviour as :class:`torch.utils.data.DataLoader`; see its documentation.
    """

    def __init__(self, dataset, batch_size: int | None = 1, shuffle: bool | None = None,
                 sampler: Iterable | None = None, batch_sampler: Iterable[list] | None = None,
                 num_workers: int = 0, collate_fn: Callable | None = None, pin_memory: bool = False,
                 drop_last: bool = False, timeout: float = 0, worker_init_fn: Callable[[int], None] | None = None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor: int | None = None,
                 persistent_workers: bool = False, pin_memory_device: str = "", in_order: bool = True) -> None:
        self._initialized = False
        warn_if_other_torch()
        if num_workers < 0:
            raise ValueError("num_workers option should be non-negative; use num_workers=0 to disable multiprocessing.")
        if timeout < 0:
            raise ValueError("timeout option should be non-negative")
        if num_workers == 0 and prefetch_factor is not None:
            raise ValueError("prefetch_factor option could only be specified in multiprocessing."
                             "let num_workers > 0 to enable multiprocessing, otherwise set prefetch_factor to None.")
        if num_workers > 0 and prefetch_factor is None:
            prefetch_factor = 2
        elif prefetch_factor is not None and prefetch_factor < 0:
            raise ValueError("prefetch_factor option should be non-negative")
        if persistent_workers and num_workers == 0:
            raise ValueError("persistent_workers option needs num_workers > 0")

        self.dataset = dataset
        self.num_workers = num_workers
        self.prefetch_factor = prefetch_factor
        self.pin_memory = pin_memory
        self.pin_memory_device = pin_memory_device
        self.timeout = timeout
        self.worker_init_fn = worker_init_fn
        self.multiprocessing_context = multiprocessing_context
        self.in_order = in_order
        self.dataset = datapipes.wrap(dataset)  # a DataPipe is held in torch's serialisation wrapper

        self._is_iterable = isinstance(dataset, torch.utils.data.IterableDataset)
        if self._is_iterable:
            if isinstance(dataset, torch.utils.data.IterDataPipe):
                datapipes.apply_shuffle(dataset, shuffle)
            elif shuffle not in {False, None}:  # not `is not None`: shuffle=False was once the default
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified shuffle option, but got shuffle={shuffle}")
            if sampler is not None:
                raise ValueError(f"DataLoader with IterableDataset: expected unspecified sampler option, but got sampler={sampler}")
            if batch_sampler is not None:
                raise ValueError("DataLoader with IterableDataset: expected unspecified batch_sampler option, "
                                 f"but got batch_sampler={batch_sampler}")
        else:
            shuffle = bool(shuffle)
        if sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and drop_last")
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise ValueError("batch_size=None option disables auto-batching and is mutually exclusive with drop_last")

        if sampler is None:
            if self._is_iterable:
                sampler = InfiniteConstantSampler()
            elif shuffle:
                sampler = RandomSampler(dataset, generator=generator)
            else:
                sampler = SequentialSampler(dataset)
        if batch_size is not None and batch_sampler is None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)

        self.batch_size = batch_size
        self.drop_last = drop_last
        self.sampler = sampler
        self.batch_sampler = batch_sampler
        self.generator = generator
        if collate_fn is None:
            collate_fn = default_collate if self._auto_collation else default_convert
        self.collate_fn = collate_fn
        self.persistent_workers = persistent_workers
        self.tracer: ev.Tracer = ev.NULL_TRACER
        self._epochs_started = 0
        self._IterableDataset_len_called = None
        self._iterator = None
        self._initialized = True
        self.check_worker_number_rationality()

    # --- attributes -------------------------------------------------------------------------------

    @property
    def multiprocessing_context(self):
        return self._multiprocessing_context

    @multiprocessing_context.setter
    def multiprocessing_context(self, multiprocessing_context) -> None:
        if multiprocessing_context is not None:
            if self.num_workers > 0:
                if isinstance(multiprocessing_context, str):
                    valid_start_methods = torch.multiprocessing.get_all_start_methods()
                    if multiprocessing_context not in valid_start_methods:
                        raise ValueError("multiprocessing_context option should specify a valid start method in "
                                         f"{valid_start_methods!r}, but got multiprocessing_context={multiprocessing_context!r}")
                    multiprocessing_context = torch.multiprocessing.get_context(multiprocessing_context)
                if not isinstance(multiprocessing_context, python_multiprocessing.context.BaseContext):
                    raise TypeError("multiprocessing_context option should be a valid context object or a string "
                                    f"specifying the start method, but got multiprocessing_context={multiprocessing_context}")
            else:
                raise ValueError("multiprocessing_context can only be used with multi-process loading "
                                 f"(num_workers > 0), but got num_workers={self.num_workers}")
        self._multiprocessing_context = multiprocessing_context

    def __setattr__(self, attr: str, val: Any) -> None:
        if self.__dict__.get("_initialized") and attr in _FROZEN_AFTER_INIT:
            raise ValueError(f"{attr} attribute should not be set after {self.__class__.__name__} is initialized")
        super().__setattr__(attr, val)

    @property
    def _auto_collation(self) -> bool:
        return self.batch_sampler is not None

    @property
    def _index_sampler(self):
        return self.batch_sampler if self._auto_collation else self.sampler

    # --- iteration --------------------------------------------------------------------------------

    def _get_iterator(self) -> BaseIter:
        if self.num_workers == 0:
            return SingleProcessIter(self)
        self.check_worker_number_rationality()
        return MultiProcessIter(self)

    def __iter__(self) -> BaseIter:
        if self.persistent_workers and self.num_workers > 0:
            if self._iterator is None:
                self._iterator = self._get_iterator()
            else:
                self._iterator._reset(self)
            it = self._iterator
        else:
            it = self._get_iterator()
        self._epochs_started += 1
        return it

    def release_persistent_workers(self) -> None:
        """Shut down the workers a ``persistent_workers`` loader keeps between epochs, and forget its
        iterator (the next ``iter()`` starts fresh ones). torch has no such method: its loader frees them
        only when it is garbage-collected; a recorder must not leave them running after a run."""
        if self._iterator is not None:
            self._iterator.stop_workers()
            self._iterator = None

    def __len__(self) -> int:
        if self._is_iterable:
            length = self._IterableDataset_len_called = len(self.dataset)
            if self.batch_size is not None:
                length = length // self.batch_size if self.drop_last else math.ceil(length / self.batch_size)
            return length
        return len(self._index_sampler)

    def check_worker_number_rationality(self) -> None:
        """Warn when more workers are asked for than this machine has cores (torch's own warning)."""
        if not self.num_workers:
            return
        max_num_worker_suggest = cpu_count()
        cpuset_checked = hasattr(os, "sched_getaffinity")
        if max_num_worker_suggest is not None and self.num_workers <= max_num_worker_suggest:
            return
        if max_num_worker_suggest is not None:
            suggested = ("Our suggested max number of worker in current system is "
                         f"{max_num_worker_suggest}{'' if cpuset_checked else ' (`cpuset` is not taken into account)'}, "
                         "which is smaller than what this DataLoader is going to create.")
        else:
            suggested = "DataLoader is not able to compute a suggested max number of worker in current system."
        warnings.warn(f"This DataLoader will create {self.num_workers} worker processes in total. {suggested} "
                      "Please be aware that excessive worker creation might get DataLoader running slow or even "
                      "freeze, lower the worker number to avoid potential slowness/freeze if necessary.", stacklevel=2)
