"""The worker process: its loop, its seeding, and how its events reach the main process.

Twin of ``torch/utils/data/_utils/worker.py``: the same seeding (``base_seed + worker_id`` for ``random``
and torch, the same SeedSequence-style hash for numpy), torch's own ``WorkerInfo`` installed so that
``torch.utils.data.get_worker_info()`` answers inside our workers, the same handling of
``worker_init_fn`` failures (reported with the first task), of iterable exhaustion and of the stop signal,
and a watchdog that leaves when the main process is gone. Messages are the named types of
:mod:`.messages`. Knows nothing of the main process's bookkeeping (reorder, dispatch) or of pandas.

``worker_loop`` is a top-level function taking everything it needs as arguments, so fork, spawn and
forkserver all work.
"""

from __future__ import annotations

import os
import queue
import random
import signal
import threading
import traceback
from array import array
from dataclasses import dataclass
from typing import Any, Callable

import torch
import torch.utils.data._utils.worker as torch_worker
from torch._utils import ExceptionWrapper
from torch.utils.data import IterDataPipe

from . import datapipes, events as ev
from .fetch import make_fetcher
from .messages import Exhausted, Failure, Result, Resume, ResumeAck, Stop, Task
from .records import as_int, Chunk, CODE, HEAD_STRIDE, NO_REF, RecordTracer, STRIDE
from .tree import tree_nbytes
from .watchdog import exit_when_orphaned, ParentWatchdog, WATCHDOG_INTERVAL_S

FLUSH_INTERVAL_S = 0.02  # how stale a worker's unsent events may get (a stuck fetch shows within this)
STACK_SIGNAL = signal.SIGUSR1  # ask a worker for its current Python stack


@dataclass(frozen=True)
class WorkerSpec:
    """Everything a worker needs to know, identical for all workers of one iterator."""

    dataset: Any
    is_iterable: bool
    auto_collation: bool
    collate_fn: Callable
    drop_last: bool
    base_seed: int
    init_fn: Callable | None
    num_workers: int
    main_pid: int
    sample_info: Callable | None = None
    epoch: int = 0  # the epoch during which the workers were started
    shared_seed: int | None = None  # seeds an IterDataPipe's random pipes (same in every worker)


def generate_numpy_seed(base_seed: int, worker_id: int) -> list[int]:
    """Torch's ``_generate_state``: numpy's SeedSequence hashing of (worker_id, base_seed), in 4 words.

    Torch does not hand numpy ``base_seed + worker_id`` because numpy would then give neighbouring
    workers correlated streams; the hash makes them independent.
    """
    init_a, mult_a, init_b, mult_b = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
    mix_mult_l, mix_mult_r, xshift, mask32 = 0xCA01F9DD, 0x4973F715, 16, 0xFFFFFFFF
    entropy = [worker_id, base_seed & mask32, base_seed >> 32, 0]
    hash_const_a = init_a

    def hash32(value: int) -> int:
        nonlocal hash_const_a
        value = (value ^ hash_const_a) & mask32
        hash_const_a = (hash_const_a * mult_a) & mask32
        value = (value * hash_const_a) & mask32
        return (value ^ (value >> xshift)) & mask32

    def mix(x: int, y: int) -> int:
        result = ((mix_mult_l * x) & mask32) - ((mix_mult_r * y) & mask32) & mask32
        return (result ^ (result >> xshift)) & mask32

    pool = [hash32(word) for word in entropy]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash32(pool[i_src]))
    hash_const_b, state = init_b, []
    for value in pool:
        value = (value ^ hash_const_b) & mask32
        hash_const_b = (hash_const_b * mult_b) & mask32
        value = (value * hash_const_b) & mask32
        state.append((value ^ (value >> xshift)) & mask32)
    return state


def seed_worker(base_seed: int, worker_id: int) -> int:
    """Seed ``random``, torch and numpy as torch's workers do; return the worker's seed."""
    seed = base_seed + worker_id
    random.seed(seed)
    torch.manual_seed(seed)
    try:
        import numpy as np
    except ModuleNotFoundError:  # torch seeds numpy only when it is installed
        return seed
    np.random.seed(generate_numpy_seed(base_seed, worker_id))
    return seed


class WorkerTracer(RecordTracer):
    """Records a worker's events into arrays (:mod:`.records`) and ships them as compact chunks.

    A background thread flushes every ``FLUSH_INTERVAL_S``: it cuts what is complete from the front of
    the arrays (only it removes, only from the front, so ``emit`` needs no lock) and puts it on the
    event queue as one :class:`~.records.Chunk` of bytes. When it finds the same sample in flight as on
    its previous tick, it sends a ``fetch_begin`` for it at once (with the batch's finished samples): a
    worker stuck inside ``__getitem__`` is visible while it is stuck, not only when (if) the sample ends.
    """

    def __init__(self, event_queue, worker_id: int, sample_info=None) -> None:
        super().__init__(sample_info)
        self.event_queue = event_queue
        self.worker_id = worker_id
        self.epoch = 0
        self.pid = self._pid
        self._reported_inflight = None  # the batch (its inflight tuple) whose slow sample was last reported
        self._reported_at = -1  # … and that sample's place in the batch's list
        self._seen = None
        self._send_lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._flush_loop, name="loaderlab_event_flush", daemon=True)
        self._thread.start()

    def _cut(self) -> tuple[bytes, bytes, bytes, dict]:
        """Remove and return what is complete: whole records, and whole batches of samples (a batch's
        samples are appended before its header, so a header read means its samples are there)."""
        heads = self.heads[:len(self.heads) // HEAD_STRIDE * HEAD_STRIDE]
        n = sum(heads[HEAD_STRIDE - 2::HEAD_STRIDE])
        samples = self.samples[:3 * n]
        rows = self.rows[:len(self.rows) // STRIDE * STRIDE]
        del self.heads[:len(heads)], self.samples[:3 * n], self.rows[:len(rows)]
        refs = set(rows[STRIDE - 1::STRIDE]) | set(heads[HEAD_STRIDE - 1::HEAD_STRIDE])
        refs.discard(NO_REF)
        objs = {ref: self.objs.pop(ref) for ref in refs}
        return rows.tobytes(), heads.tobytes(), samples.tobytes(), objs

    def flush(self, report: tuple | None = None) -> None:
        with self._send_lock:  # keeps chunks in order when the flusher and the loop flush at once
            rows, heads, samples, objs = self._cut()
            if report is not None:  # the slow sample's batch so far, then its fetch_begin
                epoch, batch, done, index, t0, done_labels = report
                ref = NO_REF
                if done_labels is not None:
                    ref = next(self._ids)
                    objs[ref] = done_labels
                heads += array("q", (self.pid, self.worker_id, epoch, batch, len(done) // 3, ref)).tobytes()
                samples += array("q", done).tobytes()
                rows += array("q", (CODE[ev.FETCH_BEGIN], t0, self.pid, self.worker_id, epoch, batch, index,
                                    -1, 0, -1, 1, -1, -1, -1, NO_REF)).tobytes()
            if rows or heads:
                self.event_queue.put(Chunk(rows, heads, samples, objs))

    def _slow_sample(self) -> tuple | None:
        inflight = self.inflight
        if inflight is None:
            self._seen = None
            return None
        # The fetch's own epoch, not ``self.epoch``: whoever drives this tracer may not keep that current
        # (a stock torch worker never hears of epochs), and a report must match the batch's final samples.
        epoch, batch, spans, labels, lengths = inflight[:5]
        prints = inflight[5] if len(inflight) > 5 else None  # content fingerprints (an IterableDataset's)
        n = len(spans)
        seen, self._seen = self._seen, (inflight, n)
        if n % 3 != 2 or seen is None or seen[0] is not inflight or seen[1] != n or (
                inflight is self._reported_inflight and n == self._reported_at):
            return None
        self._reported_inflight, self._reported_at = inflight, n
        try:
            index, t0, done = as_int(spans[n - 2]), spans[n - 1], array("q", spans[:n - 2])
        except (TypeError, OverflowError, IndexError):  # an index that is not an int: report nothing early
            return None
        # The batch's finished samples too (with their labels): if the worker dies now, they are not lost.
        k = (n - 2) // 3
        done_labels = None if labels is None else (labels[:k], lengths[:k], None)
        if prints:  # this copy is the one kept (the batch's final one repeats it): with its fingerprints
            done_labels = (*(done_labels or (None, None, None)), prints[:k])
        return epoch, batch, done, index, t0, done_labels

    def _flush_loop(self) -> None:
        while not self._stop.wait(FLUSH_INTERVAL_S):
            try:
                report = self._slow_sample()
            except (TypeError, ValueError):
                report = None
            self.flush(report)

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.flush()


def _install_stack_reporter(tracer: ev.Tracer, worker_id: int, epoch_of: Callable[[], int]) -> None:
    """Answer ``STACK_SIGNAL`` with a ``stack`` event holding where this worker's main thread is now.

    The handler only appends to the buffer: putting on a queue from a signal handler could deadlock on
    a lock the interrupted code holds. The flusher thread sends it.
    """

    def report(signum, frame) -> None:
        stack = "".join(traceback.format_list(own_frames(traceback.extract_stack(frame))))
        tracer.emit(ev.STACK, worker_id, epoch_of(), detail=stack)

    signal.signal(STACK_SIGNAL, report)


def own_frames(stack: traceback.StackSummary) -> list[traceback.FrameSummary]:
    """The worker's own frames: from multiprocessing's ``BaseProcess._bootstrap`` on. A forked worker also
    carries the frames its parent was in when it forked (the parent's loop, ``Process.start``…): they are
    not where the worker is, and they would push the user's ``__getitem__`` out of sight."""
    starts = [i for i, f in enumerate(stack) if f.name == "_bootstrap" and f.filename.endswith(
        os.path.join("multiprocessing", "process.py"))]
    return list(stack[starts[-1]:]) if starts else list(stack)


def _report_unsent_results(result_queue, tracer: ev.Tracer, worker_id: int, epoch_of: Callable[[], int]) -> None:
    """Say so when a batch cannot be sent. The queue's feeder thread pickles each result; when that fails,
    multiprocessing prints the error and drops the batch, and the main process waits for it forever, as
    torch's does. With tracing on we also emit an ``error`` event (cause ``CAUSE_UNSENT``, detail the
    pickler's error), so that a recording can stop instead of waiting; what is printed and sent stays torch's."""
    print_error = result_queue._on_queue_feeder_error

    def on_error(exc: Exception, obj: Any) -> None:
        tracer.emit(ev.ERROR, worker_id, epoch_of(), getattr(obj, "task_id", ev.NO_BATCH),
                    detail=f"{type(exc).__name__}: {exc}", arg0=ev.CAUSE_UNSENT)
        print_error(exc, obj)

    result_queue._on_queue_feeder_error = on_error


def worker_loop(spec: WorkerSpec, worker_id: int, index_queue, result_queue, event_queue, done_event) -> None:
    """Serve tasks from ``index_queue`` until told to ``Stop``, the main process vanishes, or Ctrl-C."""
    tracer: ev.Tracer = ev.NULL_TRACER
    epoch = spec.epoch
    try:
        # Torch's C handlers turn SIGBUS/SIGSEGV in a worker into a readable message (e.g. shm exhausted).
        torch._C._set_worker_signal_handlers()
        torch.multiprocessing._set_thread_name("pt_data_worker")
        torch.set_num_threads(1)
        seed = seed_worker(spec.base_seed, worker_id)
        if event_queue is not None:
            tracer = WorkerTracer(event_queue, worker_id, spec.sample_info)
            tracer.epoch = epoch
            _install_stack_reporter(tracer, worker_id, lambda: epoch)
            _report_unsent_results(result_queue, tracer, worker_id, lambda: epoch)
        dataset = spec.dataset
        if isinstance(dataset, IterDataPipe):
            if spec.shared_seed is None:
                raise AssertionError("shared_seed must be provided for IterDataPipe workers")
            dataset = datapipes.seed_pipes(dataset, spec.shared_seed)
        torch_worker._worker_info = torch_worker.WorkerInfo(
            id=worker_id, num_workers=spec.num_workers, seed=seed, dataset=dataset)

        def new_fetcher():
            return make_fetcher(spec.is_iterable, dataset, spec.auto_collation, spec.collate_fn, spec.drop_last,
                                tracer=tracer, worker=worker_id)

        init_failure = None
        try:
            if spec.init_fn is not None:
                spec.init_fn(worker_id)
            fetcher = new_fetcher()
        except Exception:
            init_failure = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
        tracer.emit(ev.WORKER_READY, worker_id, epoch, arg0=ev.seed_arg(seed))

        iteration_end = False
        watchdog = ParentWatchdog(spec.main_pid)
        exit_when_orphaned(watchdog)
        exit_reason = "main process gone"
        while watchdog.is_alive():
            try:
                msg = index_queue.get(timeout=WATCHDOG_INTERVAL_S)
            except queue.Empty:
                continue
            if isinstance(msg, Resume):
                epoch, iteration_end = msg.epoch, False
                tracer.epoch = epoch
                if isinstance(dataset, IterDataPipe):
                    if msg.shared_seed is None:
                        raise AssertionError("resume iteration seed is None for IterDataPipe")
                    dataset = datapipes.seed_pipes(dataset, msg.shared_seed)
                fetcher = new_fetcher()
                result_queue.put(ResumeAck(worker_id))
                continue
            if isinstance(msg, Stop):
                exit_reason = "stop signal"
                break
            if done_event.is_set() or iteration_end:
                continue  # drain tasks sent before the main process learned we were done
            task: Task = msg
            epoch = tracer.epoch = task.epoch
            tracer.emit(ev.INDEX_GET, worker_id, epoch, task.task_id, queue=f"index_queue[{worker_id}]",
                        arg0=worker_id)
            if init_failure is not None:
                out = Failure(task.task_id, init_failure, worker_id)
                init_failure = None
            else:
                try:
                    out = Result(task.task_id, fetcher.fetch(task.indices, task.task_id, epoch))
                except Exception as exc:
                    if isinstance(exc, StopIteration) and spec.is_iterable:
                        out, iteration_end = Exhausted(task.task_id, worker_id), True
                    else:
                        error = ExceptionWrapper(where=f"in DataLoader worker process {worker_id}")
                        out = Failure(task.task_id, error, worker_id)
                        tracer.emit(ev.ERROR, worker_id, epoch, task.task_id, detail=f"{type(exc).__name__}: {exc}",
                                    arg0=ev.CAUSE_EXCEPTION)
            if tracer.enabled:
                nbytes = tree_nbytes(out.data) if isinstance(out, Result) else 0
                tracer.emit(ev.RESULT_PUT, worker_id, epoch, task.task_id, queue="result_queue", nbytes=nbytes,
                            detail=type(out).__name__)
            result_queue.put(out)
            del out, msg, task
    except KeyboardInterrupt:
        exit_reason = "KeyboardInterrupt"
    tracer.emit(ev.WORKER_EXIT, worker_id, epoch, detail=exit_reason)
    if isinstance(tracer, WorkerTracer):
        tracer.close()
    if done_event.is_set():
        # The main process may no longer read the result queue; don't block exit on unsent results.
        result_queue.cancel_join_thread()
        result_queue.close()
