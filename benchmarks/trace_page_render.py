"""How long the "Your trace" page takes to draw a big trace the first time.

Run: ``python benchmarks/trace_page_render.py`` (``--events 10000000``, the default; ``--repeat 3``;
``--source big_trace`` for benchmarks/big_trace.py's table). It builds a
synthetic events table of that many rows with the real column set (:data:`loaderlab.trace.core.frame.EVENT_COLUMNS`;
``kind`` and ``queue`` categorical, as a columnar trace loads them), hands it to the page through Streamlit's
AppTest, and prints the wall time of the first render (the whole script: overview bins, the window's spans and
every figure) and the process's peak memory. :func:`page_render_seconds` (and :func:`first_render`, for
benchmarks/big_trace.py's ``PAGE_RENDER`` hook) time it for any frame.

The synthetic run: ``workers`` worker processes take tasks round robin, each task is ``batch_size`` fetches and
a collate, the loop hands a batch over every ``consume_s`` and each worker is busy 80 % of its time; labels are
10 classes, one of them rare. Its events are those the engine emits for such a run, in the engine's order.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from loaderlab.engine import events as ev  # noqa: E402
from loaderlab.trace.core.frame import EVENT_COLUMNS  # noqa: E402

MAIN_PID = 1000
LAST_CPU_S = float("nan")  # CPU time of the last page_render_seconds


def synthetic_frame(n_events: int, *, workers: int = 4, batch_size: int = 32, prefetch_factor: int = 2,
                    consume_s: float = 0.004, seed: int = 0) -> pd.DataFrame:
    """About ``n_events`` events of one epoch of a multi-worker run (whole batches; see the module docstring)."""
    rng = np.random.default_rng(seed)
    per_batch = 10 + 2 * batch_size
    n = max(1, (n_events - 2 - 3 * workers) // per_batch)
    b = np.arange(n)
    w = b % workers
    t0 = 0.05  # worker start-up
    yield_s = t0 + 0.01 + (b + 1) * consume_s  # hand-over of task b (in order)
    task_s = workers * consume_s * 0.8
    result_s = yield_s - consume_s * 0.05
    get_s = result_s - task_s
    cap = prefetch_factor * workers
    put_s = np.where(b < cap, t0, yield_s[np.maximum(b - cap, 0)] + 1e-6)
    sample_s = put_s - 1e-6

    # one block of columns per event of a batch, in pipeline order
    blocks = []

    def block(kind, t, worker, pid, index=-1, queue="", nbytes=0, label=np.nan, length=-1, detail=""):
        blocks.append(dict(kind=kind, t=t, worker=worker, pid=pid, batch=b, index=index, queue=queue, nbytes=nbytes,
                           label=label, length=length, detail=detail))

    wpid = MAIN_PID + 1 + w
    block(ev.SAMPLER_YIELD, sample_s, -1, MAIN_PID)
    block(ev.INDEX_PUT, put_s, -1, MAIN_PID, queue=pd.Categorical.from_codes(w, [f"index_queue[{k}]"
                                                                                  for k in range(workers)]))
    block(ev.INDEX_GET, get_s, w, wpid)
    fetch_s = task_s * 0.9 / batch_size
    labels = rng.choice(10, size=(n, batch_size), p=[0.02] + [0.98 / 9] * 9).astype(float)
    order = rng.permutation(n * batch_size).reshape(n, batch_size)
    for j in range(batch_size):
        begin = get_s + 1e-6 + j * fetch_s
        block(ev.FETCH_BEGIN, begin, w, wpid, index=order[:, j])
        block(ev.FETCH_END, begin + fetch_s * 0.95, w, wpid, index=order[:, j], label=labels[:, j], length=1)
    collate = get_s + 1e-6 + batch_size * fetch_s
    block(ev.COLLATE_BEGIN, collate, w, wpid)
    block(ev.COLLATE_END, collate + task_s * 0.05, w, wpid)
    block(ev.RESULT_PUT, result_s, w, wpid, queue="result_queue", nbytes=batch_size * 128)
    block(ev.RESULT_GET, yield_s - consume_s * 0.02, -1, MAIN_PID, queue="result_queue")
    block(ev.BATCH_YIELD, yield_s, -1, MAIN_PID, detail=pd.Categorical.from_codes(np.zeros(n, "int64"), ["task"]))
    block(ev.CONSUMER_BEGIN, yield_s + 1e-7, -1, MAIN_PID)
    block(ev.CONSUMER_END, yield_s + consume_s - 2e-6, -1, MAIN_PID)

    cols = {k: [] for k in ("kind", "t", "worker", "pid", "batch", "index", "queue", "nbytes", "label", "length",
                            "detail")}
    for blk in blocks:
        for k in cols:
            v = blk[k]
            if isinstance(v, pd.Categorical):
                v = np.asarray(v.astype(str))
            cols[k].append(np.broadcast_to(np.asarray(v), (n,)) if np.ndim(v) == 0 else np.asarray(v))
    flat = {k: np.stack(v, axis=1).reshape(-1) for k, v in cols.items()}  # batch-major, pipeline order inside
    flat["detail"] = np.where(flat["kind"] == ev.BATCH_YIELD, np.char.add("task ", np.repeat(b, len(blocks))
                                                                          .astype(str)), flat["detail"])
    # a batch_yield's position = its task (in order); consumer events carry the position too
    end = float(yield_s[-1] + consume_s)
    ww = np.arange(workers)
    life = pd.DataFrame({
        "kind": [ev.EPOCH_BEGIN] + [ev.WORKER_START] * workers + [ev.WORKER_READY] * workers
                + [ev.WORKER_EXIT] * workers + [ev.EPOCH_END],
        "t": np.r_[0.0, np.full(workers, 0.001), np.full(workers, t0 - 0.001), np.full(workers, end + 0.001),
                   end + 0.002],
        "worker": np.r_[-1, ww, ww, ww, -1], "pid": np.r_[MAIN_PID, [MAIN_PID] * workers, MAIN_PID + 1 + ww,
                                                          MAIN_PID + 1 + ww, MAIN_PID],
        "batch": -1, "index": -1, "queue": "", "nbytes": 0, "label": np.nan, "length": -1,
        "detail": [""] + [f"pid={MAIN_PID + 1 + k}" for k in ww] + [f"seed={k}" for k in ww]
                  + ["done"] * workers + [""]})
    frame = pd.concat([life, pd.DataFrame(flat)], ignore_index=True)
    frame = frame.sort_values("t", kind="stable", ignore_index=True)
    t_ns = (frame["t"].to_numpy() * 1e9).astype("int64")
    out = pd.DataFrame({
        "kind": pd.Categorical(frame["kind"], categories=list(ev.ALL_KINDS)),
        "t_ns": t_ns, "pid": frame["pid"].astype("int64"), "worker": frame["worker"].astype("int64"),
        "epoch": np.zeros(len(frame), "int64"), "batch": frame["batch"].astype("int64"),
        "index": frame["index"].astype("int64"), "queue": frame["queue"].astype("category"),
        "nbytes": frame["nbytes"].astype("int64"), "label": frame["label"].astype("float64"),
        "length": frame["length"].astype("int64"), "detail": frame["detail"].astype("category"),
        "t_s": (t_ns - t_ns[0]) / 1e9})
    for column in EVENT_COLUMNS:  # typed fields this table does not fill (arg0…, indices): their "none" value
        if column not in out.columns:
            out[column] = ev.NO_BATCH if column.startswith("arg") else None
    out = out[list(EVENT_COLUMNS)]
    out.attrs["loader"] = {"num_workers": workers, "prefetch_factor": prefetch_factor, "batch_size": batch_size,
                           "in_order": True, "pin_memory": False, "persistent_workers": False}
    return out


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _show(frame):  # AppTest runs this source alone (no imports of this file): no annotations
    from loaderlab.ui.texts import set_language
    from loaderlab.ui.trace_page import show_trace

    set_language("en")
    show_trace(frame, token="benchmark", name="big.lltrace", stem="big")


def _cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def page_render_seconds(frame: pd.DataFrame) -> float:
    """Wall time of the "Your trace" page's first render of ``frame`` (empty caches), through AppTest.
    :data:`LAST_CPU_S` then holds the CPU time it took (all threads): on a machine shared with other work the
    wall time grows, the CPU time does not."""
    global LAST_CPU_S
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    import loaderlab.ui.trace_page  # noqa: F401  (a server has its modules loaded: time the render, not imports)

    st.cache_data.clear()
    st.cache_resource.clear()
    at = AppTest.from_function(_show, args=(frame,), default_timeout=600)
    start, cpu = time.perf_counter(), _cpu_s()
    at.run()
    seconds, LAST_CPU_S = time.perf_counter() - start, _cpu_s() - cpu
    if at.exception:
        raise RuntimeError(f"the page failed: {at.exception[0].message}")
    charts = len(at.get("plotly_chart"))
    if charts < 3:
        raise RuntimeError(f"the page drew {charts} figures, expected the overview and the window's views")
    return seconds


def first_render(frame: pd.DataFrame) -> None:
    """For benchmarks/big_trace.py's ``PAGE_RENDER`` hook (it times the call itself)."""
    page_render_seconds(frame)


def _frame(n_events: int, source: str) -> pd.DataFrame:
    if source == "big_trace":  # the big-trace benchmark's table: str columns, object labels, two epochs
        from benchmarks.big_trace import big_frame
        return big_frame(n_events)
    return synthetic_frame(n_events)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000_000)
    parser.add_argument("--repeat", type=int, default=1, help="first renders to time (caches cleared each time)")
    parser.add_argument("--source", choices=("synthetic", "big_trace"), default="synthetic",
                        help="synthetic: this file's table (categorical text columns, one epoch); big_trace: "
                             "benchmarks/big_trace.py's big_frame (str columns, object labels, two epochs)")
    args = parser.parse_args()
    start = time.perf_counter()
    f = _frame(args.events, args.source)
    print(f"built {len(f):,} events in {time.perf_counter() - start:.1f} s "
          f"({f.memory_usage(deep=False).sum() / 1e6:,.0f} MB of columns)")
    for _ in range(args.repeat):
        wall = page_render_seconds(f)
        print(f"first render of Your trace: {wall:.2f} s wall, {LAST_CPU_S:.2f} s CPU, "
              f"load average {os.getloadavg()[0]:.1f}, peak RSS {peak_rss_mb():,.0f} MB")
