"""Real libraries' pipelines run unchanged under ``python -m loaderlab run`` (issue 37): a Hugging Face map-style
``Dataset`` gets its labels (its own ``__getitems__`` fetches whole batches), its imbalance within 2 points of
the CSV's; its ``to_iterable_dataset`` stream too; a webdataset stream with a random horizontal flip and worker
splitting off is counted as duplicated within 5 % of the truth (every sample, twice), and with splitting on not
at all; a torchvision-shaped MNIST job (``targets``, PIL images, a transform) is named and labelled. The jobs
are in :mod:`tests.jobs.real_library_scripts`. No timing is asserted here: the tracing cost is a benchmark
(benchmarks/real_libraries.py, docs/performance.md)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from . import real_library_scripts as jobs, runner

pytest.importorskip("datasets", reason="Hugging Face datasets is a test requirement (requirements-test.txt)")
pytest.importorskip("webdataset", reason="webdataset is a test requirement (requirements-test.txt)")

pytestmark = pytest.mark.slow  # each job starts Python with torch (and datasets) in a subprocess

OFFLINE = {"HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}  # load_dataset("csv") of a local file needs no network


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("real_libraries")
    jobs.write_csv(out)
    jobs.write_shards(out)
    for name, text in jobs.SCRIPTS.items():
        runner.write(out, f"{name}.py", text)
    return out


def _hf_env(folder: Path) -> dict[str, str]:
    return {**OFFLINE, "HF_HOME": str(folder / "hf_home"), "HF_DATASETS_CACHE": str(folder / "hf_cache")}


def _run(folder: Path, trace: str, *args: str, **env: str) -> str:
    done = runner.run(folder, "-o", trace, *args, **env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "loop_s" in done.stdout  # the job's own output came through
    return f"{trace}.lltrace"


def _report(folder: Path, trace: str) -> tuple[str, dict]:
    text = runner.cli(folder, "report", trace, "--no-replay")
    assert text.returncode == 0, text.stderr[-3000:]
    data = runner.cli(folder, "report", trace, "--no-replay", "--json")
    assert data.returncode == 0, data.stderr[-3000:]
    return text.stdout, json.loads(data.stdout)


def _csv_zero_share(folder: Path) -> float:
    with (folder / "rows.csv").open() as f:
        labels = [row["label"] for row in csv.DictReader(f)]
    return labels.count("0") / len(labels)


def _received(labels: list, epoch: int = 0) -> dict:
    return next(entry["received"] for entry in labels if entry["epoch"] == epoch)


def test_a_hugging_face_map_style_dataset_gets_its_labels_and_imbalance(folder):
    trace = _run(folder, "hf_map", "hf_map.py", "rows.csv", "1", **_hf_env(folder))
    text, data = _report(folder, trace)
    assert re.search(r"^=== train_loader \(hf_map\.py:\d+\) ===$", text, re.MULTILINE), text[:500]
    assert "Labels: none recorded" not in text
    assert abs(_received(data["labels"])["0"] - _csv_zero_share(folder)) <= 0.02, data["labels"]
    assert any(f["kind"] == "class_imbalance" for f in data["findings"]), [f["kind"] for f in data["findings"]]
    assert data["summary"]["samples"] == jobs.ROWS  # one epoch: every row once, each a sample of its own


def test_a_hugging_face_stream_gets_its_labels_and_no_false_duplicates(folder):
    trace = _run(folder, "hf_stream", "hf_stream.py", "rows.csv", "1", **_hf_env(folder))
    text, data = _report(folder, trace)
    assert re.search(r"^=== train_loader \(hf_stream\.py:\d+\) ===$", text, re.MULTILINE), text[:500]
    assert abs(_received(data["labels"])["0"] - _csv_zero_share(folder)) <= 0.02, data["labels"]
    assert not [f for f in data["findings"] if f["kind"] == "iterable_duplicates"]  # 4 shards split by 2 workers


def _duplicates(data: dict) -> list[tuple[int, int]]:
    """(duplicated, distinct) of each epoch's iterable_duplicates finding; a range gives its upper end too."""
    out = []
    for f in data["findings"]:
        if f["kind"] == "iterable_duplicates":
            found = re.search(r"(\d+) of (?:the )?(\d+) IterableDataset samples", f["text"])
            out.append((int(found[1]), int(found[2])))
    return out


def test_a_webdataset_stream_replayed_by_each_worker_is_counted_right_under_random_flips(folder):
    trace = _run(folder, "wds_all", "wds.py", "shards", "all")
    text, data = _report(folder, trace)
    assert re.search(r"^=== train_loader \(wds\.py:\d+\) ===$", text, re.MULTILINE), text[:500]
    truth = 4 * 200  # every sample of the four shards came from both workers
    found = _duplicates(data)
    assert len(found) == 1 and abs(found[0][0] - truth) <= 0.05 * truth and found[0][1] == truth, found
    assert len(_received(data["labels"])) == 10  # cls 0-9, read from the (image, cls) pairs


def test_a_split_webdataset_stream_has_no_duplicates(folder):
    trace = _run(folder, "wds_split", "wds.py", "shards", "split")
    _, data = _report(folder, trace)
    assert _duplicates(data) == []
    assert sum(entry["epoch"] == 0 for entry in data["labels"]) == 1 and data["summary"]["samples"] == 800


def test_an_mnist_shaped_job_is_named_and_labelled(folder):
    trace = _run(folder, "mnist", "mnist.py", "640")
    text, data = _report(folder, trace)
    assert re.search(r"^=== train_loader \(mnist\.py:\d+\) ===$", text, re.MULTILINE), text[:500]
    assert len(_received(data["labels"])) == 10 and data["summary"]["samples"] == 640


TORCHVISION = '''
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms

data = datasets.FakeData(size=96, image_size=(3, 16, 16), num_classes=4,
                         transform=transforms.Compose([transforms.RandomHorizontalFlip(), transforms.ToTensor()]))
train_loader = DataLoader(data, batch_size=16, shuffle=True, num_workers=2)
for x, y in train_loader:
    pass
print("loop_s", 0)
'''


def test_torchvision_fake_data_when_torchvision_imports(folder):
    pytest.importorskip("torchvision", reason="torchvision's wheels are built against CUDA torch, not the CPU "
                                              "2.13.0 wheel: the jobs above mimic its datasets' shapes instead")
    runner.write(folder, "fake.py", TORCHVISION)
    trace = _run(folder, "fake", "fake.py")
    text, data = _report(folder, trace)
    assert re.search(r"^=== train_loader \(fake\.py:\d+\) ===$", text, re.MULTILINE)
    assert len(_received(data["labels"])) == 4 and data["summary"]["samples"] == 96
