"""``groups.key_ids``: one id per distinct key, numbered as ``groupby(keys, sort=False).ngroup()`` numbers them
(the oracle), whether the int columns fold into one int64 or not."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from loaderlab.trace.core.groups import key_ids


@pytest.mark.parametrize("seed", range(5))
def test_key_ids_number_keys_as_groupby_does(seed):
    rng = np.random.default_rng(seed)
    n = 2000
    table = pd.DataFrame({"pid": rng.integers(1000, 1010, n).astype("int32"), "worker": rng.integers(-1, 3, n),
                          "epoch": rng.integers(0, 2, n).astype("int32"), "index": rng.integers(-1, 50, n)})
    keys = list(table.columns)
    want = table.groupby(keys, sort=False).ngroup().to_numpy()
    assert (key_ids(table, keys) == want).all()
    wide = table.assign(index=rng.integers(-2**62, 2**62, n))  # ranges too wide to fold: groupby itself
    assert (key_ids(wide, keys) == wide.groupby(keys, sort=False).ngroup().to_numpy()).all()
    text = table.assign(worker=table["worker"].astype(str))  # not all ints: groupby itself
    assert (key_ids(text, keys) == want).all()


@pytest.mark.parametrize("seed", range(3))
def test_few_possible_keys_are_numbered_as_groupby_does(seed):
    rng = np.random.default_rng(seed)  # epoch × batch spans fewer values than rows: the array path
    table = pd.DataFrame({"epoch": rng.integers(0, 3, 5000).astype("int32"), "batch": rng.integers(-1, 40, 5000)})
    assert (key_ids(table, ["epoch", "batch"]) == table.groupby(["epoch", "batch"], sort=False).ngroup()).all()
