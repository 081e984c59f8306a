"""Is the main process still there? A worker's two ways of asking, and of leaving when it is gone.

Twin of torch's ``ManagerWatchdog`` (``_utils/worker.py``), which the worker loop checks between tasks.
LoaderLab adds ``exit_when_orphaned``: a thread that ends the worker even while it is stuck inside
``__getitem__``, where the loop never gets to check (torch leaves such a worker running). Knows nothing
of queues, tracing or pandas.
"""

from __future__ import annotations

import os
import threading
import time

WATCHDOG_INTERVAL_S = 1.0  # how often a worker checks that the main process still exists


class ParentWatchdog:
    """Is the main process still there? Under forkserver our parent is the fork server, so ask by pid."""

    def __init__(self, main_pid: int) -> None:
        self.main_pid = main_pid
        self.direct_child = os.getppid() == main_pid

    def is_alive(self) -> bool:
        if self.direct_child:
            return os.getppid() == self.main_pid
        try:
            os.kill(self.main_pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # the pid was reused by someone else's process
            return False
        return True


def exit_when_orphaned(watchdog: ParentWatchdog) -> None:
    """The worker loop checks the watchdog between tasks; a worker stuck inside ``__getitem__`` never gets
    there. This thread ends the process once the main process is gone (killed, or a server stopped with
    SIGTERM), so no worker outlives it for more than ``WATCHDOG_INTERVAL_S``."""

    def watch() -> None:
        while watchdog.is_alive():
            time.sleep(WATCHDOG_INTERVAL_S)
        os._exit(1)

    threading.Thread(target=watch, name="loaderlab_orphan_watch", daemon=True).start()
