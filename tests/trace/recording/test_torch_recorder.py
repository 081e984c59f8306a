"""record() on a stock torch DataLoader: same batches as iterating it, worker events present, no leaks."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader as TorchDataLoader

import loaderlab
from tests.helpers.processes import live_children
from tests.helpers.torch_datasets import Pairs, RangeStream, label_of, seed_numpy, split_range, sum_collate


def _equal(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b)
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return a == b


def _make(kind: str) -> TorchDataLoader:
    g = torch.Generator().manual_seed(7)
    return {
        "map0": lambda: TorchDataLoader(Pairs(10), batch_size=3, shuffle=True, generator=g),
        "map2": lambda: TorchDataLoader(Pairs(10), batch_size=3, shuffle=True, generator=g, num_workers=2,
                                        worker_init_fn=seed_numpy),
        "no_batch": lambda: TorchDataLoader(Pairs(6), batch_size=None, num_workers=2),
        "collate": lambda: TorchDataLoader(Pairs(9), batch_size=4, num_workers=2, collate_fn=sum_collate),
        "iterable": lambda: TorchDataLoader(RangeStream(0, 11), batch_size=2, num_workers=2,
                                            worker_init_fn=split_range),
        "persistent": lambda: TorchDataLoader(Pairs(8), batch_size=2, shuffle=True, generator=g, num_workers=2,
                                              persistent_workers=True, worker_init_fn=seed_numpy),
    }[kind]()


@pytest.mark.parametrize("kind", ["map0", "map2", "no_batch", "collate", "iterable", "persistent"])
def test_recording_yields_the_same_batches_as_iterating(kind):
    epochs = 2
    torch.manual_seed(0)
    np.random.seed(0)  # num_workers=0 samples draw from the main process's numpy RNG
    direct_loader = _make(kind)
    direct = [batch for _ in range(epochs) for batch in direct_loader]
    del direct_loader
    torch.manual_seed(0)
    np.random.seed(0)  # num_workers=0 samples draw from the main process's numpy RNG
    recorded = []
    frame = loaderlab.record(_make(kind), epochs=epochs, consumer=recorded.append)
    assert len(direct) == len(recorded) > 0
    assert all(_equal(a, b) for a, b in zip(direct, recorded))
    assert (frame.kind == "batch_yield").sum() == len(direct)
    assert live_children() == []


def test_worker_fetch_events_name_the_batch_and_index_the_sampler_gave():
    frame = loaderlab.record(_make("map2"), sample_info=label_of)
    sampled = {(int(r.batch), i) for r in frame[frame.kind == "sampler_yield"].itertuples()
               for i in r.indices}
    fetched = frame[frame.kind == "fetch_end"]
    assert len(fetched) == 10  # every sample, including each worker's last batch (flushed at worker exit)
    assert {(int(b), int(i)) for b, i in zip(fetched["batch"], fetched["index"])} == sampled
    assert sorted(frame.loc[frame.kind == "worker_exit", "worker"]) == [0, 1]
    assert set(fetched["worker"]) == {0, 1}
    assert list(fetched.sort_values("index")["label"]) == [i % 4 for i in range(10)]
    assert (frame.kind == "worker_ready").sum() == 2
    assert frame.attrs["loader"]["recorded_from"] == "torch.utils.data.DataLoader"
    assert "index_put" not in set(frame["kind"])  # torch hides its queues: simply absent


def test_the_users_loader_is_left_as_it_was():
    loader = _make("collate")
    before = (loader.dataset, loader.collate_fn, loader.sampler, loader.batch_sampler, loader.worker_init_fn)
    loaderlab.record(loader)
    assert (loader.dataset, loader.collate_fn, loader.sampler, loader.batch_sampler, loader.worker_init_fn) == before
    assert [b[1] for b in loader] == [[0, 1, 2, 3], [0, 1, 2, 3], [0]]
