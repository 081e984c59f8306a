"""What the report says of a ``run --tune`` record: its lines (text report, Your trace page), ``report --json``'s
``tuning`` and its measured suggestions, the loader-only trials' beside the job's own.

Twin of nothing in torch. Reads the record described in :mod:`.tuning`, through its one choice
(:func:`.tuning.tuning_choice`), so the report says what the tuner adopted. Knows nothing of torch, plotly or
streamlit.
"""

from __future__ import annotations

import math
from statistics import median
from typing import Any

from ...texts import text
from .tuning import (change_of, change_text, MIN_ROUNDS, MIN_SPEEDUP, rates, setting_text, STALL_X, stall_tail,
                     tuning_choice, tuning_table)
from .tuning_loader_only import loader_only_lines, loader_only_suggestions


def larger_budget(record: dict[str, Any], lang: str = "en") -> dict[str, str]:
    """The ``--tune-budget`` to try after too few rounds: twice what this one allowed (at least 30 s), and
    twice its share of each epoch where it was a share under half (a record without its budget: 25 %)."""
    seconds = max(30, math.ceil(2 * (record.get("budget_s") or 0)))
    budget = record.get("budget")
    percent = None if budget else 25.0
    if budget and budget.get("kind") == "share" and budget.get("value", 1) < 0.5:
        percent = 200 * budget["value"]
    share = "" if percent is None else text("tuning.too_few.share", lang, percent=f"{percent:g}")
    return {"seconds": str(seconds), "share": share}


def tuning_suggestions(record: dict[str, Any], epochs: int = 1) -> list[dict[str, Any]]:
    """The measured suggestions, as ``report --json`` lists them: the best setting with its measured
    speed-up, or none where the job's own is best (the report then says to keep the settings)."""
    cands = record.get("candidates") or []
    choice = tuning_choice(record)
    if choice.keep or not cands:
        return loader_only_suggestions(record)
    best = cands[choice.best]
    return [{"change": change_of(best["setting"], cands[0]["setting"]),
             "change_text": change_text(best["setting"], cands[0]["setting"]), "speedup": round(choice.speedup, 3),
             "measured": True, "rounds": len(rates(best)), "wins": choice.wins, "paired": choice.paired,
             "startup_s": best.get("startup_s"), "own_startup_s": cands[0].get("startup_s"), "epochs": epochs,
             "epoch_s": choice.epoch_s[0] if choice.epoch_s else None,
             "own_epoch_s": choice.epoch_s[1] if choice.epoch_s else None}] + \
        loader_only_suggestions(record)


def tuned_batches(record: dict[str, Any]) -> int:
    """The batches served while it tuned, none of them traced: its slices' and its pauses' (the rest of each
    epoch whose share was spent, served by the measured leader)."""
    cands = record.get("candidates") or ()
    turns = sum(s.get("batches", 0) for c in cands for s in c.get("slices", ()) if not s.get("pause"))
    return turns + _paused_batches(cands)


def _paused_batches(cands: Any) -> int:
    """The pauses' batches: those tallied apart and those timed as a turn of their setting (``"pause"``)."""
    return sum(_served_in_pauses(c) for c in cands)


def _served_in_pauses(cand: dict[str, Any]) -> int:
    timed = sum(s.get("batches", 0) for s in cand.get("slices", ()) if s.get("pause"))
    return (cand.get("pauses") or {}).get("batches", 0) + timed


def _paused_text(record: dict[str, Any], lang: str) -> str:
    """Which settings served the tuning's pauses, and how many batches (empty where none did, or where an older
    record kept no count)."""
    cands = record.get("candidates") or ()
    batches = _paused_batches(cands)
    if not batches:
        return ""
    settings = ", ".join(setting_text(c["setting"]) for c in cands if _served_in_pauses(c))
    return text("tuning.paused_by", lang, batches=batches, settings=settings)


def tuning_lines(record: dict[str, Any] | None, lang: str = "en", epochs: int | None = None) -> list[str]:
    """The report's section of a ``run --tune`` trace: the table, then the measured suggestion or "keep your
    settings", the start-up apart, and what the rest of the job ran with. Empty without a record."""

    if not record:
        return []
    if record.get("skipped"):
        return [text(f"tuning.skipped.{record['skipped']}", lang)]
    table = tuning_table(record)
    entries = [s for c in record.get("candidates") or () for s in c.get("slices", ())]
    timed = sum(1 for s in entries if s.get("pause"))  # pauses timed as a turn of the setting that served them
    note = text("tuning.rounds_note", lang, slices=len(entries) - timed, slice_batches=record.get("slice_batches") or 0)
    if timed:
        note += text("tuning.pauses_timed", lang, pauses=timed)
    lines = [text("tuning.title", lang, rounds_note=note)]
    for i, r in enumerate(table.itertuples()):
        mark = text("tuning.mark." + ("own" if r.own else "best" if r.best else "other"), lang)
        if r.rounds == 0:
            cand = record["candidates"][i]
            slices = cand.get("slices") or ()
            why = ("failed" if cand.get("failed") else "skipped" if i in (record.get("not_tried") or ())
                   else "warm_only" if slices and all(s.get("warm") for s in slices)
                   else "short" if slices else record.get("stopped") if record.get("stopped") in ("budget", "epochs")
                   else "job_ended")
            lines.append(text("tuning.row_unmeasured", lang, mark=mark, setting=r.setting,
                              why=text(f"tuning.why.{why}", lang, error=cand.get("failed"),
                                       epochs=record.get("epochs"))))
            continue
        vs = "" if r.own or r.vs_own is None else text("tuning.vs_own", lang, ratio=r.vs_own)
        startup = "" if r.startup_s is None or r.num_workers == 0 else text("tuning.startup", lang,
                                                                              seconds=r.startup_s)
        if r.epoch_s is not None and not math.isnan(r.epoch_s):
            startup += text("tuning.epoch", lang, seconds=r.epoch_s)
        lines.append(text("tuning.row", lang, mark=mark, setting=r.setting, median=f"{r.samples_per_s:,.0f}",
                          low=f"{r.low:,.0f}", high=f"{r.high:,.0f}", rounds=r.rounds, vs=vs, startup=startup))
    lines += _stall_lines(record, table, lang)
    choice = tuning_choice(record)
    own = record["candidates"][0]
    if record.get("rematch"):
        lines.append(text("tuning.rematch", lang, change=change_text(record["candidates"][record["rematch"]]["setting"],
                                                                     own["setting"])))
    if choice.speedup is None or (choice.keep and choice.speedup >= MIN_SPEEDUP and choice.paired < MIN_ROUNDS):
        # a faster setting that shared too few rounds with the job's own is not a reason to keep: it is untold
        why = text(f"tuning.stopped.{record.get('stopped') or 'job_ended'}", lang, budget=record.get("budget_s") or 0,
                   epochs=record.get("epochs"))
        lines.append(text("tuning.too_few", lang, why=why, **larger_budget(record, lang)))
    elif choice.keep and MIN_SPEEDUP <= choice.speedup < choice.floor:
        lines.append(text("tuning.keep_busy", lang, change=change_text(record["candidates"][choice.best]["setting"],
                                                                       own["setting"]),
                          speedup=choice.speedup, cores=choice.busy, floor=choice.floor))
    elif choice.keep:
        lines.append(text("tuning.keep", lang, min=MIN_SPEEDUP))
    else:
        best = record["candidates"][choice.best]
        terms = dict(best_epoch=choice.epoch_s[0], own_epoch=choice.epoch_s[1],
                     samples=record.get("epoch_samples")) if choice.epoch_s else {}
        lines.append(text("tuning.suggest_epoch" if terms else "tuning.suggest", lang,
                          change=change_text(best["setting"], own["setting"]),
                          speedup=choice.speedup, best=f"{median(rates(best)):,.0f}",
                          own=f"{median(rates(own)):,.0f}", rounds=len(rates(best)), own_rounds=len(rates(own)),
                          wins=choice.wins, paired=choice.paired, **terms))
        if best.get("startup_s") and best["setting"]["num_workers"] and epochs and epochs > 1 \
                and not record.get("persistent_workers"):  # persistent workers start once a job
            lines.append(text("tuning.startup_note", lang, seconds=best["startup_s"], epochs=epochs))
    lines += loader_only_lines(record.get("loader_only"), lang)
    adopted = record.get("adopted")
    if adopted is not None:
        key = "tuning.adopted" if adopted else "tuning.kept_own"
        lines.append(text(key, lang, setting=setting_text(record["candidates"][adopted]["setting"]),
                          own=setting_text(own["setting"]), tuned=tuned_batches(record),
                          paused=_paused_text(record, lang)))
    after = record.get("after")
    if after and after.get("untraced_epochs"):
        lines.append(text("tuning.untraced_after", lang, traced=after.get("traced_epochs", 0),
                          epochs=after["untraced_epochs"], batches=after.get("untraced_batches", 0),
                          n=after.get("trace_epochs")))
    lines.append(text("tuning.same_batches", lang))
    return lines


def _stall_lines(record: dict[str, Any], table: Any, lang: str) -> list[str]:
    """The stalls every composed epoch counts (:func:`.tuning.stall_tail`): none where the slices met none."""
    stalls = stall_tail(record)
    own_s = table["stall_s"].iloc[0] if len(table) else None
    if not stalls.count or own_s is None or math.isnan(own_s):
        return []
    return [text("tuning.stalls", lang, count=stalls.count, x=STALL_X, samples=stalls.samples,
                 excess=stalls.excess_s, own_s=own_s)]


def tuning_document(record: dict[str, Any], lang: str = "en", epochs: int = 1) -> dict[str, Any]:
    """``report --json``'s ``tuning``: the table's rows, the choice, and the report's sentences."""
    if record.get("skipped"):
        return {"skipped": record["skipped"], "text": tuning_lines(record, lang)}
    choice = tuning_choice(record)
    return {"rows": tuning_table(record).to_dict("records"), "keep": choice.keep,
            "best": None if choice.keep else choice.best, "speedup": None if choice.keep else choice.speedup,
            "adopted": record.get("adopted"), "budget_s": record.get("budget_s"), "spent_s": record.get("spent_s"),
            "stopped": record.get("stopped"), "tuned_batches": tuned_batches(record), "after": record.get("after"),
            "epoch_samples": record.get("epoch_samples"),
            "text": tuning_lines(record, lang, epochs)}
