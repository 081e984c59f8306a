"""The worker-process tables grouped with numpy on row positions (``trace/processes.py``) equal what the
pandas groupby version gave (kept here as the oracle, as it was before), on recorded traces — hung, restarted
and persistent workers, out of order — and on a big synthetic one; so do fetch pairs against a merge."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.engine import events as ev
from loaderlab.trace.core.frame import compact_table
from loaderlab.trace.core.lookups import has_kind, main_pid, normal, paired_rows, rows, trace_end
from loaderlab.trace.tables.processes import worker_processes
from loaderlab.trace.tables.processes import worker_tasks
from tests.helpers.fetch_shapes import bend, interleave, SHAPES
from tests.helpers.datasets import MapDataset
from tests.helpers import faulty


# --- the oracle: the groupby implementation these replaced ----------------------------------------------


def oracle_processes(frame: pd.DataFrame) -> pd.DataFrame:
    """processes.worker_processes as a pandas groupby (the version it replaced): the oracle."""
    f = normal(frame)
    mp = main_pid(f)
    cols = ["pid", "worker", "epoch", "start_s", "ready_s", "first_s", "last_s", "last_kind", "exit_s",
            "main_exit_s", "end_s"]
    worker = f["worker"].to_numpy()
    own = f.loc[(worker >= 0) & (f["pid"].to_numpy() != mp), ["pid", "worker", "epoch", "batch", "kind", "t_s"]]
    if not len(own):
        return pd.DataFrame(columns=cols)
    starts = rows(f, ev.WORKER_START)
    starts = starts.assign(wpid=starts["arg0"]).drop_duplicates("wpid")  # the first start named with that pid
    main_exits = rows(f, ev.WORKER_EXIT)
    main_exits = main_exits[main_exits["pid"] == mp]
    by_pid = own.groupby("pid", sort=False)
    first = by_pid.nth(0).set_index("pid")
    # The epoch main started it in: a worker's own events before its first task say epoch 0 (engine quirk).
    task_epoch = own[own["batch"] >= 0].groupby("pid", sort=False)["epoch"].first()
    ready = own[own["kind"] == ev.WORKER_READY].groupby("pid", sort=False)["t_s"].first()
    exit_ = own[own["kind"] == ev.WORKER_EXIT].groupby("pid", sort=False)["t_s"].first()
    # A stack is sent from a signal handler when asked, even by a worker stuck inside __getitem__: it is
    # no sign of progress, so it is not the worker's "last event" (unless it is all the worker sent).
    acts = own[own["kind"] != ev.STACK].groupby("pid", sort=False).nth(-1).set_index("pid")
    last_any = by_pid.nth(-1).set_index("pid")
    start_of = starts.set_index("wpid")
    end_of_trace = trace_end(f)
    out = []
    for pid in first.index:
        w = int(first.at[pid, "worker"])
        epoch = int(start_of.at[pid, "epoch"] if pid in start_of.index
                    else task_epoch.get(pid, first.at[pid, "epoch"]))
        first_s = float(first.at[pid, "t_s"])
        gone = main_exits[(main_exits["worker"] == w) & (main_exits["t_s"] >= first_s)]["t_s"]
        exit_s = float(exit_.get(pid, math.nan))
        main_exit_s = float(gone.iloc[0]) if len(gone) else math.nan
        end_s = np.nanmin([exit_s, main_exit_s]) if not (math.isnan(exit_s) and math.isnan(main_exit_s)) \
            else end_of_trace
        last = acts if pid in acts.index else last_any
        out.append({"pid": int(pid), "worker": w, "epoch": epoch,
                    "start_s": float(start_of.at[pid, "t_s"]) if pid in start_of.index else math.nan,
                    "ready_s": float(ready.get(pid, math.nan)), "first_s": first_s,
                    "last_s": float(last.at[pid, "t_s"]), "last_kind": str(last.at[pid, "kind"]),
                    "exit_s": exit_s, "main_exit_s": main_exit_s, "end_s": float(end_s)})
    return pd.DataFrame(out, columns=cols).sort_values(["first_s"]).reset_index(drop=True)


def oracle_tasks(frame: pd.DataFrame, *, procs: pd.DataFrame | None = None) -> pd.DataFrame:
    """processes.worker_tasks as a pandas groupby (the version it replaced): the oracle."""
    f = normal(frame)
    mp = main_pid(f)
    kinds = (ev.INDEX_GET, ev.FETCH_BEGIN, ev.FETCH_END, ev.COLLATE_BEGIN, ev.COLLATE_END, ev.RESULT_PUT)
    own = rows(f, *kinds, columns=["pid", "worker", "epoch", "batch", "kind", "t_s"])
    own = own[(own["worker"] >= 0) & (own["pid"] != mp) & (own["batch"] >= 0)]
    cols = ["pid", "worker", "epoch", "batch", "start_s", "end_s", "open"]
    if not len(own):
        return pd.DataFrame(columns=cols)
    g = own.groupby(["pid", "worker", "epoch", "batch"], sort=False)
    out = g["t_s"].agg(start_s="min", end_s="max").reset_index()
    # A task is finished by its result_put; in a trace without result_puts (torch's), by its collate_end.
    finish = next((k for k in (ev.RESULT_PUT, ev.COLLATE_END) if has_kind(f, k)), None)
    if finish is None:
        out["open"] = False
    else:
        done = own[own["kind"] == finish][["pid", "epoch", "batch"]].drop_duplicates().assign(_done=True)
        out = out.merge(done, on=["pid", "epoch", "batch"], how="left")
        out["open"] = out["_done"].isna()
    ends = (oracle_processes(f) if procs is None else procs).set_index("pid")["end_s"]
    out.loc[out["open"], "end_s"] = out.loc[out["open"], "pid"].map(ends)
    return out[cols].sort_values(["start_s"]).reset_index(drop=True)


def oracle_pairs(f: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The n-th fetch_begin of a key meets the n-th fetch_end: by cumcount and a merge."""
    b = rows(f, ev.FETCH_BEGIN)[keys + ["t_s"]].rename(columns={"t_s": "start_s"}).reset_index(drop=True)
    e = rows(f, ev.FETCH_END)[keys + ["t_s"]].rename(columns={"t_s": "end_s"}).reset_index(drop=True)
    b["_n"], e["_n"] = b.groupby(keys).cumcount(), e.groupby(keys).cumcount()
    return b.merge(e, on=keys + ["_n"], how="left").drop(columns="_n")


def _traces() -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {"hung": faulty.hang_trace(), "rng": faulty.rng_trace(True),
               "persistent": record(DataLoader(MapDataset(30), batch_size=3, num_workers=3, persistent_workers=True,
                                               in_order=False), epochs=2),
               "restarted": record(DataLoader(MapDataset(12), batch_size=2, num_workers=2), epochs=2)}
    out["cut"] = out["persistent"].iloc[: len(out["persistent"]) * 2 // 3].reset_index(drop=True)
    return out


TRACES = _traces()


@pytest.mark.parametrize("name", list(TRACES))
def test_worker_tables_equal_the_groupby_version(name):
    for frame in (TRACES[name], compact_table(TRACES[name])):
        procs = worker_processes(frame)
        pd.testing.assert_frame_equal(procs, oracle_processes(frame), check_dtype=False)
        pd.testing.assert_frame_equal(worker_tasks(frame, procs=procs), oracle_tasks(frame), check_dtype=False)


@pytest.mark.parametrize("name", list(TRACES))
def test_fetch_pairs_equal_a_merge_on_the_nth_of_each_key(name):
    f = normal(TRACES[name])
    keys = ["pid", "worker", "epoch", "batch", "index"]
    pd.testing.assert_frame_equal(paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, keys), oracle_pairs(f, keys))


def test_a_key_begun_twice_pairs_in_order():
    t = [0.0, 1.0, 2.0, 3.0, 4.0]
    f = pd.DataFrame({"kind": [ev.FETCH_BEGIN, ev.FETCH_BEGIN, ev.FETCH_END, ev.FETCH_END, ev.FETCH_BEGIN],
                      "pid": 7, "worker": 0, "epoch": 0, "batch": 1, "index": 5, "t_s": t})
    got = paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, ["pid", "worker", "epoch", "batch", "index"])
    assert got["start_s"].tolist() == [0.0, 1.0, 4.0]
    assert got["end_s"].tolist()[:2] == [2.0, 3.0] and math.isnan(got["end_s"].iloc[2])


def _fetch_table(rng: np.random.Generator, shape: str) -> pd.DataFrame:
    """Fetch rows of three processes interleaved in time, each fetching one sample at a time (the same
    sample twice in a batch at times); ``shape`` bends the second process's stream (see fetch_shapes)."""
    streams = []
    for pid in (11, 12, 13):
        rows_ = []
        for k, index in enumerate(rng.integers(0, 6, size=8)):  # repeats: sampling with replacement
            key = dict(pid=pid, worker=pid - 11, epoch=0, batch=k // 4, index=int(index))
            rows_ += [dict(kind=ev.FETCH_BEGIN, **key), dict(kind=ev.FETCH_END, **key)]
        streams.append(bend(rows_, shape) if pid == 12 else rows_)
    f = pd.DataFrame(interleave(streams, rng))
    f["t_s"] = np.arange(len(f), dtype=float)
    return f


@pytest.mark.parametrize("shape", SHAPES)
def test_the_alternating_shortcut_gives_what_numbering_every_key_gives(shape):
    from loaderlab.trace.core.groups import Gathered
    from loaderlab.trace.core.lookups import _alternating, _match
    from loaderlab.trace.core.lookups import positions
    keys = ["pid", "worker", "epoch", "batch", "index"]
    taken = 0
    for seed in range(40):
        f = _fetch_table(np.random.default_rng(seed), shape)
        pd.testing.assert_frame_equal(paired_rows(f, ev.FETCH_BEGIN, ev.FETCH_END, keys), oracle_pairs(f, keys))
        at_begin, at_end = positions(f, ev.FETCH_BEGIN), positions(f, ev.FETCH_END)
        fast = _alternating(f, at_begin, at_end, keys)
        if fast is not None:
            taken += 1
            keyed = Gathered(lambda k, f=f: f[k].to_numpy(), (at_begin, at_end), keys)
            np.testing.assert_array_equal(fast, _match(keyed, len(at_begin), len(at_end), keys))
    if shape in ("plain", "no_last_end"):
        assert taken == 40  # the shapes a recording makes take the shortcut
    else:
        assert taken == 0  # the others are numbered key by key
