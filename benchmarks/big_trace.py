"""Big traces end to end: save, load, report, findings and Chrome export of 1 M and 10 M events.

Run: ``python benchmarks/big_trace.py`` (both sizes; ``--events 1000000`` for one, ``--steps save,load`` for some).
:func:`big_frame` builds a trace shaped like :func:`loaderlab.record`'s (same columns and dtypes: ``kind`` str,
``label`` object; several workers taking tasks round robin, every fetch with a class label, queue hops,
two epochs, the sampler's indices in ``detail``). ``load`` reads the table exactly as saved; ``load_compact``
and every later step read it compact (``load_trace(path, compact=True)``: categorical strings, int32 where
values fit; ``--full`` for the exact table). Each step runs in a fresh subprocess that loads the saved
``.lltrace`` file first (except ``save``), so its peak memory (``ru_maxrss``, imports included: ~105 MB) is the
step's own; the time is the step alone, wall and CPU (all threads; on a shared machine the CPU time is the
steadier number). ``cli_report`` / ``cli_export`` run ``python -m loaderlab report --no-suggestions`` / ``export``
in-process on the file (what a user runs): their time includes reading the file, as the command does;
``cli_export_epoch`` / ``cli_export_window`` export one epoch (``--epoch 1``) / a 2 s window (``--from 10 --to
12``), which read only the rows the cut keeps.
``save`` writes the trace an epoch at a time with :class:`~loaderlab.trace.files.columnar.TraceWriter`,
as a run would, and its time includes making those epochs. ``PAGE_RENDER`` is the hook for the dashboard's first-render timing (``None`` until it exists):
a callable ``(frame) -> None`` run as one more step.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from loaderlab.engine import events as ev  # noqa: E402
from loaderlab.trace.core.frame import EVENT_COLUMNS  # noqa: E402

MAIN_PID = 1000


def _page_render(frame: pd.DataFrame) -> None:  # the "Your trace" page's first render (benchmarks/trace_page_render.py)
    from benchmarks.trace_page_render import first_render
    first_render(frame)


PAGE_RENDER: Callable[[pd.DataFrame], None] | None = _page_render  # the dashboard helper plugs its first render in here
STEPS = ("save", "load", "load_compact", "report", "findings", "export", "cli_report", "cli_export",
         "cli_export_epoch", "cli_export_window")
CLI_STEPS = {"cli_report": ["report", "--no-suggestions"], "cli_export": ["export"],  # what a user runs, load included
             "cli_export_epoch": ["export", "--epoch", "1"], "cli_export_window": ["export", "--from", "10", "--to", "12"]}
COMPACT = True  # report, findings, export and page load the compact table (load_trace(..., compact=True)); --full: not
STEP_TIMEOUT_S = 900


def big_frame(n_events: int, *, epochs: int = 2, **shape) -> pd.DataFrame:
    """About ``n_events`` events of ``epochs`` epochs of a multi-worker run, as ``record`` would return them."""
    frame = pd.concat(list(big_chunks(n_events, epochs=epochs, **shape)), ignore_index=True)
    frame.attrs = big_meta(n_events, epochs=epochs, **shape)
    return frame


def big_meta(n_events: int, *, workers: int = 4, batch_size: int = 32, epochs: int = 2, prefetch_factor: int = 2,
             **_) -> dict:
    """The ``attrs`` (a trace file's meta) of :func:`big_frame`'s trace."""
    return {"loader": {"dataset": "Synthetic", "dataset_len": _batches(n_events, epochs, workers, batch_size)
                       * batch_size, "iterable": False, "batch_size": batch_size, "drop_last": False,
                       "sampler": "RandomSampler", "batch_sampler": "BatchSampler", "num_workers": workers,
                       "prefetch_factor": prefetch_factor, "in_order": True, "persistent_workers": False,
                       "pin_memory": False, "timeout": 0, "multiprocessing_context": None},
            "epochs": epochs}


def _batches(n_events: int, epochs: int, workers: int, batch_size: int) -> int:
    return max(1, (n_events // epochs - 2 - 3 * workers) // (10 + 2 * batch_size))


def big_chunks(n_events: int, *, workers: int = 4, batch_size: int = 32, epochs: int = 2, prefetch_factor: int = 2,
               consume_s: float = 0.004, seed: int = 0):
    """:func:`big_frame`'s rows one epoch at a time (a streamed writer never holds them all)."""
    rng = np.random.default_rng(seed)
    n = _batches(n_events, epochs, workers, batch_size)
    offset, first = 0.0, None
    for epoch in range(epochs):
        part, end = _epoch(rng, n, epoch, offset, workers, batch_size, prefetch_factor, consume_s)
        offset = end + 0.01
        part = part.sort_values("t", kind="stable", ignore_index=True)
        t_ns = (part["t"].to_numpy() * 1e9).astype("int64") + 10_000_000_000
        first = t_ns[0] if first is None else first
        yield _typed(part, t_ns, first)


def _typed(frame: pd.DataFrame, t_ns: np.ndarray, first: int) -> pd.DataFrame:
    labels = np.empty(len(frame), dtype=object)
    fetched = frame["kind"].to_numpy() == ev.FETCH_END
    labels[fetched] = frame["label"].to_numpy()[fetched].astype("int64").tolist()
    out = pd.DataFrame({
        "kind": frame["kind"].astype("str"), "t_ns": t_ns, "pid": frame["pid"].astype("int64"),
        "worker": frame["worker"].astype("int64"), "epoch": frame["epoch"].astype("int64"),
        "batch": frame["batch"].astype("int64"), "index": frame["index"].astype("int64"),
        "queue": frame["queue"].astype("str"), "nbytes": frame["nbytes"].astype("int64"),
        "label": pd.Series(labels, dtype=object), "length": frame["length"].astype("int64"),
        "detail": frame["detail"].astype("str"), "arg0": frame["arg0"].astype("int64"),
        "arg1": np.full(len(frame), -1, "int64"), "arg2": np.full(len(frame), -1, "int64"),
        "arg3": np.full(len(frame), -1, "int64"), "indices": frame["indices"].astype(object),
        "t_s": (t_ns - first) / 1e9})
    return out[list(EVENT_COLUMNS)]


def _epoch(rng, n, epoch, t0, workers, batch_size, prefetch_factor, consume_s):
    b = np.arange(n)
    w = b % workers
    start = t0 + 0.05  # worker start-up
    yield_s = start + 0.01 + (b + 1) * consume_s
    task_s = workers * consume_s * 0.8 * rng.uniform(0.9, 1.1, n)
    result_s = yield_s - consume_s * 0.05
    get_s = result_s - task_s
    cap = prefetch_factor * workers
    put_s = np.where(b < cap, start, yield_s[np.maximum(b - cap, 0)] + 1e-6)
    wpid = MAIN_PID + 1 + w + 100 * epoch
    order = rng.permutation(n * batch_size).reshape(n, batch_size)
    labels = rng.choice(10, size=(n, batch_size), p=[0.02] + [0.98 / 9] * 9)
    blocks = []

    def block(kind, t, worker, pid, index=-1, queue="", nbytes=0, label=0, length=-1, detail="", arg0=-1,
              indices=None):
        blocks.append(dict(kind=kind, t=t, worker=worker, pid=pid, index=index, queue=queue, nbytes=nbytes,
                           label=label, length=length, detail=detail, arg0=arg0, indices=indices))

    lists = np.empty(n, dtype=object)
    lists[:] = order.tolist()
    structured = "indices" in EVENT_COLUMNS  # the engine's structured columns, where this tree has them
    detail = "" if structured else np.array([str(row) for row in lists], dtype=object)  # "[3, 17, ...]"
    block(ev.SAMPLER_YIELD, put_s - 1e-6, -1, MAIN_PID, detail=detail, arg0=batch_size, indices=lists)
    block(ev.INDEX_PUT, put_s, -1, MAIN_PID, queue=np.array([f"index_queue[{k}]" for k in range(workers)])[w])
    block(ev.INDEX_GET, get_s, w, wpid, queue=np.array([f"index_queue[{k}]" for k in range(workers)])[w])
    fetch_s = task_s * 0.9 / batch_size
    for j in range(batch_size):
        begin = get_s + 1e-6 + j * fetch_s
        block(ev.FETCH_BEGIN, begin, w, wpid, index=order[:, j], arg0=1)
        block(ev.FETCH_END, begin + fetch_s * rng.uniform(0.5, 0.99, n), w, wpid, index=order[:, j],
              label=labels[:, j], length=rng.integers(50, 500, n), arg0=1)
    collate = get_s + 1e-6 + batch_size * fetch_s
    block(ev.COLLATE_BEGIN, collate, w, wpid)
    block(ev.COLLATE_END, collate + task_s * 0.05, w, wpid)
    block(ev.RESULT_PUT, result_s, w, wpid, queue="result_queue", nbytes=batch_size * 128)
    block(ev.RESULT_GET, yield_s - consume_s * 0.02, -1, MAIN_PID, queue="result_queue")
    block(ev.BATCH_YIELD, yield_s, -1, MAIN_PID, arg0=b,
          detail="" if structured else np.char.add("task ", b.astype(str)).astype(object))
    block(ev.CONSUMER_BEGIN, yield_s + 1e-7, -1, MAIN_PID)
    block(ev.CONSUMER_END, yield_s + consume_s - 2e-6, -1, MAIN_PID)
    cols = {}
    for key in blocks[0]:
        values = [blk[key] if isinstance(blk[key], np.ndarray) and blk[key].shape == (n,)
                  else np.broadcast_to(np.asarray(blk[key], dtype=object if key in ("detail", "queue", "kind", "indices")
                                                  else None), (n,)) for blk in blocks]
        cols[key] = np.stack(values, axis=1).reshape(-1)  # batch-major, pipeline order inside
    cols["batch"] = np.repeat(b, len(blocks))
    cols["epoch"] = np.full(n * len(blocks), epoch)
    end = float(yield_s[-1] + consume_s)
    ww = np.arange(workers)
    life = pd.DataFrame({
        "kind": [ev.EPOCH_BEGIN] + [ev.WORKER_START] * workers + [ev.WORKER_READY] * workers
                + [ev.WORKER_EXIT] * workers + [ev.EPOCH_END],
        "t": np.r_[t0, np.full(workers, t0 + 0.001), np.full(workers, start - 0.001), np.full(workers, end + 0.001),
                   end + 0.002],
        "worker": np.r_[-1, ww, ww, ww, -1],
        "pid": np.r_[MAIN_PID, [MAIN_PID] * workers, MAIN_PID + 1 + ww + 100 * epoch, MAIN_PID + 1 + ww + 100 * epoch,
                     MAIN_PID],
        "index": -1, "queue": "", "nbytes": 0, "label": 0, "length": -1,
        "detail": [""] + [f"pid={MAIN_PID + 1 + k + 100 * epoch}" for k in ww] + [f"seed={k + 7 * epoch}" for k in ww]
                  + ["sentinel"] * workers + [""], "batch": -1, "epoch": epoch, "indices": None,
        "arg0": np.r_[-1, MAIN_PID + 1 + ww + 100 * epoch, ww + 7 * epoch, np.full(workers, -1), -1]})
    if "indices" in EVENT_COLUMNS:
        life.loc[life["kind"] != ev.WORKER_EXIT, "detail"] = ""
        life.loc[life["kind"] == ev.WORKER_EXIT, "detail"] = "sentinel"
    return pd.concat([life, pd.DataFrame(cols)], ignore_index=True), end + 0.002


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# --- one step, in its own process ----------------------------------------------------------------


def _step(step: str, trace: str, work: str) -> dict:
    from loaderlab.trace.files.io import load_trace, save_trace

    if step == "save":  # as a run writes it: one chunk (here an epoch) at a time; the time includes making them
        from loaderlab.trace.files.columnar import TraceWriter
        n_events, epochs = int(os.environ["BIG_TRACE_EVENTS"]), int(os.environ["BIG_TRACE_EPOCHS"])
        start, cpu, rows = time.perf_counter(), time.process_time(), 0
        meta = big_meta(n_events, epochs=epochs)
        with TraceWriter(trace, {"loader": meta["loader"]}) as writer:
            for chunk in big_chunks(n_events, epochs=epochs):
                writer.write_frame(chunk)
                rows += len(chunk)
            writer.set_meta("epochs", epochs)
        return {"s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu, "events": rows}
    if step in CLI_STEPS:  # the command line's own path (it loads the file itself): its time includes the load
        import contextlib

        from loaderlab.cli import main
        args = [*CLI_STEPS[step][:1], trace, *CLI_STEPS[step][1:]]
        if step.startswith("cli_export"):
            args += ["--chrome", os.path.join(work, "cli_chrome.json")]
        start, cpu = time.perf_counter(), time.process_time()
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            code = main(args)
        if code:
            raise SystemExit(f"{' '.join(args)} exited with {code}")
        return {"s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu}
    start, cpu = time.perf_counter(), time.process_time()
    frame = load_trace(trace, compact=step == "load_compact" or (step != "load" and os.environ.get(
        "BIG_TRACE_COMPACT", "1") == "1"))
    loaded = time.perf_counter() - start
    if step in ("load", "load_compact"):
        return {"s": loaded, "cpu_s": time.process_time() - cpu}
    start, cpu = time.perf_counter(), time.process_time()
    if step == "report":
        from loaderlab.trace.diagnosis.report import report_text
        report_text(frame)
    elif step == "findings":
        from loaderlab.trace.diagnosis.findings import all_findings
        all_findings(frame)
    elif step == "export":
        from loaderlab.trace.export.chrome import save_chrome_trace
        save_chrome_trace(frame, os.path.join(work, "chrome.json"))
    elif step == "page" and PAGE_RENDER is not None:
        PAGE_RENDER(frame)
    return {"s": time.perf_counter() - start, "cpu_s": time.process_time() - cpu, "load_s": loaded}


def run(n_events: int, steps: tuple[str, ...], work: str, epochs: int) -> dict:
    trace = os.path.join(work, "big.lltrace")
    results = {"events": 0}
    for step in ("save", *[s for s in steps if s != "save"]):
        if step == "page" and PAGE_RENDER is None:
            continue
        env = dict(os.environ, BIG_TRACE_EVENTS=str(n_events), BIG_TRACE_EPOCHS=str(epochs),
                   BIG_TRACE_COMPACT="1" if COMPACT else "0")
        try:
            out = subprocess.run([sys.executable, __file__, "--one-step", step, trace, work],
                                 capture_output=True, text=True, check=False, env=env, timeout=STEP_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            results[step] = {"error": [f"over {STEP_TIMEOUT_S} s"]}
            continue
        if out.returncode != 0:
            results[step] = {"error": out.stderr.strip().splitlines()[-1:] or ["?"]}
            continue
        results[step] = json.loads(out.stdout.strip().splitlines()[-1])
        results["events"] = results["save"].get("events", results["events"])
    results["bytes_per_event"] = os.path.getsize(trace) / results["events"]
    return results


def _main_step(step: str, trace: str, work: str) -> None:
    result = _step(step, trace, work)
    result["peak_mb"] = peak_rss_mb()
    print(json.dumps(result))


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--one-step":
        _main_step(*sys.argv[2:5])
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, action="append", help="events per trace (repeatable; "
                        "default 1000000 and 10000000)")
    parser.add_argument("--epochs", type=int, help="epochs per trace (default: 2 million events each, at least 2)")
    parser.add_argument("--steps", default=",".join(STEPS), help=f"comma-separated, of {', '.join(STEPS)}, page")
    parser.add_argument("--full", action="store_true", help="report, findings, export and page read the full "
                        "table (load_trace's exact round trip) instead of the compact one")
    args = parser.parse_args()
    COMPACT = not args.full
    steps = tuple(s for s in args.steps.split(",") if s)
    for n in args.events or (1_000_000, 10_000_000):
        with tempfile.TemporaryDirectory() as work:
            r = run(n, steps, work, args.epochs or max(2, n // 2_000_000))
        print(f"\n{r['events']:,} events, file {r['bytes_per_event']:.1f} bytes/event")
        for step in dict.fromkeys(("save", *steps)):
            if step in r:
                v = r[step]
                print(f"  {step:9s} " + (f"error: {v['error']}" if "error" in v
                                         else f"{v['s']:6.2f} s (CPU {v.get('cpu_s', math.nan):6.2f} s)   "
                                              f"peak RSS {v['peak_mb']:6.0f} MB"))
