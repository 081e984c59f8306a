"""The cost of ``python -m loaderlab run`` on jobs written with real libraries, against the same jobs run plainly.

Run: ``python benchmarks/real_libraries.py`` (``--rounds 5``, ``--jobs hf_map,wds``, ``--rows 4000``…). The jobs
are tests/jobs/real_library_scripts.py's, written as their tutorials write them: a Hugging Face map-style
``Dataset`` (CSV → ``load_dataset`` → ``.map(tokenize)`` → ``.with_format("torch")``, a padding collate), its
``to_iterable_dataset(num_shards=4)`` stream with 2 workers, a webdataset pipeline over .tar shards of PNGs
(``decode("pil").to_tuple("png", "cls").map_tuple(transform, int)``, a random flip, 2 workers, split by worker)
and an MNIST-shaped job (PIL images, a transform, a small model). The data is made in a temporary folder (no
network: ``HF_DATASETS_OFFLINE=1``).

Each round runs every job plainly and under ``run``, the order of the two swapped every round, so drift in the
machine's load hits both alike. Each job times its own training loop (``loop_s``: from its first ``iter()`` to
its last step, what tracing can slow); the process's whole wall time (interpreter, imports, writing the trace)
is printed too, and the loop's CPU seconds (the main process's and its workers', steadier than the wall clock
when other work shares the machine). The speed under ``run`` is plain / traced: 1.0 is free, 0.9 is 10 %
slower. Medians of the rounds count; each round's own ratios are printed as a range. Knows nothing of pandas or streamlit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.jobs import real_library_scripts as jobs  # noqa: E402


def arguments(rows: int) -> dict[str, list[str]]:
    """Each job's command-line arguments: a loop of one to a few seconds on a laptop core."""
    return {"hf_map": ["rows.csv", "6"], "hf_stream": ["rows.csv", "2"], "wds": ["shards", "split", "3"],
            "mnist": [str(2 * rows), "1"]}


def one(command: list[str], folder: str, env: dict[str, str]) -> tuple[float, float, float]:
    """(the job's own loop seconds, the process's wall seconds, the loop's CPU seconds, workers included)."""
    started = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr[-2000:]}")
    said = dict(line.split()[:2] for line in done.stdout.splitlines() if line.startswith("loop_"))
    return float(said["loop_s"]), wall, float(said["loop_cpu_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--rows", type=int, default=4000, help="CSV rows (the MNIST-shaped job has twice as many)")
    parser.add_argument("--jobs", default=",".join(jobs.SCRIPTS))
    args = parser.parse_args()
    names = args.jobs.split(",")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder)
        jobs.write_csv(path, args.rows)
        jobs.write_shards(path, shards=4, per_shard=args.rows // 8)
        for name in names:
            (path / f"{name}.py").write_text(jobs.SCRIPTS[name])
        env = dict(os.environ, HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1", HF_HOME=str(path / "hf_home"),
                   HF_DATASETS_CACHE=str(path / "hf_cache"), PYTHONPATH=str(Path(__file__).resolve().parents[1]))
        argv = arguments(args.rows)
        results = {name: {"plain": [], "run": []} for name in names}
        for name in names:  # a first plain run fills Hugging Face's cache: no round pays for it
            one([sys.executable, f"{name}.py", *argv[name]], folder, env)
        for r in range(args.rounds):
            for name in names:
                plain = [sys.executable, f"{name}.py", *argv[name]]
                traced = [sys.executable, "-m", "loaderlab", "run", "-o", f"{name}_trace", f"{name}.py", *argv[name]]
                order = [("plain", plain), ("run", traced)]
                for kind, command in (order if r % 2 == 0 else order[::-1]):
                    results[name][kind].append(one(command, folder, env))
            print(f"round {r + 1}/{args.rounds} done (load average {os.getloadavg()[0]:.2f})", flush=True)
    print(f"\n{'job':<10} {'plain loop s':>12} {'run loop s':>10} {'loop speed':>10} {'rounds':>11} "
          f"{'plain CPU s':>11} {'run CPU s':>9} {'CPU speed':>9} {'rounds':>11} {'wall speed':>10}")
    for name in names:
        plain, traced = results[name]["plain"], results[name]["run"]
        med = [statistics.median(x[k] for x in runs) for runs in (plain, traced) for k in (0, 1, 2)]
        spans = []
        for k in (0, 2):  # each round's own ratio, lowest to highest
            ratios = sorted(p[k] / t[k] for p, t in zip(plain, traced))
            spans.append(f"{ratios[0]:.2f}-{ratios[-1]:.2f}x")
        print(f"{name:<10} {med[0]:>12.3f} {med[3]:>10.3f} {med[0] / med[3]:>9.2f}x {spans[0]:>11} "
              f"{med[2]:>11.3f} {med[5]:>9.3f} {med[2] / med[5]:>8.2f}x {spans[1]:>11} {med[1] / med[4]:>9.2f}x")
    print(f"\nmedians of {args.rounds} interleaved rounds; speed = plain / traced (1.00x: tracing is free); "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
