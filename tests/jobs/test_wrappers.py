"""Loaders reached through a wrapper keep the user's names: a real Lightning Trainer, a real Accelerate
``prepare()`` loop and an ordinary script under ``python -m loaderlab run``, then the parts in-process."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import torch
from torch.utils.data import DataLoader, TensorDataset

from loaderlab.jobs import patch
from loaderlab.jobs.read import load_any
from tests.jobs import wrapper_scripts as scripts
from tests.jobs.runner import cli, run, write

JOBS = {
    "lightning": ("lit.py", scripts.LIGHTNING, ("auto",)),
    "lightning_ddp": ("lit.py", scripts.LIGHTNING, ("ddp",)),
    "accelerate": ("acc.py", scripts.ACCELERATE, ()),
    "ordinary": ("ordinary.py", scripts.ORDINARY, ()),
}


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.strip().startswith(start))


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """Each job run and reported once: (its trace's loaders metadata, its report), by key."""
    root = tmp_path_factory.mktemp("wrappers")  # outside the repository, as a user's project
    folder, libs = root / "project", root / "libs"  # the project, and a library's folder beside it
    folder.mkdir()
    libs.mkdir()
    for name, text, _ in JOBS.values():
        write(folder, name, text)
    write(libs, "fakelib.py", scripts.FAKELIB)

    def one(key):
        name, _, args = JOBS[key]
        done = run(folder, "-o", key, name, *args)
        assert done.returncode == 0, done.stderr[-3000:]
        report = cli(folder, "report", f"{key}.lltrace")
        assert report.returncode == 0, report.stderr[-3000:]
        return key, (load_any(str(folder / f"{key}.lltrace")).attrs["loaders"], report.stdout)

    with ThreadPoolExecutor(2) as pool:
        return dict(pool.map(one, JOBS))


@pytest.mark.slow
@pytest.mark.parametrize("key", ["lightning", "lightning_ddp"])
def test_a_trainers_loaders_are_named_after_its_hooks_at_the_users_lines(jobs, key):
    loaders, report = jobs[key]
    train, val = line_of(scripts.LIGHTNING, "return DataLoader(data"), line_of(scripts.LIGHTNING, "return DataLoader(Tensor")
    assert list(loaders) == ["train_dataloader", "val_dataloader"]
    assert loaders["train_dataloader"]["site"] == f"lit.py:{train}"
    assert loaders["val_dataloader"]["site"] == f"lit.py:{val}"
    assert f"=== train_dataloader (lit.py:{train}) ===" in report and f"=== val_dataloader (lit.py:{val}) ===" in report
    written = loaders["train_dataloader"]["settings"]
    assert (written["batch_size"], written["sampler"], written["num_workers"]) == (8, "RandomSampler", 2)
    wrapper = written.get("wrapper")
    if key == "lightning":  # the loaders train_dataloader() returned, iterated as they are
        assert wrapper is None and "Settings: " in report and "as written" not in report
    else:  # re-instantiated with a DistributedSampler: what the user wrote, Lightning's change beside it
        assert wrapper["by"] == "lightning" and wrapper["changed"] == {"sampler": "DistributedSampler"}
        assert "batch_size=8, sampler=RandomSampler, num_workers=2" in report.split("Settings (as written): ")[1]
        assert "  lightning re-created it (lightning/" in report and "): sampler=DistributedSampler\n" in report
        assert loaders["train_dataloader"]["sampler"]["num_replicas"] == 1  # the sampler that ran


@pytest.mark.slow
def test_accelerates_prepared_loaders_keep_the_users_names_and_settings(jobs):
    loaders, report = jobs["accelerate"]
    train, evaluate = line_of(scripts.ACCELERATE, "train_dataloader ="), line_of(scripts.ACCELERATE, "eval_dataloader =")
    assert list(loaders) == ["train_dataloader", "eval_dataloader"]
    assert loaders["train_dataloader"]["site"] == f"acc.py:{train}"
    assert loaders["eval_dataloader"]["site"] == f"acc.py:{evaluate}"
    written = loaders["train_dataloader"]["settings"]
    assert (written["batch_size"], written["sampler"]) == (32, "RandomSampler")  # batch_size=32, shuffle=True
    assert written["wrapper"]["by"] == "accelerate" and written["wrapper"]["keeps_batches"]
    assert written["wrapper"]["changed"] == {"batch_size": None, "sampler": "SequentialSampler"}
    assert written["wrapper"]["inside"] == "accelerate.data_loader.DataLoaderShard"
    part = report.split(f"=== train_dataloader (acc.py:{train}) ===")[1]
    assert "Settings (as written): dataset=TensorDataset, dataset_len=64, batch_size=32, sampler=RandomSampler" in part
    assert ("  accelerate re-created it inside its DataLoaderShard (accelerate/data_loader.py:" in part
            and "batch_size=None, sampler=SequentialSampler; the batches still come from your batch_sampler "
                "(over your RandomSampler)" in part)


@pytest.mark.slow
def test_an_ordinary_scripts_loaders_are_named_after_its_variables_and_functions(jobs):
    loaders, report = jobs["ordinary"]
    text = scripts.ORDINARY
    expected = {"train_loader": line_of(text, "train_loader ="), "make_val_loader": line_of(text, "return DataLoader"),
                "test_loader": line_of(text, "self.test_loader ="), "built_loader": line_of(text, "built_loader ="),
                "eval_loader": line_of(text, "eval_loader = DataLoader")}
    assert {name: entry["site"] for name, entry in loaders.items()} == \
        {name: f"ordinary.py:{line}" for name, line in expected.items()}
    for name, line in expected.items():
        assert f"=== {name} (ordinary.py:{line}) ===" in report
    assert loaders["built_loader"]["settings"]["batch_size"] == 2 and "wrapper" not in loaders["built_loader"]["settings"]
    rewrapped = loaders["eval_loader"]["settings"]  # re-created by a library (../libs/fakelib.py)
    assert rewrapped["batch_size"] == 4 and rewrapped["wrapper"]["changed"] == {"batch_size": 8}
    assert "  fakelib re-created it (fakelib.py:" in report and "): batch_size=8\n" in report


def test_a_library_re_creation_through_a_batch_sampler_shard_keeps_the_original():
    from accelerate.data_loader import prepare_data_loader

    patch.install(lambda loader, original: original(loader), lambda: True)
    try:
        data = TensorDataset(torch.arange(20))
        train_loader = DataLoader(data, batch_size=4, shuffle=True)  # the line the re-created loader keeps
        other_loader = DataLoader(data, batch_size=2)  # the same dataset, made by the user: a loader of its own
        shard = prepare_data_loader(train_loader, num_processes=2, process_index=1, put_on_device=False)
        assert len([b for b in shard]) == 3  # rank 1's half of 5 batches, padded to 3
    finally:
        patch.uninstall()
    inner = shard.base_dataloader
    assert inner.__dict__[patch.SITE] == train_loader.__dict__[patch.SITE]
    assert train_loader.__dict__[patch.SITE][1:] == (other_loader.__dict__[patch.SITE][1] - 1, "train_loader")
    assert patch.ORIGIN not in other_loader.__dict__
    origin = inner.__dict__[patch.ORIGIN]
    assert origin["written"]["batch_size"] == 4 and origin["keeps_batches"]
    assert origin["changed"] == {"batch_size": None, "sampler": "SequentialSampler", "batch_sampler": "BatchSamplerShard"}


def test_a_wrapper_line_in_english_and_korean():
    from loaderlab.trace.diagnosis.report import settings_lines

    found = {"batch_size": 32, "sampler": "RandomSampler",
             "wrapper": {"by": "accelerate", "inside": "accelerate.data_loader.DataLoaderShard",
                         "at": "accelerate/data_loader.py:441", "changed": {"batch_size": None},
                         "keeps_batches": True}}
    en, ko = settings_lines(found, "en"), settings_lines(found, "ko")
    assert en == ["Settings (as written): batch_size=32, sampler=RandomSampler",
                  "  accelerate re-created it inside its DataLoaderShard (accelerate/data_loader.py:441): "
                  "batch_size=None; the batches still come from your batch_sampler (over your RandomSampler)"]
    assert ko[0].startswith("설정 (작성한 그대로): batch_size=32") and "DataLoaderShard 안에서" in ko[1]
    assert settings_lines({"batch_size": 4}, "en") == ["Settings: batch_size=4"]
