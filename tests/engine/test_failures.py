"""Failure paths: errors in workers, dead workers, timeouts, and cleanup of worker processes.

Each scenario is played against torch's DataLoader and against LoaderLab's. Messages are compared
with torch's (tracebacks and pids normalised), and after every scenario no DataLoader worker may be
left: the test process's children are polled with ``psutil.wait_procs`` (bounded), never with sleeps.
In normal life (break, ``del``, end of epoch) cleanup is checked *without* ``gc.collect()``: torch's
workers are gone as soon as the last reference to the iterator is dropped, and a drop-in twin must not
wait for the cycle collector. After an exception the traceback keeps the iterator in a reference cycle
(torch's too), so those checks run ``gc.collect()`` first.

Set ``LOADERLAB_TEST_SELF=torch`` to run the suite with torch on both sides (checks the tests).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import re
import subprocess
import sys
import textwrap
import traceback
import warnings
from pathlib import Path

import psutil
import pytest
import torch.utils.data as TORCH

from tests.helpers.datasets import (
    BlockingDataset,
    FailingDataset,
    FailingIterable,
    KillingDataset,
    MapDataset,
    failing_collate,
    failing_worker_init_fn,
    labels_collate,
)

from tests.helpers.oracle import OURS, SELF_TEST
from tests.helpers.processes import baseline, new_children, process_key, still_alive
BOTH = pytest.mark.parametrize("mod", [TORCH, OURS], ids=["torch", "loaderlab"])
REPO = Path(__file__).resolve().parents[2]



# --------------------------------------------------------------------------------------------------
# child-process bookkeeping
# --------------------------------------------------------------------------------------------------

@pytest.fixture
def no_leftover_workers():
    """Yields a checker: ``check(what)`` asserts that every child process started since the test began
    has exited (bounded wait via ``psutil.wait_procs``)."""
    before = baseline()

    def check(what: str, timeout: float = 15.0, collect: bool = False):
        if collect:
            gc.collect()
        alive = still_alive(before, timeout)
        assert not alive, f"{what}: worker processes still alive after {timeout} s: {[p.pid for p in alive]}"

    return check



# --------------------------------------------------------------------------------------------------
# exceptions raised in the dataset / worker_init_fn / collate_fn
# --------------------------------------------------------------------------------------------------

def _drop_traceback(e: BaseException) -> None:
    """Break the exception -> traceback -> frame -> exception cycle (torch's ``reraise`` frame holds the
    exception it raised), so the iterator is freed by reference counting, as the test intends.
    Left to ``gc``, torch's cycle-collected iterator finds its queues already finalised and needs
    2 x 5 s of join timeouts to shut its workers down."""
    traceback.clear_frames(e.__traceback__)
    e.__traceback__ = None


HEADER_RE = re.compile(r"^Caught (\w+) in DataLoader worker process (\d+)\.\nOriginal Traceback \(most recent call last\):\n")


def _play_until_error(mod, **kwargs):
    """Iterate until the loader raises; returns (labels of batches seen, exception type, message)."""
    dataset = kwargs.pop("dataset")
    loader = mod.DataLoader(dataset, **kwargs)
    seen = []
    try:
        for batch in loader:
            is_pair = isinstance(batch, list) and len(batch) == 2 and hasattr(batch[1], "tolist")
            seen.append(batch[1].tolist() if is_pair else batch)  # the labels, for MapDataset batches
    except Exception as e:  # noqa: BLE001 - compared against torch's
        result = (seen, type(e), str(e))
        _drop_traceback(e)
        return result
    return seen, None, None


def _assert_same_worker_error(ref, got):
    ref_seen, ref_type, ref_msg = ref
    got_seen, got_type, got_msg = got
    assert ref_type is not None, "torch did not raise"
    assert got_type is ref_type, f"type {got_type} != torch's {ref_type}"
    assert got_seen == ref_seen, "batches delivered before the error differ"
    m_ref = HEADER_RE.match(ref_msg)
    assert m_ref, ref_msg
    assert HEADER_RE.match(got_msg), f"message does not start like torch's:\n{got_msg!r}\n---- torch:\n{ref_msg!r}"
    # identical header (exception name and worker id), identical last line (the original error)
    assert got_msg.split("\n")[:2] == ref_msg.split("\n")[:2]
    assert got_msg.rstrip("\n").split("\n")[-1] == ref_msg.rstrip("\n").split("\n")[-1]


@pytest.mark.parametrize("exc", ["value", "key", "twoarg"])
@pytest.mark.parametrize("fail_at", [5, 7])
def test_worker_exception_reraised_like_torch(exc, fail_at, no_leftover_workers):
    kwargs = dict(dataset=FailingDataset(12, fail_at, exc), batch_size=2, num_workers=2)
    ref = _play_until_error(TORCH, **dict(kwargs))
    no_leftover_workers("torch, after worker exception", collect=True)
    got = _play_until_error(OURS, **dict(kwargs))
    no_leftover_workers("loaderlab, after worker exception", collect=True)
    _assert_same_worker_error(ref, got)
    # the original error text is in the message
    original = {"value": f"ValueError: bad index {fail_at}", "key": f"KeyError: 'missing key {fail_at}'", "twoarg": "TwoArgError: two-arg error"}
    assert original[exc] in got[2]
    assert f"worker process {(fail_at // 2) % 2}." in got[2]


@pytest.mark.parametrize("exc", ["value", "key", "twoarg"])
def test_main_process_exception_is_raised_unwrapped_like_torch(exc):
    kwargs = dict(dataset=FailingDataset(12, 5, exc), batch_size=2, num_workers=0)
    ref = _play_until_error(TORCH, **dict(kwargs))
    got = _play_until_error(OURS, **dict(kwargs))
    assert ref[1] is not None and not ref[2].startswith("Caught")
    assert got == ref


def test_iteration_continues_after_worker_exception_like_torch(no_leftover_workers):
    """torch re-raises a worker's exception for that batch only; ``next()`` then goes on."""

    def play(mod):
        it = iter(mod.DataLoader(FailingDataset(12, 5), batch_size=2, num_workers=2))
        out = []
        while True:
            try:
                out.append(next(it)[1].tolist())
            except StopIteration:
                break
            except ValueError as e:
                out.append(str(e).split("\n")[0])
        return out

    ref = play(TORCH)
    got = play(OURS)
    no_leftover_workers("after an epoch with a failed batch", collect=True)
    assert ref == [[0, 1], [2, 3], "Caught ValueError in DataLoader worker process 0.", [6, 7], [8, 9], [10, 11]]
    assert got == ref


@pytest.mark.parametrize("nw", [0, 1, 2])
def test_iterable_exception_then_continue_like_torch(nw, no_leftover_workers):
    """An IterableDataset replica that raises: the error for that batch, then that replica is done."""

    def play(mod):
        it = iter(mod.DataLoader(FailingIterable(6, 3), batch_size=2, num_workers=nw))
        out = []
        while True:
            try:
                out.append(next(it).tolist())
            except StopIteration:
                break
            except ValueError as e:
                out.append(str(e).split("\n")[0] if nw else str(e))
                _drop_traceback(e)
        return out

    ref = play(TORCH)
    got = play(OURS)
    no_leftover_workers("after an iterable replica failed")
    assert len(ref) == 2 * max(nw, 1)
    assert got == ref


def test_worker_init_fn_exception_like_torch(no_leftover_workers):
    kwargs = dict(dataset=MapDataset(12), batch_size=2, num_workers=2, worker_init_fn=failing_worker_init_fn)
    ref = _play_until_error(TORCH, **dict(kwargs))
    got = _play_until_error(OURS, **dict(kwargs))
    no_leftover_workers("after worker_init_fn exception", collect=True)
    assert "worker process 1." in ref[2]
    _assert_same_worker_error(ref, got)


def test_collate_fn_exception_like_torch(no_leftover_workers):
    kwargs = dict(dataset=MapDataset(12), batch_size=3, num_workers=2, collate_fn=failing_collate)
    ref = _play_until_error(TORCH, **dict(kwargs))
    got = _play_until_error(OURS, **dict(kwargs))
    no_leftover_workers("after collate_fn exception", collect=True)
    assert "collate refused label 4" in ref[2]
    # collate returns the raw list of samples: compare what was delivered by count only
    assert len(got[0]) == len(ref[0]) == 1
    _assert_same_worker_error((None, ref[1], ref[2]), (None, got[1], got[2]))


# --------------------------------------------------------------------------------------------------
# a worker killed by SIGKILL
# --------------------------------------------------------------------------------------------------

EXITED = "DataLoader worker (pid(s) N) exited unexpectedly"
KILLED_BY_SIGNAL = "DataLoader worker (pid N) is killed by signal: Killed."  # torch's SIGCHLD-handler variant


def _play_sigkill(mod, tmp_path: Path, kill_at, collate_fn):
    pid_file = tmp_path / f"killed-{mod.__name__}.pid"
    pid_file.unlink(missing_ok=True)
    ds = KillingDataset(20, kill_at=kill_at, pid_file=str(pid_file))
    kwargs = dict(dataset=ds, batch_size=2, num_workers=2)
    if collate_fn is not None:
        kwargs["collate_fn"] = collate_fn
    seen, etype, msg = _play_until_error(mod, **kwargs)
    killed_pid = int(pid_file.read_text()) if pid_file.exists() else None
    return seen, etype, msg, killed_pid


# Two set-ups that avoid a genuine race in torch: a worker that already sent *tensors* and dies before
# the main process has received their file descriptors makes torch fail with ConnectionResetError
# instead. So either the killed worker dies on its first task (index 2 = batch 1, worker 1), or its
# batches hold no tensors (plain-int collate) and it dies on its second task (index 6 = batch 3).
@pytest.mark.parametrize(
    "kill_at,collate_fn",
    [(2, None), (6, labels_collate)],
    ids=["first-task-default-collate", "mid-epoch-int-collate"],
)
def test_sigkilled_worker_raises_like_torch(kill_at, collate_fn, tmp_path, no_leftover_workers):
    ref_seen, ref_type, ref_msg, ref_pid = _play_sigkill(TORCH, tmp_path, kill_at, collate_fn)
    no_leftover_workers("torch, after SIGKILL", collect=True)
    got_seen, got_type, got_msg, got_pid = _play_sigkill(OURS, tmp_path, kill_at, collate_fn)
    no_leftover_workers("loaderlab, after SIGKILL", collect=True)

    # torch (sanity): RuntimeError naming the killed pid; normally the "exited unexpectedly" form
    assert ref_type is RuntimeError and ref_pid is not None, (ref_type, ref_msg)
    assert re.sub(r"\d+", "N", ref_msg) in (EXITED, KILLED_BY_SIGNAL), ref_msg
    assert str(ref_pid) in ref_msg

    assert got_type is RuntimeError, f"{got_type}: {got_msg}"
    assert got_pid is not None, "the dataset never reached the killing index in a loaderlab worker"
    assert re.sub(r"\d+", "N", got_msg) == EXITED, got_msg
    assert got_msg == EXITED.replace("N", str(got_pid))
    # what was delivered before the failure is a prefix of the epoch (its length is timing-dependent)
    labels = [[i, i + 1] for i in range(0, 20, 2)]
    assert got_seen == labels[: len(got_seen)] and len(got_seen) <= kill_at // 2


# --------------------------------------------------------------------------------------------------
# timeout=
# --------------------------------------------------------------------------------------------------


def _play_timeout(mod, timeout):
    event = multiprocessing.Event()
    loader = mod.DataLoader(BlockingDataset(event, n=8, block_at=0), batch_size=2, num_workers=1, timeout=timeout)
    it = iter(loader)
    try:
        next(it)
    except Exception as e:  # noqa: BLE001 - compared against torch's
        result = (type(e), str(e))
        _drop_traceback(e)
    else:
        result = (None, "no error")
    finally:
        event.set()  # let the blocked worker go, so that shutdown is prompt
    del it, loader
    return result


@pytest.mark.parametrize("timeout", [0.5, 1])
def test_timeout_raises_like_torch(timeout, no_leftover_workers):
    ref = _play_timeout(TORCH, timeout)
    no_leftover_workers("torch, after timeout", collect=True)
    got = _play_timeout(OURS, timeout)
    no_leftover_workers("loaderlab, after timeout", collect=True)
    assert ref == (RuntimeError, f"DataLoader timed out after {timeout} seconds")
    assert got == ref


@BOTH
def test_timeout_not_hit_when_data_arrives(mod, no_leftover_workers):
    event = multiprocessing.Event()
    event.set()
    loader = mod.DataLoader(BlockingDataset(event, n=6, block_at=0), batch_size=2, num_workers=2, timeout=30)
    assert [b[1].tolist() for b in loader] == [[0, 1], [2, 3], [4, 5]]
    no_leftover_workers("after a full epoch with timeout")


# --------------------------------------------------------------------------------------------------
# cleanup of workers in normal life
# --------------------------------------------------------------------------------------------------


@BOTH
def test_no_workers_after_break(mod, no_leftover_workers):
    loader = mod.DataLoader(MapDataset(40), batch_size=2, num_workers=2)
    for i, _ in enumerate(loader):
        if i == 2:
            break
    no_leftover_workers("after breaking out of the loop (loader still referenced)")


@BOTH
def test_no_workers_after_exception_in_loop_body(mod, no_leftover_workers):
    loader = mod.DataLoader(MapDataset(40), batch_size=2, num_workers=2)
    with pytest.raises(KeyError):
        for i, _ in enumerate(loader):
            if i == 1:
                raise KeyError("user code failed")
    no_leftover_workers("after an exception in the loop body")


@BOTH
def test_no_workers_after_del_iterator(mod, no_leftover_workers):
    before = baseline()
    loader = mod.DataLoader(MapDataset(40), batch_size=2, num_workers=2)
    it = iter(loader)
    next(it)
    assert len(new_children(before)) >= 2, "workers should be running mid-epoch"
    del it
    no_leftover_workers("after del of a mid-epoch iterator")


@BOTH
def test_no_workers_after_exhausted_epoch_while_iterator_alive(mod, no_leftover_workers):
    loader = mod.DataLoader(MapDataset(10), batch_size=2, num_workers=2)
    it = iter(loader)
    assert len(list(it)) == 5
    no_leftover_workers("after StopIteration (iterator still referenced)")
    del it


@BOTH
def test_persistent_workers_survive_epochs_then_die_with_loader(mod, no_leftover_workers):
    before = baseline()
    loader = mod.DataLoader(MapDataset(10), batch_size=2, num_workers=2, persistent_workers=True)
    assert len(list(loader)) == 5
    first = {process_key(p) for p in new_children(before)}
    assert len(first) >= 2, "persistent workers should outlive the epoch"
    assert len(list(loader)) == 5
    assert {process_key(p) for p in new_children(before)} == first, "the same worker processes serve epoch 2"
    del loader
    no_leftover_workers("after del of a persistent-workers loader")


@BOTH
def test_persistent_workers_die_with_loader_mid_epoch(mod, no_leftover_workers):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 3 workers may exceed the cpu count
        loader = mod.DataLoader(MapDataset(20), batch_size=2, num_workers=3, persistent_workers=True, in_order=False)
        list(loader)
        for i, _ in enumerate(loader):
            if i == 1:
                break
    del loader
    no_leftover_workers("after del of a persistent-workers loader in its 2nd epoch")


@BOTH
def test_no_workers_after_two_iterators_of_one_loader(mod, no_leftover_workers):
    loader = mod.DataLoader(MapDataset(12), batch_size=2, num_workers=2)
    a = iter(loader)
    b = iter(loader)
    assert next(a)[1].tolist() == next(b)[1].tolist() == [0, 1]
    del a
    assert [x[1].tolist() for x in b][-1] == [10, 11]
    del b
    no_leftover_workers("after two concurrent iterators")


# --------------------------------------------------------------------------------------------------
# interpreter exit with live workers
# --------------------------------------------------------------------------------------------------

EXIT_SCRIPT = textwrap.dedent(
    """
    import sys, psutil
    impl, mode = sys.argv[1], sys.argv[2]
    if impl == "torch":
        import torch.utils.data as m
    else:
        import loaderlab as m
    from tests.helpers.datasets import MapDataset

    def report():
        for p in psutil.Process().children(recursive=True):
            print("PID", p.pid, p.create_time(), flush=True)

    persistent = mode.startswith("persistent")
    loader = m.DataLoader(MapDataset(40), batch_size=2, num_workers=2, persistent_workers=persistent)
    if persistent:
        assert len(list(loader)) == 20  # one full epoch; the workers stay
    if mode.endswith("sys-exit"):
        for i, batch in enumerate(loader):
            if i == 2:
                report()
                sys.exit(0)
    else:  # leave the iterator in a global and fall off the end of the script
        it = iter(loader)
        next(it)
        next(it)
        report()
    """
)


def _alive_among(reported):
    procs = []
    for pid, ctime in reported:
        try:
            p = psutil.Process(pid)
            if abs(p.create_time() - ctime) < 0.01:  # same process, not a reused pid
                procs.append(p)
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(procs, timeout=15)
    still = []
    for p in alive:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                still.append(p.pid)
        except psutil.NoSuchProcess:
            pass
    return still


@pytest.mark.parametrize(
    "impl,mode",
    [
        ("torch", "sys-exit"),  # torch: checks the test itself
        ("torch", "persistent-global-iterator"),
        ("loaderlab", "sys-exit"),
        ("loaderlab", "global-iterator"),
        ("loaderlab", "persistent-sys-exit"),
        ("loaderlab", "persistent-global-iterator"),
    ],
)
def test_interpreter_exit_leaves_no_workers(impl, mode):
    env = dict(os.environ, PYTHONPATH=str(REPO))
    if impl == "loaderlab" and SELF_TEST:
        impl = "torch"
    proc = subprocess.run(
        [sys.executable, "-c", EXIT_SCRIPT, impl, mode],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr, proc.stderr
    reported = [(int(line.split()[1]), float(line.split()[2])) for line in proc.stdout.splitlines() if line.startswith("PID ")]
    assert len(reported) >= 2, f"expected the script to report its 2 workers:\n{proc.stdout}\n{proc.stderr}"
    assert _alive_among(reported) == [], f"worker processes outlived the interpreter ({impl}, {mode})"
