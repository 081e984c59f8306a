"""A stock loader's index batches, numbered in the main process as its (batch) sampler yields them.

Twin of the sampler's side of ``torch.utils.data.dataloader._BaseDataLoaderIter._next_index``: torch hands a
worker a bare list of indices, so the recorder's clone wraps the user's sampler in :class:`TracedSampler`,
which reports each batch (``sampler_yield``) and stamps its batch and epoch numbers on the indices themselves
(:class:`NumberedBatch`, :class:`NumberedIndex`): they cross torch's index queue with the indices, so a worker
knows which batch and which epoch it fetches for (:mod:`.torch_recorder`). Knows nothing of pandas, plotly or
streamlit.
"""

from __future__ import annotations

from ...engine import events as ev


class NumberedBatch(list):
    """A batch's indices, carrying the batch and epoch numbers the main process gave them.

    A list subclass, so user code sees a list; it crosses torch's index queue with its attributes.
    """

    def __init__(self, indices, batch: int, epoch: int) -> None:
        super().__init__(indices)
        self.batch = batch
        self.epoch = epoch


class NumberedIndex(int):
    """One sample's index (``batch_size=None``), carrying its batch and epoch numbers like NumberedBatch."""

    def __new__(cls, index: int, batch: int, epoch: int):
        self = super().__new__(cls, index)
        self.batch, self.epoch = batch, epoch
        return self

    def __reduce__(self):
        return NumberedIndex, (int(self), self.batch, self.epoch)


class TracedSampler:
    """Numbers what the user's (batch) sampler yields and reports it, in the main process."""

    def __init__(self, inner, tracer: ev.Tracer, epoch: int, batched: bool) -> None:
        self.inner, self.tracer, self.epoch, self.batched = inner, tracer, epoch, batched
        self.first = 0  # the next iter()'s first batch number (`run --tune` hands the epoch's head elsewhere)

    def __len__(self) -> int:
        return len(self.inner)

    def __iter__(self):
        first, self.first = self.first, 0
        for batch, indices in enumerate(self.inner, first):
            listed, samples = ev.index_list(indices)
            self.tracer.emit(ev.SAMPLER_YIELD, ev.MAIN_PROCESS, self.epoch, batch, arg0=samples, indices=listed)
            if self.batched:
                yield NumberedBatch(indices, batch, self.epoch)
            elif type(indices) is int:  # other index types (str keys, tuples) pass as they are
                yield NumberedIndex(indices, batch, self.epoch)
            else:
                yield indices
