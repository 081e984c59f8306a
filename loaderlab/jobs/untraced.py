"""``run --tune --tune-trace-epochs N``: the epochs after the traced ones, served untraced with the adopted setting.

Twin of the stock loader's ``iter()`` / ``next()`` as the script calls them, without the trace. Tracing an
epoch costs a job of small samples 1.1-1.3× its time (``benchmarks/trace_cost.py``), so a tuned job traced
to its end cannot run at the speed its tuning measured. Past the traced epochs, each epoch's index batches
(drawn from the user's sampler as torch draws them, by :meth:`.traced.LoaderTrace._tuned_epoch`) go to a
plain torch DataLoader with the adopted setting (the tuner's :class:`.tune_slices.Candidate`: the user's
dataset, collate_fn and worker_init_fn, a private generator, its workers kept from epoch to epoch), a chunk
of ``CHUNK`` batches at a time. The script gets the very batches it would get without ``--tune``; the trace
gets the epoch's begin and end and nothing in between. Knows nothing of files, plotly or streamlit.
"""

from __future__ import annotations

import itertools
from typing import Any, Iterator

from ..engine import events as ev
from . import interrupts
from .tune_slices import Candidate

CHUNK = 256  # index batches handed to the loader at a time: its pipeline drains and refills once a chunk


class UntracedEpoch:
    """What ``iter(loader)`` returns for an epoch past ``--tune-trace-epochs``: its batches, untraced."""

    def __init__(self, owner: Any, candidate: Candidate, indices: Iterator, epoch: int) -> None:
        self.owner, self.candidate, self.indices, self.epoch = owner, candidate, indices, epoch
        self.iterator: Iterator | None = None
        self.ended = False

    def __iter__(self) -> "UntracedEpoch":
        return self

    def __len__(self) -> int:
        return len(self.owner.loader)

    def __next__(self) -> Any:
        interrupts.raise_pending()
        while not self.ended:
            if self.iterator is None:
                items = list(itertools.islice(self.indices, CHUNK))
                if not items:
                    self.ended = True
                    self.owner.tracer.emit(ev.EPOCH_END, ev.MAIN_PROCESS, self.epoch)
                    break
                self.candidate.start(items, timed=False)
                self.iterator = self.candidate.iterator
            try:
                batch = next(self.iterator)
            except StopIteration:
                self.iterator = None
                continue
            self.owner.batches += 1
            self.owner.untraced_batches += 1
            return batch
        raise StopIteration

    def close(self) -> None:
        """The script let go of this iterator (``break``): nothing is open (no consumer span is traced)."""
