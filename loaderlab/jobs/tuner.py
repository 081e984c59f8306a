"""``run --tune``: the job's own batches served in slices by loaders with other settings, each one timed.

Twin of nothing in torch. The tuner pulls the epoch's index batches from the user's sampler as torch would
(lazily, in the main process, after the epoch's worker seed is drawn) and hands them, a slice at a time, to
one candidate loader after another (A B C A B C …: the machine's drift falls on all alike). Each candidate
is a plain torch DataLoader over the user's own dataset, collate_fn and worker_init_fn, with a private
generator (its seeds never touch the user's random streams) and its workers kept between its slices. The
script's loop runs between batches as always, so each slice's time holds the user's real step.

A slice's rate is timed between receipts of whole waves of batches (:meth:`.tune_slices.Slice.steady`); a
slice that starts a candidate's workers is start-up, never a rate (its first wait beside the later slices'
is the start-up, reported apart). Slices are sized from the job's own first slice, and where the budget
cannot give every candidate enough of them a guess picks which to try (:mod:`.tune_plan`). The budget bounds
what the tuning costs the job: its slices' time beyond the pace of the fastest setting measured so far
(:func:`.tune_pace.cost_s`; the leader's slices cost nothing). Tuning stops when that reaches the budget, when
every candidate left has ``ROUNDS`` measured slices, or after ``SHARE_EPOCHS`` epochs (more where the job's own
setting and one measured faster lack the rounds a choice needs: :mod:`.tune_shares`); candidates far behind
the leader are dropped after ``MIN_ROUNDS`` rounds (after one, under half its pace), and once those tried
have them, a setting not tried yet joins the turns while the budget lasts. A share budget's later epochs go to the settings no share had
afforded, then, where the rounds split between the job's own setting and the leader, to those two alone
(:mod:`.tune_shares`). The measured best (:func:`~loaderlab.trace.diagnosis.tuning.
tuning_choice`, also what the report prints) is then adopted for the rest of the job. Knows nothing of
files (:mod:`.stream`), plotly or streamlit.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

import torch
import torch.utils.data

from ..trace.diagnosis.tuning_noise import BUSY_CORES, busy_cores
from ..trace.diagnosis.tuning import MIN_ROUNDS, rates, setting_text, tuning_choice
from ..engine.cores import cpu_count
from .candidates import Setting, candidates, own_setting
from .loader_only import after_tuning, variants
from .tune_pace import cost_s, pace_share
from .tune_plan import decided, laggards, SlicePlan
from .tune_progress import progress, progress_text
from .tune_shares import ShareTurns
from .tune_slices import Candidate, clocks, count, Slice

ROUNDS = 5  # measured slices per candidate before tuning ends on its own
IN_JOB_SHARE = 0.75  # of the budget; the rest measures batch_size and in_order on the loader alone


class Tuner(ShareTurns):
    """Tries the candidates over one loader's first batches, epoch after epoch, until it is done."""

    def __init__(self, loader: torch.utils.data.DataLoader, name: str, budget: tuple[str, float]) -> None:
        self.loader, self.name, self.budget = loader, name, budget
        self.own = own_setting(loader)
        self.cores = cpu_count() or 1
        self.settings = candidates(self.own, device=torch.cuda.is_available(), cores=self.cores)
        self.skipped: list[int] = []  # not tried: the budget was short
        self.cands: dict[int, Candidate] = {}
        self.order = list(range(len(self.settings)))
        self.turn = 0
        self.round = 0
        self.slice: Slice | None = None
        self.plan = SlicePlan(self.settings, self.own, self.cores)
        self.pushback: list = []  # index batches a slice cut short did not serve: the next slice's first
        self.handed: tuple[int, float, float] | None = None  # the batch the step works on: samples, when, CPU
        self.steps: list[tuple[int, float, float]] = []  # the real steps: samples, wall s, the process's CPU s
        self.loader_only: dict[str, Any] | None = None
        # batch_size and in_order=False are tried on the loader alone afterwards: that takes this share
        self.in_job_share = IN_JOB_SHARE if variants(loader, self.own) else 1.0
        self.budget_s: float | None = budget[1] if budget[0] == "seconds" else None
        # a share of the job: that share of each epoch the tuning reaches (an epoch's estimate, from the job's
        # own first slice), so a job of many short epochs tunes a little in each rather than once too little
        self.epoch_budget_s: float | None = None
        self.own_share_s: float | None = None  # that share at the job's own pace (:meth:`ShareTurns._rebase`)
        self.paused = False  # this epoch's share is spent: the rest of it goes to the measured leader
        self.shares = 1  # epochs whose share the tuning has had
        self.epochs = 0  # epochs that ended while it tuned
        self.spent = 0.0  # what the tuning has cost the job so far (:func:`.tune_pace.cost_s`): the budget's
        self.slices_s = 0.0  # the slices' wall time (a pause, the epoch's share spent, is not tuning)
        self.started: float | None = None
        self.done = False
        self.stopped = ""
        self.adopted: int | None = None
        self.rematch: int | None = None  # the setting a split verdict left to a rematch with the job's own

    # --- serving batches ---

    def next_batch(self, indices: Iterator, now: float) -> Any:
        """The next batch of the job from the candidate whose turn it is; StopIteration at the epoch's end.
        ``now``: when the job asked (the end of its step on the batch before)."""
        self._note_step(now)
        if self.slice is not None and self.slice.pause and self.slice.handed == len(self.slice.items):
            self._end_pause()
        elif self.slice is not None and self.slice.handed == len(self.slice.items):
            self._end_slice(now)
        elif self.slice is not None and not self.slice.pause and \
                self.plan.too_long(self.slice.who, self.slice.handed, now - self.slice.started, self.slice.warm):
            self.pushback = self.slice.items[self.slice.handed:] + self.pushback  # the next slice serves them
            self.slice.items = self.slice.items[:self.slice.handed]
            who = self.slice.who
            self._end_slice(now)
            # its workers would go on making the batches it was sent, beside the next setting's slice
            self.cands[who].close()
        if self.done:
            raise Done()
        try:
            if self.slice is None and not self.paused and self._share_spent():
                self.paused = True  # the next epoch's share goes on from here
            if self.slice is None and self.paused:
                self._start_pause(indices, now)
            elif self.slice is None:
                self._start_slice(indices, now)
            s, before = self.slice, clocks()
            batch = next(self.cands[s.who].iterator)
            s.receipts.append(time.perf_counter())
            s.waited(before)
        except StopIteration:
            raise
        except Exception as exc:  # noqa: BLE001 - a tried setting's failure must not end the job
            if self.slice is None or self.slice.who == 0:
                raise  # the job's own setting fails as the plain job would
            self._fail(exc)
            return self.next_batch(indices, now)
        if s.handed == 0 and not s.pause:
            self.cands[s.who].first_waits.append(time.perf_counter() - s.started)
        self.handed = (count(s.items[s.handed]), time.perf_counter(), time.process_time())
        s.handed += 1
        return batch

    def _fail(self, exc: Exception) -> None:
        """A tried setting raised (its workers could not start, say): it is dropped, and its slice's batches
        go to the next setting in turn. A fault of the dataset itself then reaches the job from the job's own
        setting, as it would without --tune."""
        s, self.slice = self.slice, None
        self.pushback = s.items[s.handed:] + self.pushback
        cand = self.cands[s.who]
        cand.failed = f"{type(exc).__name__}: {exc}".strip()[:300]
        cand.close()
        self.order.remove(s.who)
        if self.turn >= len(self.order):
            self.turn, self.round = 0, self.round + 1

    def _note_step(self, now: float) -> None:
        """The step on the batch handed last: its wall time and this process's CPU time in it (torch's intra-op
        threads work for the step too; a worker's CPU is in another process)."""
        if self.handed is not None:
            samples, at, cpu = self.handed
            self.steps.append((samples, now - at, time.process_time() - cpu))
            self.handed = None

    def _start_slice(self, indices: Iterator, now: float) -> None:
        if self.started is None:
            self.started = now
        who = self.order[self.turn]
        if who not in self.cands:
            self.cands[who] = Candidate(self.loader, self.settings[who])
        behind = pace_share(self.record()["candidates"], who)
        items = self._take(self.plan.length(who, self.cands[who].batch_s, behind), indices)
        self.slice = Slice(who, items, now, self.round)
        self.slice.warm = self.cands[who].start(items)

    def _take(self, n: int, indices: Iterator) -> list:
        """The next ``n`` index batches of the epoch: a cut slice's leftovers first; StopIteration at its end."""
        items, self.pushback = self.pushback[:n], self.pushback[n:]
        items += [b for _, b in zip(range(n - len(items)), indices)]
        if not items:
            raise StopIteration
        return items

    def _end_slice(self, now: float) -> None:
        s, self.slice = self.slice, None
        cand = self.cands[s.who]
        steady = s.steady(cand.setting.num_workers, cand.setting.prefetch_factor)
        entry = s.entry(steady, now, cand.setting.num_workers, cand.setting.prefetch_factor, cand.batch_s)
        if steady and entry["seconds"] > entry["window_stall_s"]:  # its pace: the stalls apart
            cand.batch_s = (entry["seconds"] - entry["window_stall_s"]) / steady[0] * (s.samples(0) / len(s.items))
        cand.slices.append(entry)
        self.slices_s += now - s.started
        record = self.record()
        self.spent = cost_s(record)
        if self.plan.slice_batches is None and s.who == 0:
            self._plan(s, now)
        self._rebase(record["candidates"])
        self.turn += 1
        if self.turn >= len(self.order):
            self.turn = 0
            self.round += 1
            self._drop_laggards()
            self._widen()
        who = self.settings[self.order[self.turn]] if self.order else self.own
        progress(progress_text(self.name, self.spent, self.budget_s, setting_text(who.as_dict()), self.round,
                               left=len(self.order)))
        spent = self.budget_s is not None and self.spent >= self.budget_s * self.in_job_share
        if spent and self.epoch_budget_s is None:
            self._finish("budget")
        elif not spent and all(len(rates(self.cands[i].record())) >= ROUNDS for i in self.order if i in self.cands) \
                and all(i in self.cands for i in self.order):
            self._finish("rounds")

    def _plan(self, first: Slice, now: float) -> None:
        """Slice length and budget from the job's own first slice (:class:`.tune_plan.SlicePlan`): its time per
        batch, steps included, after its first fill (so without its workers' start-up)."""
        per_batch = self.cands[0].batch_s or (now - first.started) / len(first.items)  # steady: _end_slice's
        try:
            epoch_batches = len(self.loader._index_sampler)
        except TypeError:
            epoch_batches = 0
        self.plan.busy = busy_cores({"candidates": [self.cands[0].record()]}) >= BUSY_CORES
        self.budget_s, tried = self.plan.make(per_batch, first.samples(0) / len(first.items), epoch_batches,
                                              self.budget, self.budget_s)
        if self.budget[0] == "share" and epoch_batches:
            self.epoch_budget_s = self.own_share_s = self.budget_s
        self.skipped = [i for i in self.order if i not in tried]
        self.order = [i for i in self.order if i in tried]

    def _records(self, measured: bool = False) -> dict[int, dict[str, Any]]:
        """The records of the settings still tried, by index (``{}`` for one that has not run yet), or with
        ``measured`` of every setting that ran."""
        return {i: self.cands[i].record() if i in self.cands else {} for i in (self.cands if measured else self.order)}

    def _drop_laggards(self) -> None:
        for i in laggards(self._records()):
            self.order.remove(i)
            self._retire(i)

    def _widen(self) -> None:
        """At a round's end, where every setting in the turns has the rounds a choice needs and the budget is not
        spent, the likeliest setting not tried yet (:meth:`.tune_plan.SlicePlan.priority`) joins them. The plan
        tries as many as its budget would afford if every slice cost its whole time; the leader's cost nothing, so
        the budget often lasts beyond them (at 10 % a 4-epoch job tried its own 4 workers and `num_workers=0`
        alone, the three other settings never)."""
        if not self.skipped or not decided(self._records()) or self.budget_s is None or \
                self.spent >= self.budget_s * self.in_job_share:
            return
        joins = sorted(self.skipped, key=self.plan.priority)[0]
        self.skipped.remove(joins)
        self.order = sorted(self.order + [joins])

    def _retire(self, i: int) -> None:
        """Setting ``i`` leaves the turns: its workers go now (they would only hold memory)."""
        self.cands[i].close()

    def _finish(self, why: str) -> None:
        self.done, self.stopped = True, why
        choice = tuning_choice(self.record())
        self.adopted = choice.best if not choice.keep else 0
        for cand in self.cands.values():
            cand.close()
        progress(progress_text(self.name, self.spent, self.budget_s, setting_text(self.adopted_setting().as_dict()),
                               tried=len(self.cands)), final=True)
        if self.in_job_share < 1.0:  # what the in-job slices left of the budget, at most its last quarter
            self.loader_only = after_tuning(
                self.loader, self.adopted_setting(), self.steps, self.plan,
                min((self.budget_s or 0) * (1 - self.in_job_share), (self.budget_s or 0) - self.spent),
                self.cands.get(self.adopted or 0))

    def take_pushback(self) -> list:
        """The index batches a cut slice left unserved: the adopted loader's first."""
        out, self.pushback = self.pushback, []
        return out

    def abandon(self) -> None:
        """The job ended (or let go of the loader) before tuning was done."""
        if not self.done:  # nothing adopted: the job's own setting ran throughout
            self.done, self.stopped = True, "job_ended"
        for cand in self.cands.values():
            cand.close()

    # --- what it measured ---

    def record(self) -> dict[str, Any]:
        cands = [self.cands[i].record() if i in self.cands else {"setting": s.as_dict(), "startup_s": None,
                                                                   "slices": []}
                 for i, s in enumerate(self.settings)]
        return {"own": self.own.as_dict(), "candidates": cands, "budget_s": self.budget_s,
                "spent_s": round(self.spent, 6), "slices_s": round(self.slices_s, 6), **self.plan.record(),
                "stopped": self.stopped,
                "persistent_workers": bool(self.loader.persistent_workers),
                "adopted": self.adopted, "budget": {"kind": self.budget[0], "value": self.budget[1]},
                "epoch_budget_s": self.epoch_budget_s, "epochs": self.epochs,
                "not_tried": self.skipped, "loader_only": self.loader_only, "rematch": self.rematch}

    def adopted_setting(self) -> Setting:
        return self.settings[self.adopted or 0]


class Done(Exception):
    """Tuning ended at this request: the rest of the epoch goes to the adopted traced loader."""
