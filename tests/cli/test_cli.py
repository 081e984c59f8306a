"""The command line: ``python -m loaderlab record | report | export``, and one clear line for every mistake.

Each ``python -m loaderlab`` process imports torch (seconds of CPU), so the subprocess runs are few and
start together in one fixture; the rest of the user errors go through ``cli.main(argv)`` in this process,
which is the same code behind the same exit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from loaderlab import DataLoader, record
from loaderlab.cli import main
from loaderlab.trace.files.io import load_trace, save_trace
from tests.helpers.datasets import MapDataset

REPO = Path(__file__).resolve().parents[2]

TOY_DATA = '''
import torch
from torch.utils.data import Dataset
from loaderlab import DataLoader


class Squares(Dataset):
    def __len__(self):
        return 10

    def __getitem__(self, i):
        return torch.tensor([i * i])


class Broken(Dataset):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        raise KeyError(f"sample {i} is missing")


def make_loader():
    return DataLoader(Squares(), batch_size=3, num_workers=2)


def make_single():
    return DataLoader(Squares(), batch_size=4)


def make_torch_loader():
    return torch.utils.data.DataLoader(Squares(), batch_size=4, num_workers=1)


def make_broken():
    raise ValueError("no data here,\\nnot even a second line")


def make_number():
    return 42


def make_failing():
    return DataLoader(Broken(), batch_size=2)


def keep_graph(samples):
    return torch.stack(samples).float().requires_grad_() * 1.0  # still attached to autograd


def make_unpicklable():
    return DataLoader(Squares(), batch_size=2, num_workers=1, collate_fn=keep_graph)


not_a_function = 3
'''


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("cli")
    (root / "toy_data.py").write_text(TOY_DATA)
    (root / "sub").mkdir()
    (root / "sub" / "loaders.py").write_text("from toy_data_twin import make_single\n")
    (root / "sub" / "toy_data_twin.py").write_text(TOY_DATA)
    (root / "imports_missing.py").write_text("import no_such_package_anywhere\n")
    save_trace(record(DataLoader(MapDataset(6), batch_size=2, num_workers=2)), root / "given.json")
    (root / "bad.json").write_text('{"format": "loaderlab-trace", "version": 1, "colu')
    newer = json.loads((root / "given.json").read_text())
    newer["version"] = 7
    (root / "newer.json").write_text(json.dumps(newer))
    return root


SUBPROCESS_CASES = {
    "help": ["--help"],
    "record_file": ["record", "toy_data.py:make_loader", "-o", "from_file.json", "--epochs", "2"],
    "torch_loader": ["record", "toy_data.py:make_torch_loader", "-o", "from_torch.json"],
    "factory_raises": ["record", "toy_data.py:make_broken"],
}


@pytest.fixture(scope="module")
def runs(workdir) -> dict[str, subprocess.CompletedProcess]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))

    def run(args: list[str]) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "loaderlab", *args], cwd=workdir, env=env,
                              capture_output=True, text=True, timeout=180)

    with ThreadPoolExecutor(max_workers=max(2, os.cpu_count() or 2)) as pool:
        done = pool.map(run, SUBPROCESS_CASES.values())
        return dict(zip(SUBPROCESS_CASES, done))


def assert_one_line_error(rc: int, stderr: str, fragment: str) -> None:
    assert rc == 2, stderr
    assert stderr.startswith("loaderlab: error: ") and stderr.count("\n") == 1, stderr
    assert fragment in stderr
    assert "Traceback" not in stderr


def test_help_explains_every_command(runs):
    result = runs["help"]
    assert result.returncode == 0 and not result.stderr
    for text in ("record", "report", "export", "example", "python -m loaderlab record my_data.py:make_loader"):
        assert text in result.stdout


@pytest.mark.parametrize("command", ["record", "report", "export", "replay"])
def test_help_per_command_has_an_example(command, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    assert f"python -m loaderlab {command} " in capsys.readouterr().out.split("example")[-1]


def test_record_from_a_file_path(runs, workdir):
    result = runs["record_file"]
    assert result.returncode == 0, result.stderr
    assert "loaderlab: error" not in result.stderr and "from_file.json" in result.stdout
    frame = load_trace(workdir / "from_file.json")
    assert frame.attrs["epochs"] == 2 and frame.attrs["loader"]["num_workers"] == 2
    assert (frame["kind"] == "batch_yield").sum() == 2 * 4
    assert set(frame["worker"]) == {-1, 0, 1}


def test_record_a_stock_torch_loader(runs, workdir):
    result = runs["torch_loader"]
    assert result.returncode == 0, result.stderr
    frame = load_trace(workdir / "from_torch.json")
    assert frame.attrs["loader"]["recorded_from"] == "torch.utils.data.DataLoader"
    assert (frame["kind"] == "batch_yield").sum() == 3 and set(frame["worker"]) == {-1, 0}


def test_a_factory_that_raises_is_one_line(runs):
    result = runs["factory_raises"]
    assert_one_line_error(result.returncode, result.stderr,
                          "toy_data.py:make_broken() raised ValueError: no data here, … not even a second line")
    assert not result.stdout


# --- the rest, in this process --------------------------------------------------------------------


@pytest.fixture
def in_workdir(workdir, monkeypatch):
    """Run main() from the work folder and forget the modules and sys.path entries it added."""
    monkeypatch.chdir(workdir)
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = set(sys.modules)
    yield workdir
    for name in set(sys.modules) - before:
        if name in ("toy_data", "toy_data_twin", "loaders", "imports_missing"):
            del sys.modules[name]


def test_record_from_a_module_name_with_a_batch_limit(in_workdir, capsys):
    assert main(["record", "toy_data:make_single", "-o", "from_module.json", "--batches", "2"]) == 0
    assert "from_module.json" in capsys.readouterr().out
    frame = load_trace(in_workdir / "from_module.json")
    assert (frame["kind"] == "batch_yield").sum() == 2
    assert frame.attrs["loader"]["batch_size"] == 4


def test_record_from_a_file_in_another_folder(in_workdir, capsys):
    # the file's own folder goes on sys.path, so it can import its neighbours
    assert main(["record", "sub/loaders.py:make_single", "-o", "sub.json", "--batches", "1"]) == 0
    assert "sub.json" in capsys.readouterr().out
    assert (load_trace(in_workdir / "sub.json")["kind"] == "batch_yield").sum() == 1


def test_report_prints_a_summary(in_workdir, capsys):
    assert main(["report", "given.json"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() and not captured.err


def test_report_in_korean(in_workdir, capsys):
    assert main(["report", "given.json", "--lang", "ko"]) == 0
    captured = capsys.readouterr()
    assert not captured.err
    out = captured.out
    assert out.startswith("LoaderLab 보고서\n") and "처리량:" in out and "워커 0(pid" in out
    assert "Throughput" not in out and "num_workers=2" in out  # setting names stay as code


def test_export_writes_a_chrome_trace(in_workdir, capsys):
    assert main(["export", "given.json", "--chrome", "given.chrome.json"]) == 0
    assert "ui.perfetto.dev" in capsys.readouterr().out
    doc = json.loads((in_workdir / "given.chrome.json").read_text())
    names = {e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
    assert names == {"main", "worker 0", "worker 1"}


def test_replay_reruns_with_new_settings_and_saves(in_workdir, capsys):
    assert main(["replay", "given.json", "--num-workers", "1", "--out-of-order", "-o", "what_if.json"]) == 0
    out = capsys.readouterr().out
    assert "changed: num_workers=1, in_order=False" in out and "replayed:" in out
    frame = load_trace(in_workdir / "what_if.json")
    assert frame.attrs["loader"]["num_workers"] == 1 and frame.attrs["loader"]["in_order"] is False


def test_replay_words_the_recorded_wait_as_the_report_does(in_workdir, capsys):
    from loaderlab.trace.tables.waits import loop_wait

    assert main(["replay", "given.json", "--num-workers", "1"]) == 0
    recorded = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("recorded:"))
    loop = loop_wait(load_trace(in_workdir / "given.json"))  # the report's whole-run line and the pages use it
    assert recorded.endswith(f"loop waited {loop.wait_text()} s ({loop.share_text()})")


@pytest.mark.parametrize("args, fragment", [
    (["record"], "the following arguments are required: MODULE_OR_FILE:FACTORY"),
    ([], "the following arguments are required: COMMAND"),
    (["frob"], "invalid choice: 'frob'"),
    (["record", "toy_data.py:make_single", "--batches", "0"], "--batches: expected a positive whole number, got '0'"),
    (["record", "toy_data.py:make_single", "--epochs", "two"], "--epochs: expected a positive whole number"),
    (["record", "toy_data.py"], "expected MODULE_OR_FILE:FACTORY such as my_data.py:make_loader"),
    (["record", "no_such_module:make"], "no module named no_such_module in "),
    (["record", "missing.py:make"], "there is no file missing.py"),
    (["record", "toy_data.py:nope"], "toy_data.py has no attribute 'nope'; it defines "),
    (["record", "toy_data.py:not_a_function"], "toy_data.py:not_a_function is a int, not a function"),
    (["record", "toy_data.py:make_number"], "returned an object of type int, not a DataLoader; make it return `loaderlab.DataLoader(dataset, ...)`"),
    (["record", "imports_missing.py:make"],
     "importing imports_missing.py raised ModuleNotFoundError: No module named 'no_such_package_anywhere'"),
    (["record", "toy_data.py:make_failing"], "recording toy_data.py:make_failing failed after 0 batches: KeyError"),
    (["record", "toy_data.py:make_unpicklable"], "UnsentBatchError: DataLoader worker 0 could not send batch 0 "
     "(torch would wait for it forever): RuntimeError: Cowardly refusing to serialize non-leaf tensor"),
    (["record", "toy_data.py:make_single", "-o", "no/such/folder/t.json"], "there is no folder"),
    (["report", "nothere.json"], "there is no file nothere.json"),
    (["report", "newer.json"], "newer LoaderLab (format version 7); this LoaderLab reads version 1 — upgrade"),
    (["report", "sub"], "sub is a folder, not a trace file"),
    (["report", "given.json", "--lang", "fr"], "argument --lang: invalid choice: 'fr' (choose from 'en', 'ko')"),
    (["export", "given.json"], "the following arguments are required: --chrome"),
    (["export", "bad.json", "--chrome", "out.json"], "looks cut short"),
    (["export", "given.json", "--chrome", "no/such/folder/out.json"], "cannot write no/such/folder/out.json"),
    (["replay", "given.json"], "say what to change, e.g. --num-workers 4"),
    (["replay", "given.json", "--num-workers", "-1"], "num_workers option should be non-negative"),
    (["replay", "given.json", "--num-workers", "x"], "--num-workers: invalid int value: 'x'"),
])
def test_user_errors_are_one_line(in_workdir, capsys, args, fragment):
    with pytest.raises(SystemExit) as exit_info:
        main(args)
    captured = capsys.readouterr()
    assert_one_line_error(exit_info.value.code, captured.err, fragment)



def test_report_shows_the_waiting_the_verdict_and_the_page_show(in_workdir, capsys):
    from loaderlab.trace.tables.waits import loop_wait
    from loaderlab.trace.files.io import load_trace

    assert main(["report", "given.json"]) == 0
    out = capsys.readouterr().out
    loop = loop_wait(load_trace(in_workdir / "given.json"))  # what the timelines page's metrics show
    total = next(line for line in out.splitlines() if line.startswith("  the whole run:"))
    assert f"waited {loop.wait_text()} s" in total and f"{loop.share_text()} of the loop spent waiting" in total
    verdict = next(line for line in out.splitlines() if "_bound:" in line)
    assert f"{loop.wait_text()} s" in verdict and f"({loop.share_text()} waiting" in verdict
