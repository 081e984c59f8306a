"""Differential tests for the gaps torch's own ``test/test_dataloader.py`` found (see benchmarks/torch_suite).

Each case runs torch's DataLoader and LoaderLab's on the same input and compares what a user sees:
``DataLoader[...]`` in annotations (also with persistent workers); the open-files explanation torch gives
when a batch cannot be received; DataPipes (shuffle settings, per-epoch shared seeds, sharding per worker
and per rank, torch's serialisation wrapper, its ``__getitems__`` behaviour, the workers' base seeds).

Set ``LOADERLAB_TEST_SELF=torch`` to put torch on both sides (checks the tests themselves).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import textwrap
import typing
import warnings
from pathlib import Path

import pytest
import torch
import torch.utils.data as TORCH
from torch.utils.data import MapDataPipe
from torch.utils.data.datapipes.iter import IterableWrapper
from torch.utils.data.datapipes.map import SequenceWrapper

from tests.helpers.oracle import OURS

REPO = Path(__file__).resolve().parents[2]
BOTH = pytest.mark.parametrize("mod", [TORCH, OURS], ids=["torch", "loaderlab"])


def plain(batch):
    """Tensors as lists, containers recursively (so that batches compare with ``==``, types kept)."""
    if isinstance(batch, torch.Tensor):
        return ("tensor", str(batch.dtype), batch.tolist())
    if isinstance(batch, (list, tuple)):
        return type(batch)(plain(b) for b in batch)
    return batch


def _as_lists(batches) -> list:
    return [plain(b) for b in batches]


def items(epoch) -> list:
    """Every value in an epoch's batches, flattened."""
    found = []

    def walk(x):
        if isinstance(x, tuple) and len(x) == 3 and x[0] == "tensor":
            walk(x[2])
        elif isinstance(x, (list, tuple)):
            for y in x:
                walk(y)
        else:
            found.append(x)

    walk(epoch)
    return found


# --------------------------------------------------------------------------------------------------
# 1. DataLoader is Generic, as torch's is
# --------------------------------------------------------------------------------------------------

@BOTH
def test_subscript_in_annotations(mod):
    """torch's test_typing: ``DataLoader[list[Tensor]]`` in a signature must not raise (this module's
    annotations are strings, so the subscript is evaluated explicitly, as an unpostponed one would be)."""

    def make(is_train: bool) -> mod.DataLoader[list[torch.Tensor]]:
        pass

    alias = typing.get_type_hints(make, localns={"mod": mod})["return"]
    assert alias == mod.DataLoader[list[torch.Tensor]]
    assert typing.get_origin(alias) is mod.DataLoader
    assert typing.get_args(alias) == (list[torch.Tensor],)
    assert len(mod.DataLoader.__parameters__) == len(TORCH.DataLoader.__parameters__) == 1


def _alias_epochs(mod) -> tuple[list, object]:
    torch.manual_seed(0)
    loader = mod.DataLoader[torch.Tensor](list(range(10)), batch_size=3, shuffle=True, num_workers=1,
                                          persistent_workers=True)
    epochs = [_as_lists(loader) for _ in range(2)]
    return epochs, loader.__orig_class__


def test_subscripted_loader_with_persistent_workers_matches_torch():
    """A loader built through the alias (which sets ``__orig_class__``) keeps its workers and batches."""
    theirs, their_alias = _alias_epochs(TORCH)
    ours, our_alias = _alias_epochs(OURS)
    assert ours == theirs
    assert typing.get_origin(our_alias) is OURS.DataLoader
    assert typing.get_args(our_alias) == typing.get_args(their_alias)


# --------------------------------------------------------------------------------------------------
# 2. A batch that cannot be received: torch's explanation (provoked for real, then injected)
# --------------------------------------------------------------------------------------------------

FD_LIMIT_SCRIPT = textwrap.dedent("""
    import resource, sys
    import torch
    import torch.utils.data as TORCH
    mod = TORCH if sys.argv[1] == "torch" else __import__("loaderlab")

    class RandomDataset(TORCH.IterableDataset):   # torch's test_fd_limit_exceeded, unchanged
        def __init__(self, len, size):
            self.len, self.size = len, size
        def __iter__(self):
            return self
        def __next__(self):
            if self.len <= 0:
                raise StopIteration
            self.len -= 1
            return torch.randn(self.size)

    keep_fds_alive = []
    resource.setrlimit(resource.RLIMIT_NOFILE, (100, 100))
    try:
        for t in mod.DataLoader(RandomDataset(200, (2, 2)), multiprocessing_context="fork", num_workers=1,
                                persistent_workers=sys.argv[2] == "persistent"):
            keep_fds_alive.append(t)
        print("no error")
    except RuntimeError as e:
        print(repr(str(e)), e.__cause__, e.__suppress_context__)
""")


@pytest.mark.slow
@pytest.mark.parametrize("persistent", ["plain", "persistent"])
def test_out_of_file_descriptors_is_explained_as_torch_does(persistent):
    """Provoked for real, as torch's own test does: RLIMIT_NOFILE=100 and a loop that keeps every batch."""

    def run(side: str) -> str:
        done = subprocess.run([sys.executable, "-c", FD_LIMIT_SCRIPT, side, persistent], cwd=REPO,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    theirs, ours = run("torch"), run("loaderlab" if OURS is not TORCH else "torch")
    assert "ulimit -n" in theirs and "set_sharing_strategy" in theirs
    assert ours == theirs


class ReceiveFailed(RuntimeError):
    """Stands for what multiprocessing raises when a batch's file descriptors cannot be received."""


def _inject_receive_error(it) -> None:
    """Make the next receive fail the way an unpicklable-on-arrival batch does (same point in both loaders:
    the result queue's ``get``)."""

    def failing_get(*args, **kwargs):
        raise ReceiveFailed("received 0 items of ancdata")

    it._data_queue.get = failing_get


def _first_error(mod, emfile: bool, monkeypatch) -> BaseException:
    loader = mod.DataLoader(list(range(8)), batch_size=2, num_workers=1)
    it = iter(loader)
    _inject_receive_error(it)
    if emfile:
        def no_more_files(*args, **kwargs):
            raise OSError(24, "Too many open files")  # errno.EMFILE
        monkeypatch.setattr(tempfile, "NamedTemporaryFile", no_more_files)
    try:
        with pytest.raises(Exception) as caught:
            next(it)
    finally:
        monkeypatch.undo()
        it._shutdown_workers()
    return caught.value


@pytest.mark.parametrize("emfile", [False, True], ids=["files-left", "no-files-left"])
def test_receive_errors_are_rewritten_as_torch_rewrites_them(emfile, monkeypatch):
    """Injected: with files left the receive error itself propagates; without, torch's explanation replaces
    it (``from None``)."""
    theirs = _first_error(TORCH, emfile, monkeypatch)
    ours = _first_error(OURS, emfile, monkeypatch)
    assert (type(ours), str(ours)) == (type(theirs), str(theirs))
    assert (ours.__cause__, ours.__suppress_context__) == (theirs.__cause__, theirs.__suppress_context__)
    assert isinstance(theirs, RuntimeError)
    assert ("ulimit -n" in str(theirs)) is emfile


# --------------------------------------------------------------------------------------------------
# 3. DataPipes: shuffle settings, shared seeds, sharding per worker and per rank
# --------------------------------------------------------------------------------------------------

def seed_of(x):
    """A map step that reports the worker's torch seed next to the item (top-level: spawn can pickle it)."""
    return x, torch.initial_seed()


def _pipe(kind: str):
    if kind == "shuffled":
        return IterableWrapper(list(range(20))).shuffle(buffer_size=7).sharding_filter()
    if kind == "sharded":
        return IterableWrapper(range(10)).sharding_filter()
    if kind == "seeds":
        return IterableWrapper(range(8)).sharding_filter().map(seed_of)
    if kind == "unsharded":
        return IterableWrapper(range(6))
    raise ValueError(kind)


def _pipe_epochs(mod, kind: str, *, epochs: int = 2, seed_each_epoch: bool = False, **kwargs):
    """Batches of each epoch and every warning, from the same global seed / generator on both sides."""
    torch.manual_seed(123)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loader = mod.DataLoader(_pipe(kind), **kwargs)
        out = []
        for _ in range(epochs):
            if seed_each_epoch:
                torch.manual_seed(321)
            out.append(_as_lists(loader))
    if loader._iterator is not None:
        loader._iterator._shutdown_workers()
    texts = sorted({str(w.message) for w in caught if "DataLoader will create" not in str(w.message)})
    return out, texts, type(loader.dataset).__name__, torch.rand(1).item()


PIPE_CASES = [
    pytest.param(dict(num_workers=0, shuffle=True, batch_size=3), id="w0-shuffle"),
    pytest.param(dict(num_workers=0, shuffle=False, batch_size=3), id="w0-no-shuffle"),
    pytest.param(dict(num_workers=0, batch_size=3), id="w0-shuffle-unset"),
    pytest.param(dict(num_workers=1, shuffle=True), id="w1-shuffle"),
    pytest.param(dict(num_workers=2, shuffle=True, batch_size=3), id="w2-shuffle"),
    pytest.param(dict(num_workers=2, shuffle=False, batch_size=2), id="w2-no-shuffle"),
    pytest.param(dict(num_workers=2, shuffle=True, batch_size=3, persistent_workers=True), id="w2-persistent"),
    pytest.param(dict(num_workers=2, shuffle=True, generator="42"), id="w2-generator"),
]


@pytest.mark.parametrize("kwargs", PIPE_CASES)
def test_shuffled_pipe_matches_torch(kwargs):
    """torch's test_shuffler_iterdatapipe, compared item for item: ``shuffle=True`` accepted, a new
    shared seed each epoch, each item once per epoch with workers (the sharding filter is applied)."""

    def run(mod):
        args = dict(kwargs)
        if args.get("generator"):
            args["generator"] = torch.Generator().manual_seed(int(args["generator"]))
        return _pipe_epochs(mod, "shuffled", **args)

    theirs, ours = run(TORCH), run(OURS)
    assert ours == theirs
    for epoch in theirs[0]:
        assert sorted(items(epoch)) == list(range(20))


def test_same_global_seed_gives_same_pipe_order_as_torch():
    """Re-seeding torch before each epoch repeats the order, on both sides, with a persistent worker."""
    theirs = _pipe_epochs(TORCH, "shuffled", seed_each_epoch=True, num_workers=1, shuffle=True,
                          persistent_workers=True)
    ours = _pipe_epochs(OURS, "shuffled", seed_each_epoch=True, num_workers=1, shuffle=True,
                        persistent_workers=True)
    assert ours == theirs
    assert theirs[0][0] == theirs[0][1]


@pytest.mark.slow
def test_shuffled_pipe_with_spawned_persistent_workers_matches_torch():
    """torch's own configuration: spawn workers, persistent, shuffle=True (the shared seed crosses the
    Resume message each epoch)."""
    args = dict(num_workers=2, shuffle=True, multiprocessing_context="spawn", persistent_workers=True)
    assert _pipe_epochs(OURS, "shuffled", epochs=3, **args) == _pipe_epochs(TORCH, "shuffled", epochs=3, **args)


@pytest.mark.parametrize("num_workers", [0, 1, 2, 3])
def test_sharding_filter_gives_each_item_once_like_torch(num_workers):
    """The issue's case: ``IterableWrapper(range(10)).sharding_filter()`` with workers yields 0..9 once each."""
    theirs = _pipe_epochs(TORCH, "sharded", num_workers=num_workers)
    ours = _pipe_epochs(OURS, "sharded", num_workers=num_workers)
    assert ours == theirs
    assert sorted(items(theirs[0][0])) == list(range(10))


def test_pipe_without_sharding_filter_is_replicated_like_torch():
    """Without a sharding filter torch does not shard: each worker yields everything (as for any
    unsharded IterableDataset), and so must we."""
    theirs = _pipe_epochs(TORCH, "unsharded", num_workers=2, epochs=1)
    ours = _pipe_epochs(OURS, "unsharded", num_workers=2, epochs=1)
    assert ours == theirs
    assert sorted(items(theirs[0][0])) == sorted(list(range(6)) * 2)


def test_shuffle_true_on_pipe_without_shuffler_warns_like_torch():
    """torch warns that it adds a Shuffler, then keeps the original pipe: same warning, same batches."""
    theirs = _pipe_epochs(TORCH, "sharded", num_workers=0, shuffle=True, epochs=1)
    ours = _pipe_epochs(OURS, "sharded", num_workers=0, shuffle=True, epochs=1)
    assert ours == theirs
    assert any("does not contain a `Shuffler`" in text for text in theirs[1])


@pytest.mark.parametrize("num_workers", [0, 2])
def test_worker_seeds_with_a_pipe_match_torch(num_workers):
    """The shared seed is drawn from ``generator`` before the workers' base seed: same seeds as torch."""
    def run(mod):
        return _pipe_epochs(mod, "seeds", num_workers=num_workers, batch_size=None,
                            generator=torch.Generator().manual_seed(7))
    assert run(OURS) == run(TORCH)


def test_loader_holds_the_pipe_in_torchs_wrapper():
    for pipe in (IterableWrapper(range(3)), SequenceWrapper(range(3))):
        theirs, ours = TORCH.DataLoader(pipe), OURS.DataLoader(pipe)
        assert type(ours.dataset) is type(theirs.dataset)
        assert ours.dataset._datapipe is pipe


class GetItemsPipe(MapDataPipe):
    """A MapDataPipe that also offers ``__getitems__``; torch's wrapper hides it (so values tell which ran)."""

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return i

    def __getitems__(self, indices):
        return [-1 for _ in indices]


@pytest.mark.parametrize("num_workers", [0, 2])
def test_map_pipe_with_getitems_is_fetched_like_torch(num_workers):
    def run(mod):
        torch.manual_seed(0)
        return _as_lists(mod.DataLoader(GetItemsPipe(), batch_size=4, shuffle=True, num_workers=num_workers))
    theirs, ours = run(TORCH), run(OURS)
    assert ours == theirs
    assert sorted(items(theirs)) == list(range(6))


class FakeWorld:
    """Two ranks of a distributed job, without a process group: what ``dist`` would report on rank 1."""

    def __init__(self, monkeypatch):
        import torch.distributed as dist

        monkeypatch.setattr(dist, "is_initialized", lambda: True)
        monkeypatch.setattr(dist, "get_world_size", lambda group=None: 2)
        monkeypatch.setattr(dist, "get_rank", lambda group=None: 1)
        monkeypatch.setattr(dist, "new_group", lambda *a, **k: None)


@pytest.mark.parametrize("num_workers", [0, 2])
def test_pipe_is_sharded_over_ranks_then_workers_like_torch(num_workers, monkeypatch):
    """On rank 1 of 2 the pipe is sharded over 2 ranks x num_workers, rank-major as torch does."""
    FakeWorld(monkeypatch)
    theirs = _pipe_epochs(TORCH, "sharded", num_workers=num_workers, epochs=1)
    ours = _pipe_epochs(OURS, "sharded", num_workers=num_workers, epochs=1)
    assert ours == theirs
    assert sorted(items(theirs[0][0])) == [1, 3, 5, 7, 9]
