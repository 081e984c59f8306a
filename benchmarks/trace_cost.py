"""What tracing an epoch costs inside one ``python -m loaderlab run`` process: traced and untraced epochs in turn.

Run: ``.venv/bin/python benchmarks/trace_cost.py --only text_padding_nw2`` (repeatable; default: the scripts
listed in ``DEFAULT``), ``--epochs 16`` (traced and untraced alike, half each), ``--runs 3``, ``--workers 0``
(the setting each script runs with; ``--workers own`` keeps the script's own).

Why in one process. Two processes of the same plain script on this 2-core machine differ by up to 40 % in their
loop time, so a traced run against a plain one cannot resolve a 10 % cost. Here each epoch of the script's
own loop alternates between the traced clone (``iter(loader)``, as ``run`` hands it) and torch's own
iterator over the same loader (:func:`loaderlab.jobs.patch.torch_iter`: no event, no wrapper), so the
machine's drift falls on both alike; the ratio of the two medians is tracing's cost per epoch, the step
included. The script is a copy of one of ``benchmarks/tune_scripts`` (its ``for epoch in range(epochs(N)):``
/ ``for ... in loader:`` loop rewritten) in a temporary folder. Knows nothing of pandas or streamlit.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, "tune_scripts")
DEFAULT = ["text_padding_nw2", "inmem_small_nw2", "hf_map_csv_nw0", "torch_ops_getitem_nw2", "big_tensors_nw4_cpu"]
LOOP = re.compile(r"(?P<ind> +)for epoch in range\(epochs\(\d+\)\):\n(?P=ind)    for (?P<target>.+) in loader:\n")


def alternating(source: str) -> str:
    """The script with its epoch loop alternating untraced (even) and traced (odd) epochs, printing one
    ``trace_cost traced=SECONDS plain=SECONDS`` line (the medians of each epoch's time) before its own."""
    m = LOOP.search(source)
    if m is None:
        raise ValueError("no `for epoch in range(epochs(N)):` loop with `for ... in loader:` right inside it")
    ind, target = m.group("ind"), m.group("target")
    head = (f"{ind}from loaderlab.jobs.patch import torch_iter as _torch_iter\n"
            f"{ind}import statistics as _st, time as _t\n"
            f"{ind}_times = {{True: [], False: []}}\n"
            f"{ind}for epoch in range(epochs(2)):\n"
            f"{ind}    _traced, _e0 = epoch % 2 == 1, _t.perf_counter()\n"
            f"{ind}    for {target} in (iter(loader) if _traced else _torch_iter(loader)):\n")
    out = source[:m.start()] + head + source[m.end():]
    tail = f"{ind}done(start)"
    if tail not in out:
        raise ValueError("no `done(start)` after the loop")
    return out.replace(tail, f"{ind}    _times[_traced].append(_t.perf_counter() - _e0)\n"
                             f"{ind}print(f'trace_cost traced={{_st.median(_times[True]):.6f}} "
                             f"plain={{_st.median(_times[False]):.6f}}')\n{tail}", 1)


def one_run(folder: str, name: str, epochs: int, workers: str, timeout: float) -> tuple[float, float]:
    """(traced, plain): the medians of one ``run`` of the rewritten script."""
    env = {**os.environ, "LL_EPOCHS": str(epochs), "PYTHONPATH": folder}
    env.pop("LL_NUM_WORKERS", None)
    if workers != "own":
        env["LL_NUM_WORKERS"] = workers
    done = subprocess.run([sys.executable, "-m", "loaderlab", "run", "-o", os.path.join(folder, "trace"),
                           os.path.join(folder, name + ".py")], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=timeout)
    line = next((x for x in done.stdout.splitlines() if x.startswith("trace_cost ")), None)
    if done.returncode != 0 or line is None:
        raise RuntimeError(f"{name}: exit {done.returncode}\n{done.stderr[-2000:]}")
    values = dict(part.split("=") for part in line.split()[1:])
    return float(values["traced"]), float(values["plain"])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", metavar="NAME", help="a script of benchmarks/tune_scripts (repeatable)")
    p.add_argument("--epochs", type=int, default=16, help="epochs of each run, half traced (default 16)")
    p.add_argument("--runs", type=int, default=3, help="runs of each script (default 3)")
    p.add_argument("--workers", default="0", help="num_workers of every run, or 'own' (default 0)")
    p.add_argument("--timeout", type=float, default=300.0, help="seconds a run may take (default 300)")
    args = p.parse_args(argv)
    if args.epochs < 2 or args.runs < 1:
        p.error("--epochs must be 2 or more and --runs 1 or more")
    if args.workers != "own" and not args.workers.isdigit():
        p.error(f"--workers must be a whole number of workers (0 or more) or 'own', not {args.workers!r}")
    folder = tempfile.mkdtemp(prefix="loaderlab-trace-cost-")
    try:
        shutil.copy(os.path.join(SCRIPTS, "_common.py"), folder)
        print(f"{args.epochs} epochs a run (traced and untraced in turn), num_workers={args.workers}, "
              f"{args.runs} runs; per-epoch medians, the ratio of each run and their median")
        for name in args.only or DEFAULT:
            with open(os.path.join(SCRIPTS, name + ".py")) as f:
                source = alternating(f.read())
            with open(os.path.join(folder, name + ".py"), "w") as f:
                f.write(source)
            runs = [one_run(folder, name, args.epochs, args.workers, args.timeout) for _ in range(args.runs)]
            ratios = [t / u for t, u in runs]
            print(f"{name}: traced {statistics.median(t for t, _ in runs):.3f} s, untraced "
                  f"{statistics.median(u for _, u in runs):.3f} s an epoch; ratio "
                  f"{statistics.median(ratios):.2f} ({', '.join(f'{r:.2f}' for r in ratios)})", flush=True)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
