"""A stock loader's IterableDataset samples, recorded a batch at a time, and named only where a name can matter.

Twin of nothing in torch. Torch's iterable fetcher asks the dataset's iterator for one sample at a time, so
:class:`~loaderlab.trace.recording.torch_recorder.TracedIterableDataset` sees samples, never batches. Recording
each as a batch of its own (a CPU-usage reading and a batch record per sample) cost a Hugging Face stream about
a fifth of its speed (issue 37). :class:`OpenBatch` keeps a batch's samples (index, start, end, label, length,
identity) until the batch is whole (its collate begins, the next batch's first sample comes, or the stream
ends) and reports them in one record; the CPU reading starts at its first sample, so ``collate_end``'s usage is
the whole batch's. While a sample is being fetched, ``tracer.inflight`` shows it, as
:func:`loaderlab.engine.fetch.traced_fetch` does, so a worker stuck in ``next()`` is seen while it is stuck.

:class:`ContentProbe`: a content fingerprint (:mod:`loaderlab.engine.fingerprint`) only tells a stream that two
workers both yield, and costs a few microseconds of a worker's time per sample. With fewer than two workers it is
not taken. With more, each worker puts its first :data:`PROBE` fingerprints of an epoch in shared memory and
compares them with the others': where they look replayed (two at the same place in two streams, or an eighth
of them anywhere), every sample is fingerprinted (the count of duplicates is exact); where the others' first
samples are all there and they do not, the stream is split (a few equal samples are the data's own repeats) and
the fingerprints stop (a worker whose stream is shorter than the probe fingerprints all of it). Keys a library
gives (:mod:`.sample_keys`) cost little and are always read. Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from ...engine import events as ev
from ...engine.fetch import start_batch_usage

PROBE = 256  # a worker's first fingerprints of an epoch that are compared with the other workers'

_open: "OpenBatch | None" = None  # this process's batch whose samples are not reported yet


def close_open_batch() -> None:
    """Report the open batch's samples (a collate is about to begin: the batch is whole)."""
    if _open is not None:
        _open.close()


class OpenBatch:
    """One batch's samples as they come (see the module docstring)."""

    def __init__(self, tracer: ev.Tracer, worker: int, epoch: int, batch: int) -> None:
        global _open
        if _open is not None:
            _open.close()
        _open = self
        self.tracer, self.worker, self.epoch, self.batch = tracer, worker, epoch, batch
        self.info = tracer.sample_info
        self.spans: list = []
        self.labels: list | None = [] if self.info is not None else None
        self.lengths: list | None = [] if self.info is not None else None
        self.prints: list = []
        self.failed: dict | None = None
        start_batch_usage(worker)
        tracer.inflight = (epoch, batch, self.spans, self.labels, self.lengths, self.prints)

    def fetch(self, position: int, pull: Callable[[], Any], identify: Callable[[Any], int] | None) -> Any:
        """The next sample (``pull()``), recorded; a StopIteration or an error closes the batch and goes on."""
        now, spans = time.monotonic_ns, self.spans
        spans.append(position)
        spans.append(now())
        try:
            sample = pull()
        except BaseException as exc:  # the failing (or exhausting) sample shows, closed
            spans.append(now())
            self.failed = {len(spans) // 3 - 1: type(exc).__name__}
            if self.labels is not None:
                self.labels.append(None)
                self.lengths.append(-1)
            self.prints.append(ev.NO_ARG)
            self.close()
            raise
        if self.info is not None:
            label, length = self.info(position, sample)
            self.labels.append(label)
            self.lengths.append(length)
        spans.append(now())
        # after the sample's span closed: the fetch time stays the dataset's own
        self.prints.append(identify(sample) if identify is not None else ev.NO_ARG)
        return sample

    def close(self) -> None:
        global _open
        if _open is self:
            _open = None
        if self.spans is None:
            return
        tracer, spans, prints = self.tracer, self.spans, self.prints
        self.spans = None
        tracer.inflight = None
        if not spans:
            return
        named = prints if any(p != ev.NO_ARG for p in prints) else None
        if named:
            tracer.emit_fetches(self.worker, self.epoch, self.batch, spans, self.labels, self.lengths, self.failed,
                                named)
        else:
            tracer.emit_fetches(self.worker, self.epoch, self.batch, spans, self.labels, self.lengths, self.failed)


class ContentProbe:
    """The workers' first fingerprints of an epoch, in shared memory (see the module docstring). Made in the
    main process before the workers start; :meth:`reset` before each epoch."""

    def __init__(self, workers: int, context: Any) -> None:
        self.workers = workers
        self.prints = context.RawArray("q", workers * PROBE)
        self.filled = context.RawArray("i", workers)

    def reset(self) -> None:
        for w in range(self.workers):
            self.filled[w] = 0

    @property
    def epoch(self) -> int:
        return -1

    @epoch.setter
    def epoch(self, _epoch: int) -> None:  # told by the recorder's EpochDial before each iter(): a new probe
        self.reset()

    def gate(self, worker: int, fingerprint: Callable[[Any], int]) -> Callable[[Any], int]:
        """``fingerprint`` for worker ``worker``'s samples of this epoch, until the probe says none is shared."""
        state = {"seen": 0, "keep": None, "next_check": PROBE}
        prints, filled = self.prints, self.filled
        base = worker * PROBE

        def identify(sample: Any) -> int:
            keep = state["keep"]
            if keep is False:
                return ev.NO_ARG
            found = fingerprint(sample)
            seen = state["seen"]
            state["seen"] = seen + 1
            if keep:
                return found
            if seen < PROBE:
                prints[base + seen] = found
                filled[worker] = seen + 1
            if seen + 1 >= state["next_check"]:
                state["keep"] = self._shared(worker)
                state["next_check"] *= 2
            return found

        return identify

    def _shared(self, worker: int) -> bool | None:
        """True: this worker's first fingerprints look like another's replayed (two at the same place in both
        streams, or an eighth of them anywhere: a shuffled replay); False: they do not, and every worker's first
        ones are there; None: some worker has not shown its first ones yet. A few equal samples elsewhere are the
        data's own repeats (two CSV rows of one text), as :func:`loaderlab.trace.tables.duplicates.replayed` reads them."""
        mine = self.prints[worker * PROBE:(worker + 1) * PROBE]
        mine_set = set(mine)
        mine_set.discard(ev.NO_ARG)
        complete = True
        for w in range(self.workers):
            if w == worker:
                continue
            n = self.filled[w]
            theirs = self.prints[w * PROBE:w * PROBE + n]
            aligned = sum(1 for a, b in zip(mine, theirs) if a == b and a != ev.NO_ARG)
            if aligned >= 2 or len(mine_set.intersection(theirs)) >= PROBE // 8:
                return True
            complete = complete and n >= PROBE
        return False if complete else None
