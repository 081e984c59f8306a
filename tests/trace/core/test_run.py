"""The run value: named stop types, and its metadata as plain JSON (a trace file, a bare frame's attrs) and back.

Hand-made runs: what is checked is the mapping, which a small table shows as well as a recorded one.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from loaderlab.engine.interrupt import Abandoned, StopAsked, TimeCap, UnsentResult
from loaderlab.trace.core.run import (from_metadata, OtherStop, stop_from_metadata, stop_metadata,
                                      StopRequested, UnsentBatch, Unwatched)
from loaderlab.trace.core.run import as_run, metadata, Run, stop_of, StuckWorker, TimeCapped, to_frame, UserStopped

STUCK = StuckWorker(worker=1, pid=4242, index=37, batch=2, since_s=1.25, last_event="fetch_begin", last_index=37,
                    last_ago_s=1.2, stack='File "x.py", line 3, in __getitem__')
EVENTS = pd.DataFrame({"kind": ["epoch_begin", "epoch_end"], "t_ns": [10, 20]})


@pytest.mark.parametrize("reason, expected", [
    (TimeCap(30.0), TimeCapped(seconds=30.0, stuck=(STUCK,))),
    (StopAsked("server shutting down"), StopRequested(why="server shutting down", stuck=(STUCK,))),
    (Abandoned(1.5), Unwatched(seconds=1.5, stuck=(STUCK,))),
    (UnsentResult(1, 2, "RuntimeError: no"), UnsentBatch(worker=1, task=2, message="RuntimeError: no", stuck=(STUCK,))),
    (UserStopped(), UserStopped(stuck=(STUCK,))),
])
def test_each_guard_reason_becomes_its_named_stop(reason, expected):
    assert stop_of(reason, (STUCK,)) == expected


@pytest.mark.parametrize("stop", [TimeCapped(seconds=1.5, stuck=(STUCK,)), UserStopped(), StopRequested(why="test"),
                                  Unwatched(seconds=2.0), UnsentBatch(worker=0, task=3, message="E: x"),
                                  OtherStop(reason="Later", sentence="stopped: later")])
def test_a_stop_survives_json_with_its_type(stop):
    back = stop_from_metadata(json.loads(json.dumps(stop_metadata(stop))))
    assert back == stop and type(back) is type(stop)


def test_files_written_before_the_types_read_as_the_named_stops():
    old_cap = {"reason": "time_cap", "seconds": 30, "text": "stopped after 30 s (LOADERLAB_MAX_RUN_SECONDS)",
               "stuck": [{**STUCK.__dict__}]}
    assert stop_from_metadata(old_cap) == TimeCapped(seconds=30, stuck=(STUCK,))
    old_user = {"reason": "asked", "why": "stopped by you", "text": "stopped: stopped by you", "stuck": []}
    assert stop_from_metadata(old_user) == UserStopped()
    odd = stop_from_metadata({"reason": "Mystery", "text": "stopped: who knows"})
    assert isinstance(odd, OtherStop) and odd.text == "stopped: who knows"


def test_a_runs_metadata_round_trips_and_a_bare_frame_carries_it():
    run = Run(EVENTS, loader={"num_workers": 2, "prefetch_factor": 2}, epochs=3, warnings=("careful",),
              stop=TimeCapped(seconds=1.0), config={"seed": 7}, extra={"world_size": 2})
    back = from_metadata(EVENTS, json.loads(json.dumps(metadata(run))))
    assert (back.loader, back.epochs, back.warnings, back.stop, back.config, back.extra) == (
        run.loader, run.epochs, run.warnings, run.stop, run.config, run.extra)
    frame = to_frame(run)
    assert frame.attrs["loader"] == {"num_workers": 2, "prefetch_factor": 2} and not run.events.attrs
    again = as_run(frame)
    assert again.stop == run.stop and again.extra == {"world_size": 2}
    assert not again.events.attrs  # the run's table carries no attrs: pandas would copy them on every operation
    assert as_run(run) is run


def test_a_frame_without_metadata_is_a_run_with_nothing_known():
    run = as_run(EVENTS)
    assert (dict(run.loader), run.epochs, run.warnings, run.stop, run.config) == ({}, None, (), None, None)
