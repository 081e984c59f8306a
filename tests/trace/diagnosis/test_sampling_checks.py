"""The re-balancing mistakes (issue 35) each get the warning that names them, with numbers counted by hand
from torch's own iteration of the same loader; a sampler used as meant gets none of them."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch.utils.data import DataLoader, DistributedSampler, WeightedRandomSampler

import loaderlab
from loaderlab.trace.core import kinds
from loaderlab.trace.diagnosis.document import diagnose
from loaderlab.trace.diagnosis.report import report_text
from loaderlab.trace.diagnosis import findings as F
from loaderlab.trace.diagnosis.sampling_checks import fair_range, sampling_findings
from loaderlab.trace.ranks.launch import merge_rank_frames
from tests.trace.tables.test_label_shares import LABELS, Said, label_of

NEW = {kinds.SAMPLER_SHARE_OFF, kinds.MINORITY_MISSING, kinds.CLASS_WEIGHTS_PER_SAMPLE,
       kinds.DRAWS_WITHOUT_REPLACEMENT, kinds.UNSEEN_SAMPLES}


def loader(weights, labels=LABELS, n=None, dataset=None, **kw):
    sampler = WeightedRandomSampler(weights, n or len(labels), generator=torch.Generator().manual_seed(0))
    return DataLoader(dataset if dataset is not None else Said(labels), batch_size=32, sampler=sampler, **kw)


def drawn(make) -> np.ndarray:
    """The indices the loop is handed, by hand: torch's sampler run on its own, as the loader runs it."""
    return np.asarray(list(make().sampler))


def only(found, kind):
    (one,) = [f for f in found if f.kind == kind]
    assert one.severity == "warning"
    return one


def test_per_sample_weights_as_meant_get_no_sampling_finding():
    labels = np.array([0] * 2100 + [1] * 900)
    make = lambda: loader(1.0 / np.bincount(labels)[labels], labels)  # noqa: E731
    found = F.all_findings(loaderlab.record(make(), sample_info=label_of))
    # no label or sampling warning (timing findings of a loaded machine are not this test's business)
    labels = NEW | {kinds.CLASS_IMBALANCE, kinds.SHARE_DRIFT, kinds.REPEATED_SAMPLES}
    assert not [f for f in found if f.kind in labels and f.severity != "info"], [f.message for f in found]


def test_class_weights_where_sample_weights_belong():
    make = lambda: loader(1.0 / np.bincount(LABELS))  # noqa: E731
    found = sampling_findings(loaderlab.record(make(), sample_info=label_of))
    one = only(found, kinds.CLASS_WEIGHTS_PER_SAMPLE)
    distinct = len(set(drawn(make).tolist()))
    assert (one.evidence["n_weights"], one.evidence["distinct"], one.evidence["unseen"]) == (2, distinct, 3000 - distinct)
    assert "draws only indices 0–1" in one.text() and "class_weights[labels]" in one.text()
    assert not [f for f in found if f.kind == kinds.UNSEEN_SAMPLES]  # said once, by the finding that says why


def test_oversampling_says_how_much_of_the_data_the_epoch_never_saw():
    make = lambda: loader(1.0 / np.bincount(LABELS)[LABELS])  # noqa: E731
    found = F.all_findings(loaderlab.record(make(), sample_info=label_of))
    one = only(found, kinds.UNSEEN_SAMPLES)
    seen = set(drawn(make).tolist())
    majority_unseen = 2850 - len([i for i in seen if LABELS[i] == 0])
    assert (one.evidence["unseen"], one.evidence["distinct"]) == (3000 - len(seen), len(seen))
    assert one.evidence["most_unseen"] == {"label": 0, "unseen": majority_unseen, "count": 2850}
    assert f"{3000 - len(seen):,} of 3,000 samples" in one.text()
    assert not [f for f in found if f.kind == kinds.REPEATED_SAMPLES]  # the same counts, said once


def test_weights_that_belong_to_other_rows_drift_outside_a_fair_draw():
    labels = LABELS.copy()
    weights = 1.0 / np.bincount(labels)[labels]
    shuffled = labels[np.random.default_rng(0).permutation(len(labels))]  # rows read in another order

    class Misread(Said):
        def __getitem__(self, i):
            return torch.tensor([float(i)]), int(shuffled[i])

    make = lambda: loader(weights, dataset=Misread(labels))  # noqa: E731
    found = sampling_findings(loaderlab.record(make(), sample_info=label_of))
    one = only(found, kinds.SAMPLER_SHARE_OFF)  # one per epoch: with two labels the other is its mirror
    got = shuffled[drawn(make)]
    label = one.evidence["label"]
    assert one.evidence["count"] == int((got == label).sum()) and one.evidence["intended"] == pytest.approx(0.5)
    assert one.evidence["low"] < 0.5 < one.evidence["high"] and "the weights were made from" in one.text()


def test_a_minority_missing_from_most_batches_is_counted_per_batch():
    labels = LABELS[::3]  # 950 / 50
    make = lambda: DataLoader(Said(labels), batch_size=8, shuffle=True,  # noqa: E731
                              generator=torch.Generator().manual_seed(0))
    found = F.all_findings(loaderlab.record(make(), sample_info=label_of))
    one = only(found, kinds.MINORITY_MISSING)
    batches = [y.numpy() for _, y in make()]
    with_one = sum(1 for b in batches if (b == 1).any())
    assert (one.evidence["with_label"], one.evidence["batches"]) == (with_one, len(batches))
    assert f"label 1 is in {with_one} of {len(batches)} batches" in one.text()
    assert not [f for f in found if f.kind == kinds.CLASS_IMBALANCE]  # said once, with the batches


def test_the_findings_are_worded_in_korean():
    found = sampling_findings(loaderlab.record(loader(1.0 / np.bincount(LABELS)), sample_info=label_of))
    assert found and all("에폭" in f.text("ko") or "가중치" in f.text("ko") for f in found)


def test_a_rank_whose_shard_is_one_class_gets_the_shard_words():
    labels = np.array([0, 1] * 500)  # alternating: DistributedSampler(shuffle=False) gives each rank one class
    frames = [loaderlab.record(DataLoader(Said(labels), batch_size=20,
                                          sampler=DistributedSampler(Said(labels), 2, r, shuffle=False)),
                               sample_info=label_of) for r in range(2)]
    merged = merge_rank_frames(frames)
    doc = diagnose(merged, with_suggestions=False)
    assert doc["labels"][0]["received"] == {"0": 0.5, "1": 0.5}  # all ranks together: the data
    by_rank = doc["labels_by_rank"]
    assert by_rank["0"][0]["received"] == {"0": 1.0} and by_rank["1"][0]["received"] == {"1": 1.0}
    assert by_rank["0"][0]["dataset"] == by_rank["0"][0]["intended"] == {"0": 0.5, "1": 0.5}
    text = report_text(merged)
    # each rank: the label it never got (a tie with its mirror names the one served less than meant)
    assert "label 1 is 0.0% of what this rank received (0 of 500), but 50.0% of the data" in text
    assert "label 0 is 0.0% of what this rank received (0 of 500), but 50.0% of the data" in text
    assert "DistributedSampler(shuffle=False) deals index i to rank i mod num_replicas" in text


def test_fair_draws_of_many_labels_stay_quiet():
    # 100 labels judged at once, some expected only 15 draws: a per-label normal 99.9 % interval calls a label
    # off in seeds 4, 11 and 13 here; the binomial's own tails, for the labels together, do not
    labels = np.arange(3000) % 100
    weights = np.where(labels < 50, 1.0, 3.0)  # meant: the upper half three times as often
    for seed in range(16):
        sampler = WeightedRandomSampler(weights, 3000, generator=torch.Generator().manual_seed(seed))
        frame = loaderlab.record(DataLoader(Said(labels), batch_size=100, sampler=sampler), sample_info=label_of)
        assert not [f.message for f in sampling_findings(frame) if f.kind == kinds.SAMPLER_SHARE_OFF], seed


def test_the_fair_range_is_the_binomials_own():
    exact = {(50, 0.1, 0.01): (0, 11), (200, 0.3, 0.001): (39, 82), (1000, 0.01, 0.001): (2, 22)}  # by math.comb
    assert {args: fair_range(*args) for args in exact} == exact


def test_batches_too_small_to_hold_every_label_are_not_a_missing_minority():
    labels = LABELS[::3]
    loader = DataLoader(Said(labels), batch_size=1, shuffle=True, generator=torch.Generator().manual_seed(0))
    found = sampling_findings(loaderlab.record(loader, sample_info=label_of))
    assert not [f for f in found if f.kind == kinds.MINORITY_MISSING]  # one sample a batch: no sampler helps
