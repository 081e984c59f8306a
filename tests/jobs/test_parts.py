"""The parts of `run` that need no subprocess: its grammar, where traces go, how loaders are named."""

from __future__ import annotations

import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

from loaderlab.cli.job_commands import split_run
from loaderlab.jobs import patch
from loaderlab.jobs.job import Job, output_path, rank_env
from loaderlab.jobs.script import Target


@pytest.mark.parametrize("argv, own, rest", [
    (["train.py", "--lr", "3", "-o", "x"], [], ["train.py", "--lr", "3", "-o", "x"]),
    (["-o", "t", "train.py", "-h"], ["-o", "t"], ["train.py", "-h"]),
    (["--output=t", "-m", "pkg.train", "--epochs", "2"], ["--output=t"], ["-m", "pkg.train", "--epochs", "2"]),
    (["-ot", "--", "-weird.py"], ["-ot"], ["-weird.py"]),
    (["-h"], ["-h"], []),
])
def test_run_options_end_at_the_script(argv, own, rest):
    assert split_run(argv) == (own, rest)


def test_output_paths_single_and_per_rank(monkeypatch, tmp_path):
    assert output_path(str(tmp_path), 0, 1) == str(tmp_path / "trace.lltrace")
    assert output_path(str(tmp_path), 1, 2) == str(tmp_path / "rank1.lltrace")  # the ranks' folder, made already
    assert output_path("trace", 0, 1) == "trace.lltrace"
    assert output_path("out/t.json", 0, 1) == "out/t.json"
    assert output_path("trace", 1, 2) == "trace/rank1.lltrace"
    assert output_path("trace.lltrace", 0, 4) == "trace/rank0.lltrace"
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "1")
    assert rank_env() == (1, 2)
    monkeypatch.setenv("RANK", "x")
    assert rank_env() == (0, 1)


def test_the_creation_site_is_the_users_line_even_through_a_subclass():
    class Mine(DataLoader):
        def __init__(self, data):
            super().__init__(data, batch_size=2)

    def iterate(loader, original):
        return original(loader)

    patch.install(iterate, lambda: True)
    try:
        val_loader = Mine(TensorDataset(torch.arange(4)))  # the line the site must name
        anonymous = [DataLoader(TensorDataset(torch.arange(4)))][0]
        self_attr = type("Holder", (), {})()
        self_attr.train_loader = DataLoader(TensorDataset(torch.arange(4)))
    finally:
        patch.uninstall()
    path, line, name = val_loader.__dict__[patch.SITE]
    assert path == __file__ and name == "val_loader"
    assert anonymous.__dict__[patch.SITE][2] == "anonymous"
    assert self_attr.train_loader.__dict__[patch.SITE][2] == "train_loader"
    assert DataLoader.__init__ is patch._saved.get("init", DataLoader.__init__)  # uninstalled: torch's own again
    assert not hasattr(DataLoader.__init__, "__wrapped__")


def test_names_stay_apart_for_two_lines_and_two_live_loaders():
    job = Job(Target("x.py", False), "t.lltrace", 0, 1)

    class Owner:
        def __init__(self, name, site):
            self.name, self.site = name, site

    a = Owner(job._name(("x.py", 3, "loader")), ("x.py", 3, "loader"))
    job.loaders.append(a)
    assert a.name == "loader"
    assert job._name(("x.py", 9, "loader")) == "loader_9"  # another line, same variable
    assert job._name(("x.py", 3, "loader")) == "loader"  # the same line again (a loader per epoch)
    assert job._name(("x.py", 5, None)) == "loader1"
