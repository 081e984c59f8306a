"""Recording a stock ``torch.utils.data.DataLoader`` without touching torch's source.

Twin of nothing in torch. We build a *clone* of the user's loader, identical in every argument but with
four wrappers: the (batch) sampler numbers each batch and reports it (main process); the dataset times
each sample; ``collate_fn`` times the collate; ``worker_init_fn`` gives each worker a tracer whose events
travel on their own queue to the main process. With ``pin_memory=True`` torch's own pin step is traced by
:mod:`loaderlab.trace.recording.stock_pin` (its pin thread, or the loop without workers).

Epochs. Torch's workers never hear which epoch runs, and a worker may fetch for one epoch while the main
process is already in the next, so every event names the epoch that *drew its indices*: the sampler
stamps it on each index batch (``NumberedBatch``, :mod:`.numbered`) and the worker reads it from there. Only what has no
index batch falls back on ``_epoch``: a new worker's start-up (the epoch its ``worker_init_fn`` was
copied in: workers start inside ``iter()``, after the recorder set the epoch) and an IterableDataset's
samples (one ``__iter__`` per epoch: a worker's first, then one per resume of a persistent worker).

The clone draws the same random numbers in the same order as the original would, so it yields the same
batches in the same order; the user's loader object itself is never iterated or changed. Events torch
hides (queue puts and gets, reorder parking) are simply absent from the trace; a worker's start and an
IterableDataset batch's task are read where torch leaves them (:mod:`loaderlab.trace.recording.stock_worker`).

A dataset with its own ``__getitems__`` (Hugging Face's ``Dataset``) fetches a batch in one call: its samples are
recorded one by one as any others, each with an equal share of the call's time (what the trace says of one such
sample is the call's mean, not its own cost) and with the label and length read from what the call returned.
Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import multiprocessing.util
import os
import time
from array import array
from typing import Any, Callable

import torch
import torch.multiprocessing
import torch.utils.data

from ...engine import events as ev
from ...engine.fetch import batch_usage, start_batch_usage, traced_fetch
from ...engine.fingerprint import identity
from ...engine.worker import WorkerTracer
from . import stock_worker
from ..core.payload import tree_shape
from .sample_guess import rows, SampleGuess
from .sample_keys import keyed_iter
from .numbered import TracedSampler
from .stream_samples import close_open_batch, ContentProbe, OpenBatch
from .stock_pin import with_pin_stage

_tracer: ev.Tracer = ev.NULL_TRACER  # this process's tracer: main's RecordTracer, or a worker's WorkerTracer
_current = (0, ev.NO_BATCH)  # (epoch, batch) being fetched in this process, for the collate events
_epoch = 0  # this process's epoch where no index batch says it: the recorder's (main), or a worker's start epoch


def _worker_id() -> int:
    info = torch.utils.data.get_worker_info()
    return ev.MAIN_PROCESS if info is None else info.id


class _Forwarding:
    """Reads and writes of unknown attributes go to the wrapped dataset (``get_worker_info().dataset``
    is the wrapper, and torch's docs configure the per-worker replica through it)."""

    _own = ("inner",)

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._own:
            object.__setattr__(self, name, value)
        else:
            setattr(self.inner, name, value)


def _fetching(epoch: int, batch: int) -> None:
    """Note what this process fetches now: for its collate events, and for its tracer's exit event."""
    global _current
    _current = (epoch, batch)
    _tracer.epoch = epoch  # a WorkerTracer's worker_exit names the last epoch it fetched for


def _numbers(indices) -> tuple[int, int]:
    """(batch, epoch) the sampler stamped on ``indices``; unnumbered ones (str keys…) get this process's epoch."""
    return getattr(indices, "batch", ev.NO_BATCH), getattr(indices, "epoch", _epoch)


class TracedMapDataset(_Forwarding, torch.utils.data.Dataset):
    def __init__(self, inner) -> None:
        self.inner = inner

    def __len__(self) -> int:
        return len(self.inner)

    def __getitem__(self, index):  # batch_size=None: one sample per step
        batch, epoch = _numbers(index)
        _fetching(epoch, batch)
        return traced_fetch(_tracer, _worker_id(), self.inner.__getitem__, [index], batch, epoch)[0][0]

    def __getitems__(self, indices):
        batch, epoch = _numbers(indices)
        _fetching(epoch, batch)
        own = getattr(self.inner, "__getitems__", None)
        if not own:
            return traced_fetch(_tracer, _worker_id(), self.inner.__getitem__, indices, batch, epoch)[0]
        return _shared_fetch(own, indices, batch, epoch)


def _shared_fetch(own: Callable, indices, batch: int, epoch: int):
    """The dataset's own ``__getitems__``: one call for the whole batch, recorded as its samples. The dataset
    does not say what each sample cost, so each gets an equal share of the call's time (the module docstring);
    labels and lengths are read from what the call returned (:func:`.sample_guess.rows`)."""
    worker, now, info, n = _worker_id(), time.monotonic_ns, _tracer.sample_info, len(indices)
    start_batch_usage(worker)
    spans = [indices[0] if n else ev.NO_BATCH, now()]
    _tracer.inflight = (epoch, batch, spans, None, None)  # a call that hangs shows as its first sample in flight
    try:
        data = own(indices)
    except BaseException as exc:  # the call fails as a whole: its first sample carries the failure
        spans.append(now())
        _tracer.inflight = None
        _tracer.emit_fetches(worker, epoch, batch, spans, None if info is None else [None],
                             None if info is None else [-1], {0: type(exc).__name__})
        raise
    t0, t1 = spans[1], now()
    _tracer.inflight = None
    bounds = [t0 + (t1 - t0) * k // n for k in range(n + 1)]
    try:  # [index, t0, t1, …] filled a column at a time in C: this runs on the loop's own time
        spans = array("q", bytes(24 * n))
        spans[0::3], spans[1::3], spans[2::3] = array("q", indices), array("q", bounds[:-1]), array("q", bounds[1:])
    except (TypeError, OverflowError):  # indices that are not int64s: the tracer makes each one
        spans = [x for k, index in enumerate(indices) for x in (index, bounds[k], bounds[k + 1])]
    labels = lengths = None
    if info is not None:
        samples = rows(data, n)
        if samples is None:
            labels, lengths = [None] * n, [-1] * n
        elif isinstance(info, SampleGuess):  # a column at a time
            labels, lengths = info.columns(indices, samples)
        else:  # any other sample_info: one sample at a time
            guessed = [info(i, x) for i, x in zip(indices, samples)]
            labels, lengths = [g[0] for g in guessed], [g[1] for g in guessed]
    _tracer.emit_fetches(worker, epoch, batch, spans, labels, lengths)
    return data


class TracedIterableDataset(_Forwarding, torch.utils.data.IterableDataset):
    """Each sample named by its position in this replica's stream, its batch by the task torch sent for it
    (:mod:`loaderlab.trace.recording.stock_worker`), its identity by the keys its library gave it where it carries
    them (:mod:`.sample_keys`), else by a fingerprint of its content."""

    _own = ("inner", "_iters", "probe")

    def __init__(self, inner, probe: ContentProbe | None = None) -> None:
        self.inner = inner
        self._iters = 0  # __iter__ calls in this process (a forked worker inherits main's 0: main never iterates)
        self.probe = probe  # with two workers or more: whether content fingerprints can show a duplicate

    def __len__(self) -> int:
        return len(self.inner)

    def __iter__(self):
        # Not a generator itself: the epoch is taken when torch asks for the iterator (a worker's start,
        # a persistent worker's resume, the main process's iter()), not at the first sample.
        loop = None  # without workers, the main-process iterator, whose count of yielded batches numbers them
        if _worker_id() == ev.MAIN_PROCESS:
            epoch, loop = _epoch, stock_worker.main_iterator()
        else:
            epoch = _epoch + self._iters
        self._iters += 1
        keyed = keyed_iter(self.inner)  # a library's keys name its samples where it carries them (sample_keys)
        if keyed is not None:
            return self._samples(keyed[0], epoch, loop, keyed[1].identify)
        # content names a sample only where two workers could both yield it (stream_samples.ContentProbe)
        probe = self.probe if loop is None else None
        return self._samples(iter(self.inner), epoch, loop, None if probe is None else probe.gate(_worker_id(), identity))

    @staticmethod
    def _samples(it, epoch: int, loop=None, identify: Callable | None = None):
        """The stream's samples, recorded a batch at a time (:class:`.stream_samples.OpenBatch`)."""
        position, pull, worker, batch_open = 0, it.__next__, _worker_id(), None
        while True:
            owner = loop() if loop is not None else None
            batch = stock_worker.current_task() if owner is None else owner._num_yielded
            if batch_open is None or batch_open.spans is None or batch != batch_open.batch:
                _fetching(epoch, batch)
                batch_open = OpenBatch(_tracer, worker, epoch, batch)
            try:
                sample = batch_open.fetch(position, pull, identify)
            except StopIteration:
                return
            position += 1
            yield sample


class TracedCollate:
    """Times the collate; ``collate_end`` says what the batch carries: ``nbytes`` (its tensor bytes) and
    ``length`` (its tensors). In a worker torch's ``default_collate`` allocates the batch in shared memory, so
    a big batch's collate span is mostly that allocation and copy: its bytes beside its time show it."""

    def __init__(self, inner: Callable) -> None:
        self.inner = inner

    def __call__(self, data):
        close_open_batch()  # a stream's batch is whole: its samples are reported before its collate begins
        (epoch, batch), worker, tracer = _current, _worker_id(), _tracer
        tracer.emit(ev.COLLATE_BEGIN, worker, epoch, batch)
        out = self.inner(data)
        tensors, nbytes = tree_shape(out) if tracer.enabled else (-1, 0)
        tracer.emit(ev.COLLATE_END, worker, epoch, batch, nbytes=nbytes, length=tensors, **batch_usage(worker))
        return out


class TracedWorkerInit:
    """Runs first in each worker: a tracer for this process, then the user's own ``worker_init_fn``.

    ``epoch`` is set by the recorder before each ``iter()``; a worker gets a copy of this object when it
    starts (fork or pickle), so it holds the epoch the worker was started in.
    """

    def __init__(self, inner: Callable | None, event_queue, sample_info: Callable | None) -> None:
        self.inner, self.event_queue, self.sample_info = inner, event_queue, sample_info
        self.epoch = 0
        self.main_pid = os.getpid()  # worker_start is said on main's behalf, as the engine's main says it

    def __call__(self, worker_id: int) -> None:
        global _tracer, _epoch
        started = stock_worker.process_start_ns()
        _epoch = self.epoch
        tracer = _tracer = WorkerTracer(self.event_queue, worker_id, self.sample_info)
        tracer.epoch = self.epoch
        if started is not None:  # start-up: this process's start → worker_ready below (stock_worker's docstring)
            tracer.emit_at(ev.WORKER_START, started[0], self.main_pid, worker_id, self.epoch, arg0=os.getpid(),
                           detail=f"measured in the worker: {started[1]} start")
        if isinstance(torch.utils.data.get_worker_info().dataset, TracedIterableDataset):
            stock_worker.watch_tasks()  # its batches have no numbered indices: the task comes off the queue
        # multiprocessing runs finalizers when the worker's run() returns (daemon threads would just die).
        # Priority above the event queue's own close finalizer (10): flush first, then the queue closes.
        multiprocessing.util.Finalize(tracer, self.finish, args=(tracer, worker_id), exitpriority=20)
        if self.inner is not None:
            self.inner(worker_id)
        if stock_worker.parent_gone():  # torch's watchdog, made next, would take the new parent for the job
            os._exit(0)
        tracer.emit(ev.WORKER_READY, worker_id, self.epoch, arg0=ev.seed_arg(torch.utils.data.get_worker_info().seed))

    @staticmethod
    def finish(tracer: WorkerTracer, worker_id: int) -> None:
        tracer.emit(ev.WORKER_EXIT, worker_id, tracer.epoch, detail="worker loop ended")
        tracer.close()


class EpochDial:
    """Tells the clone's parts which epoch starts: call it before each ``iter(clone)``."""

    def __init__(self) -> None:
        self.parts: list = []  # the TracedSampler and the TracedWorkerInit: each has an ``epoch``

    def __call__(self, epoch: int) -> None:
        global _epoch
        _epoch = epoch
        for part in self.parts:
            part.epoch = epoch


def traced_clone(loader: torch.utils.data.DataLoader, tracer: ev.Tracer, event_queue,
                 dial: EpochDial, setting: dict[str, Any] | None = None, generator: Any = None,
                 indices: Any = None) -> torch.utils.data.DataLoader:
    """A torch DataLoader equal to ``loader`` but for the wrappers above; ``dial`` gets the parts that
    must know which epoch runs. ``run --tune`` passes the ``setting`` it adopted (``num_workers``,
    ``prefetch_factor``, ``pin_memory``), a private ``generator`` and the (batch) sampler's stand-in
    ``indices`` (same batches, see :mod:`loaderlab.jobs.tuner`)."""
    common = dict(num_workers=loader.num_workers, pin_memory=loader.pin_memory, timeout=loader.timeout,
                  multiprocessing_context=loader.multiprocessing_context, generator=loader.generator,
                  prefetch_factor=loader.prefetch_factor, persistent_workers=loader.persistent_workers,
                  pin_memory_device=loader.pin_memory_device, in_order=loader.in_order,
                  collate_fn=TracedCollate(loader.collate_fn))
    if setting is not None:
        workers = setting["num_workers"]
        common.update(setting, generator=generator, persistent_workers=loader.persistent_workers and workers > 0,
                      timeout=loader.timeout if workers else 0,
                      multiprocessing_context=loader.multiprocessing_context if workers else None)
    if common["num_workers"] > 0:
        common["worker_init_fn"] = TracedWorkerInit(loader.worker_init_fn, event_queue, tracer.sample_info)
        dial.parts.append(common["worker_init_fn"])
    if isinstance(loader.dataset, torch.utils.data.IterableDataset):
        probe = None
        if common["num_workers"] > 1:  # fewer workers cannot yield one sample twice: no fingerprint is taken
            probe = ContentProbe(common["num_workers"], common["multiprocessing_context"] or torch.multiprocessing)
            dial.parts.append(probe)
        clone = torch.utils.data.DataLoader(TracedIterableDataset(loader.dataset, probe), batch_size=loader.batch_size,
                                            drop_last=loader.drop_last, **common)
        return with_pin_stage(clone, tracer, dial)
    if loader.batch_sampler is not None:
        sampler = TracedSampler(loader.batch_sampler if indices is None else indices, tracer, 0, batched=True)
        clone = torch.utils.data.DataLoader(TracedMapDataset(loader.dataset), batch_sampler=sampler, **common)
    else:
        sampler = TracedSampler(loader.sampler if indices is None else indices, tracer, 0, batched=False)
        clone = torch.utils.data.DataLoader(TracedMapDataset(loader.dataset), sampler=sampler, batch_size=None,
                                            **common)
    dial.parts.append(sampler)
    return with_pin_stage(clone, tracer, dial)


def set_process_tracer(tracer: ev.Tracer, epoch: int = 0) -> None:
    """The tracer samples fetched in this process (``num_workers=0``) report to, and the epoch they belong to."""
    global _tracer, _epoch
    _tracer, _epoch = tracer, epoch
