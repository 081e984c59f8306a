"""Ending a multi-process iterator: every worker, thread and queue, and nothing left behind.

Twin of ``_MultiProcessingDataLoaderIter._shutdown_workers`` and torch's exit hooks
(``_utils.python_exit_status``, the persistent-workers-with-pin-memory ``atexit`` hook). The order is
torch's: stop the pin thread, set the done event, send every worker ``Stop``, join each for a bounded
time, then terminate whatever is still alive. At interpreter exit the work is left to
``multiprocessing``'s own exit hook, which terminates daemonic children, as torch does.
Knows nothing of dispatch, reordering or pandas.
"""

from __future__ import annotations

import atexit
import threading
import weakref

from . import events as ev
from .messages import Stop

JOIN_TIMEOUT_S = 2.0  # torch waits 5 s per worker; a worker stuck in __getitem__ is terminated after this
COLLECTOR_JOIN_S = 2.0

_python_exiting = False
_exit_lock = threading.Lock()
_live_at_exit: weakref.WeakSet = weakref.WeakSet()


def _mark_python_exiting() -> None:
    global _python_exiting
    _python_exiting = True


atexit.register(_mark_python_exiting)


def _shutdown_registered_at_exit() -> None:
    with _exit_lock:
        iterators = tuple(_live_at_exit)
    for it in iterators:
        _shutdown(it)


def register_for_exit(it) -> None:
    """Torch shuts persistent iterators with a pin thread down at exit (the thread would otherwise hang)."""
    with _exit_lock:
        first = not _live_at_exit and not getattr(register_for_exit, "registered", False)
        _live_at_exit.add(it)
    if first:
        # Registered after _mark_python_exiting, so it runs before it (atexit is last-in, first-out).
        atexit.register(_shutdown_registered_at_exit)
        register_for_exit.registered = True


def shutdown_workers(it) -> None:
    """Idempotent. Safe to call from ``__del__`` and from a half-built iterator."""
    if _python_exiting is not False:  # True at exit; None once this module's globals are cleared at teardown
        return
    _shutdown(it)


def _shutdown(it) -> None:
    if getattr(it, "_shutdown", True):
        return
    it._shutdown = True
    workers = getattr(it, "_workers", [])
    try:
        if hasattr(it, "_pin_memory_thread"):
            it._pin_memory_thread_done_event.set()
            it._worker_result_queue.put(Stop())  # wakes the pin thread if it waits on an empty queue
            it._pin_memory_thread.join()
            it._worker_result_queue.cancel_join_thread()
            it._worker_result_queue.close()
        it._workers_done_event.set()
        status = getattr(it, "_workers_status", [True] * len(workers))  # absent if __init__ failed early
        for worker_id in range(len(workers)):
            if it._persistent_workers or status[worker_id]:
                it._mark_worker_as_unavailable(worker_id, shutdown=True)
        for w in workers:
            w.join(timeout=JOIN_TIMEOUT_S)
        for q in it._index_queues:
            q.cancel_join_thread()
            q.close()
    finally:
        for w in workers:
            if w.is_alive():
                w.terminate()
                w.join(timeout=JOIN_TIMEOUT_S)
        _stop_collector(it)
        for worker_id, w in enumerate(workers):
            it._tracer.emit(ev.WORKER_EXIT, worker_id, it._epoch,
                            arg0=ev.NO_EXITCODE if w.exitcode is None else w.exitcode)


def _stop_collector(it) -> None:
    """Let the collector drain what the (now exited) workers sent, then end it."""
    collector = getattr(it, "_collector", None)
    if collector is None:
        return
    it._event_queue.put(Stop())  # after every worker's events: they exited before we put this
    collector.join(timeout=COLLECTOR_JOIN_S)
    it._event_queue.cancel_join_thread()
    it._event_queue.close()
