"""The queue a stock loader's workers send their events on, and the main-process thread that empties it.

Twin of nothing in torch (torch's workers report nothing): made by the recorder for a traced clone with
workers (:mod:`.torch_recorder`), emptied into the main process's tracer by the engine's own collector
(:func:`loaderlab.engine.multi.collect_events`), ended with the engine's named :class:`~loaderlab.engine.messages.Stop`.
Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

import threading

import torch
import torch.multiprocessing
import torch.utils.data

from ...engine import events as ev
from ...engine.messages import Stop


class EventChannel:
    """The worker → main event queue and the thread that empties it into the main tracer."""

    def __init__(self, loader: torch.utils.data.DataLoader, tracer: ev.Tracer, workers: bool | None = None) -> None:
        from ...engine.multi import collect_events

        ctx = loader.multiprocessing_context or torch.multiprocessing
        self.queue = ctx.Queue() if (loader.num_workers > 0 if workers is None else workers) else None
        self.thread = None
        if self.queue is not None:
            self.thread = threading.Thread(target=collect_events, args=(self.queue, tracer), daemon=True,
                                           name="loaderlab_event_collector")
            self.thread.start()

    def close(self) -> None:
        """Call after every worker has exited: their events are then all in the pipe ahead of ``Stop``."""
        if self.queue is None:
            return
        self.queue.put(Stop())
        self.thread.join(timeout=5)
        self.queue.cancel_join_thread()
        self.queue.close()
