"""The dashboard's run function: presets, sources, uploads, torch's errors and warnings."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from loaderlab.scenarios import sources
from loaderlab.scenarios.run import PRESETS, RunConfig, build_loader, draws_only, preset, run


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_runs_and_shows_what_it_is_for(name):
    config = replace(preset(name), n_samples=min(preset(name).n_samples, 200))
    frame = run(config).events
    fetched = frame[frame.kind == "fetch_end"]
    assert (frame.kind == "batch_yield").sum() > 0
    if name == "unsharded IterableDataset":
        counts = fetched.groupby("index")["worker"].nunique()
        assert set(counts) == {2}  # every sample came from both workers: duplicates
    if name == "95/5 imbalance":
        share = (fetched["label"] == 0).mean()
        assert share > 0.85
    if name == "one slow worker":
        durations = frame.pivot_table(index=["pid", "index"], columns="kind", values="t_ns", aggfunc="first")
        slow = (durations["fetch_end"] - durations["fetch_begin"]).groupby(level="pid").median()
        assert slow.max() > 3 * slow.min()


def test_weighted_sampler_uses_inverse_class_frequency_and_balances_labels():
    config = RunConfig(imbalance=0.9, sampler="weighted", n_samples=400, num_workers=0, cost_ms=0.0, consumer_ms=0.0)
    fetched = run(config).events.query("kind == 'fetch_end'")
    assert 0.35 < (fetched["label"] == 0).mean() < 0.65


def test_torch_rejects_invalid_combinations_with_its_own_message():
    with pytest.raises(ValueError, match="persistent_workers option needs num_workers > 0"):
        build_loader(RunConfig(num_workers=0, persistent_workers=True))
    with pytest.raises(ValueError, match="sampler option is mutually exclusive with shuffle"):
        build_loader(RunConfig(sampler="weighted", shuffle=True))
    with pytest.raises(ValueError, match="expected unspecified shuffle option"):
        build_loader(RunConfig(kind="iterable_sharded", shuffle=True))
    with pytest.raises(ValueError, match="source must be one of synthetic"):
        RunConfig(source="nope")


def test_warnings_are_kept_with_the_run():
    result = run(RunConfig(num_workers=0, pin_memory=True, n_samples=16, cost_ms=0, consumer_ms=0))
    assert result.config["pin_memory"] is True and result.stop is None
    if not torch.accelerator.is_available():
        assert list(result.warnings) == ["'pin_memory' argument is set as true but no accelerator is found, "
                                           "then device pinned memory won't be used."]


def test_sample_files_load_with_their_documented_shape():
    labels, lengths = sources.sample_file("stdlib_files")
    assert len(labels) == len(lengths) == 1114 and labels.count(0) == 970
    labels, lengths = sources.sample_file("stdlib_docstrings")
    assert len(lengths) == 147 and min(lengths) >= 1 and max(lengths) > 5 * min(lengths)


@pytest.mark.parametrize("data, fragment", [
    (b"", "is empty"),
    (b"name,size\na,1\n", "has no 'label' column; its columns are name, size"),
    (b"label\n1\ncat\n", "'label' must be whole numbers \u2265 0; row 3 has 'cat'"),
    (b"label\n1\nNaN\n", "row 3 has 'nan'"),
    (b"label,length\n1,3\n0,0\n", "'length' must be whole numbers \u2265 1; row 3 has '0'"),
    (b"label\n1.5\n", "row 2 has '1.5'"),
    ("label\n\u00e9\n".encode("latin-1"), "is not UTF-8 text"),
    (b"label\n" + b"1\n" * (sources.MAX_UPLOAD_ROWS + 1), "rows; the limit on this server is"),
    (b"label\n" + b"1" * (sources.MAX_UPLOAD_BYTES + 1), "MB; the limit is"),
])
def test_bad_uploads_get_one_clear_sentence(data, fragment):
    with pytest.raises(sources.UploadError) as info:
        sources.parse_upload(data, "mine.csv")
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_good_upload_round_trips():
    assert sources.parse_upload(b"label,length\n0,3\n2,5\n") == ((0, 2), (3, 5))
    assert sources.parse_upload(b"label\n1\n0\n") == ((1, 0), (8, 8))


def _drawn(result) -> list[list[int]]:
    return result.events.loc[result.events["kind"] == "sampler_yield", "indices"].tolist()


@pytest.mark.parametrize("changes", [dict(shuffle=True), dict(sampler="weighted", imbalance=0.9),
                                     dict(sampler="weighted", replacement=False, imbalance=0.9)])
def test_workers_do_not_change_which_samples_are_drawn(changes):
    # The sampling page runs with num_workers=0 on this fact: torch draws the base seed from the generator
    # with or without workers, so the sampler sees the same generator state either way.
    config = replace(RunConfig(n_samples=120, cost_ms=0.5, consumer_ms=0.5, batch_size=8, num_workers=2,
                               straggler_index=5, straggler_ms=5.0), **changes)
    with_workers = run(config)
    without = run(draws_only(config))
    assert without.loader["num_workers"] == 0
    assert _drawn(with_workers) == _drawn(without)
    assert len(_drawn(without)) == 15


def test_torch_draws_the_same_batches_with_and_without_workers():
    def batches(num_workers):
        loader = torch.utils.data.DataLoader(list(range(40)), batch_size=4, shuffle=True, num_workers=num_workers,
                                             generator=torch.Generator().manual_seed(3))
        return [b.tolist() for b in loader]

    assert batches(0) == batches(2)


def test_a_page_that_draws_no_memory_asks_for_a_run_without_its_samples():
    """Memory samples read each worker's smaps_rollup ten times a second (a quarter of the server's CPU on a
    home-page change); only the event table draws them. The setting is no control: links cannot set it."""
    from loaderlab.scenarios.limits import DEFAULTS  # noqa: PLC0415 (the link parser's own check)
    from loaderlab.ui.control_ranges import fit_link  # noqa: PLC0415

    settings = dict(n_samples=300, cost_ms=2.0, consumer_ms=0.0, num_workers=2)
    sampled = run(RunConfig(**settings)).events
    unsampled = run(RunConfig(**settings, sample_memory=False)).events
    assert (sampled["kind"] == "memory").any()
    assert not (unsampled["kind"] == "memory").any()
    assert (unsampled["kind"] == "batch_yield").sum() == (sampled["kind"] == "batch_yield").sum()
    found, notes = fit_link({"sample_memory": "0"}, DEFAULTS)
    assert found == {} and [note.what for note in notes] == ["unknown"]
