"""Vectorised analysis agrees with the per-row loops it replaced, on small recorded traces.

Each ``old_*`` function here is the loop as it was (kept only as an oracle); a big trace would take it
seconds to minutes, the vectorised version a fraction of that (benchmarks/big_trace.py)."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.engine import events as ev
from loaderlab.trace.tables import audits, processes
from loaderlab.trace.core.lookups import main_pid, normal, rows, trace_end
from loaderlab.trace.core import lookups
from tests.helpers.datasets import MapDataset


def mixed_labels(index, sample):
    return [0, 1.0, "cat", True, None, float("nan"), "rng:5", 2.0][int(index) % 8], int(index) + 1


@pytest.fixture(scope="module")
def traces() -> dict[str, pd.DataFrame]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = {
            "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
            "single": record(DataLoader(MapDataset(8), batch_size=2), sample_info=mixed_labels),
            "persistent": record(DataLoader(MapDataset(16), batch_size=2, num_workers=2, in_order=False,
                                            persistent_workers=True), epochs=2, sample_info=mixed_labels),
            "ints": record(DataLoader(MapDataset(12), batch_size=3, num_workers=2),
                           sample_info=lambda i, s: (int(i) % 3, 1)),
        }
    out["cut_short"] = out["workers"].iloc[:len(out["workers"]) // 2].reset_index(drop=True)
    out["no_exits"] = out["workers"][out["workers"]["kind"] != ev.WORKER_EXIT].reset_index(drop=True)
    return out


def old_worker_processes(frame: pd.DataFrame) -> pd.DataFrame:
    """processes.worker_processes as a per-process loop (the first version): the oracle."""
    f = normal(frame)
    mp = main_pid(f)
    own = f[(f["worker"] >= 0) & (f["pid"] != mp)]
    starts = rows(f, ev.WORKER_START).copy()
    starts["wpid"] = starts["arg0"]
    main_exits = rows(f, ev.WORKER_EXIT)
    main_exits = main_exits[main_exits["pid"] == mp]
    out = []
    for pid, g in own.groupby("pid", sort=False):
        st = starts[starts["wpid"] == pid]
        # The epoch main started it in: a worker's own events before its first task say epoch 0 (engine quirk).
        worker = int(g["worker"].iloc[0])
        tasks = g[g["batch"] >= 0]
        epoch = int(st["epoch"].iloc[0] if len(st) else tasks["epoch"].iloc[0] if len(tasks) else g["epoch"].iloc[0])
        ready = g[g["kind"] == ev.WORKER_READY]["t_s"]
        exit_ = g[g["kind"] == ev.WORKER_EXIT]["t_s"]
        first_s = float(g["t_s"].iloc[0])
        gone = main_exits[(main_exits["worker"] == worker) & (main_exits["t_s"] >= first_s)]["t_s"]
        exit_s = float(exit_.iloc[0]) if len(exit_) else math.nan
        main_exit_s = float(gone.iloc[0]) if len(gone) else math.nan
        end_s = np.nanmin([exit_s, main_exit_s]) if not (math.isnan(exit_s) and math.isnan(main_exit_s)) \
            else trace_end(f)
        # A stack is sent from a signal handler when asked, even by a worker stuck inside __getitem__: it is
        # no sign of progress, so it is not the worker's "last event".
        acts = g[g["kind"] != ev.STACK]
        last = acts if len(acts) else g
        out.append({"pid": int(pid), "worker": worker, "epoch": epoch,
                    "start_s": float(st["t_s"].iloc[0]) if len(st) else math.nan,
                    "ready_s": float(ready.iloc[0]) if len(ready) else math.nan,
                    "first_s": first_s, "last_s": float(last["t_s"].iloc[-1]), "last_kind": str(last["kind"].iloc[-1]),
                    "exit_s": exit_s, "main_exit_s": main_exit_s, "end_s": float(end_s)})
    cols = ["pid", "worker", "epoch", "start_s", "ready_s", "first_s", "last_s", "last_kind", "exit_s",
            "main_exit_s", "end_s"]
    return pd.DataFrame(out, columns=cols).sort_values(["first_s"]).reset_index(drop=True)


NAMES = ["workers", "single", "persistent", "ints", "cut_short", "no_exits"]


@pytest.mark.parametrize("name", NAMES)
def test_worker_processes_equals_the_loop(traces, name):
    pd.testing.assert_frame_equal(processes.worker_processes(traces[name]), old_worker_processes(traces[name]))


@pytest.mark.parametrize("name", NAMES)
def test_labels_are_worked_out_per_distinct_value_as_per_cell(traces, name):
    labels = traces[name]["label"]
    typed = lambda values: [(type(v), v if v == v else "nan") for v in values]  # noqa: E731
    assert typed(audits.plain_labels(labels)) == typed(audits.plain_label(v) for v in labels)
    assert audits.per_label(labels, audits.is_class).tolist() == [audits.is_class(v) for v in labels]


def test_labels_that_hash_alike_stay_apart():
    labels = pd.Series([1, True, 1.0, None, math.nan, np.int64(1), "1"], dtype=object)
    assert [type(v) for v in audits.plain_labels(labels)] == [int, bool, int, type(None), type(None), int, str]
    assert audits.per_label(labels, audits.is_class).tolist() == [True, True, True, False, True, True, True]


def test_a_table_with_attrs_is_normal_without_a_copy(traces):
    frame = traces["workers"]
    assert frame.attrs  # record() keeps the loader's settings there
    out = normal(frame)
    assert not out.attrs and frame.attrs  # the caller's table keeps its own
    assert np.shares_memory(out["t_ns"].to_numpy(), frame["t_ns"].to_numpy())


def old_intervals_where(series: pd.DataFrame, test, end: float) -> list[tuple[float, float]]:
    t, d = series["t_s"].to_list(), series["depth"].to_list()
    out = []
    for i, depth in enumerate(d):
        hi = t[i + 1] if i + 1 < len(t) else end
        if test(depth) and hi > t[i]:
            if out and out[-1][1] == t[i]:
                out[-1] = (out[-1][0], hi)
            else:
                out.append((t[i], hi))
    return out


def old_intersect(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    i = j = 0
    out = []
    while i < len(a) and j < len(b):
        lo, hi = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if hi > lo:
            out.append((lo, hi))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def test_interval_sweeps_equal_the_loops_on_random_steps_and_intervals():
    from loaderlab.trace.tables import utilisation as u

    rng = np.random.default_rng(0)
    for _ in range(2000):
        n = int(rng.integers(0, 12))
        t = np.sort(rng.choice([0.0, 1.0, 1.0, 2.0, 3.0, 3.0, 4.0, 5.0, 6.0], n))  # repeated times too
        series = pd.DataFrame({"t_s": t, "depth": rng.integers(0, 4, n)})
        end = (t[-1] if n else 0.0) + float(rng.integers(0, 3))
        for test in (lambda d: d >= 2, lambda d: d == 0):
            assert u.intervals_where(series, test, end) == old_intervals_where(series, test, end)

        def intervals():
            points = np.sort(rng.choice(20, int(rng.choice([0, 2, 4, 6, 8])), replace=False)).astype(float)
            out = list(zip(points[::2].tolist(), points[1::2].tolist()))
            if out and rng.random() < 0.3:
                out.append((out[-1][1], out[-1][1] + 1.0))  # touching its neighbour
            return out

        a, b = intervals(), intervals()
        assert u._intersect(a, b) == old_intersect(a, b)
