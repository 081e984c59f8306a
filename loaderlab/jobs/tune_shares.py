"""``run --tune`` with a share budget: the turns that go on from one epoch's share of the tuning to the next.

Twin of nothing in torch. ``--tune-budget 10%`` is that share of each epoch the tuning reaches: where an
epoch's share is spent the measured leader serves the rest of the epoch (a pause), and at the epoch's end the
next share goes to the settings no share had afforded, then, where the rounds split between the job's own
setting and the leader, to those two alone (:func:`.tune_plan.next_turns`), for at most ``SHARE_EPOCHS``
epochs; past them, where a setting measured faster than the job's own still lacks the rounds against it,
to those two alone until they have them, for at most ``SHORT_EPOCHS``. A pause whose setting's workers ran
already is one more measured turn of it (:meth:`ShareTurns._end_pause`). A mixin of :class:`.tuner.Tuner`:
it keeps the tuner's turns (``order``, ``turn``, ``round``, ``skipped``, ``budget_s``) and calls its slices'
ends, its ``record`` and ``_finish``. Knows nothing of files, plotly or streamlit.
"""

from __future__ import annotations

import time
from typing import Iterator

from ..trace.diagnosis.tuning import measured_turns, MIN_ROUNDS, paired_rounds, rates
from .tune_pace import cost_s, lead_pace, pace_share
from .tune_plan import FIRST_SLICE, next_turns, pause_setting, short_of_rounds
from .tune_slices import Candidate, Slice

SHARE_EPOCHS = 4  # tuning spans at most this many epochs (their batches go untraced)
# ... or this many, where the job's own setting and one measured faster lack the rounds a choice needs
# (:func:`.tune_plan.short_of_rounds`): the next shares go to those two alone
SHORT_EPOCHS = 2 * SHARE_EPOCHS


class ShareTurns:
    """The share budget's bookkeeping of :class:`.tuner.Tuner` (its state: see ``Tuner.__init__``)."""

    def _share_spent(self) -> bool:
        """A share budget has no slice left in the epochs' shares so far: all spent, or under half the next
        slice's cost left (:meth:`_slice_cost`) and the turn not the measured leader's."""
        if self.epoch_budget_s is None:
            return False
        left = (self.budget_s or 0.0) - self.spent
        if self.spent >= (self.budget_s or 0.0) * self.in_job_share:
            return not self._owed_turn()
        up = self.order[self.turn] if self.turn < len(self.order) else None
        if not (self.plan.slice_s and left < self._slice_cost(up) / 2):
            return False
        # the measured leader's turn still goes on, its slices cost nothing (:func:`.tune_pace.cost_s`); a
        # pause would serve the same batches with it, untimed
        return (up is None or up != pause_setting(self._records(measured=True))) and not self._owed_turn()

    def _owed_turn(self) -> bool:
        """The job's own setting lacks the measured turns a choice needs against one measured faster
        (:func:`.tune_plan.short_of_rounds`, :func:`_owes`): its turn goes next, in a new round where another's
        was next, whatever the budget. Without them the choice can only keep the slower setting, for the whole job,
        and its turns are few and short (:meth:`.tune_plan.SlicePlan.length`): a job whose own 2 workers were
        12x slower than `num_workers=0`, its shares rebased to 0.007 s an epoch (:meth:`_rebase`), got one
        measured turn of 0.025 s in eight epochs and kept them (1.15 s a tuned epoch after, 0.06 s the best)."""
        record = self.record()
        rival = short_of_rounds(record)
        if 0 not in self.order or rival is None or not _owes(record, rival):
            return False
        if self.turn != self.order.index(0):
            self.turn, self.round = self.order.index(0), self.round + 1
        return True

    def _slice_cost(self, who: int | None) -> float:
        """What setting ``who``'s next slice will cost: its batches at its measured pace less the leader's
        (:meth:`.tune_plan.SlicePlan.length` shortens a slow setting's); a whole planned slice where it has no
        pace yet (its start-up is to come). A share of an epoch at the leader's pace (:meth:`_rebase`) is far
        less than a planned slice where the job's own setting is slow: under half a planned slice left, its
        shortened slice of 0.03 s never ran in eight epochs' shares of 0.009 s each, and the tuning kept it."""
        cand = self.cands.get(who) if who is not None else None
        if cand is None or not cand.batch_s:
            return self.plan.slice_s or 0.0
        behind = pace_share(self.record()["candidates"], who)
        return self.plan.length(who, cand.batch_s, behind) * cand.batch_s * (1.0 - behind)

    def _rebase(self, cands: list[dict]) -> None:
        """A share is that share of an epoch at the pace of the fastest setting measured so far, never more than
        at the job's own (``own_share_s``), and the shares so far are rebased with it: what the tuning costs is
        bounded by the job with its best setting, as the budget promises. At the job's own pace, a job whose own
        2 workers were 12x slower than `num_workers=0` had shares of 0.17 s an epoch, three times the best
        job's whole 0.06 s epoch: its four tuned epochs took 1.6x the best job's sixteen. The same measurements
        tell the plan which way to try next (:meth:`.tune_plan.SlicePlan.learn`). ``cands``: the candidates'
        records, as the slice that just ended left them."""
        self.plan.learn(cands)  # the direction measured so far orders the settings not tried yet
        if self.epoch_budget_s is None or not self.own_share_s or not self.plan.epoch_samples:
            return
        pace = lead_pace(cands)
        if pace is None:
            return
        self.epoch_budget_s = min(self.own_share_s, self.budget[1] * self.plan.epoch_samples * pace)
        self.budget_s = self.shares * self.epoch_budget_s

    def _start_pause(self, indices: Iterator, now: float) -> None:
        """A slice outside the turns (this epoch's share is spent): the job's own setting, or one measured
        faster (:func:`.tune_plan.pause_setting`), serves the epoch on, a few slices' worth at a time, until the
        next epoch's share resumes the turns."""
        leader = pause_setting(self._records(measured=True))
        if leader not in self.cands:
            self.cands[leader] = Candidate(self.loader, self.settings[leader])
        items = self._take(4 * (self.plan.slice_batches or FIRST_SLICE), indices)
        self.slice = Slice(leader, items, now, self.round)
        self.slice.pause = True
        self.slice.warm = self.cands[leader].start(items, timed=False)

    def _end_pause(self) -> None:
        """A pause ended. Where its setting's workers were running already and it has a steady part, it is one
        more measured turn of that setting, in this round (the leader's slices cost nothing, :func:`.tune_plan.
        cost_s`): an 8-epoch job whose pauses served 244 of its 400 batches with `num_workers=2`, 2x its own,
        had measured that setting in one round and kept its own ("too few rounds"). Else its batches and stalls
        are tallied apart (:meth:`.tune_slices.Candidate.paused`)."""
        s, self.slice = self.slice, None
        cand = self.cands[s.who]
        steady = None if s.warm else s.steady(cand.setting.num_workers, cand.setting.prefetch_factor)
        if not steady:
            cand.paused(s)
            return
        entry = s.entry(steady, time.perf_counter(), cand.setting.num_workers, cand.setting.prefetch_factor,
                        cand.batch_s)
        cand.slices.append({**entry, "pause": True})
        record = self.record()
        self.spent = cost_s(record)
        self._rebase(record["candidates"])

    def end_epoch(self, now: float) -> None:
        """The job's epoch ended: a slice cut short still counts (a short slice gives no rate)."""
        self.pushback = []  # the old epoch's: the new one draws its own
        if self.slice is not None and self.slice.pause:
            self._end_pause()  # first: its stalls are in the record the next share is planned from
        if self.paused:
            budget_s = (self.budget_s or 0.0) + (self.epoch_budget_s or 0.0)
            past = self.shares >= SHARE_EPOCHS
            short = self._short_turns() if past else None
            turns = None if past else next_turns(
                self.record(), self.order, self.skipped, self.plan, budget_s, self.epoch_budget_s or 0.0)
            if short is None and turns is None:
                self._finish("budget")  # the epochs after it are traced with the measured best
            else:  # the new epoch's share (:func:`.tune_plan.next_turns`)
                self.paused, self.shares, self.budget_s = False, self.shares + 1, budget_s
                if short is not None:
                    self._short_share(short)
                else:
                    self._next_share(*turns)
        if self.slice is not None and self.slice.handed == len(self.slice.items):
            self._end_slice(now)
        elif self.slice is not None:  # the epoch ended inside a slice: keep what the sampler gave
            self.slice.items = self.slice.items[:self.slice.handed]
            self._end_slice(now)
        self.epochs += 1
        if not self.done and self.epochs >= SHARE_EPOCHS:
            # settings about as fast as each other cost the job little, so the budget alone would let their
            # rounds take every batch of a short job (4 epochs of 1,000 samples, all in slices: none traced)
            short = self._short_turns()
            if short is None:
                self._finish("epochs")
            else:
                self._short_share(short)

    def _short_turns(self) -> list[int] | None:
        """Past ``SHARE_EPOCHS``: the job's own setting and the one measured faster, alone, while they lack the
        rounds a choice needs (:func:`.tune_plan.short_of_rounds`), within ``SHORT_EPOCHS``; else None."""
        if max(self.epochs, self.shares) >= SHORT_EPOCHS:
            return None
        rival = short_of_rounds(self.record())
        return None if rival is None else [0, rival]

    def _short_share(self, turns: list[int]) -> None:
        """The turns of :meth:`_short_turns`, the faster one's next where the job's own has its rounds: its
        slices cost nothing, the job's own cost what they lose to it, so a share spent on the job's own turn
        first left the other's to a pause, untimed then (an 8-epoch job's `num_workers=2` kept one round
        against its own three to the job's end)."""
        self._next_share(turns, False)
        if len(rates(self.cands[0].record())) >= MIN_ROUNDS:
            self.turn = 1

    def _next_share(self, turns: list[int], rematch: bool) -> None:
        """The next epoch's share goes to ``turns``: where they are not the settings tried so far, in a new round
        (the job's own first), and the workers of those that leave go now (not the leader's: it may serve a
        pause). A rematch (the rounds split) is kept in the record: the report says so."""
        if turns == self.order:
            return  # the turns go on where they stopped
        leader = pause_setting(self._records(measured=True))
        for i in self.order:
            if i not in turns and i != leader and i in self.cands:
                self._retire(i)
        grew = set(self.order) <= set(turns)  # settings join the turns: they go on where they stopped
        self.skipped = [i for i in self.skipped if i not in turns]
        self.order = turns
        if rematch:
            self.rematch = turns[1]
        if not grew and self.turn:
            self.turn, self.round = 0, self.round + 1


def _owes(record: dict, rival: int) -> bool:
    """The job's own setting's next turn is what the choice against ``rival`` lacks: it has fewer than
    ``MIN_ROUNDS`` measured turns, or too few pair with the rival's and the rival has run since its last (the
    rival's turns and pauses come on their own: it leads, so they cost nothing)."""
    cands = record["candidates"]
    own, theirs = measured_turns(cands[0]), measured_turns(cands[rival])
    if len(own) < MIN_ROUNDS:
        return True
    return paired_rounds(record, rival) < MIN_ROUNDS and bool(theirs) and theirs[-1][0] >= own[-1][0]
