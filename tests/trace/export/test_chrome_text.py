"""The Chrome export's number texts: written as json.dumps writes them, by whichever path Arrow takes."""

from __future__ import annotations

import json

import numpy as np

from loaderlab.trace.export import chrome_text as ct


def test_microseconds_read_as_json_dumps_writes_them():
    rng = np.random.default_rng(0)
    ns = np.r_[np.arange(0, 3000), rng.integers(0, 10**13, 20_000), 10**15 + np.arange(1000)]
    expected = [json.dumps(round(int(v) / 1000, 3)) for v in ns]
    assert ct._micros(ns).to_pylist() == expected


def test_ints_read_as_str_whether_few_or_many_values():
    rng = np.random.default_rng(1)
    few = rng.integers(-1, 7, 50_000)  # a track, an epoch: picked from a table of texts
    many = rng.integers(-(2**40), 2**40, 50_000)  # indices: cast one by one
    short = np.array([3, -1, 12])
    for values in (few, many, short, np.zeros(0, np.int64)):
        assert ct._ints(values).to_pylist() == [str(int(v)) for v in values]
