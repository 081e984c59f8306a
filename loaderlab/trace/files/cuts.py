"""Which rows an export's time window keeps (``export --from/--to``): one rule for a table in memory
(:func:`loaderlab.trace.export.chrome.write_chrome`) and for a file read a batch at a time (:mod:`loaderlab.trace.files.cut_read`).

Twin of nothing in torch. A window keeps the rows inside it, every row of a task (an ``(epoch, batch)``)
whose rows' time range meets it, main's loop steps and the rows of no task (worker start-up, epochs), so
that spans crossing an edge are whole; what lies outside is dropped after pairing. Knows numpy and the event
vocabulary; nothing of files, plotly or streamlit.
"""

from __future__ import annotations

import numpy as np

from ...engine import events as ev

# main's loop steps, all of them: a wait for a batch runs from one step to the next, which may both lie
# outside the window while the wait crosses it
LOOP_KINDS = (ev.EPOCH_BEGIN, ev.CONSUMER_END, ev.BATCH_YIELD, ev.EPOCH_END)


def task_ranges(codes: np.ndarray, t: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Each of ``n`` tasks' first and last ``t`` (rows numbered ``codes``: 0 … n-1)."""
    first = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    last = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
    np.minimum.at(first, codes, t)
    np.maximum.at(last, codes, t)
    return first, last


def window_keeps(t: np.ndarray, first: np.ndarray, last: np.ndarray, loop: np.ndarray, batch: np.ndarray,
                 start_s: float | None, end_s: float | None) -> np.ndarray:
    """The rows a window keeps. ``t``: each row's time (ns since the table's first event); ``first``/``last``:
    its task's first and last time on that axis; ``loop``: it is one of ``LOOP_KINDS``; ``batch``: its task
    id (< 0: no task)."""
    inside = np.ones(len(t), bool)
    meets = np.ones(len(t), bool)
    if start_s is not None:
        inside &= t >= start_s * 1e9
        meets &= last >= start_s * 1e9
    if end_s is not None:
        inside &= t <= end_s * 1e9
        meets &= first <= end_s * 1e9
    # a task is touched when its rows' time range meets the window, not only when a row lies in it: a span
    # can begin before the window and end after it (a worker's whole batch inside a narrow window)
    return inside | meets | loop | (batch < 0)
