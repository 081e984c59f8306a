"""The sampler's order per epoch (``orders.epoch_orders``) and the checks that read the compact table's Arrow
columns without Python lists: the same as from the exact table's lists (the oracle), and the findings too."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.trace.tables.orders import epoch_orders
from loaderlab.trace.tables.waits import throughput
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.core.frame import compact_table
from loaderlab.trace.core.lookups import drawn_per_task, sampler_order
from tests.helpers.datasets import MapDataset, RangeIterable
from tests.helpers import faulty


def _traces() -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {"same order": faulty.order_trace("distributed"), "shuffled": faulty.order_trace("random"),
                "iterable": record(DataLoader(RangeIterable(7), batch_size=3, num_workers=2), epochs=2),
                "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2, shuffle=True), epochs=2),
                "rng": faulty.rng_trace(True)}


TRACES = _traces()


@pytest.mark.parametrize("name", list(TRACES))
def test_epoch_orders_of_the_arrow_column_are_those_of_the_lists(name):
    frame = TRACES[name]
    small = compact_table(frame)
    assert isinstance(small["indices"].dtype, pd.ArrowDtype)
    want = {int(e): [i for idx in g["indices"] for i in (idx or [None])]
            for e, g in sampler_order(frame).groupby("epoch")}
    for table in (frame, small):
        got = epoch_orders(table)
        assert sorted(got) == sorted(want)
        for epoch, (values, none) in got.items():
            assert [None if n else int(v) for v, n in zip(values, none)] == want[epoch]


@pytest.mark.parametrize("name", list(TRACES))
def test_drawn_counts_and_findings_are_the_same_from_the_compact_table(name):
    frame = TRACES[name]
    order = sampler_order(frame).set_index(["epoch", "batch"])["indices"]
    want = order.map(lambda i: len(i) if i is not None else np.nan).astype(float)
    for table in (frame, compact_table(frame)):
        got = drawn_per_task(table)
        assert got.index.tolist() == want.index.tolist() and np.allclose(got, want, equal_nan=True)
    assert repr(all_findings(compact_table(frame))) == repr(all_findings(frame))
    pd.testing.assert_frame_equal(throughput(compact_table(frame)), throughput(frame))


def test_the_same_order_and_rng_findings_are_still_found():
    assert "same_order" in [f.kind for f in all_findings(compact_table(TRACES["same order"]))]
    assert "identical_rng" in [f.kind for f in all_findings(compact_table(TRACES["rng"]))]
