"""Class imbalance on a user's own job (issue 35): scripts with the common re-balancing mistakes, run under
``python -m loaderlab run`` as a user would, each get the warning that names their mistake in ``report --json``,
with numbers equal to a count made by hand (the same loader built here and iterated with torch alone); the
script without a mistake gets none of them; ``labels`` holds the three distributions per epoch."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from tests.helpers.imbalance_scripts import SCRIPT

from . import runner

pytestmark = pytest.mark.slow
NEW = {"sampler_share_off", "minority_missing", "class_weights_per_sample", "draws_without_replacement",
       "unseen_samples"}


def make_loader(case):
    space = {"__name__": "imbalance_script"}
    exec(SCRIPT, space)  # noqa: S102 - the test's own script, built here as the job builds it
    return space["make_loader"](case)


def report(tmp_path, case, lang="en"):
    runner.write(tmp_path, "train.py", SCRIPT)
    done = runner.run(tmp_path, "-o", case, "train.py", case)
    assert "loaderlab: wrote" in done.stderr, done.stderr
    out = runner.cli(tmp_path, "report", f"{case}.lltrace", "--json", "--no-replay", "--lang", lang)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout), done


def warned(doc, kind):
    (one,) = [f for f in doc["findings"] if f["kind"] == kind]
    assert one["severity"] == "warning"
    return one["text"]


def hand_count(case):
    """Indices and labels the loop receives, from torch's own iteration of the same loader."""
    loader = make_loader(case)
    ys, xs = zip(*[(y, x) for x, y in loader])
    return torch.cat(xs).flatten().long().numpy(), torch.cat(ys).numpy(), loader


def test_per_sample_weights_as_meant_get_no_finding_and_three_distributions(tmp_path):
    doc, _ = report(tmp_path, "balanced_ok")
    labels = NEW | {"class_imbalance", "share_drift", "repeated_samples"}  # timing findings are not this test's
    assert not [f for f in doc["findings"] if f["kind"] in labels and f["severity"] != "info"], doc["findings"]
    _, labels, _ = hand_count("balanced_ok")
    (epoch,) = doc["labels"]
    assert epoch["epoch"] == 0 and epoch["dataset"] == {"0": 0.7, "1": 0.3}
    assert epoch["intended"] == {"0": 0.5, "1": 0.5}
    assert epoch["received"]["1"] == round((labels == 1).mean(), 6)


def test_the_classic_oversampling_recipe_says_the_unseen_rows(tmp_path):
    doc, _ = report(tmp_path, "oversampled")
    index, _, _ = hand_count("oversampled")
    unseen = 3000 - len(set(index.tolist()))
    text = warned(doc, "unseen_samples")
    assert f"{unseen:,} of 3,000 samples" in text
    assert doc["labels"][0]["dataset"] == {"0": 0.95, "1": 0.05}


def test_an_unsaid_dataset_is_estimated_within_two_points(tmp_path):
    doc, _ = report(tmp_path, "estimated")
    entry = doc["labels"][0]
    assert entry["dataset_estimated"] is True and abs(entry["dataset"]["1"] - 0.05) < 0.02
    assert entry["intended"] == {"0": 0.5, "1": 0.5}  # each weight value drawn with one label: class weights
    low, high = entry["dataset_interval"]["1"]
    assert low <= 0.05 <= high


def test_class_weights_passed_as_sample_weights(tmp_path):
    doc, _ = report(tmp_path, "class_weights")
    index, _, _ = hand_count("class_weights")
    distinct = len(set(index.tolist()))
    text = warned(doc, "class_weights_per_sample")
    assert f"got 2 weights for a dataset of 3,000 samples" in text
    assert f"hit {distinct:,} distinct samples and {3000 - distinct:,} samples were never drawn" in text


def test_weights_made_in_another_row_order(tmp_path):
    doc, _ = report(tmp_path, "misaligned")
    _, labels, _ = hand_count("misaligned")
    text = warned(doc, "sampler_share_off")  # one per epoch: with two labels the other is its mirror
    said = [f"label {k} is {(labels == k).mean():.1%} of what the loop received ({int((labels == k).sum()):,} of 3,000)"
            for k in (0, 1)]
    assert any(s in text for s in said) and "intend 50.0%" in text, text


def test_a_minority_missing_from_most_batches(tmp_path):
    doc, _ = report(tmp_path, "minority_missing")
    loader = make_loader("minority_missing")
    batches = [y.numpy() for _, y in loader]
    with_one = sum(1 for b in batches if (b == 1).any())
    assert f"label 1 is in {with_one} of {len(batches)} batches" in warned(doc, "minority_missing")


def test_replacement_false_with_more_draws_than_weights_names_the_argument(tmp_path):
    doc, done = report(tmp_path, "no_replacement")
    assert done.returncode == 1 and "cannot sample n_sample" in done.stderr  # torch's own failure, unchanged
    text = warned(doc, "draws_without_replacement")
    assert "num_samples=6,000 but has 3,000 non-zero weights" in text
    assert "Set num_samples to at most 3,000, or replacement=True" in text
    assert doc["labels"][0]["received"] is None and doc["labels"][0]["intended"] == {"0": 0.5, "1": 0.5}
    ko, _ = report(tmp_path, "no_replacement", "ko")
    assert "num_samples를 3,000 이하로" in warned(ko, "draws_without_replacement")
