"""The "same loader in plain torch" code runs as printed once the user's ``dataset`` exists, and gives the
batches LoaderLab's loader gives (issue 12, item 5).

Fast: ``torch_code`` for the default settings, every preset, every lesson and the variants the pages print
(weighted sampler, padding collate, length buckets, iterable styles) is executed with a small dataset of the
right kind and compared, batch by batch over two epochs, with :func:`build_loader`'s loader on that dataset.
Slow: every page under every preset, the code blocks it really prints, executed.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import torch
from streamlit.testing.v1 import AppTest

from loaderlab.lessons import LESSONS
from loaderlab.scenarios.distributed import DistConfig
from loaderlab.scenarios.run import PRESETS, RunConfig, build_loader, labels_and_lengths
from loaderlab.ui import distributed_page
from loaderlab.ui.texts import set_language
from loaderlab.ui.torch_code import torch_code
from tests.helpers.processes import live_children

ROOT = Path(__file__).resolve().parents[2]
SMALL = 40  # samples of the test's dataset: a few batches per epoch, quick with workers

BASES = {"default": RunConfig(), **{name: replace(RunConfig(), **values) for name, values in PRESETS.items()},
         **{f"lesson {lesson.number}": lesson.config() for lesson in LESSONS
            if lesson.config_run and lesson.code is None}}
VARIANTS = {  # what the pages print beside the sidebar's own settings
    "as set": {},
    "sampling page (inverse weights)": dict(sampler="weighted", shuffle=False, batch_sampler="default", collate="pad"),
    "padding page (random)": dict(collate="pad", sampler="default", batch_sampler="default", shuffle=True),
    "padding page (bucket)": dict(collate="pad", sampler="default", batch_sampler="bucket", shuffle=False),
    "pinned memory page": dict(pin_memory=True, epochs=1),
    "sharded stream, dropped tail": dict(kind="iterable_sharded", drop_last=True, shuffle=False),
}


def small(config: RunConfig) -> RunConfig:
    """``config`` on its own data's first SMALL samples, without costs: same loader, quick to iterate."""
    labels, lengths = labels_and_lengths(config)
    return replace(config, source="uploaded", uploaded_labels=tuple(labels[:SMALL]),
                   uploaded_lengths=tuple(lengths[:SMALL]), cost_ms=0.0, straggler_ms=0.0, slow_worker=-1,
                   consumer_ms=0.0, fault="none", timeout=0.0, persistent_workers=False)


def cases():
    seen = set()  # one case per distinct printed code: the same code twice tests nothing new
    for base_name, base in BASES.items():
        for variant, changes in VARIANTS.items():
            config = replace(base, **changes)
            if config.kind != "map" and changes.get("kind") is None and variant != "as set":
                continue  # the pages that print these variants need map-style data
            try:
                build_loader(small(config))
            except (ValueError, TypeError):
                continue  # torch rejects it: the sidebar shows no code for it
            code = torch_code(small(config))
            if code not in seen:
                seen.add(code)
                yield pytest.param(config, id=f"{base_name} / {variant}")


def run_printed(code: str, dataset) -> dict:
    namespace = {"dataset": dataset}
    exec(compile(code, "<printed>", "exec"), namespace)  # the printed code, as printed
    return namespace


def same_batch(a, b) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and torch.equal(a, b)
    return type(a) in (list, tuple) and len(a) == len(b) and all(same_batch(x, y) for x, y in zip(a, b))


@pytest.mark.parametrize("config", list(cases()))
def test_printed_code_runs_and_gives_loaderlabs_batches(config):
    config = small(config)
    ours = build_loader(config)
    printed = torch_code(config)
    try:
        list(ours)  # epoch 0
    except RuntimeError as exc:  # the run fails (lesson 5: ragged samples, default collate): so does the code
        with pytest.raises(type(exc)) as printed_error:
            run_printed(printed, ours.dataset)
        assert str(printed_error.value) == str(exc)
        return
    namespace = run_printed(printed, ours.dataset)  # runs epoch 0: its `for batch in loader: ...`
    theirs = namespace["loader"]
    assert type(theirs) is torch.utils.data.DataLoader
    ours_epoch1, theirs_epoch1 = list(ours), list(theirs)  # epoch 1 depends on what epoch 0 drew
    assert len(ours_epoch1) == len(theirs_epoch1) > 0
    assert all(same_batch(a, b) for a, b in zip(ours_epoch1, theirs_epoch1)), printed
    del theirs, namespace
    assert live_children() == []


def test_the_printed_code_names_nothing_it_does_not_define():
    every = torch_code(replace(RunConfig(), sampler="weighted", collate="pad", num_workers=0))
    assert "def pad_collate" in every and "weights = [" in every and "MyDataset" not in every
    bucket = torch_code(replace(RunConfig(), batch_sampler="bucket"))
    assert "class BucketBatchSampler" in bucket and "lengths = [" in bucket


@pytest.mark.parametrize("lang", ["en", "ko"])
@pytest.mark.parametrize("changes", [{}, dict(set_epoch=True, num_workers=1, drop_last=True, world_size=3)])
def test_the_distributed_code_runs_alone_as_rank_0(monkeypatch, lang, changes):
    monkeypatch.delenv("RANK", raising=False)
    monkeypatch.delenv("WORLD_SIZE", raising=False)
    config = replace(DistConfig(), **changes)
    set_language(lang)
    try:
        code = distributed_page.torch_code(config)
    finally:
        set_language("en")
    assert "MyDataset" not in code and "torchrun --nproc-per-node" in code
    dataset = torch.utils.data.TensorDataset(torch.arange(config.n_samples))
    namespace = run_printed(code, dataset)
    sampler = namespace["sampler"]
    expected = torch.utils.data.DistributedSampler(dataset, num_replicas=config.world_size, rank=0,
                                                   shuffle=config.shuffle, seed=config.seed,
                                                   drop_last=config.drop_last)
    expected.set_epoch(config.epochs - 1 if config.set_epoch else 0)
    assert list(sampler) == list(expected)  # rank 0's share of the last epoch
    assert sum(len(b[0]) for b in namespace["loader"]) == len(expected)
    assert live_children() == []


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if lesson.code], ids=lambda lesson: lesson.slug)
def test_every_lessons_own_code_runs_as_printed(lesson):
    """The lessons whose code is not a RunConfig loader (seeding, pin_memory, DistributedSampler)."""
    config = small(replace(RunConfig(), num_workers=0))
    dataset = build_loader(config).dataset
    namespace = run_printed(lesson.code(lesson.settings), dataset)
    assert isinstance(namespace["loader"], torch.utils.data.DataLoader)
    assert len(list(namespace["loader"])) > 0
    assert live_children() == []


# every page under every preset: the code it prints -------------------------------------------------------

PAGES = ["app.py", "pages/1_Event_table.py", "pages/2_Index_queues.py", "pages/3_Worker_timelines.py",
         "pages/4_Sampling_and_imbalance.py", "pages/5_Padding_and_collate.py", "pages/6_Pinned_memory.py",
         "pages/7_Your_trace.py"]  # the pages with the settings sidebar (its presets)


NO_CODE = ("pages/1_Event_table.py",)  # the event table prints no code


def page_dataset(state) -> torch.utils.data.Dataset:
    """The small dataset of the sidebar's settings, of the style they say."""
    fields = {k: state[k] for k in ("source", "n_samples", "imbalance", "length", "length_spread", "seed", "kind")
              if k in state}
    config = small(replace(RunConfig(), **fields))
    return build_loader(replace(config, num_workers=0, sampler="default", batch_sampler="default",
                                shuffle=False, collate="pad")).dataset


@pytest.mark.slow
@pytest.mark.usefixtures("fresh_cache")
@pytest.mark.parametrize("page", PAGES)
def test_every_pages_printed_loader_runs_under_every_preset(page):
    at = AppTest.from_file(str(ROOT / page), default_timeout=120).run()
    shown = 0
    for name in ["—", *PRESETS]:
        at.selectbox(key="preset").set_value(name).run()
        assert not at.exception, (page, name)
        blocks = [c.value for c in at.code if "loader = torch.utils.data.DataLoader(\n" in c.value]
        dataset = page_dataset(at.session_state)
        for code in blocks:
            run_printed(code, dataset)
        shown += len(blocks)
    assert (shown > 0) == (page not in NO_CODE), page
    assert live_children() == []


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_the_sampling_pages_weight_snippets_run_as_printed_and_show_the_mistake(lang):
    from loaderlab.ui.texts import EN, KO

    texts = {"en": EN, "ko": KO}[lang]
    labels = [0] * 36 + [1] * 4
    dataset = [(torch.tensor([i]), label) for i, label in enumerate(labels)]
    wrong = run_printed(texts["sampling.mistake.code_wrong"].format(weights="0.0277778, 0.25", last=1), dataset)
    drawn = list(wrong["sampler"])
    assert len(drawn) == len(dataset) and set(drawn) <= {0, 1}  # per-class weights: only dataset[0] and [1]
    right = run_printed(texts["sampling.mistake.code_right"].format(weights="0.0277778, 0.25"), dataset)
    assert len(right["weights"]) == len(dataset) and set(right["weights"]) == {0.0277778, 0.25}
    assert max(right["sampler"]) >= 2  # per-sample weights reach the whole dataset
