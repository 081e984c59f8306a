"""Differential tests: ``loaderlab.DataLoader`` must yield exactly what ``torch.utils.data.DataLoader`` yields.

For each configuration both loaders are built from the same arguments (samplers and generators built
afresh for each side, from each side's own sampler classes), with every RNG reset to the same seed
before each, and their outputs are compared strictly: nested structure, Python types, dtypes,
shapes, values (``torch.equal``), order, ``len(loader)``, and the global torch RNG / generator state
left behind (so that both draw the same random numbers in the same order).

Set ``LOADERLAB_TEST_SELF=torch`` to run the suite with torch on both sides (checks the tests
themselves).
"""

from __future__ import annotations

import os
import pickle
import random
import subprocess
import sys
import textwrap
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pytest
import torch
import torch.utils.data as TORCH

from tests.helpers.datasets import (
    GetItemsDataset,
    MapDataset,
    Point,
    RangeIterable,
    SeedDataset,
    SeedIterable,
    ShardedIterable,
    SizedRangeIterable,
    StructuredDataset,
    WorkerInfoDataset,
    identity_collate,
    seed_numpy_worker_init_fn,
    sum_collate,
)

from tests.helpers.oracle import OURS

REPO = Path(__file__).resolve().parents[2]


# --------------------------------------------------------------------------------------------------
# guard: a hung loader fails its test instead of hanging the session
# --------------------------------------------------------------------------------------------------



# --------------------------------------------------------------------------------------------------
# strict structural comparison
# --------------------------------------------------------------------------------------------------


def assert_same(ref, got, path="batch"):
    """``got`` must equal ``ref`` in structure, Python type, dtype, shape and value."""
    assert type(got) is type(ref), f"{path}: type {type(got).__name__} != torch's {type(ref).__name__}"
    if isinstance(ref, torch.Tensor):
        assert got.dtype == ref.dtype, f"{path}: dtype {got.dtype} != torch's {ref.dtype}"
        assert got.shape == ref.shape, f"{path}: shape {tuple(got.shape)} != torch's {tuple(ref.shape)}"
        assert got.device == ref.device, f"{path}: device {got.device} != torch's {ref.device}"
        assert torch.equal(got, ref), f"{path}: values {got.tolist()} != torch's {ref.tolist()}"
    elif isinstance(ref, np.ndarray):
        assert got.dtype == ref.dtype, f"{path}: dtype {got.dtype} != torch's {ref.dtype}"
        assert got.shape == ref.shape, f"{path}: shape {got.shape} != torch's {ref.shape}"
        assert np.array_equal(got, ref), f"{path}: values {got.tolist()} != torch's {ref.tolist()}"
    elif isinstance(ref, Mapping):
        assert list(got.keys()) == list(ref.keys()), f"{path}: keys {list(got)} != torch's {list(ref)}"
        for k in ref:
            assert_same(ref[k], got[k], f"{path}[{k!r}]")
    elif isinstance(ref, (list, tuple)):
        assert len(got) == len(ref), f"{path}: length {len(got)} != torch's {len(ref)}"
        for i, (r, g) in enumerate(zip(ref, got)):
            assert_same(r, g, f"{path}[{i}]")
    else:
        assert got == ref, f"{path}: {got!r} != torch's {ref!r}"


def canonical(x):
    """A hashable, order-insensitive-free description of a batch (used to sort unordered outputs)."""
    if isinstance(x, torch.Tensor):
        return ("T", str(x.dtype), tuple(x.shape), tuple(x.flatten().tolist()))
    if isinstance(x, np.ndarray):
        return ("N", str(x.dtype), x.shape, tuple(x.flatten().tolist()))
    if isinstance(x, Mapping):
        return ("M", tuple((k, canonical(v)) for k, v in x.items()))
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(canonical(v) for v in x))
    return ("V", type(x).__name__, repr(x))


def tensor_leaves(x, path="batch"):
    if isinstance(x, torch.Tensor):
        yield path, x
    elif isinstance(x, Mapping):
        for k, v in x.items():
            yield from tensor_leaves(v, f"{path}[{k!r}]")
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from tensor_leaves(v, f"{path}[{i}]")


def len_or_error(obj):
    try:
        return len(obj)
    except Exception as e:  # noqa: BLE001 - compared against torch's
        return (type(e), str(e))


# --------------------------------------------------------------------------------------------------
# running one loader
# --------------------------------------------------------------------------------------------------


def gen(seed):
    return None if seed is None else torch.Generator().manual_seed(seed)


def seed_everything(seed):
    torch.manual_seed(seed)
    random.seed(seed)
    np.random.seed(seed)


@dataclass
class Run:
    length: Any
    epochs: list
    rng_after: torch.Tensor
    gen_after: Any


def run_loader(mod, dataset, kwargs_fn, *, seed=0, epochs=1, reseed_before_iter=None):
    """Build ``mod.DataLoader(dataset, **kwargs_fn(mod, dataset))`` with all RNGs at ``seed`` and
    iterate it ``epochs`` times. ``reseed_before_iter`` re-seeds the global RNGs between construction
    and the first ``iter()``."""
    seed_everything(seed)
    kwargs = kwargs_fn(mod, dataset)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. "This DataLoader will create 3 worker processes"
        loader = mod.DataLoader(dataset, **kwargs)
        length = len_or_error(loader)
        if reseed_before_iter is not None:
            seed_everything(reseed_before_iter)
        out = [list(loader) for _ in range(epochs)]
    g = kwargs.get("generator")
    rng_after = torch.get_rng_state()
    del loader
    return Run(length, out, rng_after, None if g is None else g.get_state())


def assert_runs_equal(ref: Run, got: Run, *, ordered=True):
    assert got.length == ref.length, f"len(loader): {got.length!r} != torch's {ref.length!r}"
    assert len(got.epochs) == len(ref.epochs)
    for e, (rb, gb) in enumerate(zip(ref.epochs, got.epochs)):
        assert len(gb) == len(rb), f"epoch {e}: {len(gb)} batches != torch's {len(rb)}"
        if not ordered:
            rb = sorted(rb, key=lambda b: repr(canonical(b)))
            gb = sorted(gb, key=lambda b: repr(canonical(b)))
        for k, (r, g) in enumerate(zip(rb, gb)):
            assert_same(r, g, f"epoch {e} batch {k}")
    assert torch.equal(got.rng_after, ref.rng_after), "global torch RNG state after the run differs from torch's"
    if ref.gen_after is not None:
        assert torch.equal(got.gen_after, ref.gen_after), "generator state after the run differs from torch's"


# --------------------------------------------------------------------------------------------------
# the configuration matrix
# --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    dataset: Callable[[], Any]
    kwargs: Callable[[Any, Any], dict]
    epochs: int = 1
    ordered: bool = True
    seed: int = 0
    reseed_before_iter: int | None = None
    marks: tuple = field(default=())


def kw(**fixed):
    """kwargs that do not depend on the module (no samplers, no generator objects)."""
    return lambda m, d: dict(fixed)


def kwg(gen_seed, **fixed):
    """kwargs with a fresh ``generator=torch.Generator().manual_seed(gen_seed)`` per side."""
    return lambda m, d: dict(fixed, generator=gen(gen_seed))


CASES: list[Case] = []


def case(id, dataset, kwargs, **opts):
    CASES.append(Case(id, dataset, kwargs, **opts))


def mapds(n=13):
    return lambda: MapDataset(n)


# 1. batch_size x drop_last x num_workers (map-style, sequential)
for nw in (0, 1, 2, 3):
    for bs, dl in ((1, False), (3, False), (3, True), (4, True), (None, False)):
        case(f"map-nw{nw}-bs{bs}-droplast{int(dl)}", mapds(), kw(batch_size=bs, drop_last=dl, num_workers=nw))

# 2. shuffle: global seed only / generator; reseeding between construction and iteration
for nw in (0, 2):
    for gseed in (None, 7):
        for bs in (3, None):
            case(
                f"shuffle-nw{nw}-gen{gseed}-bs{bs}",
                mapds(),
                kwg(gseed, shuffle=True, batch_size=bs, num_workers=nw),
                epochs=2,
                seed=1234,
            )
for nw in (0, 2):
    case(f"shuffle-reseed-before-iter-nw{nw}", mapds(), kw(shuffle=True, batch_size=4, num_workers=nw), epochs=2, reseed_before_iter=99)
case("shuffle-seed0-nw1-droplast", mapds(), kw(shuffle=True, batch_size=3, drop_last=True, num_workers=1), epochs=2)


# 3. every sampler kind (built from each side's own sampler classes), num_workers 0 and 2
def _weights(n=13):
    return [float(1 + (i % 4)) for i in range(n)]


SAMPLERS = {
    "sequential": lambda m, d: dict(sampler=m.SequentialSampler(d), batch_size=3),
    "random": lambda m, d: dict(sampler=m.RandomSampler(d), batch_size=3),
    "random-gen": lambda m, d: dict(sampler=m.RandomSampler(d, generator=gen(3)), batch_size=3),
    "random-replacement-n50": lambda m, d: dict(sampler=m.RandomSampler(d, replacement=True, num_samples=50), batch_size=4),
    "random-replacement-gen-n7": lambda m, d: dict(
        sampler=m.RandomSampler(d, replacement=True, num_samples=7, generator=gen(11)), batch_size=3
    ),
    "random-noreplacement-n30": lambda m, d: dict(sampler=m.RandomSampler(d, num_samples=30), batch_size=4, drop_last=True),
    "subset-random": lambda m, d: dict(sampler=m.SubsetRandomSampler([0, 2, 4, 6, 8, 10, 12]), batch_size=3),
    "subset-random-gen": lambda m, d: dict(sampler=m.SubsetRandomSampler([12, 1, 5, 5, 3], generator=gen(4)), batch_size=2),
    "weighted-replacement": lambda m, d: dict(sampler=m.WeightedRandomSampler(_weights(), 20, replacement=True), batch_size=3),
    "weighted-noreplacement-gen": lambda m, d: dict(
        sampler=m.WeightedRandomSampler(_weights(), 8, replacement=False, generator=gen(5)), batch_size=3
    ),
    "plain-list-sampler": lambda m, d: dict(sampler=[5, 3, 3, 0, 12, 7], batch_size=4),
    "random-sampler-bsNone": lambda m, d: dict(sampler=m.RandomSampler(d), batch_size=None),
    "batch-sampler-random": lambda m, d: dict(
        batch_sampler=m.BatchSampler(m.RandomSampler(d, generator=gen(9)), 4, drop_last=False)
    ),
    "batch-sampler-droplast": lambda m, d: dict(batch_sampler=m.BatchSampler(m.SequentialSampler(d), 5, True)),
    "plain-list-of-lists-batch-sampler": lambda m, d: dict(batch_sampler=[[0, 1], [5], [2, 2, 2], [12, 0]]),
}
for name, fn in SAMPLERS.items():
    for nw in (0, 2):
        case(f"sampler-{name}-nw{nw}", mapds(), lambda m, d, fn=fn, nw=nw: dict(fn(m, d), num_workers=nw), epochs=2, seed=5)

# 4. prefetch_factor
for nw, pf in ((1, 1), (2, 1), (2, 2), (2, 4), (3, 4)):
    case(f"prefetch-nw{nw}-pf{pf}", mapds(), kw(batch_size=3, num_workers=nw, prefetch_factor=pf))

# 5. in_order=False: delivery order is legitimately nondeterministic -> compared as sorted multisets
case("unordered-map-nw2-pf1", mapds(), kw(batch_size=3, num_workers=2, prefetch_factor=1, in_order=False), ordered=False)
case(
    "unordered-map-shuffle-gen-nw3",
    mapds(),
    kwg(8, shuffle=True, batch_size=2, num_workers=3, in_order=False),
    ordered=False,
    epochs=2,
)
case("unordered-iterable-nw2", lambda: RangeIterable(7), kw(batch_size=3, num_workers=2, in_order=False), ordered=False)
case(
    "unordered-sharded-nw3-droplast",
    lambda: ShardedIterable(14),
    kw(batch_size=2, drop_last=True, num_workers=3, in_order=False),
    ordered=False,
)
case(
    "unordered-persistent-nw2",
    mapds(),
    kw(batch_size=2, num_workers=2, in_order=False, persistent_workers=True),
    ordered=False,
    epochs=2,
)
case("in-order-true-explicit-nw3", mapds(), kw(batch_size=2, num_workers=3, in_order=True))
case("in-order-false-nw0", mapds(), kw(batch_size=2, num_workers=0, in_order=False))  # no workers: ordered

# 6. persistent workers over several epochs
case("persistent-shuffle-nw2", mapds(), kw(shuffle=True, batch_size=3, num_workers=2, persistent_workers=True), epochs=3)
case("persistent-shuffle-gen-nw2", mapds(), kwg(21, shuffle=True, batch_size=3, num_workers=2, persistent_workers=True), epochs=2)
case("persistent-iterable-nw2", lambda: RangeIterable(5), kw(batch_size=3, num_workers=2, persistent_workers=True), epochs=2)
case(
    "persistent-sharded-block-nw3",
    lambda: ShardedIterable(7, mode="block"),
    kw(batch_size=2, num_workers=3, persistent_workers=True),
    epochs=2,
)
case("persistent-bsNone-nw1", mapds(), kw(batch_size=None, num_workers=1, persistent_workers=True), epochs=2)
case(
    "persistent-seeds-nw2",
    lambda: SeedDataset(8),
    kw(batch_size=None, num_workers=2, persistent_workers=True),
    epochs=2,
)

# 7. custom collate_fn
for nw in (0, 2):
    case(f"collate-sum-nw{nw}", mapds(), kw(batch_size=3, num_workers=nw, collate_fn=sum_collate))
case("collate-identity-bsNone-nw2", mapds(), kw(batch_size=None, num_workers=2, collate_fn=identity_collate))
case("collate-identity-dict-nw2", lambda: StructuredDataset(6, "dict"), kw(batch_size=2, num_workers=2, collate_fn=identity_collate))

# 8. worker_init_fn seeding numpy (and the RNG probes with the default seeding)
for nw in (1, 3):
    case(f"init-fn-seed-numpy-nw{nw}", lambda: SeedDataset(9), kw(batch_size=None, num_workers=nw, worker_init_fn=seed_numpy_worker_init_fn))
case("init-fn-seed-numpy-bs3-nw2", lambda: SeedDataset(9), kw(batch_size=3, num_workers=2, worker_init_fn=seed_numpy_worker_init_fn))
case("seed-probe-shuffle-gen-nw2", lambda: SeedDataset(10), kwg(17, batch_size=None, shuffle=True, num_workers=2), seed=3)

# 9. structured samples (dict / namedtuple / numpy / string / tuple)
for kind in StructuredDataset.KINDS:
    for nw, bs in ((0, 3), (2, 4), (2, None)):
        case(f"structured-{kind}-nw{nw}-bs{bs}", lambda kind=kind: StructuredDataset(10, kind), kw(batch_size=bs, num_workers=nw))

# 10. __getitems__
for nw in (0, 2):
    for bs in (3, None):
        case(f"getitems-nw{nw}-bs{bs}", lambda: GetItemsDataset(11), kw(batch_size=bs, num_workers=nw))
case("getitems-shuffle-droplast-nw2", lambda: GetItemsDataset(11), kwg(2, batch_size=4, shuffle=True, drop_last=True, num_workers=2))

# 11. iterable-style datasets: non-sharded (duplicates across workers), sharded, sized
for nw, bs, dl in ((0, 1, False), (1, 3, False), (2, 3, True), (2, 4, False), (3, None, False), (3, 2, False)):
    case(f"iterable-dup-nw{nw}-bs{bs}-droplast{int(dl)}", lambda: RangeIterable(7), kw(batch_size=bs, drop_last=dl, num_workers=nw))
for nw, bs, dl in ((0, 3, False), (2, 3, False), (3, 4, True), (2, None, False)):
    case(f"iterable-sharded-stride-nw{nw}-bs{bs}-droplast{int(dl)}", lambda: ShardedIterable(14), kw(batch_size=bs, drop_last=dl, num_workers=nw))
for nw, bs, dl in ((3, 2, False), (3, 2, True), (2, 3, False)):
    case(
        f"iterable-sharded-block-n7-nw{nw}-bs{bs}-droplast{int(dl)}",
        lambda: ShardedIterable(7, mode="block"),
        kw(batch_size=bs, drop_last=dl, num_workers=nw),
    )
for nw, bs, dl in ((0, 3, False), (2, 3, False), (2, 2, True), (2, None, False)):
    case(f"iterable-sized-nw{nw}-bs{bs}-droplast{int(dl)}", lambda: SizedRangeIterable(5), kw(batch_size=bs, drop_last=dl, num_workers=nw))
case("iterable-seed-probe-nw2", lambda: SeedIterable(4), kw(batch_size=None, num_workers=2), seed=11)
case("iterable-seed-probe-nw3-bs2", lambda: SeedIterable(4), kwg(6, batch_size=2, num_workers=3))


@pytest.mark.parametrize("c", CASES, ids=[c.id for c in CASES])
def test_batches_match_torch(c: Case):
    ds = c.dataset()
    opts = dict(seed=c.seed, epochs=c.epochs, reseed_before_iter=c.reseed_before_iter)
    ref = run_loader(TORCH, ds, c.kwargs, **opts)
    got = run_loader(OURS, ds, c.kwargs, **opts)
    assert_runs_equal(ref, got, ordered=c.ordered)


def test_matrix_is_meaningful():
    """Sanity of the matrix itself: ids unique, and it really exercises workers and every sampler kind."""
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert any("nw3" in i for i in ids) and any("pf4" in i for i in ids)


def test_torch_samplers_are_accepted_by_ours():
    """Drop-in: torch's own sampler objects (not LoaderLab's) drive our loader to the same batches."""
    for name, fn in SAMPLERS.items():
        ref = run_loader(TORCH, MapDataset(13), lambda m, d: dict(fn(TORCH, d), num_workers=0), seed=2)
        got = run_loader(OURS, MapDataset(13), lambda m, d: dict(fn(TORCH, d), num_workers=0), seed=2)
        assert_runs_equal(ref, got)


def test_default_collate_and_convert_match_torch():
    for kind in StructuredDataset.KINDS:
        ds = StructuredDataset(4, kind)
        samples = [ds[i] for i in range(4)]
        assert_same(TORCH.default_collate(samples), OURS.default_collate(samples), f"default_collate[{kind}]")
        for s in samples:
            assert_same(TORCH.default_convert(s), OURS.default_convert(s), f"default_convert[{kind}]")
    ds = MapDataset(5)
    assert_same(TORCH.default_collate([ds[i] for i in range(5)]), OURS.default_collate([ds[i] for i in range(5)]))


def test_namedtuple_type_survives():
    """Collated namedtuples keep their class (``Point``) - not a plain tuple or list."""
    got = next(iter(OURS.DataLoader(StructuredDataset(4, "namedtuple"), batch_size=2, num_workers=1)))
    assert type(got) is Point


# --------------------------------------------------------------------------------------------------
# get_worker_info() and per-worker seeding
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("nw", [1, 3])
@pytest.mark.parametrize("persistent", [False, True])
def test_worker_info_matches_torch(nw, persistent):
    def kwargs(m, d):
        return dict(batch_size=None, num_workers=nw, persistent_workers=persistent)

    ds = WorkerInfoDataset(9)
    ref = run_loader(TORCH, ds, kwargs, seed=31, epochs=2)
    got = run_loader(OURS, ds, kwargs, seed=31, epochs=2)
    # torch: ids round-robin, num_workers, seed = base_seed + id, info.dataset is the indexed object
    assert {s[1] for s in ref.epochs[0]} == set(range(nw))
    assert all(s[4] is True and s[5] == "WorkerInfoDataset" for s in ref.epochs[0])
    assert_runs_equal(ref, got)


def test_get_worker_info_is_none_in_main_process():
    assert OURS.get_worker_info() is None
    assert TORCH.get_worker_info() is None
    # and during single-process loading too
    got = list(OURS.DataLoader(WorkerInfoDataset(3), batch_size=None, num_workers=0))
    assert [list(s[1:6]) for s in got] == [[None] * 5] * 3  # default_convert: tuple -> list


def test_ours_get_worker_info_answers_inside_our_workers():
    """``loaderlab.get_worker_info`` (the exported one) works inside LoaderLab workers like torch's."""
    ds = WorkerInfoViaDataset(4)
    got = list(OURS.DataLoader(ds, batch_size=None, num_workers=2))
    ref = list(TORCH.DataLoader(WorkerInfoViaTorchDataset(4), batch_size=None, num_workers=2))
    assert [list(g[:2]) for g in got] == [list(r[:2]) for r in ref] == [[0, 2], [1, 2], [0, 2], [1, 2]]
    assert all(g[2] is True for g in got)


class WorkerInfoViaDataset(TORCH.Dataset):
    """Calls the *exported* ``get_worker_info`` of the implementation under test (fork-only)."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        info = OURS.get_worker_info()
        return (info.id, info.num_workers, info.dataset is self)


class WorkerInfoViaTorchDataset(WorkerInfoViaDataset):
    def __getitem__(self, i):
        info = TORCH.get_worker_info()
        return (info.id, info.num_workers, info.dataset is self)


@pytest.mark.parametrize(
    "nw,gseed,init_fn",
    [(0, None, None), (2, None, None), (3, None, None), (2, 5, None), (2, None, seed_numpy_worker_init_fn)],
    ids=["nw0", "nw2", "nw3", "nw2-generator", "nw2-init-fn"],
)
@pytest.mark.parametrize("seed", [0, 2024])
def test_worker_seeds_match_torch(nw, gseed, init_fn, seed):
    """Per-worker (numpy, random, torch) draws and info.seed equal torch's for the same base seed."""

    def kwargs(m, d):
        return dict(batch_size=None, num_workers=nw, worker_init_fn=init_fn, generator=gen(gseed))

    ds = SeedDataset(12)
    ref = run_loader(TORCH, ds, kwargs, seed=seed, epochs=2)
    got = run_loader(OURS, ds, kwargs, seed=seed, epochs=2)
    if nw:
        # sanity on torch: workers differ from each other, epochs differ (fresh base seed)
        assert len({s[5] for s in ref.epochs[0]}) == nw
        assert ref.epochs[0] != ref.epochs[1]
    assert_runs_equal(ref, got)


def test_seeds_differ_between_fresh_global_seeds():
    """The probe really depends on the base seed (guards against a test that cannot fail)."""

    def kwargs(m, d):
        return dict(batch_size=None, num_workers=2)

    a = run_loader(OURS, SeedDataset(4), kwargs, seed=1)
    b = run_loader(OURS, SeedDataset(4), kwargs, seed=2)
    assert a.epochs != b.epochs


# --------------------------------------------------------------------------------------------------
# IterableDataset: duplicates and the length warning
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("nw", [2, 3])
def test_iterable_duplicates_reproduced_like_torch(nw):
    def kwargs(m, d):
        return dict(batch_size=None, num_workers=nw)

    ds = RangeIterable(6)
    ref = run_loader(TORCH, ds, kwargs)
    got = run_loader(OURS, ds, kwargs)
    # torch: every worker yields the whole range, interleaved worker by worker
    items = [(int(t[1]), int(t[2])) for t in ref.epochs[0]]
    assert sorted(items) == sorted((i, w) for i in range(6) for w in range(nw))
    assert items[:nw] == [(0, w) for w in range(nw)]
    assert_runs_equal(ref, got)


LENGTH_WARNING_START = "Length of IterableDataset"


def _length_warnings(mod, *, nw, bs, call_len, epochs=1, persistent=False):
    """Iterate and record, for each yielded batch, the length warnings emitted while fetching it."""
    ds = SizedRangeIterable(5)
    kwargs = dict(batch_size=bs, num_workers=nw)
    if persistent:
        kwargs["persistent_workers"] = True
    loader = mod.DataLoader(ds, **kwargs)
    record = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if call_len == "before":
            record.append(("len", len(loader)))
        for e in range(epochs):
            it = iter(loader)
            if call_len == "after-iter" and e == 0:
                record.append(("len", len(loader)))
            k = 0
            while True:
                start = len(caught)
                try:
                    next(it)
                except StopIteration:
                    break
                record.append(
                    (e, k, [(w.category, str(w.message)) for w in caught[start:] if str(w.message).startswith(LENGTH_WARNING_START)])
                )
                k += 1
            del it
    del loader
    return record


@pytest.mark.parametrize(
    "nw,bs,call_len,epochs,persistent,torch_warns",
    [
        (0, None, "before", 1, False, False),
        (0, 2, "before", 1, False, False),
        (2, None, "before", 1, False, True),  # 10 samples > len 5
        (2, 2, "before", 1, False, True),  # 6 batches > 5: torch compares batches with len(dataset)
        (2, 3, "before", 1, False, False),  # 4 batches <= 5 (although len(loader) == 2)
        (2, 2, "never", 1, False, False),
        (2, None, "after-iter", 1, False, False),  # len() after iter(): that iterator does not know it
        (2, None, "after-iter", 2, False, True),  # ... but the 2nd epoch's fresh iterator does
        (2, 2, "before", 2, True, True),
        (2, 2, "after-iter", 2, True, True),  # persistent: the 2nd epoch's reset picks it up
    ],
)
def test_iterable_length_warning_matches_torch(nw, bs, call_len, epochs, persistent, torch_warns):
    ref = _length_warnings(TORCH, nw=nw, bs=bs, call_len=call_len, epochs=epochs, persistent=persistent)
    got = _length_warnings(OURS, nw=nw, bs=bs, call_len=call_len, epochs=epochs, persistent=persistent)
    assert any(r[2] for r in ref if r[0] != "len") == torch_warns
    assert got == ref


# --------------------------------------------------------------------------------------------------
# shared memory
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "make,kwargs",
    [
        (lambda: MapDataset(8), dict(batch_size=3, num_workers=2)),
        (lambda: MapDataset(8), dict(batch_size=None, num_workers=2)),
        (lambda: MapDataset(8), dict(batch_size=3, num_workers=0)),
        (lambda: MapDataset(8), dict(batch_size=3, num_workers=2, collate_fn=identity_collate)),
        (lambda: StructuredDataset(6, "dict"), dict(batch_size=2, num_workers=1)),
        (lambda: StructuredDataset(6, "numpy"), dict(batch_size=None, num_workers=1)),
        (lambda: RangeIterable(4), dict(batch_size=2, num_workers=2)),
    ],
    ids=["map-bs3", "map-bsNone", "map-nw0", "identity-collate", "dict", "numpy-bsNone", "iterable"],
)
def test_batches_from_workers_are_shared_like_torch(make, kwargs):
    ds = make()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = list(TORCH.DataLoader(ds, **kwargs))
        got = list(OURS.DataLoader(ds, **kwargs))
    ref_shared = [(p, t.is_shared()) for b in ref for p, t in tensor_leaves(b)]
    got_shared = [(p, t.is_shared()) for b in got for p, t in tensor_leaves(b)]
    assert ref_shared, "no tensors to check"
    if kwargs["num_workers"]:
        assert all(s for _, s in ref_shared), "torch: tensors from workers are in shared memory"
    assert got_shared == ref_shared


# --------------------------------------------------------------------------------------------------
# other start methods (slow: spawn/forkserver workers import torch afresh)
# --------------------------------------------------------------------------------------------------


START_METHOD_SCRIPT = textwrap.dedent(
    """
    import importlib, os, pickle, random, sys
    import numpy as np
    import torch
    import torch.utils.data as TORCH
    from tests.helpers.datasets import SeedDataset

    method, out = sys.argv[1], sys.argv[2]
    OURS = TORCH if os.environ.get("LOADERLAB_TEST_SELF") == "torch" else importlib.import_module("loaderlab")

    def run(mod):
        torch.manual_seed(0); random.seed(0); np.random.seed(0)
        loader = mod.DataLoader(SeedDataset(7), batch_size=2, num_workers=2, shuffle=True,
                                generator=torch.Generator().manual_seed(13), multiprocessing_context=method)
        batches = list(loader)
        shared = [t.is_shared() for b in batches for t in b]
        return batches, shared, torch.get_rng_state()

    if __name__ == "__main__":
        result = {"torch": run(TORCH), "ours": run(OURS)}
        with open(out, "wb") as f:
            pickle.dump(result, f)
    """
)


@pytest.mark.slow
@pytest.mark.parametrize("method", ["spawn", "forkserver"])
def test_start_method_smoke(method, tmp_path):
    """One config per start method. Runs in a child interpreter, so that the forkserver and the
    resource tracker these start methods leave behind die with it instead of haunting later tests."""
    out = tmp_path / "result.pkl"
    proc = subprocess.run(
        [sys.executable, "-c", START_METHOD_SCRIPT, method, str(out)],
        cwd=REPO,
        env=dict(os.environ, PYTHONPATH=str(REPO)),
        capture_output=True,
        text=True,
        timeout=80,  # under the 90 s hang guard of conftest.py
    )
    assert proc.returncode == 0, proc.stderr
    with open(out, "rb") as f:
        result = pickle.load(f)
    ref_batches, ref_shared, ref_rng = result["torch"]
    got_batches, got_shared, got_rng = result["ours"]
    assert len(ref_batches) == 4 and {w for b in ref_batches for w in b[1].tolist()} == {0, 1}
    assert_same(ref_batches, got_batches, "batches (seed probes)")
    assert got_shared == ref_shared, "is_shared() of the batch tensors differs from torch's"
    assert torch.equal(ref_rng, got_rng), "global torch RNG state after the run differs from torch's"
