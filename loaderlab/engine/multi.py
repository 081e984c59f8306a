"""The multi-process iterator: start workers, dispatch tasks round-robin, receive, reorder, hand over.

Twin of torch's ``_MultiProcessingDataLoaderIter`` (``dataloader.py``), with its data flow::

    sampler ─▶ Task ─▶ index_queue[k] ─▶ worker k ─▶ result_queue ─▶ [pin thread ─▶ data_queue] ─▶ TaskBook ─▶ you

At most ``prefetch_factor * num_workers`` tasks are outstanding; a new task is sent each time a batch
is handed over. Workers are chosen round-robin, skipping stopped ones; with ``in_order=False`` a worker
already holding its share of the cap is skipped too. Failures are torch's: a worker's exception re-raised
with its traceback, a vanished worker reported by pid (and signal), a batch that cannot be received for
want of file descriptors explained as torch explains it (:mod:`.receive_errors`), ``timeout`` as torch words it.
Unlike torch, which notices a dead worker through SIGCHLD only in the main thread and otherwise every
5 s, we wait on the result queue and the workers' process sentinels together, so a death is seen at
once from any thread (Streamlit runs scripts in threads).

Shutdown lives in :mod:`.shutdown`; the worker side in :mod:`.worker`. Knows nothing of pandas.
"""

from __future__ import annotations

import functools
import itertools
import os
import queue
import threading
import time
import warnings
from multiprocessing.connection import wait as wait_any
from pickle import PicklingError
from typing import Any

import torch
import torch.multiprocessing

from . import datapipes, events as ev
from .interrupt import POLL_S
from .messages import Exhausted, Failure, Result, Resume, ResumeAck, Stop, Task
from .pin_memory import pin_memory_loop
from .receive_errors import death_message, fds_nearly_exhausted, TOO_MANY_OPEN_FILES, WorkerDied
from .reorder import TaskBook
from .shutdown import register_for_exit, shutdown_workers
from .single import BaseIter
from .worker import STACK_SIGNAL, worker_loop, WorkerSpec

CHECK_INTERVAL_S = 5.0  # torch's MP_STATUS_CHECK_INTERVAL: how long one wait lasts before re-checking


class MultiProcessIter(BaseIter):
    _torch_name = "_MultiProcessingDataLoaderIter"

    def __init__(self, loader) -> None:
        self._shutdown = True  # nothing to shut down until workers exist (__del__ runs on a failed __init__)
        super().__init__(loader)
        self._prefetch_factor = loader.prefetch_factor
        self._in_order = loader.in_order
        # torch's own checks, reachable by setting attributes after construction; the comparison itself
        # is what raises torch's TypeError when prefetch_factor is still None.
        if self._num_workers <= 0:
            raise AssertionError("num_workers must be greater than 0 for MultiProcessingDataLoaderIter")
        if self._prefetch_factor <= 0:
            raise AssertionError("prefetch_factor must be greater than 0 for MultiProcessingDataLoaderIter")
        ctx = loader.multiprocessing_context or torch.multiprocessing
        tracer = self._tracer
        self._workers: list = []
        self._index_queues: list = []
        self._worker_result_queue = ctx.Queue()
        self._workers_done_event = ctx.Event()
        self._event_queue = ctx.Queue() if tracer.enabled else None
        self._shutdown = False
        self._collector = None
        if self._event_queue is not None:
            self._collector = threading.Thread(target=collect_events, args=(self._event_queue, tracer),
                                               name="loaderlab_event_collector", daemon=True)
            self._collector.start()
        init_fn = loader.worker_init_fn
        if datapipes.is_datapipe(self._dataset):  # each worker shards the pipe, then runs the user's init
            init_fn = functools.partial(datapipes.sharding_worker_init_fn, init_fn, self._world_size, self._rank)
        spec = WorkerSpec(self._dataset, self._is_iterable, self._auto_collation, self._collate_fn,
                          self._drop_last, self._base_seed, init_fn, self._num_workers,
                          os.getpid(), tracer.sample_info, self._epoch, self._shared_seed)
        try:
            for worker_id in range(self._num_workers):
                self._start_worker(ctx, spec, worker_id)
        except BaseException:
            shutdown_workers(self)
            raise
        if self._pin_stage:
            self._pin_memory_thread_done_event = threading.Event()
            self._data_queue = queue.Queue()
            self._pin_memory_thread = threading.Thread(
                target=pin_memory_loop, name="pt_data_pin", daemon=True,
                args=(self._worker_result_queue, self._data_queue, self._pin_memory_thread_done_event,
                      self._pin_device, tracer, lambda: self._epoch))
            self._pin_memory_thread.start()
        else:
            self._data_queue = self._worker_result_queue
        if self._persistent_workers and self._pin_stage:
            register_for_exit(self)
        self._last_task_id = -1
        self._reset(loader, first_iter=True)

    def _start_worker(self, ctx, spec: WorkerSpec, worker_id: int) -> None:
        index_queue = ctx.Queue()
        index_queue.cancel_join_thread()  # a stuck worker must not block our exit on unsent tasks
        w = ctx.Process(target=worker_loop, name=f"loaderlab_worker_{worker_id}",
                        args=(spec, worker_id, index_queue, self._worker_result_queue, self._event_queue,
                              self._workers_done_event))
        w.daemon = True
        try:
            w.start()
        except (TypeError, AttributeError, PicklingError):
            warnings.warn(
                "Got pickle error when attempting to start a worker Process. This might be because the worker "
                "Process arguments are not picklable. Python 3.14+ changed the multiprocessing start method in "
                "non-Mac POSIX platforms to 'forkserver', which requires the worker Process arguments to be "
                "picklable. You can also try multiprocessing.set_start_method('fork').", stacklevel=4)
            raise
        self._index_queues.append(index_queue)
        self._workers.append(w)
        self._tracer.emit(ev.WORKER_START, worker_id, self._epoch, arg0=w.pid)

    # --- per epoch --------------------------------------------------------------------------------

    def _reset(self, loader, first_iter: bool = False) -> None:
        old_epoch = self._epoch
        super()._reset(loader, first_iter)
        self._book = TaskBook()
        self._tasks_outstanding = 0
        self._workers_status = [True] * self._num_workers
        self._workers_num_tasks = [0] * self._num_workers
        self._worker_queue_idx_cycle = itertools.cycle(range(self._num_workers))
        if not first_iter:
            new_epoch, self._epoch = self._epoch, old_epoch  # what is drained belongs to the old epoch
            for index_queue in self._index_queues:
                index_queue.put(Resume(new_epoch, self._shared_seed))
            acks = 0
            while acks < self._num_workers:  # anything else still in flight belongs to the old epoch
                if isinstance(self._get_message(), ResumeAck):
                    acks += 1
            self._epoch = new_epoch
        for _ in range(self._prefetch_factor * self._num_workers):
            self._try_put_index()

    def _try_put_index(self) -> None:
        max_tasks = self._prefetch_factor * self._num_workers
        if self._tasks_outstanding >= max_tasks:
            raise AssertionError("Number of outstanding tasks exceeded maximum allowed tasks")
        try:
            indices = self._next_index()
        except StopIteration:
            return
        for _ in range(self._num_workers):
            worker_id = next(self._worker_queue_idx_cycle)
            if self._workers_status[worker_id]:
                if self._in_order:
                    break
                if self._workers_num_tasks[worker_id] < max_tasks // sum(self._workers_status):
                    break
        else:
            return  # as in torch: every worker is stopped or full, and these indices are dropped
        task_id = self._book.record_sent(worker_id)
        tracer = self._tracer
        if tracer.enabled:
            listed, samples = ev.index_list(indices)
            tracer.emit(ev.SAMPLER_YIELD, ev.MAIN_PROCESS, self._epoch, task_id, arg0=samples, indices=listed)
            tracer.emit(ev.INDEX_PUT, ev.MAIN_PROCESS, self._epoch, task_id, queue=f"index_queue[{worker_id}]",
                        arg0=worker_id)
        self._index_queues[worker_id].put(Task(task_id, indices, self._epoch))
        self._workers_num_tasks[worker_id] += 1
        self._tasks_outstanding += 1

    def _next_data(self) -> Any:
        book, tracer = self._book, self._tracer
        while True:
            if not book.skip_lost(self._workers_status.__getitem__):
                if not self._persistent_workers:
                    shutdown_workers(self)
                raise StopIteration
            parked = book.pop_parked_next()
            if parked is not None:
                tracer.emit(ev.REORDER_RELEASE, ev.MAIN_PROCESS, self._epoch, parked.task_id, queue="reorder")
                return self._process(parked, book.hand_over(parked.task_id))
            if self._shutdown or self._tasks_outstanding <= 0:
                raise AssertionError("Invalid iterator state: shutdown or no outstanding tasks when fetching next data")
            msg = self._get_message()
            self._tasks_outstanding -= 1
            if isinstance(msg, Exhausted):
                if self._persistent_workers:
                    self._workers_status[msg.worker_id] = False
                else:
                    self._mark_worker_as_unavailable(msg.worker_id)
                self._try_put_index()
                continue
            if book.is_next(msg.task_id) or not self._in_order:
                return self._process(msg, book.hand_over(msg.task_id))
            book.park(msg.task_id, msg)
            tracer.emit(ev.REORDER_PARK, ev.MAIN_PROCESS, self._epoch, msg.task_id, queue="reorder",
                        arg0=book.next_to_yield)

    def _process(self, msg: Result | Failure, worker_id: int) -> Any:
        self._workers_num_tasks[worker_id] -= 1
        self._try_put_index()
        self._last_task_id = msg.task_id
        if isinstance(msg, Failure):
            self._tracer.emit(ev.ERROR, ev.MAIN_PROCESS, self._epoch, msg.task_id,
                              detail=f"worker {msg.worker_id}: {msg.error.exc_type.__name__}",
                              arg0=ev.CAUSE_WORKER_FAILED)
            msg.error.reraise()
        return msg.data

    def _mark_worker_as_unavailable(self, worker_id: int, shutdown: bool = False) -> None:
        self._index_queues[worker_id].put(Stop())
        self._workers_status[worker_id] = False

    # --- receiving --------------------------------------------------------------------------------

    def _get_message(self) -> Any:
        """The next message from the workers (or pin thread), honouring ``timeout`` and worker deaths."""
        deadline = time.monotonic() + self._timeout if self._timeout > 0 else None
        guard = self._tracer.guard  # a recording's stop flag / time cap: wake every POLL_S to check it
        while True:
            wait_s = CHECK_INTERVAL_S if deadline is None else max(0.0, deadline - time.monotonic())
            msg = self._try_get(wait_s if guard is None else min(wait_s, POLL_S))
            if msg is not None:
                if self._tracer.enabled and not isinstance(msg, ResumeAck):
                    self._tracer.emit(ev.RESULT_GET, ev.MAIN_PROCESS, self._epoch, msg.task_id,
                                      queue="data_queue" if self._pin_stage else "result_queue")
                return msg
            if deadline is not None and time.monotonic() >= deadline:
                self._tracer.emit(ev.ERROR, ev.MAIN_PROCESS, self._epoch, detail="timeout", arg0=ev.CAUSE_TIMEOUT)
                raise RuntimeError(f"DataLoader timed out after {self._timeout} seconds")
            if guard is not None:
                guard.check()  # raises interrupt.RunStopped

    def _try_get(self, wait_s: float) -> Any | None:
        """A message, or None after ``wait_s`` with nothing; raises if a live worker has died."""
        if self._pin_stage:
            if not self._pin_memory_thread.is_alive():
                raise RuntimeError("Pin memory thread exited unexpectedly")
            try:
                return self._data_queue.get(timeout=min(wait_s, 0.5))
            except queue.Empty:
                pass
        else:
            reader = self._data_queue._reader
            if not reader.poll():  # usually a batch is already waiting: skip building a wait set
                live = [w.sentinel for i, w in enumerate(self._workers) if self._workers_status[i]]
                wait_any([reader, *live], timeout=wait_s)
            try:
                return self._data_queue.get(block=False)  # data first: a worker may die after its last put
            except queue.Empty:
                pass
            except Exception:  # the batch arrived but could not be unpickled (e.g. out of file descriptors)
                self._raise_if_any_worker_died()
                if fds_nearly_exhausted():
                    raise RuntimeError(TOO_MANY_OPEN_FILES) from None
                raise
        self._raise_if_any_worker_died()
        return None

    def _raise_if_any_worker_died(self) -> None:
        failed = [(i, w) for i, w in enumerate(self._workers) if self._workers_status[i] and not w.is_alive()]
        if not failed:
            return
        for worker_id, _ in failed:
            self._mark_worker_as_unavailable(worker_id)
        cause = WorkerDied("".join(death_message(w.pid, w.exitcode) for _, w in failed))
        self._tracer.emit(ev.ERROR, failed[0][0], self._epoch, detail=str(cause), arg0=ev.CAUSE_WORKER_DIED)
        pids = ", ".join(str(w.pid) for _, w in failed)
        raise RuntimeError(f"DataLoader worker (pid(s) {pids}) exited unexpectedly") from cause

    # --- inspection and teardown ----------------------------------------------------------------

    def request_stacks(self) -> None:
        """Ask every live worker to send its current Python stack as a ``stack`` event."""
        for w in self._workers:
            if w.is_alive():
                os.kill(w.pid, STACK_SIGNAL)

    @property
    def worker_pids(self) -> list[int]:
        return [w.pid for w in self._workers]

    @property
    def live_workers(self) -> set[int]:
        return set() if self._shutdown else {k for k, w in enumerate(self._workers) if w.is_alive()}

    def stop_workers(self) -> None:
        shutdown_workers(self)

    def _shutdown_workers(self) -> None:
        shutdown_workers(self)

    def __del__(self, _shutdown=shutdown_workers) -> None:
        # bound at definition: an iterator left in a global may be collected after this module's globals
        # are cleared at interpreter exit
        _shutdown(self)


def collect_events(event_queue, tracer: ev.Tracer) -> None:
    """Move worker event lists into the main tracer until a ``Stop`` arrives."""
    while True:
        try:
            chunk = event_queue.get()
        except (EOFError, OSError, ValueError):  # the queue was closed under us at exit
            return
        if isinstance(chunk, Stop):
            return
        tracer.emit_records(chunk)
