"""The main process's book of outstanding tasks, and the reorder buffer inside it.

Twin of the ``_task_info`` / ``_rcvd_idx`` / ``_send_idx`` fields of torch's
``_MultiProcessingDataLoaderIter``, where one dict holds a 1-tuple (sent) or a 2-tuple (arrived early)
per task and the meaning depends on the tuple's length. Here the two states are two dicts.
Knows nothing of queues, processes or tracing.

With ``in_order=True`` batches leave in sampler order: a batch that arrives before its turn is *parked*
until every earlier batch has left — the head-of-line blocking users see as bursts of ``num_workers``.
"""

from __future__ import annotations

from typing import Any, Callable


class TaskBook:
    def __init__(self) -> None:
        self.owner: dict[int, int] = {}  # task_id -> worker that holds it, for tasks not yet handed over
        self.parked: dict[int, Any] = {}  # task_id -> message that arrived ahead of its turn
        self.next_to_yield = 0  # torch's _rcvd_idx
        self.sent = 0  # torch's _send_idx: tasks handed to workers this epoch

    def record_sent(self, worker_id: int) -> int:
        task_id = self.sent
        self.owner[task_id] = worker_id
        self.sent += 1
        return task_id

    def skip_lost(self, worker_active: Callable[[int], bool]) -> bool:
        """Advance past tasks that will never arrive; False when no task of this epoch remains.

        A task will never arrive when it was already handed over out of order, or when its worker
        stopped (an exhausted IterableDataset replica) before producing it.
        """
        while self.next_to_yield < self.sent:
            task_id = self.next_to_yield
            if task_id in self.parked:
                return True
            worker = self.owner.get(task_id)
            if worker is not None and worker_active(worker):
                return True
            self.owner.pop(task_id, None)
            self.next_to_yield += 1
        return False

    def is_next(self, task_id: int) -> bool:
        return task_id == self.next_to_yield

    def park(self, task_id: int, message: Any) -> None:
        self.parked[task_id] = message

    def pop_parked_next(self) -> Any | None:
        """The message for the next task in order, if it is waiting in the buffer."""
        return self.parked.pop(self.next_to_yield, None)

    def hand_over(self, task_id: int) -> int:
        """Mark ``task_id`` delivered; return the worker that produced it."""
        worker = self.owner.pop(task_id)
        if task_id == self.next_to_yield:
            self.next_to_yield += 1
        return worker
