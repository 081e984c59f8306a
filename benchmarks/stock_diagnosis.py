"""Diagnosis against reality on ordinary scripts: a stock ``torch.utils.data.DataLoader`` per case, recorded
once with ``loaderlab.record``; the report's verdict and each suggestion's claimed speed-up, beside the real
speed-up of re-running the plain torch loop (no tracing) with that change.

Run: ``python benchmarks/stock_diagnosis.py`` (``--rounds N``: real re-runs per change, the unchanged and the
changed loop taken in turn so that both see the same load, medians counted; ``--cases``: only those;
``--json FILE``: the rows as JSON; ``--cuda``: the GPU jobs of ../shared/notes/gpu.md instead, on a CUDA
machine). One row per (case, suggestion): verdict, change, claimed ×, real ×, and the
gap (claimed / real - 1; for a claimed range, of its nearer end). A case that gets no suggestion prints one row saying so; the model-bound case must.

The real re-runs run in a fresh interpreter that never imported a recording (``--real``): the process that
recorded is not an ordinary script's — after a recording, this machine's allocator gave each 19 MB batch
collated in the main process fresh pages (6.2-6.8 ms a batch, against 2.4-2.7 ms in a plain script), which
halved the in-memory case's real speed-up.

The cases are the traps the report must not fall into (issue 26): tensors held in memory and moved through
workers, CPU-heavy samples with too few workers, latency-bound samples, slow worker start-up with short
epochs, dict samples with a padding collate, a model-bound loop, and big batches.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import torch  # noqa: E402
from torch.nn.utils.rnn import pad_sequence  # noqa: E402
from torch.utils.data import DataLoader, Dataset, TensorDataset  # noqa: E402

import loaderlab  # noqa: E402
from loaderlab.trace.diagnosis.bottleneck import verdict  # noqa: E402
from loaderlab.trace.diagnosis.suggestions import suggest


def spin(ms: float) -> None:
    """Compute for ``ms`` milliseconds: it holds a core, as decoding or a CPU training step does."""
    end = time.perf_counter() + ms / 1e3
    x = torch.zeros(64)
    while time.perf_counter() < end:
        x += 1


class Costly(Dataset):
    """Each sample costs ``ms`` milliseconds: computing (``busy``: a decode, an augmentation) or waiting (a read
    from disk or network, which holds no core)."""

    def __init__(self, n: int, ms: float, busy: bool = True) -> None:
        self.n, self.ms, self.busy = n, ms, busy

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int):
        spin(self.ms) if self.busy else time.sleep(self.ms / 1e3)
        return torch.full((64,), float(i)), i % 10


class Tokens(Dataset):
    """Dict samples of ragged token ids, as HF datasets shape text."""

    def __init__(self, n: int) -> None:
        g = torch.Generator().manual_seed(0)
        self.lengths = torch.randint(20, 200, (n,), generator=g).tolist()

    def __len__(self) -> int:
        return len(self.lengths)

    def __getitem__(self, i: int):
        return {"input_ids": torch.arange(self.lengths[i]) % 30_000, "label": i % 2}


def pad_collate(samples):
    return {"input_ids": pad_sequence([s["input_ids"] for s in samples], batch_first=True),
            "label": torch.tensor([s["label"] for s in samples])}


def slow_init(worker_id: int) -> None:
    time.sleep(0.3)  # opening a database, loading a tokenizer


def in_memory(n: int, floats: int) -> TensorDataset:
    g = torch.Generator().manual_seed(0)
    return TensorDataset(torch.randn(n, floats, generator=g), torch.randint(0, 10, (n,), generator=g))


def compute(ms: float) -> Callable[[Any], None]:
    """A training step that computes for ``ms`` milliseconds on the CPU (this machine has no GPU)."""
    def step(batch) -> None:
        spin(ms)
    return step


def on_gpu(ms: float) -> Callable[[Any], None]:
    """A training step whose ``ms`` milliseconds run on an accelerator: the loop waits, no core is held."""
    def step(batch) -> None:
        time.sleep(ms / 1e3)
    return step


@dataclass
class Case:
    dataset: Callable[[], Any]
    settings: dict
    step_ms: float
    epochs: int = 2
    step: Callable[[float], Callable[[Any], None]] = compute
    expect_none: bool = False  # the model-bound case: no suggestion is the right answer
    extra: dict = field(default_factory=dict)


def on_cuda(ms: float) -> Callable[[Any], None]:
    """A GPU training step: the batch copied to the GPU (non_blocking where it is pinned), ``ms`` milliseconds
    of GPU work, and the loss read back (a sync, as logging it does). Needs CUDA (``--cuda``)."""
    def step(batch) -> None:
        tensors = batch.values() if isinstance(batch, dict) else batch
        for t in tensors:
            t.to("cuda", non_blocking=t.is_pinned())
        torch.cuda._sleep(int(ms * CYCLES_PER_MS))
        torch.cuda.synchronize()
    return step


CYCLES_PER_MS = 1.4e6  # torch.cuda._sleep's cycles per ms, about, at a GPU's boost clock (1.4 GHz)

CASES = {
    "in-memory tensors": Case(lambda: in_memory(512, 150_000), dict(batch_size=32, num_workers=2), 1.0),
    "cpu-heavy, few workers": Case(lambda: Costly(256, 3.0), dict(batch_size=16, num_workers=1), 1.0),
    "latency-bound": Case(lambda: Costly(512, 2.0, busy=False), dict(batch_size=16, num_workers=2), 1.0),
    "slow start-up": Case(lambda: Costly(64, 0.1), dict(batch_size=16, num_workers=2, worker_init_fn=slow_init),
                          0.5, epochs=4),
    "dict + padding": Case(lambda: Tokens(1024), dict(batch_size=32, num_workers=2, collate_fn=pad_collate), 3.0),
    "model-bound": Case(lambda: Costly(1024, 0.05), dict(batch_size=16, num_workers=2, persistent_workers=True),
                        20.0, expect_none=True, step=on_gpu),
    "big batches": Case(lambda: in_memory(512, 150_000), dict(batch_size=128, num_workers=2), 2.0),
}


# The GPU jobs of ../shared/notes/gpu.md (an H200, 16 cores): --cuda runs these instead.
CUDA_CASES = {
    "gpu, cpu-heavy samples": Case(lambda: Costly(2048, 1.5), dict(batch_size=64, num_workers=2), 2.0, step=on_cuda),
    "gpu, 77 MB pinned batches": Case(lambda: in_memory(1536, 150_000),
                                      dict(batch_size=128, num_workers=6, pin_memory=True), 10.0, step=on_cuda),
}


def loader(case: Case, dataset, **change) -> DataLoader:
    settings = {**case.settings, **change}
    if not settings.get("num_workers"):
        for key in ("prefetch_factor", "persistent_workers", "worker_init_fn"):
            settings.pop(key, None)
    return DataLoader(dataset, **settings)


def real_rate(case: Case, dataset, **change) -> float:
    """Samples per second of the plain torch loop, ``case.epochs`` epochs, no tracing."""
    step = case.step(case.step_ms)
    made = loader(case, dataset, **change)
    samples = 0
    started = time.perf_counter()
    for _ in range(case.epochs):
        for batch in made:
            step(batch)
            samples += len(batch["label"] if isinstance(batch, dict) else batch[-1])
    return samples / (time.perf_counter() - started)


def real_rounds(name: str, change: dict, rounds: int) -> tuple[list[float], list[float]]:
    """Samples/s of ``rounds`` unchanged and changed plain loops, taken in turn (what ``--real`` prints)."""
    case, base, changed = {**CASES, **CUDA_CASES}[name], [], []
    dataset = case.dataset()
    for _ in range(rounds):
        base.append(real_rate(case, dataset))
        changed.append(real_rate(case, dataset, **change))
    return base, changed


def real_speedup(name: str, change: dict, rounds: int) -> float:
    """The change's real speed-up, measured in a fresh interpreter running only the plain torch loop."""
    out = subprocess.run([sys.executable, __file__, "--real", name, json.dumps(change), str(rounds)],
                         capture_output=True, text=True, check=True)
    base, changed = json.loads(out.stdout.strip().splitlines()[-1])
    return statistics.median(changed) / statistics.median(base)


def run_case(name: str, case: Case, rounds: int) -> list[dict]:
    dataset = case.dataset()
    frame = loaderlab.record(loader(case, dataset), epochs=case.epochs, consumer=case.step(case.step_ms))
    found = verdict(frame)
    started = time.perf_counter()
    suggestions = suggest(frame)
    took = time.perf_counter() - started
    rows = []
    if not suggestions:
        rows.append({"case": name, "verdict": found.kind, "change": "-", "claimed": None, "real": None,
                     "ok": case.expect_none, "suggest_s": took})
    for s in suggestions:
        real = real_speedup(name, s.change, rounds)
        high = s.as_dict()["speedup_up_to"] or s.speedup  # a range where the report prints one
        # within 25 %: of the claim, or of the nearer end of a claimed range
        ok = not case.expect_none and real >= 1.0 and s.speedup / 1.25 <= real <= high / 0.75
        rows.append({"case": name, "verdict": found.kind, "change": s.change_text(), "claimed": s.speedup,
                     "claimed_up_to": high, "real": real, "ok": ok, "suggest_s": took})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", nargs="*", choices=[*CASES, *CUDA_CASES])
    parser.add_argument("--cuda", action="store_true", help="the GPU jobs instead (needs CUDA)")
    parser.add_argument("--json", help="write the rows to this file")
    parser.add_argument("--real", nargs=3, metavar=("CASE", "CHANGE", "ROUNDS"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # torch's worker-count warning on 2 cores, once per loader
    if args.real:
        name, change, rounds = args.real
        print(json.dumps(real_rounds(name, json.loads(change), int(rounds))))
        return 0
    cases = {**CASES, **CUDA_CASES}
    names = args.cases or list(CUDA_CASES if args.cuda else CASES)
    if any(name in CUDA_CASES for name in names) and not torch.cuda.is_available():
        print("the GPU cases need CUDA, and this machine has none: nothing to measure.")
        return 0
    rows = []
    print(f"{'case':24} {'verdict':12} {'change':28} {'claimed':>12} {'real':>6} {'gap':>6}  ok  suggest")
    for name in names:
        for row in run_case(name, cases[name], args.rounds):
            rows.append(row)
            if row["claimed"] is None:
                claimed = gap = ""
            else:
                low, high = row["claimed"], row["claimed_up_to"]
                claimed = f"{low:.2f}x" if high <= low else f"{low:.2f}-{high:.2f}x"
                nearer = low if row["real"] < low else min(high, max(low, row["real"]))
                gap = f"{nearer / row['real'] - 1:+.0%}"
            real = "" if row["real"] is None else f"{row['real']:.2f}x"
            print(f"{name:24} {row['verdict']:12} {row['change']:28} {claimed:>12} {real:>6} {gap:>6}  "
                  f"{'yes' if row['ok'] else 'NO':3} {row['suggest_s']:.2f} s", flush=True)
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=1)
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
