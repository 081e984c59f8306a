"""Following a trace that is still being written (:mod:`loaderlab.jobs.follow`): only new chunks are read,
half-written messages are read once whole, and the result is what a full read of the same bytes gives."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest

from loaderlab.jobs import follow, read, trace_paths
from loaderlab.trace.files.columnar import TraceWriter
from loaderlab.trace.files.columnar_read import read_columnar, TraceFileError


def chunk(start: int, n: int, loader: str = "train_loader") -> pd.DataFrame:
    """n events as `run` writes them (a str kind, int columns, a label object column, a loader column)."""
    i = np.arange(start, start + n)
    return pd.DataFrame({
        "kind": pd.array(np.where(i % 2 == 0, "fetch_begin", "fetch_end"), dtype="str"),
        "t_ns": (1_000_000 + i * 1_000 + (i % 3) * 7).astype("int64"),
        "pid": np.full(n, 7, dtype="int64"), "worker": (i % 2).astype("int64"), "epoch": np.zeros(n, "int64"),
        "batch": (i // 4).astype("int64"), "index": i.astype("int64"),
        "label": pd.Series([int(x % 3) if x % 5 else None for x in i], dtype=object),
        "detail": pd.array([f"d{x % 4}" for x in i], dtype="str"),
        "t_s": (i * 1_000 + (i % 3) * 7) / 1e9,
        "loader": pd.array([loader] * n, dtype="str"),
    })


META = {"job": {"pid": 1, "rank": 0, "world_size": 1}, "loaders": {}}


def test_chunks_are_read_as_they_are_written(tmp_path):
    path = tmp_path / "t.lltrace"
    followed = follow.FollowedFile(str(path))
    writer = TraceWriter(path, META)
    assert not followed.poll()  # only the magic bytes: nothing to read yet
    writer.write_frame(chunk(0, 50))
    assert followed.poll() and followed.rows == 50 and not followed.closed
    assert not followed.poll()  # unchanged file: nothing read
    writer.set_meta("loaders", {"train_loader": {"epochs": 1}})
    writer.write_frame(chunk(50, 30, loader="val_loader"))
    assert followed.poll() and followed.rows == 80
    writer.set_meta("exit_status", 0)
    writer.close()
    assert followed.poll() and followed.closed
    frame, meta = followed.frame()
    full, full_meta = read_columnar(path)
    pdt.assert_frame_equal(frame, full)
    assert meta == full_meta and meta["exit_status"] == 0 and "cut_short" not in meta


def test_a_file_read_while_half_written_reads_every_batch_once(tmp_path):
    """The file grows a few bytes at a time (a writer mid-flush): every look stops at the last whole batch."""
    whole = tmp_path / "whole.lltrace"
    with TraceWriter(whole, META) as writer:
        for k in range(6):
            writer.write_frame(chunk(k * 40, 40, loader="a" if k % 2 else "b"))
            writer.set_meta("step", k)
    data = whole.read_bytes()
    growing = tmp_path / "growing.lltrace"
    growing.write_bytes(b"")
    followed = follow.FollowedFile(str(growing))
    seen = []
    with open(growing, "ab") as out:
        for at in range(0, len(data), 97):
            out.write(data[at:at + 97])
            out.flush()
            followed.poll()
            seen.append(followed.rows)
            assert followed.closed == (at + 97 >= len(data))
    assert seen == sorted(seen) and seen[-1] == 240
    frame, meta = followed.frame()
    full, full_meta = read_columnar(whole)
    pdt.assert_frame_equal(frame, full)
    assert meta == full_meta


def test_the_follower_gives_what_load_any_gives(tmp_path):
    folder = tmp_path / "trace"
    folder.mkdir()
    writers = [TraceWriter(folder / f"rank{r}.lltrace", {**META, "job": {"pid": 1, "rank": r, "world_size": 2}})
               for r in (1, 0)]
    follower = follow.Follower(str(folder))
    assert follower.paths == [str(folder / "rank0.lltrace"), str(folder / "rank1.lltrace")]
    for w in writers:
        w.write_frame(chunk(0, 20))
    first = follower.poll()
    assert len(first) == 40 and not follower.closed
    for w in writers:
        w.write_frame(chunk(20, 20))
        w.close()
    merged = follower.poll()
    assert follower.closed
    pdt.assert_frame_equal(merged, read.load_any(str(folder)))
    assert merged.attrs.keys() == read.load_any(str(folder)).attrs.keys()
    follower.close()


@pytest.mark.parametrize("make, says", [
    (lambda d: str(d / "nope.lltrace"), "there is no file or folder"),
    (lambda d: (d / "empty").mkdir() or str(d / "empty"), "holds no traces"),
    (lambda d: (d / "notes.txt").write_text("x") and str(d / "notes.txt"),
     "the dashboard reads only files ending in .lltrace or .json"),
    (lambda d: str(d / "*.lltrace"), "no file matches"),
])
def test_bad_paths_are_one_sentence(tmp_path, make, says):
    with pytest.raises(TraceFileError, match=says):
        follow.Follower(make(tmp_path))


def test_a_file_that_is_not_a_trace(tmp_path):
    path = tmp_path / "fake.lltrace"
    path.write_bytes(b"PK\x03\x04 not a trace at all")
    with pytest.raises(TraceFileError, match="is not a LoaderLab columnar trace"):
        follow.Follower(str(path)).poll()


def test_recent_traces_newest_first(tmp_path):
    import os

    (tmp_path / "a").mkdir()
    for i, name in enumerate(["old.lltrace", "a/new.lltrace", "skip.json"]):
        (tmp_path / name).write_bytes(b"x")
        os.utime(tmp_path / name, (1_000 + i, 1_000 + i))
    assert trace_paths.recent_traces(str(tmp_path)) == [os.path.join("a", "new.lltrace"), "old.lltrace"]


def test_a_file_written_again_from_its_start_is_said_so(tmp_path):
    path = tmp_path / "t.lltrace"
    with TraceWriter(path, META) as writer:
        writer.write_frame(chunk(0, 500))
    followed = follow.FollowedFile(str(path))
    assert followed.poll() and followed.closed
    with TraceWriter(path, META) as writer:  # a new job with the same -o: the file starts again
        writer.write_frame(chunk(0, 5))
    with pytest.raises(follow.TraceRewritten):
        followed.poll()


def test_a_closed_file_written_again_and_longer_is_said_so_too(tmp_path):
    import os

    path = tmp_path / "t.lltrace"
    with TraceWriter(path, META) as writer:
        writer.write_frame(chunk(0, 5))
    followed = follow.FollowedFile(str(path))
    assert followed.poll() and followed.closed
    with TraceWriter(path, META) as writer:
        writer.write_frame(chunk(0, 5000))
    os.utime(path, (1_000, 1_000))  # whatever the clock's resolution, the file's time changed
    with pytest.raises(follow.TraceRewritten):
        followed.poll()


def test_a_rank_file_that_appears_later_joins_the_trace(tmp_path):
    folder = tmp_path / "trace"
    folder.mkdir()
    first = TraceWriter(folder / "rank0.lltrace", {**META, "job": {"pid": 1, "rank": 0, "world_size": 2}})
    first.write_frame(chunk(0, 20))
    follower = follow.Follower(str(folder))
    assert len(follower.poll()) == 20
    with TraceWriter(folder / "rank1.lltrace", {**META, "job": {"pid": 2, "rank": 1, "world_size": 2}}) as second:
        second.write_frame(chunk(0, 30))
    first.close()
    merged = follower.poll()
    assert len(merged) == 50 and sorted(merged["rank"].unique()) == [0, 1] and follower.closed
    follower.close()


def test_a_server_can_keep_the_live_view_to_its_trace_folders(tmp_path, monkeypatch):
    allowed, other = tmp_path / "traces", tmp_path / "private"
    allowed.mkdir(), other.mkdir()
    for folder in (allowed, other):
        with TraceWriter(str(folder / "job.lltrace"), META) as w:
            w.write_frame(chunk(0, 8))
    (allowed / "link.lltrace").symlink_to(other / "job.lltrace")  # a link out of the folder is outside too
    monkeypatch.setenv(trace_paths.DIRS_ENV, f"{tmp_path / 'nowhere'}{os.pathsep}{allowed}")
    assert trace_paths.trace_files(str(allowed / "job.lltrace")) == [str(allowed / "job.lltrace")]
    for path in (other / "job.lltrace", allowed / "link.lltrace", allowed / ".." / "private" / "job.lltrace"):
        with pytest.raises(trace_paths.PathRefused, match="outside the folders this server reads traces from") as e:
            follow.Follower(str(path))
        assert e.value.reason == "outside"
    monkeypatch.delenv(trace_paths.DIRS_ENV)
    assert follow.Follower(str(other / "job.lltrace")).path  # unset: any folder, as before
