"""One recorded run as a typed value: its events, the loader's settings, its epochs, torch's warnings, and why
it stopped early (if it did).

Twin of nothing in torch, whose DataLoader returns batches and keeps no record. The layers hand a
:class:`Run` to each other: :mod:`loaderlab.trace.recording.session` and :func:`loaderlab.scenarios.run.run` make it; analysis,
findings, report, replay and the pages read its fields. Stop reasons are named types (:class:`TimeCapped`,
:class:`UserStopped`, :class:`UnsentBatch`, …), so a page dispatches on the type, never on English text.

The one place metadata is written as plain JSON-able values is the trace file (and the public
:func:`loaderlab.record`, which returns a bare events frame): :func:`metadata` / :func:`from_metadata` turn a
run's fields into that dict and back, and :func:`to_frame` / :func:`as_run` carry it in ``frame.attrs``
(``loader``, ``epochs``, ``warnings``, ``stopped``, ``config``, any other key kept in ``extra``). No other
module reads ``frame.attrs``. Knows pandas; nothing of the engine's processes, plotly or streamlit.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Mapping

import pandas as pd

# The user's Stop button was recorded as StopAsked("stopped by you") in files written before UserStopped.
_OLD_USER_STOP = "stopped by you"


@dataclass(frozen=True)
class StuckWorker:
    """A worker inside a fetch (or collate) when its run was stopped: where, since when, and its stack."""

    worker: int
    pid: int | None
    index: int | None  # the dataset index it was fetching (None: stuck in collate)
    batch: int
    since_s: float  # seconds inside that fetch when the run stopped
    last_event: str
    last_index: int
    last_ago_s: float
    stack: str = ""


@dataclass(frozen=True, kw_only=True)
class Stop:
    """Why a run ended before its loader did; ``stuck``: its workers stuck inside a fetch then."""

    stuck: tuple[StuckWorker, ...] = ()

    @property
    def text(self) -> str:
        """One English sentence, for the command line and logs (pages word each type themselves)."""
        return "stopped"


@dataclass(frozen=True, kw_only=True)
class TimeCapped(Stop):
    """The run reached the server's wall-time cap (``LOADERLAB_MAX_RUN_SECONDS``)."""

    seconds: float

    @property
    def text(self) -> str:
        return f"stopped after {self.seconds:g} s (LOADERLAB_MAX_RUN_SECONDS)"


@dataclass(frozen=True, kw_only=True)
class UserStopped(Stop):
    """The person watching the run pressed Stop. Also the reason a page gives the run's guard."""

    @property
    def text(self) -> str:
        return "stopped by you"


@dataclass(frozen=True, kw_only=True)
class StopRequested(Stop):
    """Other code asked the run to stop (a server shutting down, a test ending); ``why`` says who."""

    why: str

    @property
    def text(self) -> str:
        return f"stopped: {self.why}"


@dataclass(frozen=True, kw_only=True)
class Unwatched(Stop):
    """No page waited for the run any more (its tab closed, its settings changed) for ``seconds``."""

    seconds: float

    @property
    def text(self) -> str:
        return f"stopped: no page watched it for {self.seconds:g} s"


@dataclass(frozen=True, kw_only=True)
class UnsentBatch(Stop):
    """A worker could not pickle batch ``task`` to send it (torch would wait for it forever)."""

    worker: int
    task: int
    message: str  # the pickler's own error

    @property
    def text(self) -> str:
        return f"stopped: worker {self.worker} could not send batch {self.task}: {self.message}"


@dataclass(frozen=True, kw_only=True)
class OtherStop(Stop):
    """A stop reason this version does not name (a newer file's, say): its type's name and its sentence."""

    reason: str
    sentence: str = ""

    @property
    def text(self) -> str:
        return self.sentence or f"stopped: {self.reason}"


def stop_of(reason: Any, stuck: tuple[StuckWorker, ...] = ()) -> Stop:
    """The run's :class:`Stop` for a guard's ``reason`` (:mod:`loaderlab.engine.interrupt`'s, or a Stop)."""
    from ...engine import interrupt  # the engine names its guard's reasons; this layer names the run's

    stuck = tuple(stuck)
    if isinstance(reason, Stop):
        return replace(reason, stuck=stuck)
    if isinstance(reason, interrupt.TimeCap):
        return TimeCapped(seconds=reason.seconds, stuck=stuck)
    if isinstance(reason, interrupt.StopAsked):
        return StopRequested(why=reason.why, stuck=stuck)
    if isinstance(reason, interrupt.Abandoned):
        return Unwatched(seconds=reason.seconds, stuck=stuck)
    if isinstance(reason, interrupt.UnsentResult):
        return UnsentBatch(worker=reason.worker, task=reason.task, message=reason.message, stuck=stuck)
    return OtherStop(reason=type(reason).__name__, sentence=f"stopped: {reason}", stuck=stuck)


@dataclass(frozen=True, eq=False)
class Run:
    """One recorded run. ``events``: the events table (:mod:`loaderlab.trace.core.frame`); ``loader``: the loader's settings
    (:func:`loaderlab.trace.core.settings.loader_settings`: ``num_workers``, ``prefetch_factor``, …); ``epochs`` as asked;
    ``warnings``: torch's warnings during the run (text, once each, in order); ``stop``: why it ended early
    (None: it did not); ``config``: the dashboard's settings that made it (None outside the dashboard);
    ``extra``: anything else its maker attached (``world_size`` and ``samplers`` of a multi-rank run,
    ``replay_model`` of a replay)."""

    events: pd.DataFrame
    loader: Mapping[str, Any] = field(default_factory=dict)
    epochs: int | None = None
    warnings: tuple[str, ...] = ()
    stop: Stop | None = None
    config: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)

    def with_events(self, events: pd.DataFrame) -> Run:
        """The same run's metadata over another table (a part of it, a merge of ranks)."""
        return replace(self, events=events)


# --- the boundary: plain JSON-able metadata (a trace file, frame.attrs) -------------------------------

_NAMED = {"time_cap": TimeCapped, "user": UserStopped, "asked": StopRequested, "unwatched": Unwatched,
          "unsent": UnsentBatch}


def stop_metadata(stop: Stop) -> dict[str, Any]:
    """``stop`` as the JSON-able dict a trace file keeps under ``stopped``: ``reason``, the type's own
    fields, ``text`` and ``stuck`` (one dict per :class:`StuckWorker`)."""
    name = next((k for k, v in _NAMED.items() if type(stop) is v), None)
    out: dict[str, Any] = {"reason": name or getattr(stop, "reason", type(stop).__name__)}
    out.update({f.name: getattr(stop, f.name) for f in fields(stop) if f.name not in ("stuck", "reason", "sentence")})
    out["text"] = stop.text
    out["stuck"] = [asdict(s) for s in stop.stuck]
    return out


def stop_from_metadata(data: Mapping[str, Any]) -> Stop:
    """The :class:`Stop` a ``stopped`` dict describes (the inverse of :func:`stop_metadata`; files written
    before the stop had types hold ``reason`` ``time_cap`` or ``asked`` and a ``text``)."""
    stuck = tuple(StuckWorker(**{f.name: s[f.name] for f in fields(StuckWorker) if f.name in s})
                  for s in data.get("stuck") or ())
    reason = data.get("reason")
    if reason == "asked" and data.get("why") == _OLD_USER_STOP:
        return UserStopped(stuck=stuck)
    kind = _NAMED.get(reason)
    if kind is None:
        return OtherStop(reason=str(reason), sentence=str(data.get("text", "")), stuck=stuck)
    own = {f.name: data[f.name] for f in fields(kind) if f.name != "stuck" and f.name in data}
    try:
        return kind(stuck=stuck, **own)
    except TypeError:  # a field missing in a damaged or foreign file: keep its sentence
        return OtherStop(reason=str(reason), sentence=str(data.get("text", "")), stuck=stuck)


def metadata(run: Run) -> dict[str, Any]:
    """A run's fields as one JSON-able dict (what a trace file and ``frame.attrs`` hold): ``loader``,
    ``epochs``, and when set ``warnings``, ``stopped``, ``config``, then ``extra``'s keys."""
    out: dict[str, Any] = dict(run.extra)
    out["loader"] = dict(run.loader) if run.loader else None
    out["epochs"] = run.epochs
    if run.warnings:
        out["warnings"] = list(run.warnings)
    if run.stop is not None:
        out["stopped"] = stop_metadata(run.stop)
    if run.config is not None:
        out["config"] = dict(run.config)
    return {k: v for k, v in out.items() if v is not None}


def from_metadata(events: pd.DataFrame, meta: Mapping[str, Any] | None) -> Run:
    """The :class:`Run` for ``events`` and the metadata dict :func:`metadata` made (or an older file's)."""
    meta = dict(meta or {})
    stopped = meta.pop("stopped", None)
    return Run(events=events, loader=dict(meta.pop("loader", None) or {}), epochs=meta.pop("epochs", None),
               warnings=tuple(meta.pop("warnings", None) or ()),
               stop=stop_from_metadata(stopped) if stopped else None, config=meta.pop("config", None),
               extra=meta)


def to_frame(run: Run) -> pd.DataFrame:
    """The events table carrying the run's :func:`metadata` in ``attrs`` (what :func:`loaderlab.record`
    returns and the trace file functions take)."""
    frame = run.events.copy(deep=False)
    frame.attrs = metadata(run)
    return frame


def as_run(trace: Run | pd.DataFrame) -> Run:
    """``trace`` itself if it is a :class:`Run`; a bare events table's run, read from its ``attrs``
    (as :func:`to_frame` wrote them; none: no settings known)."""
    if isinstance(trace, Run):
        return trace
    events = trace.copy(deep=False)  # the run's table carries no attrs (pandas copies them on every operation)
    events.attrs = {}
    return from_metadata(events, trace.attrs)


def frame_of(trace: Run | pd.DataFrame) -> pd.DataFrame:
    """A bare events table with the run's metadata in ``attrs`` (:func:`to_frame`), or ``trace`` itself."""
    return to_frame(trace) if isinstance(trace, Run) else trace


def events_of(trace: Run | pd.DataFrame) -> pd.DataFrame:
    """The events table of a :class:`Run`, or ``trace`` itself."""
    return trace.events if isinstance(trace, Run) else trace
