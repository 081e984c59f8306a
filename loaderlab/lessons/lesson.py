"""What a lesson is: its settings, its question's choice ids, how it runs, and how its answer is read.

A ``Lesson`` is data plus pure functions. ``answer(result) -> (choice_id, params)`` reads the recorded run
(a DataFrame from :func:`loaderlab.scenarios.run.run`, or an :class:`Outcome` from a lesson's own run)
and says which choice the run proves right, with the numbers the explanation quotes. Words live in the
UI (``loaderlab/ui/texts/lessons_*.py``, keys ``lessons.<slug>.…``). Knows nothing of plotly or streamlit.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

import pandas as pd

from ..scenarios.run import RunConfig, build_loader, run
from ..trace.core.run import as_run, Run

# Cheap settings every RunConfig lesson starts from: a run of well under a second on 2 cores.
BASE: dict[str, Any] = {"n_samples": 24, "batch_size": 4, "cost_ms": 1.0, "consumer_ms": 1.0, "num_workers": 2}

FIGURES = ("timeline", "depths", "labels", "padding", "none")


@dataclass(frozen=True)
class Outcome:
    """A lesson run that may end in torch's error: the trace up to there (None if the loader was rejected
    before it started), torch's message (empty if none), and any table the lesson built on the side."""

    frame: Run | None  # the run (named ``frame`` for the lessons' answer functions, which read it as a trace)
    error: str = ""
    table: pd.DataFrame | None = None


@dataclass(frozen=True)
class Lesson:
    number: int
    slug: str  # text keys: lessons.<slug>.title / .explain / .question / .choice.<id> / .why.<id>
    choices: tuple[str, ...]
    settings: Mapping[str, Any]  # RunConfig fields (``config_run``) or the keywords of ``runner``
    answer: Callable[[Any], tuple[str, dict]]
    page: str  # the page (file stem in pages/) that "change it yourself" opens
    figure: str = "timeline"  # one of FIGURES: what the page draws from the trace
    table: Callable[[Any], pd.DataFrame] | None = None  # a small table from the result (pure)
    runner: Callable[..., Any] | None = None  # None: scenarios.run(RunConfig(**settings))
    config_run: bool = True  # settings are RunConfig fields (code and links come from RunConfig)
    link: Mapping[str, Any] | None = None  # RunConfig values for the link; None: the lesson's settings
    code: Callable[[Mapping[str, Any]], str] | None = None  # None: the UI's torch_code(RunConfig(**settings))
    prompt: Callable[[Mapping[str, Any]], dict] | None = None  # question placeholders; None: the settings

    def __post_init__(self) -> None:
        if self.figure not in FIGURES:
            raise ValueError(f"figure must be one of {', '.join(FIGURES)}; got {self.figure!r}")

    def config(self, **changes: Any) -> RunConfig:
        if not self.config_run:
            raise TypeError(f"lesson {self.number} does not run a RunConfig")
        return replace(RunConfig(), **{**self.settings, **changes})

    def link_settings(self) -> dict[str, Any]:
        return dict(self.settings if self.link is None else self.link)

    def prompt_params(self, **changes: Any) -> dict:
        """Placeholders of the question and choices: the settings (RunConfig defaults filled in) and more."""
        defaults = {f.name: getattr(RunConfig(), f.name) for f in fields(RunConfig)} if self.config_run else {}
        settings = {**defaults, **self.settings, **changes}
        return {**settings, **(self.prompt(settings) if self.prompt else {})}

    def execute(self, **changes: Any):
        """Run the lesson (with ``changes`` to its settings) and return what ``answer`` reads."""
        settings = {**self.settings, **changes}
        if self.runner is not None:
            return self.runner(**settings)
        return run(replace(RunConfig(), **settings))


def try_run(**fields: Any) -> Outcome:
    """``scenarios.run`` for settings torch may reject (before any worker starts) or a run that fails
    (a collate that cannot stack): the error is the lesson, so it is kept, not raised."""
    config = replace(RunConfig(), **fields)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            build_loader(config)
    except (ValueError, TypeError) as exc:
        return Outcome(None, str(exc))
    try:
        return Outcome(run(config))
    except Exception as exc:  # noqa: BLE001 -- the loader failed: keep torch's message
        # (its last line: a worker's traceback comes before it)
        lines = str(exc).strip().splitlines()
        return Outcome(None, lines[-1] if lines else repr(exc))


def frame_of(result) -> Run | None:
    """The lesson's run (an :class:`Outcome`'s, or the dashboard's run itself); None if it failed."""
    run = result.frame if isinstance(result, Outcome) else result
    return None if run is None else as_run(run)  # a lesson's own record() gives a bare table: its attrs


def loader_settings(run: Run | pd.DataFrame) -> dict:
    return dict(as_run(run).loader)


def config_of(run: Run | pd.DataFrame) -> dict:
    return dict(as_run(run).config or {})
