"""Argument validation, warnings and ``len()``: LoaderLab must raise/warn/answer exactly like torch.

Every case runs the same callable against ``torch.utils.data`` and against ``loaderlab`` and compares
the outcome: the exception type and ``str(e)`` (exactly), or the returned value, plus the list of
warnings (category and text) emitted on the way.

Set ``LOADERLAB_TEST_SELF=torch`` to run the suite with torch on both sides (checks the tests).
"""

from __future__ import annotations

import multiprocessing
import os
import warnings

import pytest
import torch
import torch.utils.data as TORCH

from tests.helpers.datasets import MapDataset, RangeIterable, SizedRangeIterable

from tests.helpers.oracle import OURS



def outcome(fn, mod):
    """``("ok", value)`` or ``("raised", type, message)``, and the warnings emitted meanwhile."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", fn(mod))
        except Exception as e:  # noqa: BLE001 - compared against torch's
            result = ("raised", type(e), str(e))
    return result, [(w.category, str(w.message)) for w in caught]


def assert_same_outcome(fn, *, expect=None):
    ref, ref_warnings = outcome(fn, TORCH)
    got, got_warnings = outcome(fn, OURS)
    if expect is not None:  # sanity: the case does what the test claims on torch
        assert ref[0] == "raised" and ref[1] is expect, f"torch: {ref}"
    assert got == ref
    assert got_warnings == ref_warnings
    return ref


# datasets shared by both sides (messages may print them)
DS = MapDataset(10)
IT = RangeIterable(5)
SIZED = SizedRangeIterable(5)
SHARED_SAMPLER = TORCH.SequentialSampler(range(3))


def _built(**kwargs):
    """Construct the loader; ``"ok"`` carries no value (loaders are not comparable)."""
    dataset = kwargs.pop("dataset", DS)

    def fn(m):
        m.DataLoader(dataset, **kwargs)  # (no bool(loader): that would call len())

    return fn


def _none(fn):
    """Run ``fn(m)`` for its effect; the outcome value is None."""

    def wrapped(m):
        fn(m)

    return wrapped


CONSTRUCTOR_ERRORS = {
    "num_workers<0": (_built(num_workers=-1), ValueError),
    "timeout<0": (_built(timeout=-1), ValueError),
    "timeout<0-float": (_built(timeout=-0.5, num_workers=1), ValueError),
    "prefetch_factor-without-workers": (_built(prefetch_factor=2), ValueError),
    "prefetch_factor<0": (_built(prefetch_factor=-1, num_workers=2), ValueError),
    "persistent-without-workers": (_built(persistent_workers=True), ValueError),
    "iterable-shuffle-True": (_built(dataset=IT, shuffle=True), ValueError),
    "iterable-shuffle-str": (_built(dataset=IT, shuffle="yes"), ValueError),
    "iterable-sampler-list": (_built(dataset=IT, sampler=[0, 1, 2]), ValueError),
    "iterable-sampler-object": (_built(dataset=IT, sampler=SHARED_SAMPLER), ValueError),
    "iterable-batch-sampler": (_built(dataset=IT, batch_sampler=[[0, 1]]), ValueError),
    "sampler-with-shuffle": (_built(sampler=[0, 1], shuffle=True), ValueError),
    "batch-sampler-with-batch-size": (_built(batch_sampler=[[0, 1]], batch_size=2), ValueError),
    "batch-sampler-with-batch-size-None": (_built(batch_sampler=[[0, 1]], batch_size=None), ValueError),
    "batch-sampler-with-shuffle": (_built(batch_sampler=[[0, 1]], shuffle=True), ValueError),
    "batch-sampler-with-sampler": (_built(batch_sampler=[[0, 1]], sampler=[0, 1]), ValueError),
    "batch-sampler-with-drop-last": (_built(batch_sampler=[[0, 1]], drop_last=True), ValueError),
    "batch-size-None-with-drop-last": (_built(batch_size=None, drop_last=True), ValueError),
    "mp-context-bad-string": (_built(num_workers=2, multiprocessing_context="bogus"), ValueError),
    "mp-context-bad-object": (_built(num_workers=2, multiprocessing_context=123), TypeError),
    "mp-context-str-without-workers": (_built(multiprocessing_context="spawn"), ValueError),
    "mp-context-object-without-workers": (_built(multiprocessing_context=multiprocessing.get_context("fork")), ValueError),
    "batch-size-0": (_built(batch_size=0), ValueError),
    "batch-size-negative": (_built(batch_size=-1), ValueError),
    "batch-size-float": (_built(batch_size=1.5), ValueError),
    "batch-size-bool": (_built(batch_size=True), ValueError),
    "batch-size-str": (_built(batch_size="3"), ValueError),
    "drop-last-int": (_built(batch_size=2, drop_last=1), ValueError),
    "drop-last-None": (_built(batch_size=2, drop_last=None), ValueError),
    # precedence: the first failing check wins, as in torch
    "precedence-num-workers-before-timeout": (_built(num_workers=-1, timeout=-1), ValueError),
    "precedence-prefetch-before-persistent": (_built(prefetch_factor=2, persistent_workers=True), ValueError),
    "precedence-iterable-shuffle-before-sampler": (_built(dataset=IT, shuffle=True, sampler=[0]), ValueError),
    "precedence-mp-context-nw0-before-iterable-sampler": (_built(dataset=IT, sampler=[0], multiprocessing_context="bogus"), ValueError),
    "precedence-mp-context-before-iterable": (
        _built(dataset=IT, sampler=[0], num_workers=1, multiprocessing_context="bogus"),
        ValueError,
    ),
    "precedence-sampler-shuffle-before-batch-size": (_built(sampler=[0], shuffle=True, batch_size=0), ValueError),
    "precedence-batch-sampler-before-batch-size-0": (_built(batch_sampler=[[0]], batch_size=0), ValueError),
    "precedence-persistent-before-sampler": (_built(persistent_workers=True, sampler=[0], shuffle=True), ValueError),
}


@pytest.mark.parametrize("name", list(CONSTRUCTOR_ERRORS))
def test_constructor_error_matches_torch(name):
    fn, expect = CONSTRUCTOR_ERRORS[name]
    assert_same_outcome(fn, expect=expect)


VALID_CONSTRUCTIONS = {
    "defaults": _built(),
    "iterable-shuffle-False": _built(dataset=IT, shuffle=False),
    "iterable-shuffle-None": _built(dataset=IT, shuffle=None),
    "iterable-shuffle-0": _built(dataset=IT, shuffle=0),
    "sampler-with-shuffle-False": _built(sampler=[1, 0], shuffle=False),
    "batch-sampler-with-explicit-defaults": _built(batch_sampler=[[0, 1]], batch_size=1, shuffle=False, drop_last=False),
    "prefetch-0-with-workers": _built(num_workers=1, prefetch_factor=0),
    "prefetch-None-with-workers": _built(num_workers=1, prefetch_factor=None),
    "timeout-without-workers": _built(timeout=3),
    "mp-context-spawn": _built(num_workers=1, multiprocessing_context="spawn"),
    "mp-context-object": _built(num_workers=1, multiprocessing_context=multiprocessing.get_context("spawn")),
    "mp-context-torch-object": _built(num_workers=1, multiprocessing_context=torch.multiprocessing.get_context("fork")),
    "pin-memory-device-without-pin": _built(pin_memory_device="cuda"),
    "in-order-False-without-workers": _built(in_order=False),
}


@pytest.mark.parametrize("name", list(VALID_CONSTRUCTIONS))
def test_valid_construction_matches_torch(name):
    ref = assert_same_outcome(VALID_CONSTRUCTIONS[name])
    assert ref == ("ok", None)


# ---------------------------------------------------------------------------------------------
# setting attributes after construction
# ---------------------------------------------------------------------------------------------

FROZEN = {
    "batch_size": 4,
    "batch_sampler": [[0]],
    "sampler": [0],
    "drop_last": True,
    "dataset": MapDataset(3),
    "persistent_workers": False,
}


@pytest.mark.parametrize("attr", list(FROZEN))
@pytest.mark.parametrize("nw", [0, 2])
def test_setting_frozen_attribute_after_init_matches_torch(attr, nw):
    def fn(m):
        loader = m.DataLoader(DS, num_workers=nw)
        setattr(loader, attr, FROZEN[attr])

    assert_same_outcome(fn, expect=ValueError)


def test_setting_same_value_is_still_refused():
    def fn(m):
        loader = m.DataLoader(DS, batch_size=1)
        loader.batch_size = 1

    assert_same_outcome(fn, expect=ValueError)


MUTABLE = {
    "num_workers": 1,
    "timeout": 2.0,
    "pin_memory": True,
    "collate_fn": list,
    "worker_init_fn": print,
    "prefetch_factor": 3,
    "in_order": False,
    "generator": None,
    "pin_memory_device": "cpu",
}


@pytest.mark.parametrize("attr", list(MUTABLE))
def test_setting_other_attributes_after_init_matches_torch(attr):
    def fn(m):
        loader = m.DataLoader(DS)
        setattr(loader, attr, MUTABLE[attr])
        return getattr(loader, attr) is MUTABLE[attr] or getattr(loader, attr) == MUTABLE[attr]

    assert assert_same_outcome(fn) == ("ok", True)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_num_workers_raised_after_init_without_prefetch_factor_like_torch():
    """``prefetch_factor`` stays None when the loader was built with num_workers=0; torch then fails
    (by accident, with a comparison TypeError) when the iterator is made. Same type, same text."""

    def fn(m):
        loader = m.DataLoader(DS, batch_size=4)
        loader.num_workers = 2
        return [b[1].tolist() for b in loader]

    assert_same_outcome(fn, expect=TypeError)


def test_num_workers_and_prefetch_factor_set_after_init_like_torch():
    def fn(m):
        loader = m.DataLoader(DS, batch_size=4)
        loader.prefetch_factor = 1
        loader.num_workers = 2
        return [b[1].tolist() for b in loader]

    assert assert_same_outcome(fn) == ("ok", [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])


@pytest.mark.parametrize(
    "nw,value,expect",
    [(2, "bogus", ValueError), (2, 7, TypeError), (0, "spawn", ValueError), (2, "spawn", None), (0, None, None)],
)
def test_multiprocessing_context_setter_after_init_matches_torch(nw, value, expect):
    def fn(m):
        loader = m.DataLoader(DS, num_workers=nw)
        loader.multiprocessing_context = value
        ctx = loader.multiprocessing_context
        return None if ctx is None else ctx.get_start_method()

    assert_same_outcome(fn, expect=expect)


# ---------------------------------------------------------------------------------------------
# errors raised when iterating / taking len()
# ---------------------------------------------------------------------------------------------


def _gen_sampler():
    return (i for i in range(3))


ITERATION_ERRORS = {
    # torch asserts these when the iterator is created
    "timeout-without-workers": (_none(lambda m: iter(m.DataLoader(DS, timeout=1))), AssertionError),
    "prefetch-0-with-workers": (_none(lambda m: iter(m.DataLoader(DS, num_workers=1, prefetch_factor=0))), AssertionError),
    "len-iterable-without-len": (lambda m: len(m.DataLoader(IT)), TypeError),
    "len-iterable-without-len-bsNone": (lambda m: len(m.DataLoader(IT, batch_size=None)), TypeError),
    "len-sampler-without-len": (lambda m: len(m.DataLoader(DS, sampler=_gen_sampler())), TypeError),
    "len-sampler-without-len-bsNone": (lambda m: len(m.DataLoader(DS, sampler=_gen_sampler(), batch_size=None)), TypeError),
    "index-out-of-range-from-sampler": (lambda m: list(m.DataLoader(DS, sampler=[0, 10])), IndexError),
    "collate-of-none": (lambda m: list(m.DataLoader([None, None], batch_size=2)), TypeError),
    "collate-mismatched-sizes": (
        lambda m: list(m.DataLoader([[1, 2], [1, 2, 3]], batch_size=2)),
        RuntimeError,
    ),
}


# torch's half-built _MultiProcessingDataLoaderIter (prefetch_factor=0) complains in __del__
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("name", list(ITERATION_ERRORS))
def test_iteration_error_matches_torch(name):
    fn, expect = ITERATION_ERRORS[name]
    assert_same_outcome(fn, expect=expect)


# ---------------------------------------------------------------------------------------------
# warnings
# ---------------------------------------------------------------------------------------------


def _cpu_count():
    n = torch._utils.cpu_count()
    return n if n is not None else os.cpu_count()


def test_too_many_workers_warning_matches_torch():
    nw = _cpu_count() + 1

    def construct(m):
        m.DataLoader(DS, num_workers=nw)

    ref, ref_w = outcome(construct, TORCH)
    got, got_w = outcome(construct, OURS)
    assert ref == got == ("ok", None)
    assert len(ref_w) == 1 and f"This DataLoader will create {nw} worker processes in total." in ref_w[0][1]
    assert got_w == ref_w


@pytest.mark.skipif(_cpu_count() + 1 > 8, reason="would start too many workers on this machine")
def test_too_many_workers_warning_repeats_on_iter_like_torch():
    nw = _cpu_count() + 1

    def iterate(m):
        loader = m.DataLoader(MapDataset(nw), num_workers=nw, batch_size=1)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            n = sum(1 for _ in loader)
        return n, [(w.category, str(w.message)) for w in caught]

    ref, _ = outcome(iterate, TORCH)
    got, _ = outcome(iterate, OURS)
    assert ref[0] == "ok" and len(ref[1][1]) == 1  # torch warns again once when the iterator is made
    assert got == ref


def test_no_warning_at_normal_construction():
    ref, ref_w = outcome(_none(lambda m: m.DataLoader(DS, num_workers=1)), TORCH)
    got, got_w = outcome(_none(lambda m: m.DataLoader(DS, num_workers=1)), OURS)
    assert ref_w == [] and got_w == ref_w and got == ref


@pytest.mark.parametrize("nw", [0, 2])
@pytest.mark.parametrize("device", ["", "cuda"])
@pytest.mark.parametrize("pin", [True, False])
def test_pin_memory_warnings_match_torch(pin, device, nw):
    """torch warns at iter(): pin_memory without an accelerator, and the pin_memory_device deprecation."""

    def fn(m):
        loader = m.DataLoader(DS, batch_size=4, num_workers=nw, pin_memory=pin, pin_memory_device=device)
        return [b[1].tolist() for b in loader]

    ref = assert_same_outcome(fn)
    assert ref == ("ok", [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]])


def test_pin_memory_warning_text_on_cpu_only_machine():
    if torch.accelerator.is_available():
        pytest.skip("an accelerator is present: torch does not warn")
    _, ref_w = outcome(_none(lambda m: list(m.DataLoader(DS, pin_memory=True, pin_memory_device="cuda"))), TORCH)
    _, got_w = outcome(_none(lambda m: list(m.DataLoader(DS, pin_memory=True, pin_memory_device="cuda"))), OURS)
    assert [str(m) for _, m in ref_w] == [
        "pin_memory_device is deprecated, the current accelerator will be used as the device,ignore pin_memory_device='cuda'.",
        "'pin_memory' argument is set as true but no accelerator is found, then device pinned memory won't be used.",
    ]
    assert got_w == ref_w


# ---------------------------------------------------------------------------------------------
# len() and public attributes in valid configurations
# ---------------------------------------------------------------------------------------------

LEN_CASES = {
    "map-bs1": lambda m: dict(dataset=DS),
    "map-bs3": lambda m: dict(dataset=DS, batch_size=3),
    "map-bs3-droplast": lambda m: dict(dataset=DS, batch_size=3, drop_last=True),
    "map-bs10-droplast": lambda m: dict(dataset=DS, batch_size=10, drop_last=True),
    "map-bs11-droplast": lambda m: dict(dataset=DS, batch_size=11, drop_last=True),
    "map-bsNone": lambda m: dict(dataset=DS, batch_size=None),
    "map-shuffle": lambda m: dict(dataset=DS, batch_size=4, shuffle=True),
    "sampler-list": lambda m: dict(dataset=DS, sampler=[1, 1, 2, 3, 5], batch_size=2),
    "sampler-random-n30-droplast": lambda m: dict(dataset=DS, sampler=m.RandomSampler(DS, num_samples=30), batch_size=4, drop_last=True),
    "sampler-weighted": lambda m: dict(dataset=DS, sampler=m.WeightedRandomSampler([1.0] * 10, 7), batch_size=2),
    "sampler-subset-bsNone": lambda m: dict(dataset=DS, sampler=m.SubsetRandomSampler([1, 2, 3]), batch_size=None),
    "batch-sampler-list": lambda m: dict(dataset=DS, batch_sampler=[[0, 1], [2], [3, 4, 5]]),
    "batch-sampler-object": lambda m: dict(dataset=DS, batch_sampler=m.BatchSampler(range(10), 4, False)),
    "iterable-sized-bs1": lambda m: dict(dataset=SIZED),
    "iterable-sized-bs2": lambda m: dict(dataset=SIZED, batch_size=2),
    "iterable-sized-bs2-droplast": lambda m: dict(dataset=SIZED, batch_size=2, drop_last=True),
    "iterable-sized-bs5-droplast": lambda m: dict(dataset=SIZED, batch_size=5, drop_last=True),
    "iterable-sized-bs6-droplast": lambda m: dict(dataset=SIZED, batch_size=6, drop_last=True),
    "iterable-sized-bsNone": lambda m: dict(dataset=SIZED, batch_size=None),
    "iterable-sized-bs3-workers": lambda m: dict(dataset=SIZED, batch_size=3, num_workers=2),
    "plain-list-dataset": lambda m: dict(dataset=list(range(7)), batch_size=2),
}


@pytest.mark.parametrize("name", list(LEN_CASES))
def test_len_matches_torch(name):
    def fn(m):
        kwargs = LEN_CASES[name](m)
        loader = m.DataLoader(kwargs.pop("dataset"), **kwargs)
        return len(loader), len(loader)  # twice: len() must not consume anything

    ref = assert_same_outcome(fn)
    assert ref[0] == "ok"


@pytest.mark.parametrize("nw", [0, 2])
def test_len_of_iterator_matches_torch(nw):
    def fn(m):
        it = iter(m.DataLoader(DS, batch_size=3, num_workers=nw))
        n = len(it)
        first = next(it)[1].tolist()
        return n, first, len(it)

    assert assert_same_outcome(fn) == ("ok", (4, [0, 1, 2], 4))


ATTRIBUTE_CASES = {
    "defaults": dict(),
    "workers": dict(num_workers=2),
    "workers-prefetch": dict(num_workers=2, prefetch_factor=5, persistent_workers=True, in_order=False),
    "shuffle": dict(shuffle=True, batch_size=3, drop_last=True),
    "bsNone": dict(batch_size=None),
    "batch-sampler": dict(batch_sampler=[[0, 1]]),
    "sampler": dict(sampler=[3, 2]),
    "timeout-pin": dict(num_workers=1, timeout=2.5, pin_memory=True, pin_memory_device="cuda"),
    "mp-context": dict(num_workers=1, multiprocessing_context="forkserver"),
}


def _public_attributes(loader):
    ctx = loader.multiprocessing_context
    return {
        "batch_size": loader.batch_size,
        "drop_last": loader.drop_last,
        "num_workers": loader.num_workers,
        "prefetch_factor": loader.prefetch_factor,
        "persistent_workers": loader.persistent_workers,
        "pin_memory": loader.pin_memory,
        "pin_memory_device": loader.pin_memory_device,
        "timeout": loader.timeout,
        "in_order": loader.in_order,
        "generator": loader.generator,
        "worker_init_fn": loader.worker_init_fn,
        "dataset_is_given": loader.dataset is DS,
        "sampler_type": type(loader.sampler).__name__,
        "sampler_is_list": loader.sampler if isinstance(loader.sampler, list) else None,
        "batch_sampler_type": type(loader.batch_sampler).__name__,
        "batch_sampler_is_list": loader.batch_sampler if isinstance(loader.batch_sampler, list) else None,
        "collate_fn_name": getattr(loader.collate_fn, "__name__", None),
        "multiprocessing_context": None if ctx is None else ctx.get_start_method(),
    }


@pytest.mark.parametrize("name", list(ATTRIBUTE_CASES))
def test_public_attributes_match_torch(name):
    assert_same_outcome(lambda m: _public_attributes(m.DataLoader(DS, **ATTRIBUTE_CASES[name])))


# ---------------------------------------------------------------------------------------------
# the samplers' own argument checks (LoaderLab's samplers vs torch's)
# ---------------------------------------------------------------------------------------------

SAMPLER_ERRORS = {
    "random-replacement-int": (lambda m: m.RandomSampler(DS, replacement=1), TypeError),
    "random-num-samples-0": (lambda m: m.RandomSampler(DS, num_samples=0), ValueError),
    "random-num-samples-float": (lambda m: m.RandomSampler(DS, num_samples=2.0), ValueError),
    "random-empty-dataset": (lambda m: m.RandomSampler([]), ValueError),
    "weighted-num-samples-0": (lambda m: m.WeightedRandomSampler([1.0, 2.0], 0), ValueError),
    "weighted-num-samples-bool": (lambda m: m.WeightedRandomSampler([1.0, 2.0], True), ValueError),
    "weighted-replacement-int": (lambda m: m.WeightedRandomSampler([1.0, 2.0], 2, replacement=1), ValueError),
    "weighted-2d": (lambda m: m.WeightedRandomSampler([[1.0, 2.0]], 2), ValueError),
    "batch-sampler-size-0": (lambda m: m.BatchSampler(range(3), 0, False), ValueError),
    "batch-sampler-drop-last-str": (lambda m: m.BatchSampler(range(3), 2, "no"), ValueError),
}


@pytest.mark.parametrize("name", list(SAMPLER_ERRORS))
def test_sampler_argument_errors_match_torch(name):
    fn, expect = SAMPLER_ERRORS[name]
    assert_same_outcome(_none(fn), expect=expect)
