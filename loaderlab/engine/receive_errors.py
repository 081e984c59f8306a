"""How the main process words a failure to receive a batch: a dead worker, or no file descriptors left.

Twin of the error paths of torch's ``_MultiProcessingDataLoaderIter._try_get_data`` and of the worker
death messages of its SIGCHLD handler (``torch/csrc/DataLoader.cpp``). Knows nothing of queues or tracing.

Why file descriptors: with the default ``file_descriptor`` sharing strategy every tensor in a batch
arrives as an open fd passed over a Unix socket. A loop that keeps batches alive runs out of fds, and
receiving fails deep in multiprocessing with ``RuntimeError: received 0 items of ancdata``. Torch then
checks whether it can still open 10 files; if not, it replaces that error with the explanation below
(torch's NOTE [ DataLoader on Linux and open files limit ]).
"""

from __future__ import annotations

import contextlib
import errno
import signal
import tempfile

FDS_LIMIT_MARGIN = 10  # torch's margin: opening a single file is not a sufficient test

TOO_MANY_OPEN_FILES = (
    "Too many open files. Communication with the workers is no longer possible. Please increase the limit "
    "using `ulimit -n` in the shell or change the sharing strategy by calling "
    "`torch.multiprocessing.set_sharing_strategy('file_system')` at the beginning of your code")


class WorkerDied(RuntimeError):
    """The cause attached to torch's "exited unexpectedly" error: which worker, and how it died."""


def death_message(pid: int, exitcode: int | None) -> str:
    """The text torch's SIGCHLD handler gives a worker that died (torch/csrc/DataLoader.cpp)."""
    if exitcode is not None and exitcode < 0:
        msg = f"DataLoader worker (pid {pid}) is killed by signal: {signal.strsignal(-exitcode)}. "
        if -exitcode == signal.SIGBUS:
            msg += ("It is possible that dataloader's workers are out of shared memory. "
                    "Please try to raise your shared memory limit.")
        return msg
    return (f"DataLoader worker (pid {pid}) exited unexpectedly with exit code {exitcode}. "
            "Details are lost due to multiprocessing. Rerunning with num_workers=0 may give better error trace.")


def fds_nearly_exhausted() -> bool:
    """Whether this process can no longer open ``FDS_LIMIT_MARGIN`` more files (torch's check, same files)."""
    try:
        with contextlib.ExitStack() as stack:
            for _ in range(FDS_LIMIT_MARGIN):
                stack.enter_context(tempfile.NamedTemporaryFile())
    except OSError as exc:
        return exc.errno == errno.EMFILE
    return False
