"""`export --epoch/--from/--to` of a `.lltrace` file reads only the rows the cut keeps (trace/cut_read.py), and
writes the same text as the export of the whole table cut in memory."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from loaderlab import DataLoader, record
from loaderlab.cli import commands, main
from loaderlab.jobs.read import load_cut, load_one, select_loader, survey_for_cut
from loaderlab.trace.export import chrome
from loaderlab.trace.files.io import save_trace
from loaderlab.trace.files import columnar, compact
from loaderlab.trace.files.columnar_read import open_columnar
from tests.helpers.datasets import MapDataset
from tests.jobs import scripts
from tests.jobs.runner import run, write


def label_and_length(index, sample):
    return [0, 1.0, "cat", True][int(index) % 4], int(index) + 1


@pytest.fixture(scope="module")
def recorded(tmp_path_factory) -> str:
    """A recorded run of 3 epochs saved in record batches of 7 rows, as a long run writes many."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # 3 workers on 2 cores
        frame = record(DataLoader(MapDataset(23), batch_size=2, num_workers=3, in_order=False), epochs=3,
                       sample_info=label_and_length)
    path = tmp_path_factory.mktemp("cut") / "t.lltrace"
    patch = pytest.MonkeyPatch()
    patch.setattr(columnar, "BATCH_ROWS", 7)
    try:
        save_trace(frame, path)
    finally:
        patch.undo()
    return str(path)


@pytest.fixture(scope="module")
def job(tmp_path_factory) -> str:
    """`python -m loaderlab run` of a script that zips two DataLoaders for 2 epochs: a trace of two loaders."""
    folder = tmp_path_factory.mktemp("job")
    write(folder, "two.py", scripts.TWO_AT_ONCE)
    done = run(folder, "-o", "two.lltrace", "two.py")
    assert done.returncode == 0, done.stderr
    return str(folder / "two.lltrace")


def whole_export(path: str, loader: str | None, cuts: dict, tmp_path) -> str:
    frame = load_one(path, compact=True)
    if loader is not None:
        frame = select_loader(frame, loader)
    out = tmp_path / "whole.json"
    chrome.save_chrome_trace(frame, out, **cuts)
    return out.read_text()


def cut_export(path: str, loader: str | None, cuts: dict, tmp_path) -> tuple[str, pd.DataFrame]:
    found, picked = survey_for_cut(path, loader)
    frame = load_cut(path, found, picked, cuts)
    out = tmp_path / "cut.json"
    chrome.save_chrome_trace(frame, out, **cuts, origin_ns=found.parts[picked].t_min)
    return out.read_text(), frame


def windows(path: str, loader: str | None = None) -> list[dict]:
    frame = load_one(path, compact=True)
    if loader is not None:
        frame = select_loader(frame, loader)
    length = (frame["t_ns"].max() - frame["t_ns"].min()) / 1e9
    epochs = sorted(frame["epoch"].unique())
    return [{"epoch": int(e), "start_s": None, "end_s": None} for e in epochs] + [
        {"epoch": None, "start_s": length * a, "end_s": length * b} for a, b in ((0.2, 0.3), (0.5, 0.5001))] + [
        {"epoch": None, "start_s": length * 0.7, "end_s": None},
        {"epoch": None, "start_s": None, "end_s": length * 0.1},
        {"epoch": int(epochs[-1]), "start_s": length * 0.6, "end_s": length * 0.9}]


def test_a_cut_read_from_the_file_exports_the_same_text_as_the_whole_table_cut(recorded, tmp_path):
    cuts_seen = 0
    for cuts in windows(recorded):
        text, frame = cut_export(recorded, None, cuts, tmp_path)
        assert text == whole_export(recorded, None, cuts, tmp_path)
        assert json.loads(text)["traceEvents"]
        cuts_seen += 1
    assert cuts_seen == 8


def test_a_cut_read_holds_exactly_the_rows_the_whole_tables_cut_keeps(recorded, tmp_path):
    whole = load_one(recorded, compact=True)
    t0 = int(whole["t_ns"].min())
    for cuts in windows(recorded):
        _, frame = cut_export(recorded, None, cuts, tmp_path)
        kept = chrome._cut(whole, t0, cuts["start_s"], cuts["end_s"], cuts["epoch"]).reset_index(drop=True)
        assert 0 < len(frame) < len(whole)
        pd.testing.assert_frame_equal(frame, kept)
        assert frame.attrs == whole.attrs


def test_each_loader_of_a_job_trace_is_cut_as_the_whole_table_would_be(job, tmp_path):
    names = ["images", "labels"]
    assert sorted(load_one(job, compact=True)["loader"].unique()) == names
    for loader in names:
        for cuts in windows(job, loader):
            text, frame = cut_export(job, loader, cuts, tmp_path)
            assert text == whole_export(job, loader, cuts, tmp_path)
            assert set(frame["loader"]) == {loader}


def test_the_command_writes_the_same_file_with_and_without_the_whole_table(job, recorded, tmp_path, monkeypatch,
                                                                          capsys):
    monkeypatch.chdir(tmp_path)
    calls = []
    real = commands._cut_export
    monkeypatch.setattr(commands, "_cut_export", lambda args: calls.append(args) or real(args))
    for trace, extra in ((recorded, []), (job, ["--loader", "labels"])):
        for flags in (["--epoch", "1"], ["--from", "0.001", "--to", "0.004"]):
            assert main(["export", trace, "--chrome", "cut.json", *extra, *flags]) == 0
            monkeypatch.setattr(commands, "_cut_export", lambda args: None)  # the whole table, as before
            assert main(["export", trace, "--chrome", "whole.json", *extra, *flags]) == 0
            monkeypatch.setattr(commands, "_cut_export", lambda args: calls.append(args) or real(args))
            assert (tmp_path / "cut.json").read_text() == (tmp_path / "whole.json").read_text()
    assert len(calls) == 4
    capsys.readouterr()


@pytest.mark.parametrize("args, fragment", [
    (["--epoch", "5"], "--epoch 5 is not in the trace: its epochs are 0 to 2"),
    (["--from", "1e6"], "--from 1e+06 is outside the trace: give seconds from 0 to "),
    (["--from", "0.002", "--to", "0.001"], "--to 0.001 must be after --from 0.002"),
])
def test_a_cut_outside_the_trace_is_refused_before_any_row_is_read(recorded, tmp_path, monkeypatch, capsys, args,
                                                                   fragment):
    monkeypatch.chdir(tmp_path)
    read = []
    monkeypatch.setattr("loaderlab.trace.files.cut_read.read_cut", lambda *a, **k: read.append(a))
    with pytest.raises(SystemExit) as exit_info:
        main(["export", recorded, "--chrome", "out.json", *args])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and fragment in err and err.count("\n") == 1
    assert not read and not (tmp_path / "out.json").exists()


def test_a_trace_of_two_loaders_without_loader_is_read_whole_and_refused_as_before(job, tmp_path, monkeypatch,
                                                                                   capsys):
    monkeypatch.chdir(tmp_path)
    assert survey_for_cut(job, None) is None
    assert survey_for_cut(job, "nobody") is None
    with pytest.raises(SystemExit):
        main(["export", job, "--chrome", "out.json", "--epoch", "0"])
    assert "holds 2 DataLoaders (images, labels); pick one with --loader NAME" in capsys.readouterr().err


def test_a_json_trace_or_a_folder_is_not_surveyed(recorded, tmp_path):
    frame = load_one(recorded)
    save_trace(frame, tmp_path / "t.json")
    assert survey_for_cut(str(tmp_path / "t.json"), None) is None
    assert survey_for_cut(str(tmp_path), None) is None


def test_a_file_cut_off_mid_write_is_cut_up_to_its_last_whole_batch(recorded, tmp_path):
    data = open(recorded, "rb").read()
    short = tmp_path / "short.lltrace"
    short.write_bytes(data[:int(len(data) * 0.6)])
    whole = load_one(str(short), compact=True)
    assert whole.attrs.get("cut_short") and len(whole)
    for cuts in windows(str(short))[:3]:
        text, frame = cut_export(str(short), None, cuts, tmp_path)
        assert text == whole_export(str(short), None, cuts, tmp_path)
        assert frame.attrs.get("cut_short")


def test_a_cut_decodes_only_the_rows_it_keeps(recorded, tmp_path, monkeypatch):
    added = []
    real = compact.CompactColumns.add
    monkeypatch.setattr(compact.CompactColumns, "add",
                        lambda self, batch: added.append(batch.num_rows) or real(self, batch))
    whole = len(load_one(recorded, compact=True))
    added.clear()
    _, frame = cut_export(recorded, None, {"epoch": 1, "start_s": None, "end_s": None}, tmp_path)
    assert sum(added) == len(frame) < whole / 2
    assert np.all(frame["epoch"].to_numpy() == 1)


def test_a_file_whose_columns_do_not_match_its_notes_is_one_sentence_for_a_cut(recorded, tmp_path, monkeypatch,
                                                                                capsys):
    import pyarrow as pa

    with open_columnar(recorded) as stream:
        schema = stream.schema
    fields = [pa.field(f.name, pa.int64()) if f.name == "kind" else f for f in schema]
    bad = pa.schema(fields, metadata=schema.metadata)
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, bad) as writer:
        writer.write_batch(pa.RecordBatch.from_arrays(
            [pa.array([0, 1], f.type) if f.name == "kind" else pa.nulls(2, f.type) for f in fields], schema=bad))
    (tmp_path / "bad.lltrace").write_bytes(columnar.MAGIC + sink.getvalue().to_pybytes())
    monkeypatch.chdir(tmp_path)
    assert survey_for_cut("bad.lltrace", None) is None
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "bad.lltrace", "--chrome", "out.json", "--epoch", "0"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and "do not match its own notes" in err and err.count("\n") == 1
