"""The keys a library gives its stream's samples, read before a stage drops them (and before any augmentation).

Twin of nothing in torch. An IterableDataset's sample has no index: a stream every worker replays shows as the
same sample from two workers, and the trace names a sample by its content fingerprint
(:mod:`loaderlab.engine.fingerprint`). A fingerprint taken after a random augmentation (a horizontal flip) makes
two copies of one image look like two samples. webdataset carries what does not change: each sample is a dict
with ``__url__`` (its shard) and ``__key__`` until a stage such as ``to_tuple("png", "cls")`` drops them.

A webdataset pipeline (``WebDataset``, ``DataPipeline``: a list of stages in ``pipeline``) is iterated as a
shallow copy whose every stage passes what it yields through a tap (:class:`KeyTaps`); the user's object is not
changed. The deepest stage whose samples still carry ``__key__`` names the samples that come out of the
pipeline, first in, first out: exact where the stages after it yield one sample per sample (``map``,
``to_tuple``, ``map_tuple``, ``decode``); after a ``shuffle`` buffer or a filter the names are the keys in the
order the stage read them, the same in every replica of one stream, so replays are still counted right.
Anything else: no keys (:func:`keyed_iter` says so and the fingerprint names the samples). Knows nothing of
pandas, plotly or streamlit, and imports no library: it recognises webdataset by its module's name.
"""

from __future__ import annotations

import copy
from collections import deque
from typing import Any, Iterator

from ...engine.fingerprint import identity, key_identity

MAX_PENDING = 1 << 16  # keys read ahead of the samples named (a stage that batches or filters): the oldest go


class KeyTaps:
    """One replica's taps: each stage's keys in the order it yielded them, and which stage is the deepest keyed."""

    def __init__(self) -> None:
        self.pending: deque = deque(maxlen=MAX_PENDING)  # (url, key) of the deepest keyed stage, not named yet
        self.deepest = -1

    def tap(self, level: int):
        def passing(source: Iterator) -> Iterator:
            for sample in source:
                if type(sample) is dict and "__key__" in sample and level >= self.deepest:
                    if level > self.deepest:  # a deeper stage still carries keys: its are the ones to pair
                        self.deepest = level
                        self.pending.clear()
                    self.pending.append((sample.get("__url__"), sample["__key__"]))
                yield sample
        return passing

    def identify(self, sample: Any) -> int:
        """``sample``'s identity: its own key where it carries one, else the deepest keyed stage's next key,
        else its content fingerprint."""
        if type(sample) is dict and "__key__" in sample:
            return identity(sample)
        if self.pending:
            return key_identity(*self.pending.popleft())
        return identity(sample)


def is_webdataset(dataset: Any) -> bool:
    return (type(dataset).__module__.split(".")[0] == "webdataset" and isinstance(getattr(dataset, "pipeline", None), list)
            and callable(getattr(dataset, "iterator1", None)))


def keyed_iter(dataset: Any) -> tuple[Iterator, KeyTaps] | None:
    """An iterator over ``dataset`` with taps on its stages and the taps, or None where it has no stages we know."""
    if not is_webdataset(dataset):
        return None
    try:
        taps = KeyTaps()
        tapped = copy.copy(dataset)
        tapped.pipeline = [part for level, stage in enumerate(dataset.pipeline) for part in (stage, taps.tap(level))]
        return iter(tapped), taps
    except Exception:  # an object we do not know after all: iterate it as it is, named by content
        return None
