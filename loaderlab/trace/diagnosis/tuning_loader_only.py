"""What ``run --tune`` measured on the loader alone for the settings that change the batches (batch_size,
in_order=False): each variant's samples per second with a stand-in for the user's step, and the measured best,
labelled "measured without your step" (issue 33, item 3).

Twin of nothing in torch. Reads a tuning record's ``loader_only`` part (written by
:mod:`loaderlab.jobs.loader_only`): ``{"stand_in": {"cpu_per_sample_s", "idle_per_sample_s"}, "variants":
[{"change": {...}, "slices": [SLICE...]}]}`` (``"unaffordable": true`` where the budget left could not measure
them, none ran), the job's own batch_size first, chosen by the same
:func:`.tuning.tuning_choice` as the settings tried inside the job. Knows nothing of torch, plotly or streamlit.
"""

from __future__ import annotations

from statistics import median
from typing import Any

from ...texts import text
from .tuning import change_of, change_text, rates, tuning_choice


def _as_record(loader_only: dict[str, Any]) -> dict[str, Any]:
    """The loader-only variants in the shape :func:`tuning_choice` reads (the job's own batch_size first)."""
    return {"candidates": [{"setting": v["change"], "slices": v["slices"]} for v in loader_only["variants"]]}


def _variant_text(change: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in change.items())


def loader_only_lines(loader_only: dict[str, Any] | None, lang: str = "en") -> list[str]:
    """The settings that change the batches, measured on the loader alone with a stand-in for the step."""
    if not loader_only:
        return []
    rec = _as_record(loader_only)
    if not any(rates(c) for c in rec["candidates"]):  # one line, not a row each saying the same
        return [text("tuning.loader_only.none", lang,
                     variants="; ".join(_variant_text(c["setting"]) for c in rec["candidates"]))]
    stand = loader_only["stand_in"]
    lines = [text("tuning.loader_only.title", lang, cpu_ms=stand["cpu_per_sample_s"] * 1e3,
                  idle_ms=stand["idle_per_sample_s"] * 1e3)]
    choice = tuning_choice(rec)
    own = rates(rec["candidates"][0])
    for i, c in enumerate(rec["candidates"]):
        r = rates(c)
        mark = text("tuning.mark." + ("own" if i == 0 else "best" if i == choice.best and not choice.keep
                                      else "other"), lang)
        if not r:
            lines.append(text("tuning.row_unmeasured", lang, mark=mark, setting=_variant_text(c["setting"]),
                              why=text("tuning.why.budget", lang)))
            continue
        vs = "" if i == 0 or not own else text("tuning.vs_own", lang, ratio=median(r) / median(own))
        lines.append(text("tuning.row", lang, mark=mark, setting=_variant_text(c["setting"]),
                          median=f"{median(r):,.0f}", low=f"{min(r):,.0f}", high=f"{max(r):,.0f}", rounds=len(r),
                          vs=vs, startup=""))
    if choice.speedup is not None and not choice.keep:
        best = rec["candidates"][choice.best]
        lines.append(text("tuning.loader_only.suggest", lang,
                          change=change_text(best["setting"], rec["candidates"][0]["setting"]),
                          speedup=choice.speedup, wins=choice.wins, paired=choice.paired))
    return lines


def loader_only_suggestions(record: dict[str, Any]) -> list[dict[str, Any]]:
    """``report --json``'s suggestions from the loader-only trials: measured, but without the user's step."""
    loader_only = record.get("loader_only")
    if not loader_only:
        return []
    rec = _as_record(loader_only)
    choice = tuning_choice(rec)
    if choice.keep:
        return []
    best = rec["candidates"][choice.best]
    return [{"change": change_of(best["setting"], rec["candidates"][0]["setting"]),
             "change_text": change_text(best["setting"], rec["candidates"][0]["setting"]),
             "speedup": round(choice.speedup, 3), "measured": True, "without_your_step": True,
             "rounds": len(rates(best)), "wins": choice.wins, "paired": choice.paired}]
