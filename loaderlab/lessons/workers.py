"""Lessons 6–10: ``num_workers`` and index queues, ``prefetch_factor``, ``in_order``, ``persistent_workers``,
worker seeding and ``get_worker_info()``.

Answers come from the recorded run: which worker took a task, how many tasks were out at once, the order
batches were handed over in, how many worker processes started, whether two workers drew equal numbers.
Knows pandas and the trace analysis; nothing of plotly or streamlit.
"""

from __future__ import annotations

import math

import pandas as pd

from ..trace.core.lookups import hand_overs, normal, rows
from ..trace.core.run import as_run
from ..trace.core import kinds
from ..trace.tables.audits import samples
from ..trace.tables.processes import worker_processes
from ..trace.tables.stays import queue_depths
from ..trace.tables.waits import batch_latency, stage_spans, wait_totals
from ..trace.diagnosis.findings import correctness_findings
from .lesson import BASE, Lesson, loader_settings
from .runs import seeding_run

BATCH = 3  # lesson 6 asks who builds this task


def _show(values) -> str:
    return ", ".join(str(v) for v in values)


# 6 num_workers and index queues ---------------------------------------------------------------------

def workers_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    lat = batch_latency(frame)
    worker = lat.loc[lat["batch"] == BATCH, "worker"]
    worker = -1 if not len(worker) or pd.isna(worker.iloc[0]) else int(worker.iloc[0])
    same = lat[lat["worker"].fillna(-1).astype(int) == worker]["batch"].tolist()
    params = {"batch": BATCH, "worker": worker, "same": _show(same),
              "num_workers": loader_settings(frame)["num_workers"]}
    return ("main" if worker < 0 else f"w{worker}"), params


def task_table(frame: pd.DataFrame) -> pd.DataFrame:
    lat = batch_latency(frame)
    out = lat[["batch", "worker", "samples"]].copy()
    out["queue"] = [f"index_queue[{w}]" if pd.notna(w) and w >= 0 else "—" for w in lat["worker"]]
    return out


# 7 prefetch_factor ----------------------------------------------------------------------------------

def _cap(settings) -> dict:
    n_batches = math.ceil(settings["n_samples"] / settings["batch_size"])
    return {"cap": settings["prefetch_factor"] * settings["num_workers"], "n_batches": n_batches}


def prefetch_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    s = loader_settings(frame)
    depths = queue_depths(frame)
    most = int(depths.loc[depths["queue"] == "outstanding", "depth"].max())
    cap, pf = s["prefetch_factor"] * s["num_workers"], s["prefetch_factor"]
    n_batches = len(hand_overs(normal(frame)))
    params = {"most": most, "cap": cap, "prefetch_factor": pf, "num_workers": s["num_workers"], "n_batches": n_batches,
                  "batch_size": s["batch_size"]}
    if most == cap:
        return "cap", params
    if most == pf:
        return "pf", params
    return ("all" if most >= n_batches else "samples"), params


# 8 in_order -----------------------------------------------------------------------------------------

def _slow_batch(frame: pd.DataFrame) -> int:
    fetch = stage_spans(frame)
    fetch = fetch[fetch["stage"] == "fetch"]
    return int(fetch.loc[fetch["duration_s"].idxmax(), "batch"])


def _straggler_batches(settings) -> dict:
    slow = settings["straggler_index"] // settings["batch_size"]
    return {"slow": slow, "after": slow + 1}


def in_order_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    slow = _slow_batch(frame)
    lat = batch_latency(frame).set_index("batch")
    after = slow + 1
    order = hand_overs(normal(frame)).sort_values("position")["batch"].tolist()
    params = {"slow": slow, "after": after, "order": _show(order), "ready_first": bool(lat.at[after, "ready_s"] <
                                                                              lat.at[slow, "ready_s"]),
                  "parked_ms": float(lat.at[after, "parked_s"]) * 1000, "worker": int(lat.at[after, "worker"]),
                  "slow_worker": int(lat.at[slow, "worker"])}
    if order.index(after) < order.index(slow):
        return "before", params
    return ("after" if order.index(after) == order.index(slow) + 1 else "end"), params


def hand_over_table(frame: pd.DataFrame) -> pd.DataFrame:
    lat = batch_latency(frame)
    out = lat[["batch", "worker", "position"]].copy()
    out["parked_ms"] = (lat["parked_s"] * 1000).round(1)
    return out.sort_values("position")


# 9 persistent_workers -------------------------------------------------------------------------------

def persistent_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    s = loader_settings(frame)
    procs = worker_processes(frame)
    epochs = int(as_run(frame).epochs or 1)
    waits = wait_totals(frame)["first_wait_s"].tolist()
    params = {"started": len(procs), "num_workers": s["num_workers"], "epochs": epochs,
                  "first_ms": ", ".join(f"{w * 1000:.0f}" for w in waits)}
    if len(procs) <= s["num_workers"]:
        return "once", params
    return ("per_epoch" if len(procs) <= s["num_workers"] * epochs else "per_batch"), params


def _total(settings) -> dict:
    return {"total": settings["num_workers"] * settings["epochs"]}


def process_table(frame: pd.DataFrame) -> pd.DataFrame:
    procs = worker_processes(frame)
    out = procs[["epoch", "worker", "pid"]].copy()
    out["startup_ms"] = ((procs["ready_s"] - procs["start_s"]) * 1000).round(1)
    return out


# 10 worker seeding and get_worker_info --------------------------------------------------------------

def _seeds(frame: pd.DataFrame) -> dict[int, str]:
    ready = rows(normal(frame), "worker_ready")
    return {int(w): str(seed) for w, seed in zip(ready["worker"], ready["arg0"])}


def seeding_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    found = [f for f in correctness_findings(frame) if f.kind == kinds.IDENTICAL_RNG]
    s = samples(frame, handed_only=False)
    params = {"samples": len(s), "n": len(s["label"].unique()), "workers": len(_seeds(frame)),
                  "seeds": _show(_seeds(frame).values())}
    if found:
        return "same", {**params, "shared": found[0].evidence["shared"], "worker": found[0].worker,
                        "other": found[0].evidence["same_as_worker"]}
    return "different", {**params, "shared": 0, "worker": 1, "other": 0}


def seed_table(frame: pd.DataFrame) -> pd.DataFrame:
    s = samples(frame, handed_only=False)
    seeds = _seeds(frame)
    return pd.DataFrame([{"worker": int(w), "seed": seeds.get(int(w), ""), "samples": len(g),
                          "draws": _show(x.removeprefix("rng:")[:6] for x in g["label"][:4])}
                         for w, g in s.groupby("worker")])


INIT_CODE = {"none": "None", "fixed": "np.random.seed(42)",
             "initial_seed": "np.random.seed(torch.initial_seed() % 2**32)"}


def _init_name(settings) -> dict:
    return {"init": INIT_CODE[settings["worker_init"]]}


def seeding_code(settings) -> str:
    return ("import numpy as np, torch\n\n"
            f"N = {settings['n_samples']}  # samples in the stream\n\n\n"
            "class RandomStream(torch.utils.data.IterableDataset):\n"
            "    def __iter__(self):\n"
            "        info = torch.utils.data.get_worker_info()  # None in the main process\n"
            "        start, step = (info.id, info.num_workers) if info else (0, 1)\n"
            "        for _ in range(start, N, step):  # worker k yields samples k, k+n, …\n"
            "            yield torch.tensor([np.random.random()])\n\n"
            "def worker_init_fn(worker_id):  # only if you reseed numpy yourself:\n"
            "    np.random.seed(torch.initial_seed() % 2**32)  # never a constant\n\n"
            f"loader = torch.utils.data.DataLoader(RandomStream(), batch_size={settings['batch_size']}, "
            f"num_workers={settings['num_workers']})\n")


LESSONS = (
    Lesson(6, "workers", ("w0", "w1", "main", "free"), {**BASE}, workers_answer, "2_Index_queues",
           table=task_table),
    Lesson(7, "prefetch", ("pf", "cap", "samples", "all"),
           {**BASE, "n_samples": 48, "prefetch_factor": 2, "cost_ms": 0.5, "consumer_ms": 15.0},
           prefetch_answer, "2_Index_queues", figure="depths", prompt=_cap),
    Lesson(8, "in_order", ("before", "after", "end"),
           {**BASE, "straggler_index": 10, "straggler_ms": 200.0}, in_order_answer, "3_Worker_timelines",
           table=hand_over_table, prompt=_straggler_batches),
    Lesson(9, "persistent", ("once", "per_epoch", "per_batch"),
           {**BASE, "n_samples": 16, "epochs": 2}, persistent_answer, "3_Worker_timelines", table=process_table,
           prompt=_total),
    Lesson(10, "seeding", ("different", "same", "error"),
           {"n_samples": 16, "batch_size": 2, "num_workers": 2, "worker_init": "none"}, seeding_answer, "1_Event_table",
           table=seed_table, runner=seeding_run, prompt=_init_name, config_run=False, code=seeding_code,
           link={**BASE, "kind": "iterable_sharded", "n_samples": 16}),
)
