"""Reading job traces back: one file, a folder of rank files, or a glob, as one table; and one loader of it.

Twin of nothing in torch. A job trace (a columnar ``.lltrace`` file, :mod:`loaderlab.trace.files.columnar`) has a ``loader`` column (which of the script's
DataLoaders each event belongs to) and its metadata (``job``, ``loaders``) in ``frame.attrs``. Several rank
files become one multi-rank trace with a ``rank`` column (:func:`loaderlab.trace.ranks.launch.merge_rank_frames`),
ordered by the rank each file names. :func:`select_loader` keeps one loader's events and gives the frame the
``loader``/``sampler`` attrs the single-loader analyses read. Files written by ``record`` load through
:mod:`loaderlab.trace.files.io` as before. Every problem is a :class:`~loaderlab.trace.files.io.TraceFileError` with one
sentence. Knows pandas; nothing of plotly or streamlit.
"""

from __future__ import annotations

import glob
import os
from typing import Any

import pandas as pd

from ..trace.files.columnar_read import is_columnar, read_columnar, TraceFileError
from ..trace.files.io import load_trace
from ..trace.files.suffix import COLUMNAR_SUFFIX as EXTENSION
from ..trace.core.frame import EVENT_COLUMNS, time_sorted

LOADER = "loader"  # the column naming each event's DataLoader


def files(path: str) -> list[str]:
    if os.path.isdir(path):
        found = sorted(glob.glob(os.path.join(path, f"*{EXTENSION}"))) or sorted(glob.glob(os.path.join(path, "*.json")))
        if not found:
            raise TraceFileError(f"{path} is a folder, not a trace file, and holds no traces (*{EXTENSION} or *.json) "
                                 f"of a torchrun job; give a trace file, or the folder `python -m loaderlab run -o` "
                                 f"wrote under torchrun.")
        return found
    if any(c in path for c in "*?["):
        found = sorted(glob.glob(path))
        if not found:
            raise TraceFileError(f"no file matches {path}; check the pattern (relative paths start in {os.getcwd()}).")
        return found
    return [path]


def load_one(path: str, *, compact: bool = False) -> pd.DataFrame:
    """One trace file; ``compact``: a ``.lltrace`` file as the compact table (``load_trace(..., compact=True)``:
    the same analysis, a third of the memory; a JSON trace loads as it is)."""
    try:
        with open(path, "rb") as f:
            head = f.read(64)
    except OSError:
        return load_trace(path)  # its own sentence for a missing or unreadable file
    if not is_columnar(head):
        return load_trace(path)
    try:
        frame, meta = read_columnar(path, compact=compact)
    except OSError as exc:
        raise TraceFileError(f"{path} cannot be read ({exc.strerror or exc}); check its permissions.") from None
    return _as_read(frame, meta, path)


def _as_read(frame: pd.DataFrame, meta: dict[str, Any], path: str) -> pd.DataFrame:
    if "job" not in meta:  # a columnar trace written by record or save_trace
        return _with_meta(frame, meta, path)
    return job_frame(frame, meta)


def survey_for_cut(path: str, loader: str | None) -> tuple[Any, str | None] | None:
    """For an export with a cut of one ``.lltrace`` file: (the file's survey, the loader whose rows are
    exported: ``loader``, or the file's only one; None for a trace of no loaders), so that the cut can be
    checked against that loader's :class:`~loaderlab.trace.files.cut_read.Part` and read by :func:`load_cut`
    without the whole table in memory. None where that cannot be done: a JSON trace, a folder or glob, a name
    that is not one of the file's loaders, several loaders and no ``loader`` — the caller loads the whole
    table, whose checks say what is wrong."""
    from ..trace.files.cut_read import survey

    try:
        # a JSON trace is not columnar: the survey's head check refuses it (TraceFileError)
        found = survey(path) if len(files(path)) == 1 else None
    except (OSError, TraceFileError):
        return None
    if found is None:
        return None
    if None in found.parts:  # not a job trace: no loaders to pick from
        return (found, None) if loader is None else None
    named = found.meta.get("loaders") or {}
    names = list(named) + [n for n in found.names if n not in named]
    if loader is None and len(names) == 1:
        loader = names[0]
    return (found, loader) if loader in found.parts else None


def load_cut(path: str, found: Any, loader: str | None, cuts: dict) -> pd.DataFrame:
    """The table of only the rows an export's ``cuts`` (``start_s``, ``end_s``, ``epoch``) keeps, as
    :func:`load_one` then :func:`select_loader` give the whole table (see :func:`survey_for_cut`)."""
    from ..trace.files.cut_read import read_cut

    try:
        frame, meta = read_cut(path, found, loader, **cuts)
    except OSError as exc:
        raise TraceFileError(f"{path} cannot be read ({exc.strerror or exc}); check its permissions.") from None
    frame = _as_read(frame, meta, path)
    return select_loader(frame, loader) if loader is not None else frame


def _with_meta(frame: pd.DataFrame, meta: dict[str, Any], path: str) -> pd.DataFrame:
    """What ``load_trace`` makes of the table and meta it read (its checks included), without reading again."""
    from ..trace.files.io import columnar_frame

    return columnar_frame(frame, meta, path)


def job_frame(frame: pd.DataFrame, meta: dict[str, Any]) -> pd.DataFrame:
    """A job trace's table as written and its meta → the frame readers take (also what a live view
    reads so far, :mod:`.follow`)."""
    if frame.empty:
        frame = pd.DataFrame({c: pd.Series(dtype="int64" if c not in ("kind", "queue", "detail", "label", LOADER)
                                           else object) for c in (*EVENT_COLUMNS[:-1], LOADER)})
    frame = normalize(frame)
    frame.attrs.update(meta)
    frame.attrs["epochs"] = max((e.get("epochs") or 0 for e in (meta.get("loaders") or {}).values()), default=None)
    _first_loader_attrs(frame)
    return frame


def normalize(frame: pd.DataFrame) -> pd.DataFrame:
    """A job trace as written (chunks in flush order) → sorted by ``t_ns``, ``t_s`` from its first event,
    the event columns first; ``attrs`` kept."""
    attrs = dict(frame.attrs)
    frame = time_sorted(frame)
    start = int(frame["t_ns"].iloc[0]) if len(frame) else 0
    frame["t_s"] = (frame["t_ns"] - start) / 1e9
    columns = [c for c in EVENT_COLUMNS if c in frame.columns] + [c for c in frame.columns if c not in EVENT_COLUMNS]
    frame = frame[columns]
    frame.attrs = attrs
    return frame


def _loader_attrs(attrs: dict[str, Any], entry: dict[str, Any]) -> None:
    """One loader's own attrs from its entry in the job's ``loaders``: its settings, sampler, label sources,
    measured bandwidth, the loop's torch threads and its ``run --tune`` record (each only where it has one)."""
    attrs["loader"] = entry.get("settings")
    attrs["sampler"] = entry.get("sampler") or {}
    for key in ("label_sources", "bandwidth", "torch_threads", "tuning"):
        attrs.pop(key, None)  # another loader's (the first's, or the job's): this one says its own, or nothing
        if entry.get(key) is not None and entry.get(key) != {}:
            attrs[key] = entry[key]


def _first_loader_attrs(frame: pd.DataFrame) -> None:
    """The first loader's own attrs (:func:`_loader_attrs`), for readers that know one loader per trace: the
    dashboard's page for a job of one DataLoader showed no ``run --tune`` table and no thread count (its
    findings then named the loop's threads as unknown where the report named two)."""
    loaders = frame.attrs.get("loaders") or {}
    if loaders:
        _loader_attrs(frame.attrs, next(iter(loaders.values())))


def load_any(path: str, *, compact: bool = False) -> pd.DataFrame:
    """A trace file of any kind LoaderLab writes, a folder of rank files, or a glob of them. ``compact``: one
    ``.lltrace`` file is read as the compact table (:func:`load_one`); rank files are merged from exact tables."""
    paths = files(os.fspath(path))
    frames = [load_one(p, compact=compact and len(paths) == 1) for p in paths]
    if len(frames) == 1:
        return frames[0]
    return merge(frames, paths)


def merge(frames: list[pd.DataFrame], paths: list[str]) -> pd.DataFrame:
    """Rank traces → one multi-rank trace, in the order of the rank each file names (else the given order)."""
    from ..trace.ranks.launch import merge_rank_frames

    ranks = [(f.attrs.get("job") or {}).get("rank") for f in frames]
    if all(isinstance(r, int) for r in ranks):
        if len(set(ranks)) != len(ranks):
            raise TraceFileError(f"two of {', '.join(paths)} are traces of the same rank; give each rank's file once.")
        order = sorted(range(len(frames)), key=lambda i: ranks[i])
        frames = [frames[i] for i in order]
    parts = [f.drop(columns=["rank"]) if "rank" in f.columns else f for f in frames]
    merged = merge_rank_frames(parts)
    merged.attrs["loaders"] = frames[0].attrs.get("loaders") or {}
    merged.attrs["rank_loaders"] = [f.attrs.get("loaders") or {} for f in frames]
    merged.attrs["job"] = frames[0].attrs.get("job")
    merged.attrs["samplers"] = [f.attrs.get("sampler") or {} for f in frames]
    return merged


def loader_names(frame: pd.DataFrame) -> list[str]:
    if LOADER not in frame.columns:
        return []
    names = list((frame.attrs.get("loaders") or {}).keys())
    return names + [n for n in dict.fromkeys(frame[LOADER].tolist()) if n not in names]


def select_loader(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """One loader's events, its settings in ``attrs["loader"]`` (and each rank's sampler in ``samplers``)."""
    names = loader_names(frame)
    if name not in names:
        have = ", ".join(names) if names else "none (it was not written by `python -m loaderlab run`)"
        raise TraceFileError(f"the trace has no loader named {name!r}; its loaders: {have}.")
    part = frame[frame[LOADER] == name].reset_index(drop=True)
    start = int(part["t_ns"].iloc[0]) if len(part) else 0
    part["t_s"] = (part["t_ns"] - start) / 1e9
    attrs = dict(frame.attrs)
    entry = (attrs.get("loaders") or {}).get(name) or {}
    _loader_attrs(attrs, entry)
    attrs["epochs"] = entry.get("epochs")
    if "rank_loaders" in attrs:
        attrs["samplers"] = [(r.get(name) or {}).get("sampler") or {} for r in attrs["rank_loaders"]]
    attrs["selected_loader"] = name
    part.attrs = attrs
    return part
