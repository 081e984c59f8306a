"""What the cost model cannot see: the costs of a change that no part of the trace measures, so that the
model never proposes that change (issue 33, item 4) and the suggestions name it instead, with the command
that measures it (``python -m loaderlab run --tune``).

Twin of nothing in torch. Each check reads the trace only and answers with a reason (None: the model sees
the costs):

    num_workers=0   ``threads``       the trace does not say that the loop runs one torch thread: a sample's torch
                                      ops run with torch's intra-op threads there, 1 in a worker (23 ms a sample
                                      in the loop against 2.5 ms in a worker)
                    ``serial``        slow samples (the straggler check) would run one after another in the loop
    more workers    ``step_threads``  the step's ops ran on several threads (the main process kept
                                      :data:`STEP_THREADS` cores or more busy while it ran), fetching computes,
                                      and the threads with the workers would need more cores than the machine
                                      has. A parallel op waits
                                      for its slowest thread, and a thread that shares a core with a worker is
                                      late: the model's cores bound prices processes sharing the cores, not that
                                      (a Hugging Face job with a 2-thread step, 0.77 ms a step alone: 1.61 ms
                                      beside 2 workers, and the job 0.5x as fast)
                    ``no_move``       the run had no workers, so no batch was moved between processes: its
                                      pickling, its file descriptors and the worker's GIL (a sending thread waits
                                      for it while the dataset computes in Python) are unmeasured (a Hugging Face
                                      job, 2 tensors of 32 KiB a batch: assumed 0.1 ms a move, each batch 0.8 ms
                                      slower with 2 workers, and the job 0.7x as fast)
                    ``step_unclocked`` the trace has no process clock around the steps (recorded before it was
                                      kept), so whether they ran on several threads is not known

Knows nothing of the model's arithmetic, words, plotly or streamlit.
"""

from __future__ import annotations

import math
from typing import Any

from ...engine.cores import cpu_count
from ..core.lookups import normal
from ..core.run import as_run
from ..tables.slow import sample_fetches, stragglers
from .steps import step_cores
from .summary import events, RunSummary

# A step on one thread reads about 1.0 (the recorder's own threads add a few hundredths); half a core more is
# a second thread at work.
STEP_THREADS = 1.5


def in_loop_unseen(frame: Any, s: RunSummary) -> str | None:
    """Why the model cannot see what ``num_workers=0`` would cost (module docstring), None where it can."""
    if as_run(frame).extra.get("torch_threads") != 1:
        return "threads"
    table = normal(events(frame))
    return "serial" if stragglers(table, sample_fetches(table)) else None


def workers_unseen(frame: Any, count: int, recorded: int, computing: bool = True) -> str | None:
    """Why the model cannot see what ``count`` workers would cost where the run had ``recorded`` (module
    docstring), None where it can; ``computing``: fetching computes (workers that wait, on a store's round
    trip say, leave the step's threads their cores)."""
    busy = step_cores(frame)
    if computing and busy >= STEP_THREADS and math.ceil(busy - 0.05) + count > (cpu_count() or 1):
        return "step_threads"
    if not recorded:
        return "no_move"
    return "step_unclocked" if math.isnan(busy) else None
