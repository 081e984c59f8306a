"""One of the job's DataLoaders, traced: a traced clone iterated in its place, and the user's loop around it.

Twin of the stock loader's ``iter()`` / ``next()`` as the user's script calls them. The batches come from a
clone built by :mod:`loaderlab.trace.recording.torch_recorder` (same sampler, dataset, generator and arguments, so the
same random draws and the same batches; the user's loader object is never iterated). What the recorder used
to invent, the script now decides: an epoch is one ``iter()`` call of the script; the consumer span runs from
a batch handed out to the script's next ``next()`` (or to the iterator being dropped, after a ``break``);
``epoch_begin``'s ``arg0`` is the sampler's own epoch when it has ``set_epoch`` (``NO_ARG`` otherwise), so a
forgotten ``set_epoch`` shows as two epochs drawing the same order. Each sample's label and length are
guessed from what the dataset returns (:class:`loaderlab.trace.recording.sample_guess.SampleGuess`; ``run --label``). A
loader a library re-created from the user's (:mod:`.origins`) lists the settings the user wrote, and the
library's changes under ``wrapper``. Knows nothing of files (:mod:`.stream`),
of pandas, plotly or streamlit.
"""

from __future__ import annotations

import itertools
import time
import weakref
from typing import Any

import torch
import torch.utils.data

from ..engine import events as ev
from ..engine.fetch import body_clocks
from ..engine.records import RecordTracer
from ..trace.recording.label_reading import label_sources
from ..trace.recording.sample_guess import SampleGuess
from ..trace.recording.stock_worker import handed_task
from ..trace.recording.event_channel import EventChannel
from ..trace.recording.torch_recorder import EpochDial, set_process_tracer, traced_clone
from ..trace.core.settings import loader_settings
from ..trace.ranks.samplers import epoch_sampler, sampler_settings
from . import interrupts
from .origins import ORIGIN, wrapper_entry
from .patch import torch_iter
from .stacks import StackDumpInit
from .tune_slices import Candidate
from .tuner import Done, Tuner
from .untraced import UntracedEpoch


class LoaderTrace:
    """A user loader's name, site, tracer and clone (built at its first ``iter()``)."""

    def __init__(self, loader: torch.utils.data.DataLoader, name: str, site: tuple, stacks_dir: str | None,
                 label_key: str | None = None, tune: tuple[str, float] | None = None,
                 trace_epochs: int | None = None) -> None:
        self.name, self.site, self.loader, self.stacks_dir = name, site, loader, stacks_dir
        # run --tune --tune-trace-epochs: epochs that begin after tuning and are traced (None: all), the rest
        # served untraced (:mod:`.untraced`)
        self.trace_epochs = trace_epochs
        self.traced_after = 0  # epochs begun after tuning, traced
        self.untraced_epochs = 0
        self.untraced_batches = 0
        self.untraced: Candidate | None = None
        # labels and lengths read from what the dataset returns: the label, padding and duplicate findings
        self.tracer = RecordTracer(SampleGuess.for_loader(loader, label_key))  # no object per event (issue 37)
        iterable = isinstance(loader.dataset, torch.utils.data.IterableDataset)
        # run --tune: an IterableDataset's stream restarts with each iterator and is split by num_workers, so
        # no setting can be switched inside the job without changing its batches
        self.tune_skipped = "iterable" if tune and iterable else None
        self.tuner = Tuner(loader, name, tune) if tune and not iterable else None
        self.channel = EventChannel(loader, self.tracer, workers=True if self.tuner else None)
        self.dial = EpochDial()
        self.indices: _Resumable | None = None  # run --tune: the epoch's index batches, handed to the clone
        self.seed_drawn = False
        self.clone = None if self.tuner else self._clone()
        self.sampler = epoch_sampler(loader)
        self.label_sources = label_sources(loader)  # what the data and the sampler say of labels (issue 35)
        origin = loader.__dict__.get(ORIGIN)
        # a library's re-creation (Lightning, Accelerate): the settings the user wrote, the library's beside them
        self.settings = dict(origin["written"]) if origin else loader_settings(loader)
        self.settings["recorded_from"] = f"{type(loader).__module__}.{type(loader).__qualname__}"
        if origin:
            self.settings["wrapper"] = wrapper_entry(origin)
        self.epochs = 0
        self.batches = 0
        self.iterators: weakref.WeakSet = weakref.WeakSet()

    def _clone(self, setting: dict[str, Any] | None = None) -> torch.utils.data.DataLoader:
        tuned = {}
        if setting is not None:  # run --tune: the adopted setting, fed the epoch's index batches
            self.indices = _Resumable(self.loader._index_sampler)
            tuned = dict(setting=setting, generator=torch.Generator().manual_seed(0), indices=self.indices)
        clone = traced_clone(self.loader, self.tracer, self.channel.queue, self.dial, **tuned)
        if clone.num_workers > 0 and self.stacks_dir is not None:
            # runs in each worker before the user's own worker_init_fn: a stack dump on request
            init = clone.worker_init_fn
            init.inner = StackDumpInit(init.inner, self.stacks_dir, self.name)
        return clone

    def describe(self, bandwidth: dict[str, Any] | None = None) -> dict[str, Any]:
        """This loader's entry in the trace's ``loaders`` metadata (JSON-able); ``bandwidth``: the GPU's
        copy bandwidths (:func:`~loaderlab.trace.recording.bandwidth.host_to_device`), kept where it pins."""
        path, line, _ = self.site
        settings = self.settings
        if self.tuner is not None and self.tuner.adopted:  # the events were recorded with the adopted setting
            settings = {**settings, **self.tuner.adopted_setting().as_dict()}
        out = {"site": f"{path}:{line}", "settings": settings, "sampler": sampler_settings(self.sampler),
               "epochs": self.epochs,
               # torch ops in num_workers=0 samples run on this many threads (1 in a worker): the cost model
               # cannot see that difference, so it never proposes num_workers=0 unless this is 1
               "torch_threads": torch.get_num_threads()}
        if self.tuner is not None:
            out["tuning"] = self.tuner.record()
            if self.trace_epochs is not None:
                out["tuning"]["after"] = {"trace_epochs": self.trace_epochs, "traced_epochs": self.traced_after,
                                          "untraced_epochs": self.untraced_epochs,
                                          "untraced_batches": self.untraced_batches}
        elif self.tune_skipped:
            out["tuning"] = {"skipped": self.tune_skipped}
        if self.label_sources:
            out["label_sources"] = self.label_sources
        if bandwidth and self.settings.get("pin_memory"):  # what not pinning would cost, on this GPU
            out["bandwidth"] = bandwidth
        return out

    def start_epoch(self) -> "TracedIterator":
        epoch = self.epochs
        self.epochs += 1
        self.dial(epoch)  # before iter(): workers it starts copy the epoch they start in
        own = getattr(self.sampler, "epoch", None)
        self.tracer.emit(ev.EPOCH_BEGIN, ev.MAIN_PROCESS, epoch, arg0=own if isinstance(own, int) else ev.NO_ARG)
        set_process_tracer(self.tracer, epoch)  # samples fetched in this process (num_workers=0)
        it = TracedIterator(self, torch_iter(self.clone), epoch) if self.tuner is None else self._tuned_epoch(epoch)
        self.iterators.add(it)
        return it

    # --- run --tune ---

    def _tuned_epoch(self, epoch: int) -> Any:
        """The epoch's index batches drawn as torch's ``iter(loader)`` draws them (the sampler's iterator,
        then the worker seed from the loader's generator where torch draws one), served by the tuner while
        it tunes and by the clone with the adopted setting after."""
        if epoch and not self.tuner.done:
            # the epoch before ended (a slice the script cut short with a break counts too); before the first,
            # none did: counted, it cost the tuning one of its SHARE_EPOCHS (three epochs tuned, "after 4")
            self.tuner.end_epoch(time.perf_counter())
        indices = iter(self.loader._index_sampler)  # torch's own choice: the batch sampler, else the sampler
        if not (self.loader.persistent_workers and self.loader.num_workers > 0 and self.seed_drawn):
            torch.empty((), dtype=torch.int64).random_(generator=self.loader.generator)
        self.seed_drawn = True
        if self.tuner.done and self.trace_epochs is not None and self.traced_after >= self.trace_epochs:
            return self._untraced_epoch(indices, epoch)
        if self.tuner.done:
            self.traced_after += 1
            return self.rest_of_epoch(indices, epoch, 0)
        return TuningIterator(self, indices, epoch)

    def _untraced_epoch(self, indices: Any, epoch: int) -> UntracedEpoch:
        """An epoch past ``--tune-trace-epochs``: the adopted setting serves it untraced (:mod:`.untraced`)."""
        if self.untraced is None:
            if self.clone is not None and self.clone._iterator is not None and \
                    hasattr(self.clone._iterator, "_shutdown_workers"):
                self.clone._iterator._shutdown_workers()  # the traced clone's workers serve no more epochs
            self.untraced = Candidate(self.loader, self.tuner.adopted_setting())
        self.untraced_epochs += 1
        it = UntracedEpoch(self, self.untraced, indices, epoch)
        self.iterators.add(it)
        return it

    def rest_of_epoch(self, indices: Any, epoch: int, first: int) -> "TracedIterator":
        """The clone with the adopted setting, from batch ``first`` of the epoch on."""
        if self.clone is None:
            self.clone = self._clone(self.tuner.adopted_setting().as_dict())
            # built after this epoch's iter(): its sampler and worker start-up would name epoch 0
            self.dial(epoch)
        self.indices.pending = indices
        self.clone._index_sampler.first = first
        it = TracedIterator(self, torch_iter(self.clone), epoch, first)
        self.iterators.add(it)
        return it

    def shut_down(self) -> None:
        """End every open consumer span, stop every worker, then collect the workers' last events."""
        for it in list(self.iterators):
            it.close()
        if self.tuner is not None:
            self.tuner.abandon()
        if self.untraced is not None:
            self.untraced.close()
        clones = [self.clone._iterator] if self.clone is not None else []
        for inner in [getattr(it, "inner", None) for it in list(self.iterators)] + clones:
            if hasattr(inner, "_shutdown_workers"):
                inner._shutdown_workers()
        self.channel.close()


class TracedIterator:
    """What ``iter(loader)`` returns to the script: the clone's iterator, timed from outside."""

    def __init__(self, owner: LoaderTrace, inner: Any, epoch: int, first: int = 0) -> None:
        self.owner, self.inner, self.epoch = owner, inner, epoch
        self.position = first
        self.handed: int | None = None  # the batch the script holds now (its consumer span is open)
        self.ended = False

    def __iter__(self) -> "TracedIterator":
        return self

    def __len__(self) -> int:
        return len(self.inner)

    def __getattr__(self, name: str) -> Any:  # torch's iterator attributes (_num_yielded…) stay readable
        if name in ("inner", "owner", "handed"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def __next__(self) -> Any:
        owner, tracer, epoch = self.owner, self.owner.tracer, self.epoch
        self._end_consumer()
        interrupts.raise_pending()  # a Ctrl-C that a finalizer swallowed still ends the job
        if self.ended:
            raise StopIteration
        set_process_tracer(tracer, epoch)
        try:
            batch = next(self.inner)
        except StopIteration:
            self.ended = True
            tracer.emit(ev.EPOCH_END, ev.MAIN_PROCESS, epoch)
            raise
        except Exception as exc:
            tracer.emit(ev.ERROR, ev.MAIN_PROCESS, epoch, self.position,
                        detail=f"{type(exc).__name__}: {exc}".strip())
            raise
        position, self.position = self.position, self.position + 1
        task = handed_task(self.inner)  # an iterable's tasks skip those of workers whose stream had ended
        tracer.emit(ev.BATCH_YIELD, ev.MAIN_PROCESS, epoch, position, arg0=position if task is None else task)
        tracer.emit(ev.CONSUMER_BEGIN, ev.MAIN_PROCESS, epoch, position, **body_clocks())
        self.handed = position
        owner.batches += 1
        return batch

    def _end_consumer(self) -> None:
        if self.handed is not None:
            self.owner.tracer.emit(ev.CONSUMER_END, ev.MAIN_PROCESS, self.epoch, self.handed, **body_clocks())
            self.handed = None

    def close(self) -> None:
        """The script let go of this iterator (``break``, end of job): its last batch's loop body ended."""
        self._end_consumer()

    def __del__(self) -> None:
        try:
            self._end_consumer()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class _Resumable:
    """The clone's (batch) sampler under ``run --tune``: the epoch's iterator the tuner began, else the
    user's sampler itself."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.pending = inner, None

    def __iter__(self):
        it, self.pending = self.pending, None
        return it if it is not None else iter(self.inner)

    def __len__(self) -> int:
        return len(self.inner)


class TuningIterator:
    """What ``iter(loader)`` returns under ``run --tune`` while the tuner runs: its batches, then the
    adopted clone's for the rest of the epoch. Tuned batches are handed to the script but not traced."""

    def __init__(self, owner: LoaderTrace, indices: Any, epoch: int) -> None:
        self.owner, self.indices, self.epoch = owner, indices, epoch
        self.position = 0
        self.rest: TracedIterator | None = None
        self.ended = False

    def __iter__(self) -> "TuningIterator":
        return self

    def __len__(self) -> int:
        return len(self.owner.loader)

    def __next__(self) -> Any:
        interrupts.raise_pending()
        if self.rest is not None:
            return next(self.rest)
        if self.ended:
            raise StopIteration
        try:
            batch = self.owner.tuner.next_batch(self.indices, time.perf_counter())
        except Done:
            rest = itertools.chain(self.owner.tuner.take_pushback(), self.indices)
            self.rest = self.owner.rest_of_epoch(rest, self.epoch, self.position)
            return next(self.rest)
        except StopIteration:
            self.ended = True
            self.owner.tracer.emit(ev.EPOCH_END, ev.MAIN_PROCESS, self.epoch)
            raise
        self.position += 1
        self.owner.batches += 1
        return batch

    def close(self) -> None:
        if self.rest is not None:
            self.rest.close()
