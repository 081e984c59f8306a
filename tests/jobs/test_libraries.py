"""Whose line names a loader under ``python -m loaderlab run`` (issue 34, item 8): a one-line
``def train_dataloader(self): return DataLoader(...)`` names it after the method, and a library outside any
``site-packages`` folder (installed with ``pip install --target``, or a folder on PYTHONPATH; the real
Accelerate copied there too) is a library: its loaders keep the user's names and lines. Then the rules of
:mod:`loaderlab.jobs.libraries` in-process, on folders made here."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from loaderlab.jobs import libraries
from loaderlab.jobs.read import load_any
from tests.jobs import wrapper_scripts
from tests.jobs.runner import TIMEOUT_S, run, write

DATAMODULE = '''
import torch
from torch.utils.data import DataLoader, TensorDataset


class DataModule:  # a LightningDataModule's shape, as its tutorials write the hooks
    def __init__(self):
        self.data = TensorDataset(torch.arange(24))

    def train_dataloader(self): return DataLoader(self.data, batch_size=4, shuffle=True)

    def val_dataloader(self) -> DataLoader: return DataLoader(self.data, batch_size=6)


module = DataModule()
train, val = module.train_dataloader(), module.val_dataloader()  # once, as a Trainer's fit() asks
for epoch in range(2):
    for batch in train:
        pass
    for batch in val:
        pass
print("datamodule ok")
'''

WRAPLIB = '''
"""A wrapper library: prepare() re-creates the user's loader around its batch sampler, as Accelerate's does."""
from torch.utils.data import DataLoader


class Shard(DataLoader):
    def __init__(self, loader):
        super().__init__(loader.dataset, batch_sampler=loader.batch_sampler)


def prepare(loader):
    return Shard(loader)


def make(data, **kwargs):
    loader = DataLoader(data, **kwargs)
    return loader
'''

PYPROJECT = '''
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "wraplib"
version = "0.1"
'''

USES_WRAPLIB = '''
import torch
from torch.utils.data import DataLoader, TensorDataset
import wraplib

data = TensorDataset(torch.arange(20))
train_loader = DataLoader(data, batch_size=4, shuffle=True)
train_loader = wraplib.prepare(train_loader)
built_loader = wraplib.make(data, batch_size=5)
for loader in (train_loader, built_loader):
    for batch in loader:
        pass
print("wraplib at", wraplib.__file__)
'''

ACCELERATE = "import accelerate\nprint('accelerate at', accelerate.__file__)\n" + wrapper_scripts.ACCELERATE


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


def _on_path(folder: Path) -> str:
    return os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """Each job run once from its own project folder: (its trace's loaders metadata, its stdout), by key."""
    root = tmp_path_factory.mktemp("libraries")
    project, source, target, plain, copied = (root / n for n in ("project", "source", "target", "plain", "copied"))
    for folder in (project, source / "wraplib", plain / "wraplib"):
        folder.mkdir(parents=True)
    write(source, "pyproject.toml", PYPROJECT)
    write(source / "wraplib", "__init__.py", WRAPLIB)
    write(plain / "wraplib", "__init__.py", WRAPLIB)
    installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-build-isolation",
                                "--no-deps", "--disable-pip-version-check", "--target", str(target), str(source)],
                               capture_output=True, text=True, timeout=TIMEOUT_S)
    assert installed.returncode == 0, installed.stderr[-3000:]
    assert list(target.glob("wraplib-0.1.dist-info/RECORD"))
    import accelerate

    shutil.copytree(os.path.dirname(accelerate.__file__), copied / "accelerate",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for name, text in (("dm.py", DATAMODULE), ("uses.py", USES_WRAPLIB), ("acc.py", ACCELERATE)):
        write(project, name, text)
    cases = {"datamodule": ("dm.py", None), "target": ("uses.py", target), "pythonpath": ("uses.py", plain),
             "accelerate": ("acc.py", copied)}

    def one(key):
        script, lib = cases[key]
        done = run(project, "-o", key, script, **({"PYTHONPATH": _on_path(lib)} if lib else {}))
        assert done.returncode == 0, done.stderr[-3000:]
        return key, (load_any(str(project / f"{key}.lltrace")).attrs["loaders"], done.stdout)

    with ThreadPoolExecutor(2) as pool:
        return {**dict(pool.map(one, cases)), "folders": (target, plain, copied)}


@pytest.mark.slow
def test_one_line_methods_name_their_loaders(jobs):
    loaders, _ = jobs["datamodule"]
    assert {name: entry["site"] for name, entry in loaders.items()} == {
        "train_dataloader": f"dm.py:{line_of(DATAMODULE, 'def train_dataloader')}",
        "val_dataloader": f"dm.py:{line_of(DATAMODULE, 'def val_dataloader')}"}
    assert loaders["train_dataloader"]["settings"]["batch_size"] == 4 and loaders["val_dataloader"]["epochs"] == 2


@pytest.mark.slow
@pytest.mark.parametrize("key", ["target", "pythonpath"])
def test_a_library_outside_site_packages_is_a_library(jobs, key):
    loaders, stdout = jobs[key]
    target, plain, _ = jobs["folders"]
    assert f"wraplib at {(target if key == 'target' else plain) / 'wraplib' / '__init__.py'}" in stdout
    assert {name: entry["site"] for name, entry in loaders.items()} == {
        "train_loader": f"uses.py:{line_of(USES_WRAPLIB, 'train_loader = DataLoader')}",
        "built_loader": f"uses.py:{line_of(USES_WRAPLIB, 'built_loader =')}"}
    written = loaders["train_loader"]["settings"]
    assert written["batch_size"] == 4 and written["sampler"] == "RandomSampler"  # as the user wrote it
    wrapper = written["wrapper"]
    assert wrapper["by"] == "wraplib" and wrapper["keeps_batches"]
    assert wrapper["at"] == f"wraplib/__init__.py:{line_of(WRAPLIB, 'return Shard(')}"
    assert loaders["built_loader"]["settings"]["batch_size"] == 5 and "wrapper" not in loaders["built_loader"]["settings"]


@pytest.mark.slow
def test_accelerate_on_pythonpath_keeps_the_users_names(jobs):
    loaders, stdout = jobs["accelerate"]
    _, _, copied = jobs["folders"]
    assert f"accelerate at {copied / 'accelerate' / '__init__.py'}" in stdout
    assert {name: entry["site"] for name, entry in loaders.items()} == {
        "train_dataloader": f"acc.py:{line_of(ACCELERATE, 'train_dataloader =')}",
        "eval_dataloader": f"acc.py:{line_of(ACCELERATE, 'eval_dataloader =')}"}
    written = loaders["train_dataloader"]["settings"]
    assert (written["batch_size"], written["sampler"]) == (32, "RandomSampler")
    assert written["wrapper"]["by"] == "accelerate" and written["wrapper"]["at"].startswith("accelerate/data_loader.py:")


# --- the rules, in-process -------------------------------------------------------------------------------


@pytest.fixture
def fresh(monkeypatch, tmp_path):
    """A project folder as the working folder (``-m``'s script folder), with sys.path restored after."""
    project = tmp_path / "project"
    project.mkdir()
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "path", list(sys.path))
    libraries.forget()
    yield tmp_path
    libraries.forget()


def _module(folder: Path, package: str) -> str:
    (folder / package).mkdir(parents=True)
    path = folder / package / "core.py"
    path.write_text("x = 1\n")
    return str(path)


def _dist_info(folder: Path, package: str) -> None:
    """What ``pip install --target folder`` leaves beside the package."""
    info = folder / f"{package}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {package}\nVersion: 1.0\n")
    (info / "RECORD").write_text(f"{package}/core.py,,\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n")


def test_a_folder_on_the_path_outside_the_project_is_a_librarys(fresh):
    path = _module(fresh / "elsewhere", "lib")
    sys.path.append(str(fresh / "elsewhere"))
    assert not libraries.is_users(path)
    assert libraries.library_at(path, 7) == ("lib", "lib/core.py:7")


def test_the_projects_own_folders_are_the_users(fresh):
    sys.path.append(str(fresh / "project" / "src"))  # PYTHONPATH=src, from the project's folder
    assert libraries.is_users(_module(fresh / "project" / "src", "mine"))
    assert libraries.is_users(_module(fresh / "project", "beside"))  # beside the script (cwd for -m)
    assert libraries.is_users(str(fresh / "nowhere" / "run_by_path.py"))  # on no sys.path entry


def test_an_installed_distribution_in_the_project_is_a_librarys(fresh):
    vendor = fresh / "project" / "vendor"  # pip install --target vendor: inside the project, still a library
    path = _module(vendor, "vendored")
    _dist_info(vendor, "vendored")
    sys.path.append(str(vendor))
    assert not libraries.is_users(path)
    assert libraries.is_users(_module(vendor, "loose"))  # beside it, listed in no RECORD: the user's copy
