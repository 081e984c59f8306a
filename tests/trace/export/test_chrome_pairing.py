"""The Chrome export's pairing shortcut (begins and ends that alternate on each track) against its sort by key."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from loaderlab.engine import events as ev
from loaderlab.trace.export import chrome_events as ce
from tests.helpers.fetch_shapes import SHAPES, bend, interleave


def _table(rng: np.random.Generator, shape: str) -> pd.DataFrame:
    """Fetch rows of three worker processes interleaved in time, each fetching one sample at a time, with
    collate spans between batches; ``shape`` bends worker 1's stream (see fetch_shapes)."""
    streams = []
    for worker in (0, 1, 2):
        rows = []
        for k, index in enumerate(rng.integers(0, 6, size=8)):  # repeats: one sample twice in a batch
            key = dict(pid=100 + worker, worker=worker, epoch=0, batch=k // 4, index=int(index))
            rows += [dict(kind=ev.FETCH_BEGIN, **key), dict(kind=ev.FETCH_END, **key)]
            if k % 4 == 3:
                rows += [dict(kind=kind, **dict(key, index=-1)) for kind in (ev.COLLATE_BEGIN, ev.COLLATE_END)]
        streams.append(bend(rows, shape, last_end=-3) if worker == 1 else rows)
    f = pd.DataFrame(interleave(streams, rng))
    f["t_ns"] = np.arange(len(f), dtype=np.int64) * 1000
    return f


def _spans(p: ce.Pairs) -> list[tuple]:
    return sorted(zip(p.begin.tolist(), p.end.tolist(), p.name.tolist()))


@pytest.mark.parametrize("shape", SHAPES)
def test_the_shortcut_pairs_as_the_sort_by_key_does(shape, monkeypatch):
    taken = []
    real = ce._alternating

    def spy(*args):
        out = real(*args)
        taken.append(out is not None)
        return out

    for seed in range(30):
        r = ce.table_rows(_table(np.random.default_rng(seed), shape))
        with monkeypatch.context() as m:
            m.setattr(ce, "_alternating", spy)
            fast = ce.pair_spans(r)
        with monkeypatch.context() as m:
            m.setattr(ce, "_alternating", lambda *a: None)
            slow = ce.pair_spans(r)
        assert _spans(fast) == _spans(slow)
        np.testing.assert_array_equal(fast.unmatched_ends, slow.unmatched_ends)
        np.testing.assert_array_equal(fast.unfinished, slow.unfinished)
    fetches = taken[0::2]  # each table asks for fetches, then collates
    assert all(taken[1::2])  # the collates alternate in every shape
    assert all(fetches) if shape in ("plain", "no_last_end") else not any(fetches)
