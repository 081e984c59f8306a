"""On a CUDA machine: torch's own pin step traced (a stock DataLoader under ``record``) beside LoaderLab's engine.

    .venv/bin/python benchmarks/stock_pin_cuda.py [--workers 0 2] [--batch-size 32] [--batches 16] [--sample-kb 600]

One pinned workload (float32 samples of ``--sample-kb`` KB and an int label, ``pin_memory=True``, each batch
copied to the GPU with ``non_blocking=True`` in the loop) is recorded twice per ``--workers`` value: as a stock
``torch.utils.data.DataLoader`` under ``loaderlab.record`` (torch pins, in its own pin thread with workers) and
on LoaderLab's engine. For each it prints every batch's pin span (ms), bytes and detail, how many batches the
loop got pinned, the summary's payload and pin stage, and the verdict. The two should agree batch by batch
(events, bytes, empty detail); the times are each run's own. Needs torch with CUDA; no streamlit or plotly.
On a machine without CUDA it says so and exits 0.
"""

from __future__ import annotations

import argparse
import sys
import time

import torch


class Floats(torch.utils.data.Dataset):
    def __init__(self, n: int, floats: int) -> None:
        self.n, self.floats = n, floats

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        return torch.full((self.floats,), float(i)), i


class ToGpu:
    """The loop body: the batch's copy to the GPU, waited for; counts the batches that arrived pinned."""

    def __init__(self) -> None:
        self.pinned = self.batches = 0

    def __call__(self, batch) -> None:
        x, y = batch
        self.batches += 1
        self.pinned += bool(x.is_pinned() and y.is_pinned())
        x.to("cuda", non_blocking=True).sum().item()  # .item() waits for the copy and the sum


def pin_rows(frame) -> list[tuple[int, int, float, int, str]]:
    """(epoch, batch, pin ms, nbytes, detail) per batch, in batch order."""
    begins = frame[frame["kind"] == "pin_begin"].set_index(["epoch", "batch"])
    ends = frame[frame["kind"] == "pin_end"].set_index(["epoch", "batch"])
    out = []
    for key, b in begins.sort_index().iterrows():
        end_ns = int(ends.loc[key, "t_ns"]) if key in ends.index else None
        ms = (end_ns - int(b["t_ns"])) / 1e6 if end_ns is not None else float("nan")
        out.append((int(key[0]), int(key[1]), ms, int(b["nbytes"]), str(b["detail"])))
    return out


def show(name: str, frame, loop: ToGpu, seconds: float) -> list:
    from loaderlab.trace.core.payload import size_text
    from loaderlab.trace.diagnosis.summary import summarise
    from loaderlab.trace.diagnosis.bottleneck import verdict

    rows = pin_rows(frame)
    s = summarise(frame)
    found = verdict(frame)
    print(f"  {name}: {seconds:.3f} s, {loop.batches} batches, {loop.pinned} arrived pinned, "
          f"{len(rows)} pin_begin / {int((frame['kind'] == 'pin_end').sum())} pin_end events")
    for epoch, batch, ms, nbytes, detail in rows:
        print(f"    epoch {epoch} batch {batch:3d}: pin {ms:8.3f} ms  {nbytes:>11d} B ({size_text(nbytes)})"
              f"{'  ' + detail if detail else ''}")
    pin = s.stage("pin")
    print(f"    payload per batch: {s.payload.tensors} tensors, {size_text(s.payload.nbytes)}; pin stage: "
          f"{pin.count} spans, p50 {pin.p50_s * 1e3:.3f} ms, total {pin.total_s:.3f} s; move p50 "
          f"{s.stage('move').p50_s * 1e3:.3f} ms")
    print(f"    verdict: {found.kind}: {found.text('en')}")
    return [(e, b, n, d) for e, b, _, n, d in rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[0, 2])
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--batches", type=int, default=16)
    parser.add_argument("--sample-kb", type=int, default=600)
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("stock_pin_cuda.py needs a CUDA device (torch.cuda.is_available() is False here); nothing to do.")
        return 0
    import loaderlab  # after the check: a CPU machine needs nothing of LoaderLab to be told so

    floats = args.sample_kb * 1000 // 4
    dataset = Floats(args.batch_size * args.batches, floats)
    print(f"torch {torch.__version__}, {torch.cuda.get_device_name()}; batch {args.batch_size} x "
          f"{args.sample_kb} KB float32 + int label, {args.batches} batches, pin_memory=True")
    alike = True
    for workers in args.workers:
        settings = dict(batch_size=args.batch_size, num_workers=workers, pin_memory=True)
        print(f"num_workers={workers}")
        seen = {}
        for name, make in (("stock torch DataLoader under record", torch.utils.data.DataLoader),
                           ("LoaderLab engine", loaderlab.DataLoader)):
            loop = ToGpu()
            started = time.perf_counter()
            frame = loaderlab.record(make(dataset, **settings), consumer=loop)
            seen[name] = show(name, frame, loop, time.perf_counter() - started)
        stock, engine = seen.values()
        same = stock == engine
        alike &= same
        print(f"  pin events and bytes per batch alike: {'yes' if same else 'NO'}")
    return 0 if alike else 1


if __name__ == "__main__":
    sys.exit(main())
