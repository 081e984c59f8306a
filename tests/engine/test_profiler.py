"""torch.profiler sees the same per-next() span from our iterators as from torch's."""

from __future__ import annotations

import pytest
import torch
from torch.profiler import ProfilerActivity, profile

from tests.helpers.oracle import OURS

TORCH = torch.utils.data


def _span_names(module, num_workers: int) -> set[str]:
    loader = module.DataLoader(list(range(8)), batch_size=2, num_workers=num_workers)
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in loader:
            pass
    return {e.name for e in prof.events() if e.name.startswith("enumerate(DataLoader)")}


@pytest.mark.parametrize("num_workers", [0, 2])
def test_profiler_span_names_match_torch(num_workers):
    expected = _span_names(TORCH, num_workers)
    assert len(expected) == 1
    assert _span_names(OURS, num_workers) == expected
