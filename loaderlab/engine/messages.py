"""The messages that cross LoaderLab's queues, each a named type.

Twin of the tuple shapes torch passes around in ``dataloader.py`` and ``_utils/worker.py``
(``(idx, index)``, ``(idx, data)``, ``None`` as the stop signal, ``_ResumeIteration``,
``_IterableDatasetStopIteration``, ``ExceptionWrapper``). Here every shape has a name, so a queue's
contents can be read without knowing how long a tuple is. Knows nothing of tracing or of who reads.

The queues (torch's data-flow diagram, with our message names)::

    main ──Task/Resume/Stop──▶ index_queue[k] ──▶ worker k
    worker k ──Result/Exhausted/Failure/ResumeAck──▶ result_queue ──▶ [pin thread ──▶ data_queue] ──▶ main
    worker k ──list[Event]──▶ event_queue ──▶ collector thread in main (only while tracing)

All are top-level dataclasses so that spawn and forkserver workers can unpickle them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from torch._utils import ExceptionWrapper


@dataclass(frozen=True, slots=True)
class Task:
    """Fetch these indices (a list with automatic batching, one index without, None for iterables)."""

    task_id: int  # position in sampler order within the epoch (torch's ``send_idx``)
    indices: Any
    epoch: int


@dataclass(frozen=True, slots=True)
class Resume:
    """Start a new epoch with persistent workers: rebuild the fetcher, then acknowledge."""

    epoch: int
    shared_seed: int | None = None  # an IterDataPipe's seed for this epoch (torch's ``_ResumeIteration.seed``)


@dataclass(frozen=True, slots=True)
class Stop:
    """Leave the worker loop (torch puts ``None`` on the index queue for this)."""


@dataclass(frozen=True, slots=True)
class Result:
    """A collated batch for ``task_id``; ``data`` is usually tensors moved to shared memory."""

    task_id: int
    data: Any


@dataclass(frozen=True, slots=True)
class Failure:
    """The task raised; ``error`` carries the original traceback text (torch's ExceptionWrapper)."""

    task_id: int
    error: ExceptionWrapper
    worker_id: int


@dataclass(frozen=True, slots=True)
class Exhausted:
    """An IterableDataset replica ran out on this worker (torch's ``_IterableDatasetStopIteration``)."""

    task_id: int
    worker_id: int


@dataclass(frozen=True, slots=True)
class ResumeAck:
    """The worker has reset its fetcher for the new epoch (torch echoes ``_ResumeIteration``)."""

    worker_id: int
