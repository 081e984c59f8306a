"""Differential tests: loaderlab.engine.sampler against torch.utils.data as the oracle.

For every sampler we build ours and torch's from identical RNG states and require the same indices,
the same len(), the same exceptions, and the same RNG state afterwards (global and generator).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import torch
import torch.utils.data as tud
from torch.utils.data.dataloader import _InfiniteConstantSampler

from loaderlab.engine import sampler as ll

PAIRS = {
    "SequentialSampler": (ll.SequentialSampler, tud.SequentialSampler),
    "RandomSampler": (ll.RandomSampler, tud.RandomSampler),
    "SubsetRandomSampler": (ll.SubsetRandomSampler, tud.SubsetRandomSampler),
    "WeightedRandomSampler": (ll.WeightedRandomSampler, tud.WeightedRandomSampler),
    "BatchSampler": (ll.BatchSampler, tud.BatchSampler),
}
SEEDS = [0, 1234]


@pytest.fixture(autouse=True)
def _restore_global_rng():
    # These tests reseed the global RNG on purpose; do not leak that into other test modules.
    state = torch.get_rng_state()
    yield
    torch.set_rng_state(state)


def _run(make, seed, use_generator, consume=lambda s: [list(s), list(s)]):
    """Build a sampler from a fresh RNG state, consume it; return everything observable."""
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed + 17) if use_generator else None
    global_before = torch.get_rng_state()
    gen_before = gen.get_state() if gen is not None else None
    s = make(gen)
    try:
        length = len(s)
    except TypeError:  # no __len__ (the message names the class, which differs by design)
        length = TypeError
    out = consume(s)
    return {
        "out": out,
        "len": length,
        "global": torch.get_rng_state(),
        "gen": gen.get_state() if gen is not None else None,
        "global_moved": not torch.equal(global_before, torch.get_rng_state()),
        "gen_moved": gen is not None and not torch.equal(gen_before, gen.get_state()),
    }


def assert_same(make_ours, make_theirs, seed=0, use_generator=False, consume=None):
    kwargs = {} if consume is None else {"consume": consume}
    ours = _run(make_ours, seed, use_generator, **kwargs)
    theirs = _run(make_theirs, seed, use_generator, **kwargs)
    assert ours["out"] == theirs["out"]
    assert ours["len"] == theirs["len"]
    assert torch.equal(ours["global"], theirs["global"]), "global RNG state differs"
    if use_generator:
        assert torch.equal(ours["gen"], theirs["gen"]), "generator state differs"
    return ours


def _iter_only(s):
    iter(s)  # random samplers draw at the first next(), not here
    return []


def assert_same_error(make_ours, make_theirs):
    with pytest.raises(Exception) as theirs:
        make_theirs()
    with pytest.raises(Exception) as ours:
        make_ours()
    assert type(ours.value) is type(theirs.value)
    # Python's own "object of type 'X' has no len()" names the class, and torch's is private.
    theirs_msg = str(theirs.value).replace("'_InfiniteConstantSampler'", "'InfiniteConstantSampler'")
    assert str(ours.value) == theirs_msg
    return ours.value


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("name", sorted(PAIRS))
def test_subclasses_torch_but_implements_its_own_methods(name):
    ours, theirs = PAIRS[name]
    assert issubclass(ours, theirs)
    for method in ("__init__", "__iter__", "__len__"):
        assert method in vars(ours), f"{name}.{method} must be our own"
        assert getattr(ours, method) is not getattr(theirs, method)


def test_random_sampler_num_samples_property_is_ours():
    assert isinstance(vars(ll.RandomSampler)["num_samples"], property)


def test_isinstance_against_torch_classes():
    data = range(5)
    assert isinstance(ll.SequentialSampler(data), tud.SequentialSampler)
    assert isinstance(ll.RandomSampler(data), tud.RandomSampler)
    assert isinstance(ll.SubsetRandomSampler([1, 2]), tud.SubsetRandomSampler)
    assert isinstance(ll.WeightedRandomSampler([1.0, 2.0], 3), tud.WeightedRandomSampler)
    assert isinstance(ll.BatchSampler(data, 2, False), tud.BatchSampler)
    for s in (ll.SequentialSampler(data), ll.BatchSampler(data, 2, False), ll.InfiniteConstantSampler()):
        assert isinstance(s, tud.Sampler)


def test_public_names():
    assert sorted(ll.__all__) == sorted([*PAIRS, "InfiniteConstantSampler"])


# --------------------------------------------------------------------------- SequentialSampler


@pytest.mark.parametrize("data", [range(0), range(1), range(7), list("abcde"), np.zeros(40)])
def test_sequential(data):
    out = assert_same(lambda g: ll.SequentialSampler(data), lambda g: tud.SequentialSampler(data))
    assert out["out"][0] == list(range(len(data)))
    assert not out["global_moved"]
    assert ll.SequentialSampler(data).data_source is data


def test_sequential_reads_length_at_iter_time():
    data = [0, 1, 2]
    ours, theirs = ll.SequentialSampler(data), tud.SequentialSampler(data)
    it_ours, it_theirs = iter(ours), iter(theirs)
    data.append(3)
    assert list(it_ours) == list(it_theirs) == [0, 1, 2]
    assert list(ours) == list(theirs) == [0, 1, 2, 3]
    assert len(ours) == len(theirs) == 4


# --------------------------------------------------------------------------- RandomSampler


def _num_samples_cases(n):
    cases = {None, 1, n - 1, n, n + 1, 2 * n, 3 * n + 2, 31, 32, 33, 64, 65, 100}
    return sorted((c for c in cases if c is None or c > 0), key=lambda c: -1 if c is None else c)


RANDOM_CASES = [
    (n, replacement, num_samples)
    for n in (1, 7, 32, 50)
    for replacement in (False, True)
    for num_samples in _num_samples_cases(n)
]


@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n,replacement,num_samples", RANDOM_CASES)
def test_random(n, replacement, num_samples, seed, use_generator):
    data = range(n)

    def make(cls):
        return lambda g: cls(data, replacement=replacement, num_samples=num_samples, generator=g)

    out = assert_same(make(ll.RandomSampler), make(tud.RandomSampler), seed, use_generator)
    expected = n if num_samples is None else num_samples
    assert out["len"] == expected
    assert all(len(epoch) == expected for epoch in out["out"])
    assert all(0 <= i < n for epoch in out["out"] for i in epoch)
    # Without a generator, the global RNG pays one seed per epoch; with one, only the generator moves.
    assert out["global_moved"] is not use_generator
    # randperm(1) consumes nothing from the generator, so only then may it stand still.
    assert out["gen_moved"] is (use_generator and (n > 1 or replacement))


def test_random_attributes():
    data, g = range(10), torch.Generator()
    s = ll.RandomSampler(data, replacement=True, num_samples=4, generator=g)
    assert (s.data_source, s.replacement, s.num_samples, s.generator) == (data, True, 4, g)
    d = ll.RandomSampler(data)
    assert (d.replacement, d.num_samples, d.generator) == (False, 10, None)


def test_random_num_samples_follows_the_dataset():
    data = [0] * 5
    ours, theirs = ll.RandomSampler(data), tud.RandomSampler(data)
    data.extend([0] * 3)
    assert ours.num_samples == theirs.num_samples == len(ours) == 8


@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
def test_random_iter_alone_draws_nothing(replacement, use_generator):
    def make(cls):
        return lambda g: cls(range(10), replacement=replacement, generator=g)

    out = assert_same(make(ll.RandomSampler), make(tud.RandomSampler), 3, use_generator, _iter_only)
    assert not out["global_moved"] and not out["gen_moved"]


@pytest.mark.parametrize("take", [0, 1, 31, 32, 33, 70])
@pytest.mark.parametrize("replacement", [False, True])
@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
def test_random_partial_consumption_draws_the_same(take, replacement, use_generator):
    def consume(s):
        return list(itertools.islice(iter(s), take))

    def make(cls):
        return lambda g: cls(range(20), replacement=replacement, num_samples=100, generator=g)

    assert_same(make(ll.RandomSampler), make(tud.RandomSampler), 5, use_generator, consume)


def test_random_empty_dataset_with_explicit_num_samples_fails_like_torch_on_iteration():
    for replacement in (False, True):
        ours = ll.RandomSampler([], replacement=replacement, num_samples=3, generator=torch.Generator())
        theirs = tud.RandomSampler([], replacement=replacement, num_samples=3, generator=torch.Generator())
        assert_same_error(lambda: list(ours), lambda: list(theirs))


@pytest.mark.parametrize(
    "kwargs",
    [
        {"replacement": 0},
        {"replacement": 1},
        {"replacement": None},
        {"replacement": "yes"},
        {"num_samples": 0},
        {"num_samples": -1},
        {"num_samples": 1.5},
        {"num_samples": "3"},
        {"replacement": "no", "num_samples": -1},  # replacement is checked first
        {"data_source": []},  # num_samples defaults to len([]) == 0
    ],
    ids=repr,
)
def test_random_invalid_arguments(kwargs):
    kwargs = {"data_source": range(5), **kwargs}
    assert_same_error(lambda: ll.RandomSampler(**kwargs), lambda: tud.RandomSampler(**kwargs))


@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
@pytest.mark.parametrize("replacement", [False, True])
def test_random_accepts_num_samples_true_like_torch(replacement, use_generator):
    # Torch's RandomSampler forgets to exclude bool (WeightedRandomSampler and BatchSampler do not).
    def make(cls):
        return lambda g: cls(range(5), replacement=replacement, num_samples=True, generator=g)

    out = assert_same(make(ll.RandomSampler), make(tud.RandomSampler), 0, use_generator)
    assert out["len"] == 1 and [len(e) for e in out["out"]] == [1, 1]


# --------------------------------------------------------------------------- SubsetRandomSampler


@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    "indices", [[], [4], [9, 3, 7, 1], range(10, 50, 3), (5, 5, 6), list(range(100))], ids=repr
)
def test_subset_random(indices, seed, use_generator):
    def make(cls):
        return lambda g: cls(indices, generator=g)

    out = assert_same(make(ll.SubsetRandomSampler), make(tud.SubsetRandomSampler), seed, use_generator)
    assert out["len"] == len(indices)
    assert all(sorted(epoch) == sorted(indices) for epoch in out["out"])
    s = ll.SubsetRandomSampler(indices)
    assert s.indices is indices and s.generator is None


def test_subset_random_draws_lazily():
    def make(cls):
        return lambda g: cls(list(range(10)), generator=g)

    out = assert_same(make(ll.SubsetRandomSampler), make(tud.SubsetRandomSampler), 0, False, _iter_only)
    assert not out["global_moved"]


# --------------------------------------------------------------------------- WeightedRandomSampler

WEIGHTS = {
    "list": [0.1, 0.9, 0.4, 0.7, 3.0, 0.6],
    "ints": [1, 2, 3, 4],
    "zeros": [0.0, 1.0, 0.0, 2.0, 5.0],
    "tensor_f32": torch.tensor([0.5, 0.25, 0.125, 1.0], dtype=torch.float32),
    "numpy": np.linspace(0.1, 1.0, 40),
    "tuple": (1.0,) * 33,
}


def _weighted_cases():
    for name, w in WEIGHTS.items():
        n, nonzero = len(w), int((torch.as_tensor(w) != 0).sum())
        for num_samples in sorted({1, nonzero, n, 2 * n + 1, 100}):
            yield name, num_samples, True
            if num_samples <= nonzero:
                yield name, num_samples, False


@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name,num_samples,replacement", list(_weighted_cases()))
def test_weighted(name, num_samples, replacement, seed, use_generator):
    w = WEIGHTS[name]

    def make(cls):
        return lambda g: cls(w, num_samples, replacement=replacement, generator=g)

    out = assert_same(make(ll.WeightedRandomSampler), make(tud.WeightedRandomSampler), seed, use_generator)
    assert out["len"] == num_samples
    assert out["global_moved"] is not use_generator


def test_weighted_attributes():
    g = torch.Generator()
    ours = ll.WeightedRandomSampler([1, 2, 3], 5, generator=g)
    theirs = tud.WeightedRandomSampler([1, 2, 3], 5, generator=g)
    assert ours.weights.dtype == torch.float64
    assert torch.equal(ours.weights, theirs.weights)
    assert (ours.num_samples, ours.replacement, ours.generator) == (5, True, g)


def test_weighted_draws_lazily():
    def make(cls):
        return lambda g: cls([1.0, 2.0, 3.0], 10, generator=g)

    out = assert_same(make(ll.WeightedRandomSampler), make(tud.WeightedRandomSampler), 0, False, _iter_only)
    assert not out["global_moved"]


@pytest.mark.parametrize(
    "args,kwargs",
    [
        (([1.0, 2.0], 0), {}),
        (([1.0, 2.0], -1), {}),
        (([1.0, 2.0], True), {}),
        (([1.0, 2.0], False), {}),
        (([1.0, 2.0], 1.5), {}),
        (([1.0, 2.0], "2"), {}),
        (([1.0, 2.0], 2), {"replacement": 0}),
        (([1.0, 2.0], 2), {"replacement": 1}),
        (([1.0, 2.0], 2), {"replacement": "no"}),
        (([1.0, 2.0], 2), {"replacement": None}),
        (([[1.0, 2.0], [3.0, 4.0]], 2), {}),
        ((torch.ones(2, 3), 2), {}),
        ((np.ones((1, 1, 2)), 2), {}),
        ((3.0, 2), {}),  # 0-d
        (([1.0, 2.0], 0), {"replacement": "no"}),  # num_samples is checked first
        (([[1.0]], 2), {"replacement": "no"}),  # replacement before weights
    ],
    ids=repr,
)
def test_weighted_invalid_arguments(args, kwargs):
    assert_same_error(
        lambda: ll.WeightedRandomSampler(*args, **kwargs),
        lambda: tud.WeightedRandomSampler(*args, **kwargs),
    )


@pytest.mark.parametrize("weights,num_samples", [([1.0, 2.0], 3), ([-1.0, 2.0], 1), ([], 1), ([0.0, 0.0], 1)])
def test_weighted_impossible_draw_fails_at_iteration_like_torch(weights, num_samples):
    ours = ll.WeightedRandomSampler(weights, num_samples, replacement=False)
    theirs = tud.WeightedRandomSampler(weights, num_samples, replacement=False)
    assert_same_error(lambda: list(ours), lambda: list(theirs))


@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
def test_weighted_more_samples_than_nonzero_weights_like_torch(use_generator):
    # Torch (CPU) does not raise here: once the non-zero weights are used up it returns zero-weight
    # indices. We reproduce that rather than "fix" it.
    def make(cls):
        return lambda g: cls([0.0, 1.0, 0.0, 0.0], 3, replacement=False, generator=g)

    out = assert_same(make(ll.WeightedRandomSampler), make(tud.WeightedRandomSampler), 0, use_generator)
    assert all(sorted(epoch)[0] == 0 and 1 in epoch for epoch in out["out"])


# --------------------------------------------------------------------------- BatchSampler

BATCH_SIZES = [1, 3, 4, 10, 11]


@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("batch_size", BATCH_SIZES)
@pytest.mark.parametrize("source", [[], list(range(10)), range(12), "abcdefg"], ids=repr)
def test_batch_over_plain_iterables(source, batch_size, drop_last):
    out = assert_same(
        lambda g: ll.BatchSampler(source, batch_size, drop_last),
        lambda g: tud.BatchSampler(source, batch_size, drop_last),
    )
    flat = [i for batch in out["out"][0] for i in batch]
    assert flat == list(source)[: len(flat)]
    assert out["len"] == len(out["out"][0])


@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("batch_size", BATCH_SIZES)
@pytest.mark.parametrize("replacement,num_samples", [(False, None), (False, 23), (True, 45), (True, 64)])
def test_batch_over_random_sampler(replacement, num_samples, batch_size, drop_last, use_generator):
    def make(pkg):
        return lambda g: pkg.BatchSampler(
            pkg.RandomSampler(range(17), replacement=replacement, num_samples=num_samples, generator=g),
            batch_size,
            drop_last,
        )

    out = assert_same(make(ll), make(tud), 7, use_generator)
    assert out["len"] == len(out["out"][0]) == len(out["out"][1])


@pytest.mark.parametrize("take", [0, 1, 2, 5])
@pytest.mark.parametrize("use_generator", [False, True], ids=["global", "generator"])
def test_batch_is_lazy_over_random_sampler(take, use_generator):
    # Stopping after `take` batches must leave the inner sampler's RNG exactly where torch leaves it.
    def make(pkg):
        return lambda g: pkg.BatchSampler(pkg.RandomSampler(range(9), True, 200, generator=g), 7, False)

    consume = lambda s: list(itertools.islice(s, take))  # noqa: E731
    assert_same(make(ll), make(tud), 11, use_generator, consume)


class _Recorder:
    """An iterable that logs every next() made on it, to compare how torch and we pull indices."""

    def __init__(self, n):
        self.n, self.log = n, []

    def __iter__(self):
        for i in range(self.n):
            self.log.append(i)
            yield i
        self.log.append("end")


@pytest.mark.parametrize("take", [None, 0, 1, 2, 3])
@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("n", [0, 8, 9, 10])
def test_batch_pulls_the_same_indices_as_torch(n, drop_last, take):
    logs = []
    for cls in (ll.BatchSampler, tud.BatchSampler):
        rec = _Recorder(n)
        batches = list(itertools.islice(cls(rec, 3, drop_last), take))
        logs.append((batches, rec.log))
    assert logs[0] == logs[1]


@pytest.mark.parametrize("drop_last", [False, True])
@pytest.mark.parametrize("batch_size", [1, 4])
def test_batch_over_infinite_sampler(batch_size, drop_last):
    ours = list(itertools.islice(ll.BatchSampler(ll.InfiniteConstantSampler(), batch_size, drop_last), 5))
    theirs = list(itertools.islice(tud.BatchSampler(_InfiniteConstantSampler(), batch_size, drop_last), 5))
    assert ours == theirs == [[None] * batch_size] * 5
    counted = list(itertools.islice(ll.BatchSampler(itertools.count(), batch_size, drop_last), 3))
    assert counted == list(itertools.islice(tud.BatchSampler(itertools.count(), batch_size, drop_last), 3))


def test_batch_len_without_inner_len_raises_like_torch():
    assert_same_error(
        lambda: len(ll.BatchSampler(ll.InfiniteConstantSampler(), 2, False)),
        lambda: len(tud.BatchSampler(_InfiniteConstantSampler(), 2, False)),
    )


def test_batch_attributes():
    inner = ll.SequentialSampler(range(5))
    s = ll.BatchSampler(inner, 2, True)
    assert (s.sampler, s.batch_size, s.drop_last) == (inner, 2, True)


@pytest.mark.parametrize(
    "batch_size,drop_last",
    [
        (0, False),
        (-1, False),
        (True, False),
        (False, False),
        (1.5, False),
        ("3", False),
        (None, False),
        (np.int64(3), False),
        (3, 0),
        (3, 1),
        (3, None),
        (3, "True"),
        (0, "no"),  # batch_size is checked first
    ],
    ids=repr,
)
def test_batch_invalid_arguments(batch_size, drop_last):
    assert_same_error(
        lambda: ll.BatchSampler(range(5), batch_size, drop_last),
        lambda: tud.BatchSampler(range(5), batch_size, drop_last),
    )


# --------------------------------------------------------------------------- InfiniteConstantSampler


def test_infinite_constant_sampler():
    ours, theirs = ll.InfiniteConstantSampler(), _InfiniteConstantSampler()
    assert list(itertools.islice(ours, 1000)) == list(itertools.islice(theirs, 1000)) == [None] * 1000
    assert_same_error(lambda: len(ours), lambda: len(theirs))
    out = assert_same(
        lambda g: ll.InfiniteConstantSampler(),
        lambda g: _InfiniteConstantSampler(),
        consume=lambda s: [list(itertools.islice(s, 3)), list(itertools.islice(s, 3))],
    )
    assert not out["global_moved"]
