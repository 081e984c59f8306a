"""``python -m loaderlab run`` on real, unchanged scripts, end to end in subprocesses.

Each run imports torch in a fresh interpreter (seconds of CPU on 2 cores), so the runs that need no
interaction start together in one fixture and the tests read their results.
"""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from loaderlab.jobs.read import load_any, loader_names, select_loader
from loaderlab.trace.diagnosis.findings import all_findings
from tests.jobs import scripts
from tests.jobs.runner import TIMEOUT_S, cli, env, run, write

pytestmark = pytest.mark.slow  # each test starts Python with torch in a subprocess (seconds of CPU)

JOBS = {
    "fidelity": ("fidelity.py", scripts.FIDELITY, ("traced.json", "3")),
    "crash": ("crash.py", scripts.CRASH, ()),
    "no_loader": ("no_loader.py", scripts.NO_LOADER, ()),
    "two": ("two.py", scripts.TWO_AT_ONCE, ()),
    "nested": ("nested.py", scripts.LOADER_IN_WORKER, ()),
    "forks": ("forks.py", scripts.FORKS, ()),
    "forgot": ("set_epoch.py", scripts.SET_EPOCH, ("no",)),
    "called": ("set_epoch.py", scripts.SET_EPOCH, ("yes",)),
}


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("jobs")
    for name, text, _ in JOBS.values():
        write(folder, name, text)

    def one(key):
        name, _, args = JOBS[key]
        return key, run(folder, "-o", f"{key}_trace", name, *args)

    def plain():
        return subprocess.run([sys.executable, "fidelity.py", "plain.json", "3"], cwd=folder, env=env(),
                              capture_output=True, text=True, timeout=TIMEOUT_S)

    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(one, key) for key in JOBS]
        plain_run = pool.submit(plain)
        results = dict(f.result() for f in futures)
    results["plain"] = plain_run.result()
    return folder, results


def test_the_script_sees_the_batches_torch_gives_and_its_own_argv_path_and_status(jobs):
    folder, results = jobs
    traced, plain = results["fidelity"], results["plain"]
    assert traced.returncode == plain.returncode == 3, traced.stderr
    ran = json.loads((folder / "traced.json").read_text())
    assert ran["batches"] == json.loads((folder / "plain.json").read_text())["batches"]
    assert ran["argv"] == ["fidelity.py", "traced.json", "3"]
    assert ran["path0"] == str(folder) and ran["cwd"] == str(folder) and ran["name"] == "__main__"


def test_each_loader_is_named_by_its_variable_and_site(jobs):
    folder, results = jobs
    frame = load_any(str(folder / "fidelity_trace.lltrace"))
    assert loader_names(frame) == ["train_loader", "val_loader"]
    loaders = frame.attrs["loaders"]
    line = next(n for n, text in enumerate(scripts.FIDELITY.splitlines(), 1) if text.strip().startswith("train_loader ="))
    assert loaders["train_loader"]["site"] == f"fidelity.py:{line}"
    assert loaders["train_loader"]["settings"]["recorded_from"].endswith("MyLoader")
    train = select_loader(frame, "train_loader")
    yields = train[train["kind"] == "batch_yield"]
    assert len(yields) == 16 and sorted(yields["epoch"].unique()) == [0, 1]  # 8 batches in each of 2 iter()s
    assert len(train[train["kind"] == "consumer_end"]) == 16
    val = select_loader(frame, "val_loader")
    # the `break`: one batch handed out, and its loop body closed when the iterator was let go
    assert (val["kind"] == "batch_yield").sum() == 1 and (val["kind"] == "consumer_end").sum() == 1
    assert (val["kind"] == "epoch_end").sum() == 0
    assert "loaderlab: wrote fidelity_trace.lltrace: " in results["fidelity"].stderr
    assert "(train_loader 16 batches, val_loader 1 batches), exit status 3" in results["fidelity"].stderr


def test_a_crash_prints_the_traceback_exits_1_and_leaves_the_trace_so_far(jobs):
    folder, results = jobs
    crash = results["crash"]
    assert crash.returncode == 1
    assert "Traceback (most recent call last)" in crash.stderr and "ValueError: loss is nan at step 5" in crash.stderr
    line = next(n for n, text in enumerate(scripts.CRASH.splitlines(), 1) if "raise ValueError" in text)
    assert crash.stderr.startswith(f'Traceback (most recent call last):\n  File "crash.py", line {line}, in <module>')
    frame = load_any(str(folder / "crash_trace.lltrace"))
    assert (frame["kind"] == "batch_yield").sum() == 6
    assert frame.attrs["exit_status"] == 1


def test_a_script_without_a_dataloader_says_so_and_keeps_its_status(jobs):
    _, results = jobs
    job = results["no_loader"]
    assert job.returncode == 4
    assert "training without a DataLoader" in job.stdout
    assert "made no torch.utils.data.DataLoader" in job.stderr


def test_two_loaders_alive_at_once_are_traced_apart(jobs):
    folder, results = jobs
    assert results["two"].returncode == 0, results["two"].stderr
    frame = load_any(str(folder / "two_trace.lltrace"))
    assert loader_names(frame) == ["images", "labels"]
    for name, workers in (("images", {0, 1}), ("labels", {0})):
        part = select_loader(frame, name)
        assert (part["kind"] == "batch_yield").sum() == 12  # 6 batches × 2 epochs
        fetched = part[(part["kind"] == "fetch_end")]
        assert set(fetched["worker"]) == workers and len(fetched) == 48


def test_a_loader_made_inside_a_worker_runs_untraced(jobs):
    folder, results = jobs
    assert results["nested"].returncode == 0, results["nested"].stderr
    assert "nested ok 96" in results["nested"].stdout
    assert loader_names(load_any(str(folder / "nested_trace.lltrace"))) == ["outer"]


def test_a_script_that_forks_its_own_process_traces_only_its_own_loaders(jobs):
    folder, results = jobs
    assert results["forks"].returncode == 0, results["forks"].stderr
    assert "forked ok 0" in results["forks"].stdout
    assert loader_names(load_any(str(folder / "forks_trace.lltrace"))) == ["main_loader"]


def test_a_forgotten_set_epoch_shows_as_the_same_order(jobs):
    folder, results = jobs
    kinds = {}
    for key in ("forgot", "called"):
        assert results[key].returncode == 0, results[key].stderr
        frame = select_loader(load_any(str(folder / f"{key}_trace.lltrace")), "loader")
        kinds[key] = {f.kind for f in all_findings(frame)}
        begins = frame[frame["kind"] == "epoch_begin"]
        assert begins["arg0"].tolist() == ([0, 0] if key == "forgot" else [0, 1])  # the sampler's own epoch
        assert (begins["detail"] == "").all()
    assert "same_order" in kinds["forgot"] and "same_order" not in kinds["called"]


def test_report_and_export_pick_a_loader(jobs):
    folder, _ = jobs
    report = cli(folder, "report", "two_trace.lltrace")
    assert report.returncode == 0 and "=== images (" in report.stdout and "=== labels (" in report.stdout
    one = cli(folder, "report", "two_trace.lltrace", "--loader", "labels")
    assert one.returncode == 0 and "===" not in one.stdout and "num_workers=1" in one.stdout
    wrong = cli(folder, "report", "two_trace.lltrace", "--loader", "nope")
    assert wrong.returncode == 2 and "no loader named 'nope'; its loaders: images, labels" in wrong.stderr
    both = cli(folder, "export", "two_trace.lltrace", "--chrome", "x.json")
    assert both.returncode == 2 and "--loader NAME" in both.stderr
    chrome = cli(folder, "export", "two_trace.lltrace", "--loader", "images", "--chrome", "images.json")
    assert chrome.returncode == 0 and json.loads((folder / "images.json").read_text())


def test_bad_targets_are_one_sentence_and_status_2(tmp_path: Path):
    missing = run(tmp_path, "nope.py")
    assert missing.returncode == 2 and missing.stderr.strip() == (
        f"loaderlab: error: there is no file nope.py (looked in {tmp_path})")
    module = run(tmp_path, "-m", "no_such_module_here")
    assert module.returncode == 2 and "there is no module named no_such_module_here" in module.stderr
    assert "Traceback" not in missing.stderr + module.stderr


def test_a_module_that_fails_to_import_is_reported_like_python(tmp_path: Path):
    write(tmp_path, "broken_mod.py", "import no_such_dependency_xyz\n")
    job = run(tmp_path, "-m", "broken_mod", "--lr", "3")
    assert job.returncode == 1
    assert "ModuleNotFoundError: No module named 'no_such_dependency_xyz'" in job.stderr


def test_no_process_of_any_job_outlives_run(jobs):
    import psutil

    folder, _ = jobs
    left = []
    for p in psutil.process_iter(["pid", "cwd", "cmdline"]):
        try:
            if p.info["cwd"] == str(folder) and p.pid != psutil.Process().pid:
                left.append(p)
        except psutil.Error:
            pass
    _, alive = psutil.wait_procs(left, timeout=10)  # a worker still exiting has 10 s; none should be left
    assert not [(p.pid, p.info["cmdline"]) for p in alive if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
