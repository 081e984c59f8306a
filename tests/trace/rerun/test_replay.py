"""replay(): the measured workload re-run on the engine with new settings."""

from __future__ import annotations

import pytest

import loaderlab
from loaderlab import DataLoader
from loaderlab.scenarios.datasets import TableDataset, Workload, label_and_length


def _fetch_costs(frame):
    b = frame[frame.kind == "fetch_begin"].set_index(["epoch", "index"])["t_ns"]
    e = frame[frame.kind == "fetch_end"].set_index(["epoch", "index"])["t_ns"]
    return ((e - b) / 1e9).groupby(level="index").median()


@pytest.fixture(scope="module")
def straggler_trace():
    workload = Workload([i % 3 for i in range(24)], [4] * 24, cost_s=0.002, straggler_index=9, straggler_s=0.15)
    return loaderlab.record(DataLoader(TableDataset(workload), batch_size=4, num_workers=1), epochs=1,
                            sample_info=label_and_length)


def test_replay_keeps_the_workload_and_applies_new_settings(straggler_trace):
    out = loaderlab.replay(straggler_trace, num_workers=2, in_order=False)
    assert out.attrs["loader"]["num_workers"] == 2 and out.attrs["loader"]["in_order"] is False
    assert out.attrs["replay_of"]["num_workers"] == 1
    assert set(out.loc[out.kind == "worker_ready", "worker"]) == {0, 1}
    # Same samples, same order, same slowest sample, same labels.
    order = lambda f: list(f[f.kind == "fetch_end"].sort_values(["batch", "t_ns"])["index"])
    assert order(out) == order(straggler_trace) == list(range(24))
    assert _fetch_costs(out).idxmax() == _fetch_costs(straggler_trace).idxmax() == 9
    labels = out[out.kind == "fetch_end"].set_index("index")["label"]
    assert [int(labels[i]) for i in range(24)] == [i % 3 for i in range(24)]


def test_replay_rejects_unknown_arguments_by_name(straggler_trace):
    with pytest.raises(TypeError, match=r"unexpected loader arguments \['num_wrokers'\]"):
        loaderlab.replay(straggler_trace, num_wrokers=2)


def test_replay_passes_torchs_own_validation(straggler_trace):
    with pytest.raises(ValueError, match="num_workers option should be non-negative"):
        loaderlab.replay(straggler_trace, num_workers=-1)


# --- cores and warnings (issue 12, item 8) ----------------------------------------------------------

import multiprocessing
import os
import subprocess
import sys
import warnings

from loaderlab.engine import loader as engine_loader
from loaderlab.trace.files.io import save_trace
from loaderlab.trace.rerun.standin import ReplayDataset
from loaderlab.trace.rerun.workload import measured_workload
from loaderlab.trace.rerun.replayer import model_note

WORKERS_WARNING = "worker processes in total"


@pytest.fixture(scope="module")
def even_trace():
    """16 samples of 15 ms each, recorded with one worker."""
    workload = Workload([i % 2 for i in range(16)], [4] * 16, cost_s=0.015)
    return loaderlab.record(DataLoader(TableDataset(workload), batch_size=4, num_workers=1), epochs=1,
                            sample_info=label_and_length)


@pytest.fixture
def one_core(monkeypatch):
    """This machine has one core, as torch's worker-count warning (and so replay) counts them."""
    monkeypatch.setattr(engine_loader, "cpu_count", lambda: 1)


def _replay_catching(trace, **kwargs):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = loaderlab.replay(trace, **kwargs)
    return out, [str(w.message) for w in caught if WORKERS_WARNING in str(w.message)]


def test_workers_beyond_the_cores_share_them_and_the_result_says_so(even_trace, one_core):
    out, _ = _replay_catching(even_trace, num_workers=2)
    assert out.attrs["replay_model"] == {"num_workers": 2, "cores": 1, "over_cores": True, "io_bound": False,
                                         "capped": True}
    # One core slot: the samples' sleeps cannot overlap, so fetching takes nearly the sum of the recorded
    # costs; without the cap two workers take about half. Not the whole sum: a sample builds its payload
    # (part of its cost) before it takes the slot, beside the other worker's sleep — on a loaded machine
    # that overlap reached 4 ms of 237.
    fetches = out[out.kind.isin(["fetch_begin", "fetch_end"])]
    total = sum(measured_workload(even_trace)["cost_s"].values()) * 1e9
    assert fetches.t_ns.max() - fetches.t_ns.min() >= 0.8 * total
    assert set(out.loc[out.kind == "worker_ready", "worker"]) == {0, 1}  # both workers really ran
    note = model_note(out.attrs["replay_model"])
    assert "2 workers on this machine's 1 core:" in note and "one sample at a time" in note


def test_a_sample_waits_for_a_free_core_slot():
    import threading

    slots = multiprocessing.get_context("fork").BoundedSemaphore(1)
    dataset = ReplayDataset({0: 0.001}, {0: "a"}, {0: 1}, 2, cores=slots)
    got = []
    slots.acquire()  # another worker holds the only core
    fetching = threading.Thread(target=lambda: got.append(dataset[0]))
    fetching.start()
    fetching.join(timeout=0.3)  # a bound, not a synchronisation: the sample cannot finish while we hold it
    assert fetching.is_alive() and got == []
    slots.release()
    fetching.join(timeout=10)
    assert not fetching.is_alive() and len(got) == 1 and got[0].shape == (2,)  # the sample, as measured
    assert slots.get_value() == 1  # the sample gave its slot back


def test_io_bound_lifts_the_cap_and_says_what_it_ignores(even_trace, one_core):
    out, _ = _replay_catching(even_trace, num_workers=2, io_bound=True)
    model = out.attrs["replay_model"]
    assert model["over_cores"] and not model["capped"] and model["io_bound"]
    assert "does not compete for cores" in model_note(model) and "this machine has 1 core." in model_note(model)
    with pytest.raises(TypeError, match="io_bound should be True or False"):
        loaderlab.replay(even_trace, num_workers=2, io_bound="yes")


def test_within_the_cores_nothing_is_capped(even_trace):
    out = loaderlab.replay(even_trace, num_workers=0)
    assert out.attrs["replay_model"]["capped"] is False
    assert "main process" in model_note(out.attrs["replay_model"])


def test_torchs_worker_count_warning_shows_once_per_replay(even_trace, one_core):
    # torch warns when the loader is built and at each iter(): three times for two epochs
    for persistent in (False, True):
        _, shown = _replay_catching(even_trace, num_workers=2, epochs=2, persistent_workers=persistent)
        assert len(shown) == 1 and "will create 2 worker processes" in shown[0]


def test_model_notes_have_the_same_keys_and_placeholders_in_every_language():
    from loaderlab.texts import EN
    from loaderlab.texts.words import KO
    from loaderlab.texts.wording import placeholders

    fields = lambda s: {f for f, _, _ in placeholders(s)}
    notes = [key for key in EN if key.startswith("replay.model.")]
    assert len(notes) == 5 and {key for key in KO if key.startswith("replay.model.")} == set(notes)
    for key in notes:
        assert fields(EN[key]) == fields(KO[key]), key
    model = {"num_workers": 8, "cores": 2, "over_cores": True, "io_bound": False, "capped": True}
    assert "코어 2개" in model_note(model, "ko")


@pytest.mark.slow  # a fresh interpreter importing torch on one core
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="pins the command to one core")
def test_the_replay_command_prints_the_model_and_the_warning_once(even_trace, tmp_path):
    save_trace(even_trace, tmp_path / "given.json")
    one = min(os.sched_getaffinity(0))
    done = subprocess.run([sys.executable, "-m", "loaderlab", "replay", "given.json", "--num-workers", "2"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          preexec_fn=lambda: os.sched_setaffinity(0, {one}))
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(WORKERS_WARNING) == 1
    assert "model: 2 workers on this machine's 1 core:" in done.stdout and "--io-bound" in done.stdout


def test_the_stand_ins_batches_carry_the_recorded_tensors():
    """Moving a batch between processes costs per tensor: a replay's batches carry as many as the recorded
    ones (the label and length the stand-in reports are read by index, not carried as two more tensors)."""
    from loaderlab.trace.core.run import as_run

    from tests.helpers.planted import Tiny, record_cause

    frame = record_cause("ipc", dataset=Tiny(64))
    recorded = as_run(frame).extra["payload"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = loaderlab.replay(frame)
    assert recorded["tensors"] == 2 and as_run(out).extra["payload"]["tensors"] == 2
    assert as_run(out).extra["payload"]["nbytes"] == pytest.approx(recorded["nbytes"], rel=0.5)
