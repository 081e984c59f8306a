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

import weakref
from typing import Any

import torch.utils.data

from ..engine import events as ev
from ..engine.fetch import body_clocks
from ..trace.recording import (EpochDial, EventChannel, handed_task, label_sources, SampleGuess,
                               set_process_tracer, traced_clone)
from ..trace.core import loader_settings
from ..trace.ranks import epoch_sampler, sampler_settings
from . import interrupts
from .origins import ORIGIN, wrapper_entry
from .patch import torch_iter
from .stacks import StackDumpInit


class LoaderTrace:
    """A user loader's name, site, tracer and clone (built at its first ``iter()``)."""

    def __init__(self, loader: torch.utils.data.DataLoader, name: str, site: tuple, stacks_dir: str | None,
                 label_key: str | None = None) -> None:
        self.name, self.site = name, site
        # labels and lengths read from what the dataset returns: the label, padding and duplicate findings
        self.tracer = ev.ListTracer(SampleGuess.for_loader(loader, label_key))
        self.channel = EventChannel(loader, self.tracer)
        self.dial = EpochDial()
        self.clone = traced_clone(loader, self.tracer, self.channel.queue, self.dial)
        if loader.num_workers > 0 and stacks_dir is not None:
            # runs in each worker before the user's own worker_init_fn: a stack dump on request
            init = self.clone.worker_init_fn
            init.inner = StackDumpInit(init.inner, stacks_dir, name)
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

    def describe(self, bandwidth: dict[str, Any] | None = None) -> dict[str, Any]:
        """This loader's entry in the trace's ``loaders`` metadata (JSON-able); ``bandwidth``: the GPU's
        copy bandwidths (:func:`~loaderlab.trace.recording.bandwidth.host_to_device`), kept where it pins."""
        path, line, _ = self.site
        out = {"site": f"{path}:{line}", "settings": self.settings, "sampler": sampler_settings(self.sampler),
               "epochs": self.epochs}
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
        it = TracedIterator(self, torch_iter(self.clone), epoch)
        self.iterators.add(it)
        return it

    def shut_down(self) -> None:
        """End every open consumer span, stop every worker, then collect the workers' last events."""
        for it in list(self.iterators):
            it.close()
        for inner in [it.inner for it in list(self.iterators)] + [self.clone._iterator]:
            if hasattr(inner, "_shutdown_workers"):
                inner._shutdown_workers()
        self.channel.close()


class TracedIterator:
    """What ``iter(loader)`` returns to the script: the clone's iterator, timed from outside."""

    def __init__(self, owner: LoaderTrace, inner: Any, epoch: int) -> None:
        self.owner, self.inner, self.epoch = owner, inner, epoch
        self.position = 0
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
