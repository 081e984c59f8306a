"""Differential tests: loaderlab's collate against torch's own, which is the oracle.

Every case is built twice (some containers are mutated by the copy/update path, so the two
functions must not share inputs) and the two results must agree in structure, types, dtypes,
values and shared-memory-ness; for failures, in exception type and exact message.
"""

from __future__ import annotations

import collections
import types
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import pytest
import torch
import torch.utils.data._utils.collate as torch_collate_module
import torch.utils.data._utils.worker as torch_worker_module
from torch.utils.data import (
    DataLoader,
    Dataset,
    default_collate as torch_default_collate,
    default_convert as torch_default_convert,
)

from loaderlab.engine import collate as ll
from loaderlab.engine.collate import default_collate, default_convert


# --------------------------------------------------------------------------- custom types
# Module level so that they pickle into DataLoader workers whatever the start method.

Point = collections.namedtuple("Point", ["x", "y"])


class Sample(NamedTuple):
    image: Any
    meta: Any
    name: Any


class TaggedDict(dict):
    """A dict subclass with state its constructor does not take: only copy() keeps ``tag``."""

    def __init__(self, *args: Any, tag: str = "", **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tag = tag


class FrozenMap(Mapping):
    """Immutable, constructible from a dict: torch rebuilds it with ``type(elem)(dict)``."""

    def __init__(self, data: dict) -> None:
        self._data = dict(data)

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class KeywordOnlyMap(FrozenMap):
    """Immutable and not constructible from a dict: torch falls back to a plain dict."""

    def __init__(self, **data: Any) -> None:
        super().__init__(data)


class Store(MutableMapping):
    """Mutable mapping whose shallow copy shares its storage (copy + update mutates the input)."""

    def __init__(self, data: dict | None = None) -> None:
        self._data = dict(data or {})

    def __getitem__(self, key: Any) -> Any:
        return self._data[key]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._data[key] = value

    def __delitem__(self, key: Any) -> None:
        del self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class UncopyableStore(Store):
    def __copy__(self):
        raise TypeError("no copies")


class FrozenSeq(Sequence):
    def __init__(self, items: list) -> None:
        self._items = list(items)

    def __getitem__(self, i: Any) -> Any:
        return self._items[i]

    def __len__(self) -> int:
        return len(self._items)


class NoListSeq(FrozenSeq):
    """Immutable and not constructible from a list: torch falls back to a list."""

    def __init__(self, *items: Any) -> None:
        super().__init__(list(items))


class TaggedList(list):
    def __init__(self, *args: Any, tag: str = "") -> None:
        super().__init__(*args)
        self.tag = tag


class Opaque:
    """A type no collate rule knows; equal to its kind so that results can be compared."""

    def __eq__(self, other: object) -> bool:
        return type(other) is Opaque

    __hash__ = object.__hash__


# --------------------------------------------------------------------------- comparison


def assert_same(ours: Any, theirs: Any, path: str = "result") -> None:
    assert type(ours) is type(theirs), f"{path}: {type(ours)!r} != {type(theirs)!r}"
    if isinstance(theirs, torch.Tensor):
        assert ours.dtype == theirs.dtype, f"{path}: dtype {ours.dtype} != {theirs.dtype}"
        assert ours.shape == theirs.shape, f"{path}: shape {ours.shape} != {theirs.shape}"
        assert ours.layout == theirs.layout, path
        assert ours.requires_grad == theirs.requires_grad, path
        assert ours.is_shared() == theirs.is_shared(), f"{path}: is_shared differs"
        assert torch.equal(ours.detach(), theirs.detach()), f"{path}: {ours} != {theirs}"
    elif isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, path
        assert np.array_equal(ours, theirs), path
    elif isinstance(theirs, (str, bytes, np.generic)):
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"
    elif isinstance(theirs, Mapping):
        assert list(ours) == list(theirs), f"{path}: keys {list(ours)} != {list(theirs)}"
        for key in theirs:
            assert_same(ours[key], theirs[key], f"{path}[{key!r}]")
    elif isinstance(theirs, (Sequence, collections.deque)):
        assert len(ours) == len(theirs), f"{path}: len {len(ours)} != {len(theirs)}"
        for i, (o, t) in enumerate(zip(ours, theirs)):
            assert_same(o, t, f"{path}[{i}]")
    else:
        assert ours == theirs, f"{path}: {ours!r} != {theirs!r}"
    # State the constructor does not carry (TaggedDict.tag, defaultdict's factory, ...).
    if isinstance(theirs, collections.defaultdict):
        assert ours.default_factory is theirs.default_factory, path
    if hasattr(theirs, "__dict__") and not isinstance(theirs, (torch.Tensor, type)):
        assert_same(vars(ours), vars(theirs), f"{path}.__dict__")


def run_both(ours_fn, theirs_fn, make):
    """Call each function on its own fresh input; return ((result|exc), input) pairs."""
    outcomes = []
    for fn in (ours_fn, theirs_fn):
        data = make()
        try:
            outcomes.append((fn(data), None, data))
        except Exception as exc:  # noqa: BLE001 - the oracle decides what is an error
            outcomes.append((None, exc, data))
    return outcomes


def assert_agree(ours_fn, theirs_fn, make) -> None:
    (ours, ours_exc, ours_in), (theirs, theirs_exc, theirs_in) = run_both(ours_fn, theirs_fn, make)
    assert theirs_exc is None, f"torch raised {theirs_exc!r}; this case belongs in the error list"
    assert ours_exc is None, f"we raised {ours_exc!r}, torch returned {theirs!r}"
    assert_same(ours, theirs)
    # torch hands back its input object itself in some cases (str batches, default_convert
    # of things it does not know); so must we.
    assert (ours is ours_in) == (theirs is theirs_in)


def assert_same_error(ours_fn, theirs_fn, make) -> None:
    (_, ours_exc, _), (theirs, theirs_exc, _) = run_both(ours_fn, theirs_fn, make)
    assert theirs_exc is not None, f"torch returned {theirs!r}; this case belongs in the ok list"
    assert ours_exc is not None, f"torch raised {theirs_exc!r}, we did not"
    assert type(ours_exc) is type(theirs_exc)
    assert str(ours_exc) == str(theirs_exc)


# --------------------------------------------------------------------------- collate cases


def _t(*shape, dtype=torch.float32, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(*shape, generator=g) * 10).to(dtype)


def _tensors(n, *shape, dtype=torch.float32):
    return [_t(*shape, dtype=dtype, seed=i) for i in range(n)]


COLLATE_OK = {
    # tensors
    "tensor_f32_2x3": lambda: _tensors(3, 2, 3),
    "tensor_f64": lambda: _tensors(2, 4, dtype=torch.float64),
    "tensor_f16": lambda: _tensors(2, 4, dtype=torch.float16),
    "tensor_bf16": lambda: _tensors(2, 4, dtype=torch.bfloat16),
    "tensor_i64": lambda: _tensors(4, 5, dtype=torch.int64),
    "tensor_i8": lambda: _tensors(2, 3, dtype=torch.int8),
    "tensor_u8": lambda: [torch.arange(6, dtype=torch.uint8), torch.arange(6, dtype=torch.uint8)],
    "tensor_bool": lambda: [torch.tensor([True, False]), torch.tensor([False, False])],
    "tensor_complex64": lambda: [torch.tensor([1 + 2j]), torch.tensor([3 - 1j])],
    "tensor_0d": lambda: [torch.tensor(1.5), torch.tensor(-2.0), torch.tensor(0.0)],
    "tensor_0d_int": lambda: [torch.tensor(1), torch.tensor(2)],
    "tensor_empty": lambda: [torch.empty(0), torch.empty(0)],
    "tensor_zero_dim_inside": lambda: [torch.empty(2, 0, 3), torch.empty(2, 0, 3)],
    "tensor_single_sample": lambda: [_t(3, 3)],
    "tensor_noncontiguous": lambda: [_t(3, 4).t(), _t(3, 4, seed=1).t()],
    "tensor_mixed_dtypes": lambda: [torch.ones(2), torch.ones(2, dtype=torch.float64)],
    "tensor_requires_grad": lambda: [_t(2).requires_grad_(), _t(2, seed=1).requires_grad_()],
    "tensor_parameter": lambda: [torch.nn.Parameter(_t(2)), torch.nn.Parameter(_t(2, seed=1))],
    "tensor_inf": lambda: [torch.tensor([float("inf")]), torch.tensor([-float("inf")])],
    # numpy arrays
    "np_f32": lambda: [np.arange(6, dtype=np.float32).reshape(2, 3)] * 3,
    "np_f64": lambda: [np.linspace(0, 1, 5), np.linspace(1, 2, 5)],
    "np_i8": lambda: [np.array([1, -2], dtype=np.int8), np.array([3, 4], dtype=np.int8)],
    "np_u16": lambda: [np.array([1, 2], dtype=np.uint16), np.array([3, 4], dtype=np.uint16)],
    "np_i64": lambda: [np.arange(4), np.arange(4, 8)],
    "np_bool": lambda: [np.array([True, False]), np.array([False, True])],
    "np_complex128": lambda: [np.array([1 + 1j]), np.array([2 - 2j])],
    "np_0d": lambda: [np.array(3), np.array(4)],
    "np_noncontiguous": lambda: [np.arange(12.0).reshape(3, 4).T, np.ones((3, 4)).T],
    # numpy scalars
    "np_scalar_f64": lambda: [np.float64(1.5), np.float64(2.5)],
    "np_scalar_f32": lambda: [np.float32(1.5), np.float32(2.5)],
    "np_scalar_f16": lambda: [np.float16(1.5), np.float16(2.5)],
    "np_scalar_i32": lambda: [np.int32(1), np.int32(-7)],
    "np_scalar_u8": lambda: [np.uint8(1), np.uint8(255)],
    "np_scalar_bool": lambda: [np.bool_(True), np.bool_(False)],
    "np_scalar_complex64": lambda: [np.complex64(1 + 2j), np.complex64(3)],
    "np_str_scalar": lambda: [np.str_("a"), np.str_("b")],
    "np_bytes_scalar": lambda: [np.bytes_(b"a"), np.bytes_(b"b")],
    # python scalars
    "floats": lambda: [1.5, -2.25, 3.0],
    "ints": lambda: [0, 1, -5, 2**40],
    "bools": lambda: [True, False, True],
    "int_then_float": lambda: [1, 2.5],
    "float_then_int": lambda: [2.5, 1],
    "bool_then_int": lambda: [True, 2],
    "inf_float": lambda: [float("inf"), 1.0],
    "strs": lambda: ["a", "bb", ""],
    "bytes": lambda: [b"a", b"bb"],
    "str_batch_is_tuple": lambda: ("a", "b"),
    # mappings
    "dict": lambda: [{"a": 1, "b": 2.0}, {"a": 3, "b": 4.0}],
    "dict_nested": lambda: [
        {"x": {"y": _t(2), "z": [1, 2]}, "s": "p"},
        {"x": {"y": _t(2, seed=1), "z": [3, 4]}, "s": "q"},
    ],
    "dict_key_order_from_first": lambda: [{"b": 1, "a": 2}, {"a": 3, "b": 4}],
    "ordereddict": lambda: [
        collections.OrderedDict(a=1, b="x"),
        collections.OrderedDict(a=2, b="y"),
    ],
    "defaultdict": lambda: [collections.defaultdict(list, a=1), collections.defaultdict(list, a=2)],
    "counter_update_adds": lambda: [collections.Counter(a=1), collections.Counter(a=5)],
    "mappingproxy": lambda: [types.MappingProxyType({"a": 1}), types.MappingProxyType({"a": 2})],
    "tagged_dict": lambda: [TaggedDict(a=1, tag="t"), TaggedDict(a=2, tag="u")],
    "frozen_map": lambda: [FrozenMap({"a": 1.0}), FrozenMap({"a": 2.0})],
    "keyword_only_map_falls_back": lambda: [KeywordOnlyMap(a=1), KeywordOnlyMap(a=2)],
    "store_mutable_mapping": lambda: [Store({"a": np.ones(2)}), Store({"a": np.zeros(2)})],
    "uncopyable_store_falls_back": lambda: [UncopyableStore({"a": 1}), UncopyableStore({"a": 2})],
    "dict_extra_keys_ignored": lambda: [{"a": 1}, {"a": 2, "b": 3}],
    # namedtuples
    "namedtuple": lambda: [Point(1, 2.0), Point(3, 4.0)],
    "typed_namedtuple_nested": lambda: [
        Sample(_t(2, 2), {"id": 1, "tags": ("a", "b")}, "n0"),
        Sample(_t(2, 2, seed=1), {"id": 2, "tags": ("c", "d")}, "n1"),
    ],
    # sequences
    "tuples_become_list": lambda: [(1, 2.0), (3, 4.0)],
    "tuples_of_str_stay_tuples": lambda: [("a", 1), ("b", 2)],
    "lists": lambda: [[1, 2, 3], [4, 5, 6]],
    "lists_of_tensors": lambda: [[_t(2), _t(3)], [_t(2, seed=1), _t(3, seed=1)]],
    "empty_lists": lambda: [[], []],
    "nested_lists": lambda: [[[1, 2], [3, 4]], [[5, 6], [7, 8]]],
    "deque": lambda: [collections.deque([1, 2]), collections.deque([3, 4])],
    "userlist": lambda: [collections.UserList([1.0]), collections.UserList([2.0])],
    "tagged_list": lambda: [TaggedList([1, 2], tag="t"), TaggedList([3, 4], tag="u")],
    "frozen_seq": lambda: [FrozenSeq([1, 2]), FrozenSeq([3, 4])],
    "no_list_seq_falls_back": lambda: [NoListSeq(1, 2), NoListSeq(3, 4)],
    "range_falls_back": lambda: [range(3), range(1, 4)],
    "bytearray_falls_back": lambda: [bytearray(b"ab"), bytearray(b"cd")],
    "list_of_namedtuples": lambda: [[Point(1, 2)], [Point(3, 4)]],
    "mixed_nested": lambda: [
        ({"img": np.ones((2, 2), np.float32), "lbl": 1}, [0.5, "s"], Point(np.int64(1), b"b")),
        ({"img": np.zeros((2, 2), np.float32), "lbl": 0}, [1.5, "t"], Point(np.int64(2), b"c")),
    ],
    "batch_is_tuple_of_tensors": lambda: (_t(2), _t(2, seed=1)),
}

COLLATE_ERRORS = {
    "empty_batch": lambda: [],
    "unequal_lists": lambda: [[1, 2], [3]],
    "unequal_tuples": lambda: [(1, 2), (3, 4, 5)],
    "unequal_nested_in_dict": lambda: [{"a": [1, 2]}, {"a": [3]}],
    "sequence_then_int": lambda: [[1, 2], 3],
    "custom_object": lambda: [Opaque(), Opaque()],
    "none": lambda: [None, None],
    "complex_python": lambda: [1 + 2j, 3j],
    "set": lambda: [{1}, {2}],
    "np_unicode_array": lambda: [np.array(["a", "b"]), np.array(["c", "d"])],
    "np_bytes_array": lambda: [np.array([b"a"]), np.array([b"b"])],
    "np_object_array": lambda: [np.array([1, "x"], dtype=object)] * 2,
    "np_string_array_in_dict": lambda: [{"a": np.array(["x"])}, {"a": np.array(["y"])}],
    "np_string_array_in_list": lambda: [[np.array(["x"])], [np.array(["y"])]],
    "custom_object_in_tuple": lambda: [(Opaque(),), (Opaque(),)],
    "custom_object_in_store": lambda: [Store({"a": Opaque()}), Store({"a": Opaque()})],
    "np_datetime64": lambda: [np.datetime64("2020-01-01"), np.datetime64("2020-01-02")],
    "dict_missing_key": lambda: [{"a": 1}, {"b": 2}],
    "tensor_shape_mismatch": lambda: [torch.ones(2), torch.ones(3)],
    "np_shape_mismatch": lambda: [np.ones(2), np.ones(3)],
    "int_overflow": lambda: [2**70, 1],
    "nested_tensor": lambda: [
        torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
        torch.nested.nested_tensor([torch.ones(2), torch.ones(3)]),
    ],
    "sparse_coo": lambda: [torch.eye(2).to_sparse(), torch.eye(2).to_sparse()],
    "sparse_csr": lambda: [torch.eye(2).to_sparse_csr(), torch.eye(2).to_sparse_csr()],
    "sparse_csc": lambda: [torch.eye(2).to_sparse_csc(), torch.eye(2).to_sparse_csc()],
    "tensor_then_int": lambda: [torch.ones(1), 1],
    "int_then_str": lambda: [1, "a"],
}


@pytest.fixture
def in_fake_worker(monkeypatch):
    """Make torch.utils.data.get_worker_info() answer as it does in a worker process."""
    info = torch_worker_module.WorkerInfo(id=0, num_workers=1, seed=0, dataset=None)
    monkeypatch.setattr(torch_worker_module, "_worker_info", info)
    assert torch.utils.data.get_worker_info() is info


@pytest.mark.parametrize("make", COLLATE_OK.values(), ids=COLLATE_OK.keys())
def test_collate_matches_torch(make):
    assert_agree(default_collate, torch_default_collate, make)


@pytest.mark.parametrize("make", COLLATE_ERRORS.values(), ids=COLLATE_ERRORS.keys())
def test_collate_errors_match_torch(make):
    assert_same_error(default_collate, torch_default_collate, make)


# Torch quirk kept on purpose: in a worker, stack() writes into a preallocated out= tensor, which
# refuses autograd, so batches that need grad collate in the main process but fail in a worker.
FAIL_ONLY_IN_WORKER = {"tensor_requires_grad", "tensor_parameter"}


@pytest.mark.parametrize("case", COLLATE_OK)
def test_collate_matches_torch_in_worker(in_fake_worker, case):
    # Here both sides stack into shared memory; assert_same also compares is_shared().
    if case in FAIL_ONLY_IN_WORKER:
        assert_same_error(default_collate, torch_default_collate, COLLATE_OK[case])
    else:
        assert_agree(default_collate, torch_default_collate, COLLATE_OK[case])


@pytest.mark.parametrize("make", COLLATE_ERRORS.values(), ids=COLLATE_ERRORS.keys())
def test_collate_errors_match_torch_in_worker(in_fake_worker, make):
    assert_same_error(default_collate, torch_default_collate, make)


def test_fake_worker_stacks_into_shared_memory(in_fake_worker):
    samples = [{"x": torch.ones(3), "y": np.zeros(2)}, {"x": torch.ones(3), "y": np.ones(2)}]
    batch = default_collate(samples)
    assert batch["x"].is_shared() and batch["y"].is_shared()


def test_mixed_dtypes_promote_in_main_but_not_in_worker(monkeypatch):
    # Torch quirk kept on purpose: the main process's stack() promotes float32 + float64 to
    # float64; in a worker the out= tensor is allocated from batch[0], so the result is float32.
    batch = [torch.ones(2), torch.ones(2, dtype=torch.float64)]
    assert default_collate(batch).dtype == torch.float64
    info = torch_worker_module.WorkerInfo(id=0, num_workers=1, seed=0, dataset=None)
    monkeypatch.setattr(torch_worker_module, "_worker_info", info)
    assert default_collate(batch).dtype == torch.float32


def test_main_process_result_is_not_shared():
    assert torch.utils.data.get_worker_info() is None
    batch = default_collate([torch.ones(3), torch.zeros(3)])
    assert not batch.is_shared()
    from_numpy = default_collate([np.ones(3), np.zeros(3)])
    assert not from_numpy.is_shared()


def test_does_not_delegate_to_torch(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("loaderlab's collate must not call torch's")

    for name in ("collate", "default_collate", "default_convert", "collate_tensor_fn"):
        monkeypatch.setattr(torch_collate_module, name, forbidden)
    monkeypatch.setattr(torch.utils.data, "default_collate", forbidden)
    monkeypatch.setattr(torch.utils.data, "default_convert", forbidden)
    out = default_collate([{"a": (np.ones(2), 1.0, "s")}, {"a": (np.ones(2), 2.0, "t")}])
    assert out["a"][0].shape == (2, 2)
    assert default_convert({"a": np.ones(2)})["a"].dtype == torch.float64


def test_error_format_is_torchs():
    assert ll.default_collate_err_msg_format == torch_collate_module.default_collate_err_msg_format


# --------------------------------------------------------------------------- real worker


class _Samples(Dataset):
    def __len__(self) -> int:
        return 4

    def __getitem__(self, i: int) -> dict:
        x = torch.full((2, 3), float(i))
        return {"x": x, "y": np.arange(3, dtype=np.int32) + i, "label": i}


def _collate_in_worker(batch: list) -> dict:
    """Runs inside the worker: report shared-ness where it is decided, before any pickling."""
    ours = default_collate(batch)
    theirs = torch_default_collate(batch)
    return {
        "ours": ours,
        "theirs": theirs,
        "in_worker": torch.utils.data.get_worker_info() is not None,
        "shared_in_worker": {
            key: (ours[key].is_shared(), theirs[key].is_shared()) for key in ("x", "y", "label")
        },
    }


def test_real_worker_batch_is_in_shared_memory():
    loader = DataLoader(_Samples(), batch_size=4, num_workers=1, collate_fn=default_collate)
    (batch,) = list(loader)
    assert batch["x"].is_shared()
    assert batch["y"].is_shared()
    assert torch.equal(batch["x"][:, 0, 0], torch.arange(4.0))


def test_real_worker_takes_the_shared_memory_path_like_torch():
    # Everything a worker sends is moved to shared memory by pickling, so shared-ness seen in
    # the main process proves little; the collate_fn reports it from inside the worker.
    loader = DataLoader(_Samples(), batch_size=4, num_workers=1, collate_fn=_collate_in_worker)
    (out,) = list(loader)
    assert out["in_worker"]
    assert out["shared_in_worker"]["x"] == (True, True)
    assert out["shared_in_worker"]["y"] == (True, True)
    # ints go through torch.tensor(), which allocates privately even in a worker
    assert out["shared_in_worker"]["label"] == (False, False)
    assert list(out["ours"]) == list(out["theirs"])
    for key in out["theirs"]:
        assert out["ours"][key].dtype == out["theirs"][key].dtype
        assert torch.equal(out["ours"][key], out["theirs"][key])


def test_main_process_loader_batch_is_not_shared():
    loader = DataLoader(_Samples(), batch_size=4, num_workers=0, collate_fn=default_collate)
    (batch,) = list(loader)
    assert not batch["x"].is_shared()
    assert not batch["y"].is_shared()


# --------------------------------------------------------------------------- default_convert

CONVERT_OK = {
    "int": lambda: 3,
    "float": lambda: 2.5,
    "bool": lambda: True,
    "str": lambda: "abc",
    "bytes": lambda: b"abc",
    "none": lambda: None,
    "opaque": lambda: Opaque(),
    "set": lambda: {1, 2},
    "tensor_returned_as_is": lambda: torch.ones(2),
    "np_f32": lambda: np.ones((2, 2), np.float32),
    "np_i64": lambda: np.arange(5),
    "np_u8": lambda: np.arange(5, dtype=np.uint8),
    "np_bool": lambda: np.array([True, False]),
    "np_complex": lambda: np.array([1j]),
    "np_0d": lambda: np.array(7.0),
    "np_unicode_array_kept": lambda: np.array(["a", "b"]),
    "np_bytes_array_kept": lambda: np.array([b"a"]),
    "np_object_array_kept": lambda: np.array([1, None], dtype=object),
    "np_masked_array_kept": lambda: np.ma.array([1, 2], mask=[0, 1]),
    "np_scalar_f64": lambda: np.float64(1.5),
    "np_scalar_i16": lambda: np.int16(-3),
    "np_scalar_bool": lambda: np.bool_(True),
    "np_str_scalar_kept": lambda: np.str_("a"),
    "dict": lambda: {"a": np.ones(2), "b": 1, "c": "s"},
    "dict_nested": lambda: {"a": {"b": [np.zeros(1), (np.ones(1), "x")]}},
    "ordereddict": lambda: collections.OrderedDict(a=np.ones(1)),
    "defaultdict": lambda: collections.defaultdict(int, a=np.ones(1)),
    "mappingproxy": lambda: types.MappingProxyType({"a": np.ones(1)}),
    "tagged_dict": lambda: TaggedDict(a=np.ones(1), tag="t"),
    "frozen_map": lambda: FrozenMap({"a": np.ones(1)}),
    "keyword_only_map_falls_back": lambda: KeywordOnlyMap(a=np.ones(1)),
    "store": lambda: Store({"a": np.ones(1)}),
    "uncopyable_store_falls_back": lambda: UncopyableStore({"a": np.ones(1)}),
    "namedtuple": lambda: Point(np.array(0), np.array([1, 2])),
    "typed_namedtuple": lambda: Sample(np.ones(2), {"k": np.int8(1)}, "n"),
    "tuple_becomes_list": lambda: (np.ones(1), 2, "x"),
    "empty_tuple": lambda: (),
    "list": lambda: [np.ones(1), [np.zeros(2)], "x"],
    "empty_list": lambda: [],
    "deque": lambda: collections.deque([np.ones(1)]),
    "userlist": lambda: collections.UserList([np.ones(1)]),
    "tagged_list": lambda: TaggedList([np.ones(1)], tag="t"),
    "frozen_seq": lambda: FrozenSeq([np.ones(1)]),
    "no_list_seq_falls_back": lambda: NoListSeq(np.ones(1)),
    "range_falls_back": lambda: range(3),
    "bytearray": lambda: bytearray(b"ab"),
}

CONVERT_ERRORS = {
    "np_bytes_scalar": lambda: np.bytes_(b"a"),
    "np_datetime64_scalar": lambda: np.datetime64("2020-01-01"),
    "np_datetime64_array": lambda: np.array(["2020-01-01"], dtype="datetime64[D]"),
    "np_datetime_in_dict": lambda: {"a": np.datetime64("2020-01-01")},
    "np_datetime_in_list": lambda: [np.datetime64("2020-01-01")],
}


@pytest.mark.parametrize("make", CONVERT_OK.values(), ids=CONVERT_OK.keys())
def test_convert_matches_torch(make):
    assert_agree(default_convert, torch_default_convert, make)


@pytest.mark.parametrize("make", CONVERT_ERRORS.values(), ids=CONVERT_ERRORS.keys())
def test_convert_errors_match_torch(make):
    assert_same_error(default_convert, torch_default_convert, make)


def test_convert_tensor_and_string_array_are_the_same_objects():
    t, a = torch.ones(2), np.array(["x"])
    assert default_convert(t) is t
    assert default_convert(a) is a
    converted = default_convert(np.ones(3))
    assert isinstance(converted, torch.Tensor) and converted.dtype == torch.float64
