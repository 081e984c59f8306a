"""An IterableDataset sample's identity under a random augmentation (issue 37, item 2): webdataset's keys, read
by taps before ``to_tuple`` drops them, name each sample whatever the flip did; without keys the count by
content is a range up to what the labels allow, and equal content that is not a replay raises nothing."""

from __future__ import annotations

import random

import pytest
import torch
from torch.utils.data import DataLoader, get_worker_info, IterableDataset

import loaderlab
from loaderlab.engine import events as ev
from loaderlab.engine.fingerprint import identity, key_identity, KEYED
from loaderlab.trace.recording.sample_guess import SampleGuess
from loaderlab.trace.recording.sample_keys import keyed_iter
from loaderlab.trace.tables.duplicates import iterable_duplicates
from tests.jobs import real_library_scripts as jobs

wds = pytest.importorskip("webdataset", reason="webdataset is a test requirement (requirements-test.txt)")


def flip(img):
    x = torch.from_numpy(__import__("numpy").asarray(img).copy()).float()
    return x.flip(1) if random.random() < 0.5 else x


def _pipeline(folder, split: bool, parts=("png", "cls")):
    shards = sorted(str(p) for p in jobs.write_shards(folder, shards=2, per_shard=20, size=8).glob("*.tar"))
    kwargs = {} if split else {"workersplitter": None}
    return wds.WebDataset(shards, shardshuffle=False, **kwargs).decode("pil").to_tuple(*parts)


@pytest.mark.parametrize("split", [False, True])
def test_webdataset_samples_are_named_by_their_keys_whatever_the_flip(tmp_path, split):
    data = _pipeline(tmp_path, split).map_tuple(flip, int)
    frame = loaderlab.record(DataLoader(data, batch_size=4, num_workers=2), sample_info=SampleGuess(iterable=True))
    ends = frame[(frame.kind == ev.FETCH_END) & (frame.detail == "")]
    assert len(ends) == (40 if split else 80) and ((ends["arg1"] & KEYED) != 0).all()
    found = iterable_duplicates(frame)
    if split:
        assert found == []
    else:
        assert [(d.key, d.evidence["duplicates"], d.evidence["distinct"]) for d in found] == [
            ("iterable_duplicates_key", 40, 40)]


def test_keys_pair_with_samples_in_order_and_the_users_pipeline_is_not_changed(tmp_path):
    data = _pipeline(tmp_path, False)
    stages = list(data.pipeline)
    it, taps = keyed_iter(data)
    names = [taps.identify(sample) for sample in it]
    keys = [key_identity(url, key) for url, key in _pipeline(tmp_path, False, ("__url__", "__key__"))]
    assert data.pipeline == stages and names == keys and len(set(names)) == 40
    assert keyed_iter([1, 2]) is None and identity({"__key__": "a", "x": 1}) == key_identity(None, "a")


class Flipped(IterableDataset):
    """n random (3, 4, 4) images, label i % 5, flipped at random; every worker replays them (``shard`` off)."""

    def __init__(self, n: int, shard: bool, same: bool = False) -> None:
        self.n, self.shard, self.same = n, shard, same

    def __iter__(self):
        info = get_worker_info()
        k, step = (info.id, info.num_workers) if self.shard and info else (0, 1)
        g = torch.Generator().manual_seed(0)
        images = [torch.rand(3, 4, 4, generator=g) for _ in range(self.n)]
        for i in range(k, self.n, step):
            if self.same:  # rows of equal content in the data: not a replay
                yield images[i % 3], i % 5
            else:
                yield (images[i].flip(-1) if random.random() < 0.5 else images[i]), i % 5


def test_content_after_a_random_flip_gives_a_range_up_to_what_the_labels_allow():
    frame = loaderlab.record(DataLoader(Flipped(60, shard=False), batch_size=5, num_workers=2),
                             sample_info=SampleGuess(iterable=True))
    (found,) = iterable_duplicates(frame)
    assert found.key == "iterable_duplicates_range" and found.evidence["upper"] == 60
    assert 0 < found.evidence["duplicates"] < 60 and "and 60 of the 120" in found.message


def test_equal_content_in_a_split_stream_is_no_replay():
    frame = loaderlab.record(DataLoader(Flipped(60, shard=True, same=True), batch_size=5, num_workers=2),
                             sample_info=SampleGuess(iterable=True))
    assert iterable_duplicates(frame) == []


@pytest.mark.parametrize("shard", [True, False])
def test_content_is_fingerprinted_while_it_can_show_a_replay(monkeypatch, shard):
    from loaderlab.trace.recording import stream_samples

    monkeypatch.setattr(stream_samples, "PROBE", 8)  # workers fork: they see it too
    loader = DataLoader(Flipped(160, shard=shard, same=False), batch_size=5, num_workers=2)
    random.seed(0)
    frame = loaderlab.record(loader, epochs=2, sample_info=SampleGuess(iterable=True))
    ends = frame[(frame.kind == ev.FETCH_END) & (frame.detail == "")]
    named = ends["arg1"] != ev.NO_ARG
    if shard:  # split: each worker's first 8 of its 80 (checked again at 16, 32… while the other is behind)
        assert named.groupby([ends["epoch"], ends["worker"]]).sum().between(8, 64).all() and not iterable_duplicates(frame)
    else:  # replayed: every sample named, every epoch, and the replay found
        assert named.all() and len(iterable_duplicates(frame)) == 2
