"""``python -m loaderlab record FILE:FACTORY --world-size N``, and trace files that keep the rank column."""

from __future__ import annotations

import json
import textwrap

import pandas as pd
import pytest
import torch

from loaderlab import cli
from loaderlab.scenarios.distributed import DistConfig, run
from loaderlab.trace.ranks import analysis as dd
from loaderlab.trace.files.columnar_read import TraceFileError
from loaderlab.trace.files.io import load_trace, load_trace_bytes, save_trace, trace_document

FACTORY = textwrap.dedent("""
    import torch
    from torch.utils.data import DistributedSampler
    from loaderlab import DataLoader

    def make_loader(rank, world_size):
        dataset = list(range(21))
        sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, seed=5)
        return DataLoader(dataset, batch_size=4, sampler=sampler)
""")


@pytest.fixture(scope="module")
def factory_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "ranks_factory_for_cli.py"
    path.write_text(FACTORY)
    return path


def torch_lists(epoch: int, set_epoch: bool) -> dict[tuple[int, int], list[int]]:
    out = {}
    for rank in range(3):
        sampler = torch.utils.data.DistributedSampler(list(range(21)), num_replicas=3, rank=rank, seed=5)
        if set_epoch:
            sampler.set_epoch(epoch)
        out[(epoch, rank)] = list(sampler)
    return out


@pytest.mark.parametrize("set_epoch", [True, False])
def test_record_with_world_size_writes_a_merged_trace_with_ranks(factory_file, tmp_path, capsys, set_epoch):
    out = tmp_path / "trace.json"
    args = ["record", f"{factory_file}:make_loader", "--world-size", "3", "--epochs", "2", "-o", str(out)]
    assert cli.main(args + ([] if set_epoch else ["--no-set-epoch"])) == 0
    assert "from 3 ranks" in capsys.readouterr().out
    frame = load_trace(out)
    assert sorted(frame["rank"].unique()) == [0, 1, 2] and frame["rank"].dtype == "int64"
    assert dd.rank_indices(frame) == {**torch_lists(0, set_epoch), **torch_lists(1, set_epoch)}
    assert dd.set_epoch_forgotten(frame) is not set_epoch
    assert cli.main(["report", str(out), "--lang", "en"]) == 0
    report = capsys.readouterr().out
    assert [line for line in report.splitlines() if line.startswith("Rank ")] == ["Rank 0:", "Rank 1:", "Rank 2:"]
    assert ("same_order_every_epoch" in report.split("Across the 3 ranks:")[1]) is not set_epoch
    assert cli.main(["report", str(out), "--lang", "ko"]) == 0
    assert "랭크 3개 전체:" in capsys.readouterr().out


@pytest.mark.parametrize("extra, message", [
    (["--world-size", "5"], "world_size must be 2–4, but got world_size=5"),
    (["--world-size", "two"], "argument --world-size: invalid int value: 'two'"),
])
def test_bad_world_size_is_one_line_and_exit_status_2(factory_file, tmp_path, capsys, extra, message):
    with pytest.raises(SystemExit) as exited:
        cli.main(["record", f"{factory_file}:make_loader", "-o", str(tmp_path / "t.json"), *extra])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("loaderlab: error: ") and message in err


ZERO_ARG_FACTORY = textwrap.dedent("""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    def make_loader():  # as a training script writes it: the sampler asks the process group
        dataset = list(range(21))
        return DataLoader(dataset, batch_size=4, sampler=DistributedSampler(dataset, seed=5))
""")


def test_a_zero_argument_factory_gets_its_rank_from_the_process_group(tmp_path, capsys):
    path = tmp_path / "zero_arg_factory_for_cli.py"
    path.write_text(ZERO_ARG_FACTORY)
    out = tmp_path / "t.json"
    assert cli.main(["record", f"{path}:make_loader", "--world-size", "3", "-o", str(out)]) == 0
    frame = load_trace(out)
    assert dd.rank_indices(frame) == torch_lists(0, True)


def test_a_factory_of_one_argument_is_refused_with_the_signatures_it_may_have(tmp_path, capsys):
    path = tmp_path / "one_arg_factory_for_cli.py"
    path.write_text("def make_loader(rank):\n    pass\n")
    with pytest.raises(SystemExit):
        cli.main(["record", f"{path}:make_loader", "--world-size", "2", "-o", str(tmp_path / "t.json")])
    err = capsys.readouterr().err
    assert "factory(rank, world_size), or none, factory()" in err and "make_loader(rank) does neither" in err


def test_help_documents_the_factory_signature(capsys):
    with pytest.raises(SystemExit):
        cli.main(["record", "--help"])
    assert "FACTORY(rank, world_size)" in capsys.readouterr().out


@pytest.fixture(scope="module")
def merged():
    return run(DistConfig(world_size=2, n_samples=9, cost_ms=0.0, epochs=1))


def test_a_merged_trace_round_trips_through_a_file(merged, tmp_path):
    save_trace(merged, tmp_path / "t.json")
    back = load_trace(tmp_path / "t.json")
    pd.testing.assert_frame_equal(back, merged)
    assert back.attrs["world_size"] == 2 and back.attrs["samplers"] == merged.attrs["samplers"]


def test_a_rank_column_of_another_dtype_is_refused(merged):
    with pytest.raises(ValueError, match="stores column 'rank' as int64, but it is float64"):
        trace_document(merged.assign(rank=merged["rank"].astype(float)))


def test_a_file_whose_rank_column_is_not_int64_is_damaged(merged):
    doc = trace_document(merged)
    doc["dtypes"]["rank"] = "str"
    with pytest.raises(TraceFileError, match="gives column rank the dtype \"str\" where int64 belongs"):
        load_trace_bytes(json.dumps(doc).encode())


def test_a_single_process_trace_still_has_no_rank_column(merged):
    doc = trace_document(merged.drop(columns="rank"))
    assert "rank" not in doc["columns"]
    assert "rank" not in load_trace_bytes(json.dumps(doc).encode()).columns
