"""The vectorised, streamed Chrome export: the same document as the row-by-row loop it replaced, written in
pieces, and cut to a time window or one epoch (library and `export --from/--to/--epoch`)."""

from __future__ import annotations

import io
import json
import warnings

import numpy as np
import pandas as pd
import pytest
import torch.utils.data

from loaderlab import DataLoader, record
from loaderlab.cli import main
from loaderlab.trace.export.chrome import to_chrome_trace
from loaderlab.trace.export import chrome
from loaderlab.trace.export.chrome import write_chrome
from loaderlab.trace.files.io import save_trace
from tests.helpers.datasets import MapDataset
from tests.helpers import chrome_oracle


def label_and_length(index, sample):
    return [0, 1.0, "cat", True][int(index) % 4], int(index) + 1


@pytest.fixture(scope="module")
def traces() -> dict[str, pd.DataFrame]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pin_memory without an accelerator, and 3 workers on 2 cores, warn
        out = {
            "workers": record(DataLoader(MapDataset(9), batch_size=2, num_workers=2), epochs=2),
            "single": record(DataLoader(MapDataset(5), batch_size=2), sample_info=label_and_length),
            "pinned": record(DataLoader(MapDataset(6), batch_size=2, num_workers=2, pin_memory=True)),
            "torch": record(torch.utils.data.DataLoader(MapDataset(6), batch_size=2, num_workers=2)),
            "out_of_order": record(DataLoader(MapDataset(20), batch_size=2, num_workers=3, in_order=False),
                                   epochs=2, sample_info=label_and_length),
        }
    out["cut_short"] = out["workers"].iloc[:len(out["workers"]) // 2]
    out["shuffled"] = out["workers"].sample(frac=1, random_state=1)
    return out


def plain(doc: dict) -> list[dict]:
    """A document's events but the track names (a cut keeps every track) and arrow ids (a cut renumbers)."""
    return [{k: v for k, v in e.items() if k != "id"} for e in doc["traceEvents"] if e["ph"] != "M"]


@pytest.mark.parametrize("name", ["workers", "single", "pinned", "torch", "out_of_order", "cut_short", "shuffled"])
def test_the_vectorised_export_equals_the_row_by_row_loop(traces, name):
    old = json.loads(json.dumps(chrome_oracle.to_chrome_trace(traces[name])))
    assert to_chrome_trace(traces[name]) == old


def test_the_export_is_written_in_pieces(traces, monkeypatch):
    monkeypatch.setattr(chrome, "CHUNK", 16)
    writes: list[int] = []

    class Sink(io.StringIO):
        def write(self, text: str) -> int:
            writes.append(len(text))
            return super().write(text)

    sink = Sink()
    write_chrome(traces["out_of_order"], sink)
    assert json.loads(sink.getvalue()) == to_chrome_trace(traces["out_of_order"])
    assert len(writes) > 10 and max(writes) < sum(writes) / 5  # never the whole document in one piece


@pytest.mark.parametrize("name", ["workers", "out_of_order", "pinned"])
def test_a_window_is_what_of_the_whole_export_overlaps_it(traces, name):
    frame = traces[name]
    whole = to_chrome_trace(frame)
    length = (frame["t_ns"].max() - frame["t_ns"].min()) / 1e9
    for a, b in ((0.3 * length, 0.5 * length), (0.0, 0.1 * length), (0.9 * length, 0.9999 * length)):
        cut = to_chrome_trace(frame, start_s=a, end_s=b)
        overlaps = [e for e in plain(whole) if e["ts"] <= b * 1e6 and e["ts"] + e.get("dur", 0) >= a * 1e6]
        assert plain(cut) == overlaps
        assert cut["otherData"] == whole["otherData"]


@pytest.mark.parametrize("name", ["workers", "out_of_order", "pinned"])
def test_a_window_inside_one_span_keeps_that_span(traces, name):
    """A 1 µs window in the middle of a span holds none of its rows: the span, begun before and ended after,
    is still in the cut (it was dropped when a task counted only by its rows in the window)."""
    frame = traces[name]
    whole = plain(to_chrome_trace(frame))
    spans = [e for e in whole if e["ph"] == "X" and e["dur"] > 2]
    for span in spans[::max(1, len(spans) // 15)]:
        mid = (span["ts"] + span["dur"] / 2) / 1e6
        a, b = mid - 0.5e-6, mid + 0.5e-6
        cut = plain(to_chrome_trace(frame, start_s=a, end_s=b))
        assert span in cut
        assert cut == [e for e in whole if e["ts"] <= b * 1e6 and e["ts"] + e.get("dur", 0) >= a * 1e6]


@pytest.mark.parametrize("name", ["workers", "out_of_order"])
def test_an_epoch_is_that_epochs_events_of_the_whole_export(traces, name):
    whole = to_chrome_trace(traces[name])
    for epoch in (0, 1):
        cut = to_chrome_trace(traces[name], epoch=epoch)
        mine = [e for e in plain(whole) if e.get("args", {}).get("epoch") == epoch]
        assert plain(cut) == mine and mine


def test_export_cuts_from_the_command_line(traces, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    frame = traces["workers"]
    save_trace(frame, tmp_path / "t.lltrace")
    assert main(["export", "t.lltrace", "--chrome", "e1.json", "--epoch", "1"]) == 0
    doc = json.loads((tmp_path / "e1.json").read_text())
    assert plain(doc) == plain(to_chrome_trace(frame, epoch=1))
    length = (frame["t_ns"].max() - frame["t_ns"].min()) / 1e9
    assert main(["export", "t.lltrace", "--chrome", "w.json", "--from", f"{length / 4}", "--to", f"{length / 2}"]) == 0
    doc = json.loads((tmp_path / "w.json").read_text())
    assert plain(doc) == plain(to_chrome_trace(frame, start_s=length / 4, end_s=length / 2))


@pytest.mark.parametrize("args, fragment", [
    (["--epoch", "5"], "--epoch 5 is not in the trace: its epochs are 0 to 1"),
    (["--from", "1e6"], "--from 1e+06 is outside the trace: give seconds from 0 to "),
    (["--to", "-1"], "--to -1 is outside the trace: give seconds from 0 to "),
    (["--from", "0.002", "--to", "0.001"], "--to 0.001 must be after --from 0.002"),
    (["--epoch", "x"], "argument --epoch: invalid int value: 'x'"),
])
def test_a_cut_outside_the_trace_is_one_line_naming_the_flag(traces, tmp_path, monkeypatch, capsys, args, fragment):
    monkeypatch.chdir(tmp_path)
    save_trace(traces["workers"], tmp_path / "t.lltrace")
    with pytest.raises(SystemExit) as exit_info:
        main(["export", "t.lltrace", "--chrome", "out.json", *args])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and fragment in err and err.count("\n") == 1
    assert not (tmp_path / "out.json").exists()


@pytest.mark.parametrize("n, spread", [(0, 1), (1, 1), (7, 2), (5000, 40), (5000, 5000)])
def test_the_write_order_is_one_lexsort_of_its_four_keys(n, spread):
    # few distinct ts (spread) means many ties: those rows are the ones sorted a second time
    from loaderlab.trace.export.chrome import _time_order
    rng = np.random.default_rng(n + spread)
    table = pd.DataFrame({"ts": rng.integers(0, spread, n), "dur": rng.integers(-1, 4, n),
                          "trigger": rng.integers(0, 6, n), "sub": rng.integers(0, 3, n)})
    expected = np.lexsort((table["sub"].to_numpy(), table["trigger"].to_numpy(),
                           -np.maximum(table["dur"].to_numpy(), 0), table["ts"].to_numpy()))
    assert _time_order(table).tolist() == expected.tolist()
