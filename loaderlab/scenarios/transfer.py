"""Host-to-device copies of batches: pageable ``.to("cuda")`` against ``pin_memory`` + ``non_blocking``.

Twin of nothing in torch: it times (with CUDA) or models (without) the step after the DataLoader, where
a batch leaves host memory for the GPU. Knows torch (to measure) and pandas; knows nothing of the
loader engine, plotly or streamlit. ``python -m loaderlab.scenarios.transfer --measure`` prints a measured table.

The two ways a training loop can move a batch, as both functions here see them:

- ``pageable``: ``batch.to("cuda")`` from ordinary (pageable) memory. The copy blocks the host and runs
  on the compute stream, so each batch is copy, then compute, then the next copy.
- ``pinned``: the DataLoader's pin thread copies each batch into page-locked memory (``pin``, a host
  memcpy), then the loop issues ``.to("cuda", non_blocking=True)`` on a copy stream while the compute
  stream still works on the previous batch. A copy may run at most one batch ahead: copy ``b`` waits for
  compute ``b-1`` to have started (two batches on the GPU at once, as a prefetching loop holds).
  Both sides are bounded as in a real loop: the pin thread waits once ``PINNED_AHEAD`` pinned batches
  wait for the loop, and the loop, like one that reads its loss every step one step late, issues copy
  ``b`` once compute ``b-2`` has ended.

The table both return (``TRANSFER_COLUMNS``), one row per stage of a batch::

    mode      "pageable" | "pinned"
    batch     0 … n_batches-1
    stage     "pin" (pinned only) | "copy" | "compute"
    start_ms  ms since the first batch was asked for
    end_ms
"""

from __future__ import annotations

import argparse
import queue
import threading
import time

import numpy as np
import pandas as pd

TRANSFER_COLUMNS = ["mode", "batch", "stage", "start_ms", "end_ms"]
MODES = ("pageable", "pinned")
STAGES = ("pin", "copy", "compute")
# Assumptions of the model (GB/s, GB = 1e9 bytes): PCIe 4.0 x16 peaks near 25 GB/s; measured pinned
# copies reach about half that on common desktops, pageable ones half again (they go through a staging
# buffer); a single-threaded host memcpy into fresh page-locked memory runs at about 10 GB/s.
DEFAULT_GBPS = {"pageable_gbps": 6.0, "pinned_gbps": 12.0, "pin_gbps": 10.0}
PINNED_AHEAD = 2  # pinned batches that may wait for the loop before the pin thread waits too
SUMMARY_COLUMNS = ["mode", "batches", "total_ms", "ms_per_batch", "pin_ms", "copy_ms", "compute_ms",
                   "hidden_copy_ms", "overlap", "copy_gbps", "pin_gbps"]


def _ms(nbytes: float, gbps: float) -> float:
    return nbytes / (gbps * 1e6)  # bytes / (GB/s) in ms


def _check(batch_bytes: int, n_batches: int, compute_ms: float) -> None:
    if batch_bytes <= 0 or n_batches <= 0 or compute_ms < 0:
        raise ValueError(f"batch_bytes and n_batches must be positive and compute_ms at least 0; got "
                         f"batch_bytes={batch_bytes}, n_batches={n_batches}, compute_ms={compute_ms}")


def _table(rows: list[tuple]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=TRANSFER_COLUMNS)
    return frame.astype({"batch": "int64", "start_ms": "float64", "end_ms": "float64"})


def model_transfers(batch_bytes: int, n_batches: int, compute_ms: float,
                    pageable_gbps: float = DEFAULT_GBPS["pageable_gbps"],
                    pinned_gbps: float = DEFAULT_GBPS["pinned_gbps"],
                    pin_gbps: float = DEFAULT_GBPS["pin_gbps"]) -> pd.DataFrame:
    """The timeline both modes would have under the stated bandwidths (see the module docstring).

    Batches are assumed ready when asked for (the workers keep up), so only the transfer and the
    compute shape the timeline.
    """
    _check(batch_bytes, n_batches, compute_ms)
    if min(pageable_gbps, pinned_gbps, pin_gbps) <= 0:
        raise ValueError("bandwidths must be positive")
    rows: list[tuple] = []
    copy, t = _ms(batch_bytes, pageable_gbps), 0.0
    for b in range(n_batches):
        rows.append(("pageable", b, "copy", t, t + copy))
        rows.append(("pageable", b, "compute", t + copy, t + copy + compute_ms))
        t += copy + compute_ms
    pin, copy = _ms(batch_bytes, pin_gbps), _ms(batch_bytes, pinned_gbps)
    issued: list[float] = []  # when the loop took batch b from the pin thread and issued its copy
    compute_ends: list[float] = []
    pin_free = copy_end = compute_end = last_compute_start = 0.0
    for b in range(n_batches):
        pin_start = pin_free
        rows.append(("pinned", b, "pin", pin_start, pin_start + pin))
        # the loop issues copy b once compute b-2 has ended (it reads its loss every step, one step late)
        issued.append(max(pin_start + pin, compute_ends[b - 2] if b >= 2 else 0.0, issued[-1] if b else 0.0))
        # the pin thread hands batch b over once fewer than PINNED_AHEAD pinned batches wait, then pins b+1
        pin_free = max(pin_start + pin, issued[b - PINNED_AHEAD] if b >= PINNED_AHEAD else 0.0)
        start = max(issued[b], copy_end, last_compute_start)  # one copy engine; one batch ahead of compute
        copy_end = start + copy
        rows.append(("pinned", b, "copy", start, copy_end))
        last_compute_start = max(copy_end, compute_end)
        compute_end = last_compute_start + compute_ms
        compute_ends.append(compute_end)
        rows.append(("pinned", b, "compute", last_compute_start, compute_end))
    return _table(rows)


def _hidden(copies: pd.DataFrame, computes: pd.DataFrame) -> float:
    """Copy time that ran while a compute ran (computes never overlap each other: one stream)."""
    if not len(copies) or not len(computes):
        return 0.0
    cs, ce = copies["start_ms"].to_numpy()[:, None], copies["end_ms"].to_numpy()[:, None]
    ks, ke = computes["start_ms"].to_numpy()[None, :], computes["end_ms"].to_numpy()[None, :]
    return float(np.clip(np.minimum(ce, ke) - np.maximum(cs, ks), 0, None).sum())


def summarise(table: pd.DataFrame, batch_bytes: int | None = None) -> pd.DataFrame:
    """Per mode: the epoch's time, each stage's busy time, the copy time hidden behind compute
    (``overlap`` = hidden / copy) and, given ``batch_bytes``, the effective copy and pin bandwidths."""
    out = []
    for mode in [m for m in MODES if m in set(table["mode"])]:
        g = table[table["mode"] == mode]
        busy = {s: float((g["end_ms"] - g["start_ms"])[g["stage"] == s].sum()) for s in STAGES}
        hidden = _hidden(g[g["stage"] == "copy"], g[g["stage"] == "compute"])
        n = int(g["batch"].nunique())
        total = float(g["end_ms"].max() - g["start_ms"].min())
        moved = n * batch_bytes / 1e6 if batch_bytes else np.nan  # bytes/1e6 per ms = GB/s
        out.append({"mode": mode, "batches": n, "total_ms": total, "ms_per_batch": total / n,
                    "pin_ms": busy["pin"], "copy_ms": busy["copy"], "compute_ms": busy["compute"],
                    "hidden_copy_ms": hidden, "overlap": hidden / busy["copy"] if busy["copy"] > 0 else 0.0,
                    "copy_gbps": moved / busy["copy"] if busy["copy"] > 0 else np.nan,
                    "pin_gbps": moved / busy["pin"] if busy["pin"] > 0 else np.nan})
    return pd.DataFrame(out, columns=SUMMARY_COLUMNS)


def rate(gbps: float) -> tuple[float | None, str]:
    """A bandwidth as ``(value, unit)``: GB/s, or MB/s where GB/s would round to 0.0 at one decimal (a tiny
    batch's copy is all latency: 16 bytes measured "0.0 GB/s"); ``(None, "")`` when unknown."""
    if gbps is None or not np.isfinite(gbps):
        return None, ""
    if gbps >= 0.05:
        return gbps, "GB/s"
    return gbps * 1e3, "MB/s"


# --- measuring (CUDA only) ------------------------------------------------------------------------


def _cycles_per_ms(torch) -> float:
    """How many ``torch.cuda._sleep`` cycles the GPU spins per ms (the stand-in compute kernel)."""
    torch.cuda._sleep(1_000_000)  # wakes the clocks up
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    torch.cuda._sleep(20_000_000)
    end.record()
    end.synchronize()
    return 20_000_000 / start.elapsed_time(end)


def _compute(torch, cycles: int) -> None:
    if cycles > 0:
        torch.cuda._sleep(cycles)


def _pageable_pass(torch, host, n_batches: int, cycles: int) -> list[tuple]:
    torch.cuda.synchronize()
    base = torch.cuda.Event(enable_timing=True)
    base.record()
    marks = []
    for b in range(n_batches):
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(4)]
        ev[0].record()
        x = host.to("cuda")  # blocks the host until the copy is done
        ev[1].record()
        ev[2].record()
        _compute(torch, cycles)
        ev[3].record()
        marks.append((b, ev))
        del x
    torch.cuda.synchronize()
    rows = []
    for b, ev in marks:
        at = [base.elapsed_time(e) for e in ev]
        rows += [("pageable", b, "copy", at[0], at[1]), ("pageable", b, "compute", at[2], at[3])]
    return rows


def _pinned_pass(torch, host, n_batches: int, cycles: int) -> list[tuple]:
    copy_stream, compute_stream = torch.cuda.Stream(), torch.cuda.Stream()
    # bounded as in model_transfers, which also keeps page-locked memory to a few batches
    ready: queue.Queue = queue.Queue(maxsize=PINNED_AHEAD)
    pins: list[tuple[int, float, float]] = []

    def pin_thread() -> None:  # DataLoader's pin thread: pins every batch as soon as it can
        for b in range(n_batches):
            t0 = time.perf_counter()
            pinned = host.pin_memory()
            pins.append((b, t0, time.perf_counter()))
            ready.put(pinned)

    torch.cuda.synchronize()
    base = torch.cuda.Event(enable_timing=True)
    base.record()
    base.synchronize()
    host_base = time.perf_counter()  # the GPU was idle: base's timestamp and this differ by microseconds
    worker = threading.Thread(target=pin_thread, daemon=True)
    worker.start()
    marks: list[tuple[int, list]] = []
    for b in range(n_batches):
        pinned = ready.get()
        ev = [torch.cuda.Event(enable_timing=True) for _ in range(4)]
        if b >= 2:
            marks[b - 2][1][3].synchronize()
        if b >= 1:
            copy_stream.wait_event(marks[b - 1][1][2])  # at most one batch ahead of compute
        with torch.cuda.stream(copy_stream):
            ev[0].record(copy_stream)
            x = pinned.to("cuda", non_blocking=True)
            ev[1].record(copy_stream)
        compute_stream.wait_event(ev[1])
        with torch.cuda.stream(compute_stream):
            ev[2].record(compute_stream)
            _compute(torch, cycles)
            ev[3].record(compute_stream)
        x.record_stream(compute_stream)  # x was made on the copy stream and is used on the compute one
        marks.append((b, ev))
        del x, pinned  # the caching host allocator keeps the page-locked block until its copy is done
    torch.cuda.synchronize()
    worker.join()
    rows = [("pinned", b, "pin", (t0 - host_base) * 1e3, (t1 - host_base) * 1e3) for b, t0, t1 in pins]
    for b, ev in marks:
        at = [base.elapsed_time(e) for e in ev]
        rows += [("pinned", b, "copy", at[0], at[1]), ("pinned", b, "compute", at[2], at[3])]
    return rows


def measure_transfers(batch_bytes: int, n_batches: int, compute_ms: float) -> pd.DataFrame:
    """Time both modes on this machine's GPU (CUDA events; pins on the host clock), as a ``TRANSFER_COLUMNS``
    table. The compute is ``torch.cuda._sleep`` spinning ``compute_ms``. Each mode runs once unmeasured
    first, so that allocators (the caching host allocator's page-locked blocks above all) are warm."""
    import torch

    _check(batch_bytes, n_batches, compute_ms)
    if not torch.cuda.is_available():
        raise RuntimeError("measure_transfers needs a CUDA GPU and this machine has none; use model_transfers")
    host = torch.ones(int(batch_bytes), dtype=torch.uint8)
    cycles = int(round(compute_ms * _cycles_per_ms(torch)))
    for _ in range(2):  # the first pass warms up; its rows are overwritten
        rows = _pageable_pass(torch, host, n_batches, cycles) + _pinned_pass(torch, host, n_batches, cycles)
    table = _table(rows)
    start = table.groupby("mode")["start_ms"].transform("min")  # each mode from its own first stage
    table["start_ms"] -= start
    table["end_ms"] -= start
    order = {m: i for i, m in enumerate(MODES)}
    return table.sort_values(["mode", "batch"], key=lambda c: c.map(order) if c.name == "mode" else c,
                             kind="stable").reset_index(drop=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m loaderlab.scenarios.transfer",
                                     description="Pageable vs pinned + non_blocking host-to-device copies.")
    parser.add_argument("--measure", action="store_true", help="time them on this machine's CUDA GPU")
    parser.add_argument("--mb", type=float, default=64.0, help="batch size in MB (default 64)")
    parser.add_argument("--batches", type=int, default=8, help="batches per pass (default 8)")
    parser.add_argument("--compute-ms", type=float, default=10.0, help="compute per batch (default 10 ms)")
    args = parser.parse_args(argv)
    batch_bytes = int(args.mb * 1e6)
    try:
        if args.measure:
            table, what = measure_transfers(batch_bytes, args.batches, args.compute_ms), "measured"
        else:
            table, what = model_transfers(batch_bytes, args.batches, args.compute_ms), "modelled"
    except (RuntimeError, ValueError) as exc:
        print(f"error: {exc}")
        return 2
    print(f"{what}: {args.batches} batches of {args.mb:g} MB, {args.compute_ms:g} ms compute each")
    with pd.option_context("display.width", 200, "display.max_columns", 20, "display.float_format", "{:.3f}".format):
        print(summarise(table, batch_bytes).to_string(index=False))
        print()
        print(table.to_string(index=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
