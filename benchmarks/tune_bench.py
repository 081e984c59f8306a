"""``run --tune`` against plain re-runs, on ordinary stock-loader scripts (issue 33, item 5).

Run: ``.venv/bin/python benchmarks/tune_bench.py`` (every script in benchmarks/tune_scripts/; ``--only NAME``:
those scripts, repeatable, a name without ``.py``; ``--quick``: one plain run of each setting and one tuned run;
``--burner``: everything again beside a CPU burner, a process spinning on one core for the whole pass
(``--burner-only``: that pass alone);
``--json FILE``: the rows as JSON; ``--tune-budget B`` and ``--tune-trace-epochs N``: passed to ``run --tune``;
``--timeout S``: per run;
``--scripts DIR``: the scripts of another folder, fresh ones of your own that read the settings as these do;
``--epochs N``: every run of every script, tuned, plain ``loaderlab run`` and plain A/B alike, runs N epochs
(``LL_EPOCHS=N``; by default each its own count), so that ``--tune`` gets more rounds on a longer job).

For each script:

1. it runs once under ``python -m loaderlab run --tune --tune-budget B -o T script.py``; ``report T --json``
   gives the measured suggestion (``suggestions[i].measured``: its ``change`` and ``speedup``; none where
   ``--tune`` says to keep the settings); then once under plain ``python -m loaderlab run`` (no ``--tune``),
   whose ``report --json`` gives the model's first-ranked suggestion (``measured`` false), what the model
   alone would have said of the job's own setting (under ``--tune`` the model reads the events recorded
   with the adopted setting, if it lists any suggestion at all; ``--no-model`` skips this run and takes
   the model's first from the ``--tune`` report);
2. the plain script (no loaderlab) runs with its own settings (A) and with the measured change (B), taken in
   turn A B A B A B so that the machine's drift falls on both alike; the real speed-up is the ratio of the
   medians of their loop times. A change is applied through the environment (``LL_NUM_WORKERS``,
   ``LL_PREFETCH``, ``LL_PIN``: each script's own settings are its defaults, see tune_scripts/_common.py);
3. the job's time under ``--tune`` against the plain job with the best setting (the measured change, or the
   script's own where ``--tune`` kept it): the overhead ratio, which issue 33 wants at most 1.1 ("run
   alone": the plain ``loaderlab run`` of step 1 against the plain job with its own settings, the part of
   the overhead that is tracing, not tuning; one run). With
   ``--tune-runs N`` (3 by default, 1 with ``--quick``) the tuned job runs N times, the later ones among
   the plain runs' rounds, and the ratio is of medians.

Times are each script's own loop time (its last line, ``loop_s=SECONDS``: set-up such as writing the image
files is left out; the interpreter's start and imports too, which would dilute every ratio alike); the
whole process's wall time is in ``--json`` beside it. "within 20 %": |real / measured - 1| <= 0.2. An
IterableDataset's row must say that ``--tune`` could not switch its settings (``tuning.skipped``).

Every run is a fresh process group with a timeout; the group is killed after the run (its DataLoader
workers included) and the burner at the end, on an error or Ctrl-C too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCRIPTS = os.path.join(HERE, "tune_scripts")
ENV_KEYS = {"num_workers": "LL_NUM_WORKERS", "prefetch_factor": "LL_PREFETCH", "pin_memory": "LL_PIN"}
EPOCHS_KEY = "LL_EPOCHS"  # how many epochs a script runs (--epochs; unset: the script's own count)
# The scripts are short (3-6 s, a few hundred batches): at run --tune's default of 10 % no setting gets two
# rounds (a slice is at least 10 batches, a setting's first slice starts it up), at 30 % some get none
BUDGET = "50%"
LOOP = re.compile(r"loop_s=([0-9.]+)\s*$")


@dataclass
class Run:
    """One process: its loop time (from the script's last line), its wall time, and why it failed if it did."""

    loop_s: float | None
    wall_s: float
    error: str = ""


@dataclass
class Row:
    script: str
    pass_: str  # "quiet" or "burner"
    tune_error: str = ""
    skipped: str = ""  # tuning.skipped (an IterableDataset: "iterable")
    skipped_text: str = ""
    stopped: str = ""  # why tuning ended: budget, rounds, job_ended
    tuned_batches: int = 0
    spent_s: float | None = None
    budget_s: float | None = None
    measured_change: dict = field(default_factory=dict)  # empty: keep your settings
    measured_speedup: float | None = None
    best_unadopted_speedup: float | None = None  # tuning.speedup where the choice was "keep"
    other_measured: list = field(default_factory=list)  # measured changes the harness cannot re-run
    model_change: dict = field(default_factory=dict)
    model_speedup: float | None = None
    model_from: str = ""  # "run": a plain `loaderlab run` of the job's own setting; "tune": the --tune report
    own: list = field(default_factory=list)  # Run dicts, the script's own settings
    changed: list = field(default_factory=list)  # with the measured change
    tuned: list = field(default_factory=list)  # under run --tune
    real_speedup: float | None = None
    within_20: bool | None = None
    real_at_least_1: bool | None = None
    overhead: float | None = None  # median loop time under --tune / median with the best setting
    overhead_wall: float | None = None  # the same for the whole process's wall time
    traced: dict = field(default_factory=dict)  # the Run under plain `loaderlab run` (the model's job)
    run_overhead: float | None = None  # its loop time / the median with the script's own settings: tracing alone


# --- processes ---

class Group:
    """A child in its own process group: killed with everything it started (DataLoader workers) after use."""

    live: set[int] = set()

    @classmethod
    def kill_all(cls) -> None:
        for pgid in list(cls.live):
            cls.kill(pgid)

    @classmethod
    def kill(cls, pgid: int) -> None:
        try:
            os.killpg(pgid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        cls.live.discard(pgid)


def run_process(argv: list[str], env: dict[str, str], timeout: float, cwd: str = ROOT) -> tuple[int, str, str, float]:
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    Group.live.add(proc.pid)
    try:
        out, err = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        Group.kill(proc.pid)
        out, err = proc.communicate()
        rc = -9
        err += f"\n[tune_bench: killed after {timeout:.0f} s]"
    finally:
        Group.kill(proc.pid)  # workers a script leaked, the group's last members
    return rc, out, err, time.perf_counter() - start


def base_env(epochs: int | None = None) -> dict[str, str]:
    """The environment of every run: the settings' keys and ``LL_EPOCHS`` cleared, ``LL_EPOCHS`` set again
    where ``epochs`` is given (``--epochs``)."""
    env = {k: v for k, v in os.environ.items() if k not in ENV_KEYS.values() and k != EPOCHS_KEY}
    env["PYTHONUNBUFFERED"] = "1"
    if epochs is not None:
        env[EPOCHS_KEY] = str(int(epochs))
    return env


def change_env(change: dict, epochs: int | None = None) -> dict[str, str]:
    env = base_env(epochs)
    for key, value in change.items():
        env[ENV_KEYS[key]] = ("1" if value else "0") if key == "pin_memory" else str(int(value))
    return env


def loop_time(rc: int, out: str, err: str, wall: float) -> Run:
    lines = out.strip().splitlines()
    m = LOOP.search(lines[-1]) if lines else None
    if rc == 0 and m:
        return Run(float(m.group(1)), round(wall, 4))
    tail = " | ".join(err.strip().splitlines()[-6:]) or "no output"
    return Run(None, round(wall, 4), f"exit {rc}: {tail}"[-600:])


def plain(script: str, change: dict, timeout: float, epochs: int | None = None) -> Run:
    return loop_time(*run_process([sys.executable, script], change_env(change, epochs), timeout))


def tuned(script: str, budget: str | None, out: str, timeout: float, epochs: int | None = None,
          trace_epochs: str | None = None) -> Run:
    """The script under ``run --tune`` (``budget`` None: under plain ``run``, the model's job); ``trace_epochs``:
    passed as ``--tune-trace-epochs`` (None: run's default)."""
    tune = ["--tune", "--tune-budget", budget] if budget else []
    if budget and trace_epochs is not None:
        tune += ["--tune-trace-epochs", trace_epochs]
    argv = [sys.executable, "-m", "loaderlab", "run", *tune, "-o", out, script]
    return loop_time(*run_process(argv, base_env(epochs), timeout))


def report(trace: str, timeout: float) -> dict[str, Any]:
    rc, out, err, _ = run_process([sys.executable, "-m", "loaderlab", "report", trace, "--json"], base_env(), timeout)
    if rc != 0:
        raise RuntimeError(f"report --json exit {rc}: {(err.strip().splitlines() or [''])[-1]}")
    return json.loads(out)


class Burner:
    """A process spinning on one core for as long as it lives."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-c", "while True: pass"], start_new_session=True)
        Group.live.add(self.proc.pid)

    def stop(self) -> None:
        Group.kill(self.proc.pid)
        self.proc.wait()


# --- reading the report ---

def parse_change(change: Any) -> dict:
    """A suggestion's ``change``: ``{"num_workers": 4}``, or ``"num_workers=4, prefetch_factor=4"`` where a
    report written before 2026-12-08 gave a measured one as text."""
    if isinstance(change, dict):
        return dict(change)
    out = {}
    for part in str(change or "").split(","):
        if "=" in part:
            key, value = (s.strip() for s in part.split("=", 1))
            out[key] = value == "True" if value in ("True", "False") else int(value)
    return out


def read_tuning(doc: dict[str, Any], row: Row) -> None:
    tuning = doc.get("tuning") or {}
    row.skipped = tuning.get("skipped") or ""
    row.skipped_text = " ".join(tuning.get("text") or []) if row.skipped else ""
    row.stopped = tuning.get("stopped") or ""
    row.tuned_batches = tuning.get("tuned_batches") or 0
    row.spent_s, row.budget_s = tuning.get("spent_s"), tuning.get("budget_s")
    if tuning.get("keep") and tuning.get("speedup"):
        row.best_unadopted_speedup = round(tuning["speedup"], 3)
    suggestions = doc.get("suggestions") or []
    measured = [s for s in suggestions if s.get("measured")]
    model = [s for s in suggestions if not s.get("measured")]
    # a measured change the scripts cannot take from the environment (batch_size, "measured without your
    # step") is listed, not re-run
    row.other_measured = [s.get("change") for s in measured if not set(parse_change(s.get("change"))) <= set(ENV_KEYS)]
    measured = [s for s in measured if set(parse_change(s.get("change"))) <= set(ENV_KEYS)]
    if measured:
        row.measured_change = parse_change(measured[0].get("change"))
        row.measured_speedup = measured[0].get("speedup")
    if model:
        read_model(model[0], row)


def read_model(suggestion: dict[str, Any], row: Row) -> None:
    row.model_change = parse_change(suggestion.get("change"))
    row.model_speedup = suggestion.get("speedup")
    row.model_from = "tune" if row.model_from == "" else row.model_from


def read_model_run(doc: dict[str, Any], row: Row) -> None:
    model = [s for s in doc.get("suggestions") or [] if not s.get("measured")]
    row.model_change, row.model_speedup, row.model_from = {}, None, "run"
    if model:
        read_model(model[0], row)


def med(runs: list[dict], key: str = "loop_s") -> float | None:
    values = [r[key] for r in runs if r.get("loop_s") is not None]
    return statistics.median(values) if values else None


def bench_script(name: str, args: argparse.Namespace, pass_: str, tmp: str) -> Row:
    script = os.path.join(args.scripts, name + ".py")
    row = Row(name, pass_)
    log = lambda msg: print(f"  [{pass_}] {name}: {msg}", file=sys.stderr, flush=True)  # noqa: E731
    trace = os.path.join(tmp, f"{name}-{pass_}")
    epochs = args.epochs
    first = tuned(script, args.tune_budget, trace, args.timeout, epochs, args.tune_trace_epochs)
    row.tuned.append(asdict(first))
    if first.error:
        row.tune_error = first.error
        log(f"--tune failed: {first.error}")
        return row
    try:
        read_tuning(report(trace + ".lltrace", args.timeout), row)
    except (RuntimeError, ValueError) as e:
        row.tune_error = str(e)[:200]
        log(f"report failed: {row.tune_error}")
    if not args.no_model:
        model = Run(None, 0.0)
        try:
            model = tuned(script, None, trace + "-model", args.timeout, epochs)
            if not model.error:
                read_model_run(report(trace + "-model.lltrace", args.timeout), row)
                row.traced = asdict(model)
        except (RuntimeError, ValueError) as e:
            model.error = str(e)[:200]
        if model.error:
            log(f"the model's run failed: {model.error}")
    change = row.measured_change
    log(f"--tune: {fmt_change(change, row)} ({fmt(row.measured_speedup)}), loop {first.loop_s:.2f} s; "
        f"model: {fmt_change(row.model_change)}")
    rounds = 1 if args.quick else args.runs
    tune_runs = 1 if args.quick else args.tune_runs
    for i in range(rounds):
        row.own.append(asdict(plain(script, {}, args.timeout, epochs)))
        if change:
            row.changed.append(asdict(plain(script, change, args.timeout, epochs)))
        if i + 1 < tune_runs:
            row.tuned.append(asdict(tuned(script, args.tune_budget, f"{trace}-{i + 1}", args.timeout, epochs,
                                          args.tune_trace_epochs)))
        log(f"round {i + 1}: own {row.own[-1]['loop_s']}" + (f", changed {row.changed[-1]['loop_s']}" if change else "")
            + (f", tuned {row.tuned[-1]['loop_s']}" if i + 1 < tune_runs else ""))
    own, new, tune = med(row.own), med(row.changed), med(row.tuned)
    if change and own and new:
        row.real_speedup = round(own / new, 3)
        row.real_at_least_1 = row.real_speedup >= 1.0
        if row.measured_speedup:
            row.within_20 = abs(row.real_speedup / row.measured_speedup - 1) <= 0.2
    if row.traced.get("loop_s") and own:
        row.run_overhead = round(row.traced["loop_s"] / own, 3)
    best = new if change else own
    if tune and best:
        row.overhead = round(tune / best, 3)
        best_wall = med(row.changed if change else row.own, "wall_s")
        row.overhead_wall = round(med(row.tuned, "wall_s") / best_wall, 3) if best_wall else None
    return row


# --- the table ---

def fmt(x: float | None, suffix: str = "x") -> str:
    return "–" if x is None else f"{x:.2f}{suffix}"


def fmt_change(change: dict, row: Row | None = None) -> str:
    if row is not None and row.skipped:
        return f"skipped ({row.skipped})"
    if row is not None and row.tune_error:
        return "error"
    if not change:
        return "keep" if row is not None else "none"
    return ", ".join(f"{k}={v}" for k, v in change.items())


def yes_no(x: bool | None) -> str:
    return "–" if x is None else ("yes" if x else "**no**")


def table(rows: list[Row]) -> str:
    head = ["script", "pass", "measured change", "measured", "real", "within 20 %?", "real ≥ 1.0?",
            "tune overhead", "run alone", "model's first pick"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        model = fmt_change(r.model_change) + (f" ({fmt(r.model_speedup)})" if r.model_speedup else "")
        lines.append("| " + " | ".join([
            r.script, r.pass_, fmt_change(r.measured_change, r), fmt(r.measured_speedup), fmt(r.real_speedup),
            yes_no(r.within_20), yes_no(r.real_at_least_1), fmt(r.overhead), fmt(r.run_overhead), model]) + " |")
    return "\n".join(lines)


def summary(rows: list[Row]) -> str:
    changed = [r for r in rows if r.measured_change]
    over = [r for r in rows if r.overhead is not None]
    iterable = [r for r in rows if r.skipped]
    return (f"{len(rows)} rows: {len(changed)} with a measured change, "
            f"{sum(bool(r.within_20) for r in changed)} within 20 %, "
            f"{sum(bool(r.real_at_least_1) for r in changed)} real >= 1.0; "
            f"overhead <= 1.1 in {sum(r.overhead <= 1.1 for r in over)} of {len(over)}; "
            f"{len(iterable)} skipped ({', '.join(r.script for r in iterable) or 'none'}); "
            f"{sum(bool(r.tune_error) for r in rows)} errors")


def scripts(only: list[str] | None, folder: str = SCRIPTS) -> list[str]:
    names = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))
    if not only:
        return names
    wanted = [n[:-3] if n.endswith(".py") else n for n in only]
    unknown = [n for n in wanted if n not in names]
    if unknown:
        raise SystemExit(f"--only: no script {', '.join(unknown)} in {folder}; "
                         f"the scripts are: {', '.join(names)}")
    return wanted


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", metavar="NAME", help="only this script (repeatable)")
    p.add_argument("--quick", action="store_true", help="one plain run of each setting, one tuned run")
    p.add_argument("--burner", action="store_true", help="run everything again beside a CPU burner")
    p.add_argument("--burner-only", action="store_true", help="only the pass beside a CPU burner")
    p.add_argument("--runs", type=int, default=3, help="plain runs of each setting (default 3)")
    p.add_argument("--tune-runs", type=int, default=3, help="runs under --tune for the overhead (default 3)")
    p.add_argument("--tune-trace-epochs", default=None, metavar="N",
                   help="passed to run --tune (a number or 'all'; default: run's own, one epoch)")
    p.add_argument("--tune-budget", default=BUDGET, help="passed to run --tune (default " + BUDGET.replace("%", "%%") + ")")
    p.add_argument("--timeout", type=float, default=180.0, help="seconds a run may take (default 180)")
    p.add_argument("--epochs", type=int, metavar="N",
                   help="every run of every script runs N epochs (LL_EPOCHS=N; default: each script's own)")
    p.add_argument("--json", metavar="FILE", help="write the rows as JSON")
    p.add_argument("--no-model", action="store_true",
                   help="skip the plain `loaderlab run` that gives the model's first pick")
    p.add_argument("--keep-traces", metavar="DIR", help="write the --tune traces there (default: a temporary folder)")
    p.add_argument("--scripts", metavar="DIR", default=SCRIPTS,
                   help="run the scripts of this folder instead (scripts of your own, written as tune_scripts' are)")
    args = p.parse_args(argv)
    args.scripts = os.path.abspath(args.scripts)
    if args.runs < 1 or args.tune_runs < 1 or args.timeout <= 0:
        p.error("--runs and --tune-runs must be at least 1, --timeout above 0")
    if args.epochs is not None and args.epochs < 1:
        p.error("--epochs must be at least 1")
    if not os.path.isdir(args.scripts):
        p.error(f"--scripts: no folder {args.scripts}")
    names = scripts(args.only, args.scripts)
    rows: list[Row] = []
    started = time.perf_counter()
    burner = None

    def on_term(signum, frame):  # noqa: ANN001
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    try:
        with tempfile.TemporaryDirectory(prefix="tune_bench_") as tmp:
            if args.keep_traces:
                os.makedirs(args.keep_traces, exist_ok=True)
                tmp = args.keep_traces
            passes = ["burner"] if args.burner_only else ["quiet"] + (["burner"] if args.burner else [])
            for pass_ in passes:
                if pass_ == "burner":
                    burner = Burner()
                for name in names:
                    rows.append(bench_script(name, args, pass_, tmp))
                if burner is not None:
                    burner.stop()
                    burner = None
    except KeyboardInterrupt:
        print("interrupted: the rows so far", file=sys.stderr)
    finally:
        if burner is not None:
            burner.stop()
        Group.kill_all()
    print(table(rows))
    print()
    print(summary(rows) + f"; {time.perf_counter() - started:.0f} s in all")
    for r in rows:
        if r.tune_error:
            print(f"error: {r.script} ({r.pass_}): {r.tune_error}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump([asdict(r) for r in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
