"""The range of every numeric sidebar control under the server's caps, and how values from a link fit them.

One table serves both the widgets (their ``min_value``/``max_value``) and the "change it yourself" links, so
a link can never put a value into session state that a widget then refuses (Streamlit would show its own
``StreamlitValueAboveMaxError`` instead of the page). A link value above a control's most is clamped to it;
one below its least, one that does not parse, an unknown choice or an unknown key is left out. Each such
case is a :class:`LinkNote` the page words in its language. Pure: knows the caps (:mod:`..scenarios.limits`)
and RunConfig's fields, nothing of streamlit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from ..scenarios.datasets import FAULTS
from ..scenarios.limits import Limits
from ..scenarios.run import BATCH_SAMPLERS, COLLATES, KINDS, NOT_CONTROLS, SAMPLERS, SOURCES, RunConfig

SYNTHETIC_MOST = 5000  # the synthetic dataset's slider ends here even when LOADERLAB_MAX_SAMPLES allows more
CHOICES: dict[str, tuple[str, ...]] = {"source": SOURCES, "kind": KINDS, "sampler": SAMPLERS,
                                       "batch_sampler": BATCH_SAMPLERS, "collate": COLLATES, "fault": FAULTS}
APP_KEYS = ("lang", "lesson", "room", "embed", "embed_options")  # query keys that are not settings
CAP_VARIABLES = {"num_workers": "LOADERLAB_MAX_WORKERS", "slow_worker": "LOADERLAB_MAX_WORKERS",
                 "n_samples": "LOADERLAB_MAX_SAMPLES"}
_TYPES = {f.name: type(getattr(RunConfig(), f.name)) for f in fields(RunConfig)
          if not f.name.startswith("uploaded_") and f.name not in NOT_CONTROLS}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def ranges(caps: Limits) -> dict[str, tuple[Any, Any]]:
    """(least, most) of every numeric RunConfig field the sidebar draws, under ``caps``."""
    samples = max(1, min(caps.max_samples, SYNTHETIC_MOST))
    return {
        "batch_size": (1, 64), "num_workers": (0, caps.max_workers), "prefetch_factor": (1, 8),
        "timeout": (0.0, 600.0), "seed": (0, 2**31 - 1),
        "n_samples": (min(8, samples), samples), "imbalance": (0.5, 0.99), "length": (1, 64),
        "length_spread": (0, 32), "cost_ms": (0.0, 20.0), "straggler_index": (-1, 10**6),
        "straggler_ms": (0.0, 1000.0), "slow_worker": (-1, max(-1, caps.max_workers - 1)),
        "slow_factor": (1.0, 10.0), "consumer_ms": (0.0, 50.0), "epochs": (1, 3), "fault_index": (0, 10**6),
    }


@dataclass(frozen=True)
class LinkNote:
    """What became of one setting of a link. ``what``: ``clamped`` (``value`` is what the link asked,
    ``used`` what the sidebar took), ``ignored`` (``allowed`` says what would do) or ``unknown`` (no such
    setting; ``allowed`` lists the settings a link may carry)."""

    what: str
    key: str
    value: str
    allowed: str = ""
    used: str = ""


def _show(value: Any) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def allowed_text(key: str, caps: Limits) -> str:
    """The values ``key`` accepts, as code: ``true, false`` / ``0 … 2`` / ``default, weighted``."""
    if key in CHOICES:
        return ", ".join(CHOICES[key])
    if _TYPES[key] is bool:
        return "true, false"
    bounds = ranges(caps)
    if key not in bounds:  # a field no sidebar control draws: only its type is known
        return {int: "int", float: "float"}.get(_TYPES[key], "str")
    least, most = bounds[key]
    return f"{_show(least)} … {_show(most)}"


def _parse(kind: type, text: str) -> Any:
    if kind is bool:
        if text.lower() in _TRUE + _FALSE:
            return text.lower() in _TRUE
        raise ValueError(text)
    if kind is int:
        return int(text)
    if kind is float:
        value = float(text)
        if not math.isfinite(value):
            raise ValueError(text)
        return value
    return text


def fit_link(query: Mapping[str, str], caps: Limits) -> tuple[dict[str, Any], list[LinkNote]]:
    """The settings ``query`` carries, typed and fitted to the controls' ranges under ``caps``, and a note for
    every value that was clamped or left out (keys in ``APP_KEYS`` are the app's own and pass silently)."""
    bounds = ranges(caps)
    found: dict[str, Any] = {}
    notes: list[LinkNote] = []
    for key, text in query.items():
        text = str(text)
        if key in APP_KEYS:
            continue
        if key not in _TYPES:
            notes.append(LinkNote("unknown", key, text, ", ".join(sorted(_TYPES))))
            continue
        try:
            value = _parse(_TYPES[key], text.strip())
        except ValueError:
            notes.append(LinkNote("ignored", key, text, allowed_text(key, caps)))
            continue
        if key in CHOICES and value not in CHOICES[key]:
            notes.append(LinkNote("ignored", key, text, allowed_text(key, caps)))
            continue
        if key in bounds:
            least, most = bounds[key]
            if value < least:
                notes.append(LinkNote("ignored", key, text, allowed_text(key, caps)))
                continue
            if value > most:
                notes.append(LinkNote("clamped", key, text, allowed_text(key, caps), _show(most)))
                value = most
        found[key] = value
    return found, notes


def clamp(values: Mapping[str, Any], caps: Limits) -> dict[str, Any]:
    """``values`` with every numeric control's value moved into its range (defaults and presets under caps)."""
    bounds = ranges(caps)
    out = dict(values)
    for key, value in values.items():
        if key in bounds and isinstance(value, (int, float)) and not isinstance(value, bool):
            least, most = bounds[key]
            out[key] = type(value)(min(max(value, least), most))
    return out
