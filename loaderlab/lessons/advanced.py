"""Lessons 11–14: ``WeightedRandomSampler`` and class imbalance, ``pin_memory``, ``DistributedSampler`` and
``set_epoch``, ``timeout`` and a stuck worker.

Answers come from the recorded run: the realised class share, where the pin stage ran, whether a rank drew
the same order twice, whether the loop got torch's timeout error and which sample was stuck. Knows pandas
and the trace analysis; nothing of plotly or streamlit.
"""

from __future__ import annotations

import pandas as pd

from ..engine import events as ev
from ..trace.tables.audits import label_audit
from ..trace.tables.waits import stage_spans
from ..trace.core.lookups import main_pid, normal, rows
from .lesson import BASE, config_of, Lesson, loader_settings, Outcome
from .runs import distributed_run, timeout_run

MINORITY = 1  # synthetic data: label 0 has share ``imbalance``, label 1 the rest


# 11 WeightedRandomSampler ---------------------------------------------------------------------------

def weighted_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    audit = label_audit(frame)
    epoch = audit.per_epoch[audit.per_epoch["epoch"] == 0].set_index("label")
    share = float(epoch["share"].get(MINORITY, 0.0))
    data = 1 - float(config_of(frame)["imbalance"])
    cover = audit.coverage.iloc[0]
    params = {"share": share, "data": data, "count": int(epoch["count"].get(MINORITY, 0)), "drawn": int(cover["drawn"]),
                  "distinct": int(cover["distinct"]), "repeats": int(cover["repeats"]),
                  "sampler": loader_settings(frame).get("sampler")}
    targets = {"data": data, "balanced": 0.5, "all": 1.0}
    return min(targets, key=lambda k: abs(targets[k] - share)), params


def _minority(settings) -> dict:
    return {"data": 1 - settings["imbalance"]}


# 12 pin_memory --------------------------------------------------------------------------------------

def pin_answer(frame: pd.DataFrame) -> tuple[str, dict]:
    f = normal(frame)
    pins = rows(f, ev.PIN_BEGIN)
    params = {"pinned": len(pins), "skipped": int(pins["detail"].str.startswith("skipped").sum()),
                  "pid": main_pid(f), "batches": int((f["kind"] == ev.BATCH_YIELD).sum())}
    if not len(pins):
        return "none", params
    return ("main_thread" if (pins["pid"] == params["pid"]).all() else "workers"), params


def pin_code(settings) -> str:
    return ("import torch\n\n"
            "device = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
            f"loader = torch.utils.data.DataLoader(dataset, batch_size={settings['batch_size']}, "
            f"num_workers={settings['num_workers']},\n"
            f"                                     pin_memory={settings['pin_memory']})\n"
            "for tokens, labels in loader:\n"
            "    tokens = tokens.to(device, non_blocking=True)  # from pinned memory: the copy overlaps compute\n")


# 13 DistributedSampler and set_epoch ----------------------------------------------------------------

def _show(values, most: int = 8) -> str:
    values = list(values)
    return ", ".join(str(v) for v in values[:most]) + (", …" if len(values) > most else "")


def distributed_answer(outcome: Outcome) -> tuple[str, dict]:
    table = outcome.table
    order = {(r.rank, r.epoch): list(r.indices) for r in table.itertuples()}
    first, second = order[(0, 0)], order[(0, 1)]
    overlap = len(set(first) & set(order.get((1, 0), [])))
    params = {"first": _show(first), "second": _show(second), "overlap": overlap, "per_rank": len(first),
                  "ranks": int(table["rank"].nunique())}
    if first == second:
        return "same", params
    return ("other_rank" if second == order.get((1, 0)) else "new"), params


def rank_table(outcome: Outcome) -> pd.DataFrame:
    table = outcome.table
    return pd.DataFrame({"rank": table["rank"], "epoch": table["epoch"],
                         "indices": [_show(i, 16) for i in table["indices"]]})


def distributed_code(settings) -> str:
    call = "    sampler.set_epoch(epoch)  # a new shuffle each epoch\n" if settings["set_epoch"] else \
        "    # sampler.set_epoch(epoch) is missing: every epoch repeats epoch 0's order\n"
    return ("import torch\n"
            "from torch.utils.data.distributed import DistributedSampler\n\n"
            "rank = 0  # this process's rank; under torchrun: int(os.environ['RANK'])\n"
            f"sampler = DistributedSampler(dataset, num_replicas={settings['num_replicas']}, rank=rank, "
            "shuffle=True, seed=0)\n"
            f"loader = torch.utils.data.DataLoader(dataset, batch_size={settings['batch_size']}, sampler=sampler)\n"
            f"for epoch in range({settings['epochs']}):\n" + call + "    for batch in loader:\n        ...\n")


# 14 timeout and a stuck worker ----------------------------------------------------------------------

def timeout_answer(outcome: Outcome) -> tuple[str, dict]:
    f = normal(outcome.frame)
    errors = rows(f, ev.ERROR)
    timed_out = bool((errors["detail"] == "timeout").any())
    fetch = stage_spans(f)
    fetch = fetch[fetch["stage"] == "fetch"]
    if timed_out:  # the sample a worker was inside when the loop gave up (it may finish during shutdown)
        t_err = float(errors.loc[errors["detail"] == "timeout", "t_s"].iloc[0])
        stuck = fetch[(fetch["start_s"] < t_err) & (fetch["open"] | (fetch["end_s"] > t_err))]
        slow = stuck.loc[stuck["start_s"].idxmin()]
    else:
        slow = fetch.loc[fetch["duration_s"].idxmax()]
    handed = int((f["kind"] == ev.BATCH_YIELD).sum())
    params = {"message": outcome.error, "worker": int(slow["worker"]), "index": int(slow["index"]),
                  "batch": int(slow["batch"]), "handed": handed, "timeout": loader_settings(outcome.frame)["timeout"],
                  "slow_s": float(slow["duration_s"])}
    return ("raises" if timed_out else "waits"), params


LESSONS = (
    Lesson(11, "weighted", ("data", "balanced", "all"),
           {**BASE, "n_samples": 200, "imbalance": 0.9, "sampler": "weighted", "replacement": True,
            "batch_size": 20, "num_workers": 0, "cost_ms": 0.0, "consumer_ms": 0.0},
           weighted_answer, "4_Sampling_and_imbalance", figure="labels", prompt=_minority),
    Lesson(12, "pin", ("main_thread", "workers", "loop", "none"),
           {**BASE, "n_samples": 16, "pin_memory": True, "cost_ms": 0.5}, pin_answer, "6_Pinned_memory",
           code=pin_code),
    Lesson(13, "distributed", ("same", "new", "other_rank"),
           {"n_samples": 16, "num_replicas": 2, "epochs": 2, "set_epoch": False, "batch_size": 4}, distributed_answer,
           "4_Sampling_and_imbalance", figure="none", table=rank_table, runner=distributed_run, config_run=False,
           code=distributed_code, link={**BASE, "n_samples": 16, "shuffle": True, "epochs": 2}),
    Lesson(14, "timeout", ("waits", "raises", "skips", "restarts"),
           {**BASE, "n_samples": 12, "batch_size": 2, "straggler_index": 5, "straggler_ms": 1000.0,
            "timeout": 0.5}, timeout_answer, "3_Worker_timelines", runner=timeout_run),
)
