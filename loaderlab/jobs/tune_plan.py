"""How ``run --tune`` sizes its slices and spends its budget, planned from the job's own first slice.

Twin of nothing in torch. The job's own setting serves the first slice (``FIRST_SLICE`` batches, or more where
its workers need them); its time per batch, steps included, sets every later slice's length (about
``budget / (settings × TARGET_SLICES)`` seconds, within ``SLICE_S``) and, where the job's length is known, the
budget (a share of one epoch) and the most batches a slice may take (two slices a setting per epoch). Where the
budget cannot give every setting ``MIN_SLICES`` slices, a guess ranks which to try (:meth:`SlicePlan.priority`,
with the direction the measurements so far point in first, :meth:`SlicePlan.learn`: it orders the trying only;
every number printed is measured). What the measurements so far decide while the tuning goes on: which setting
serves a pause (:func:`pause_setting`), which are dropped (:func:`laggards`), whether the choice is made
(:func:`decided`), which setting a split verdict leaves to a rematch with the job's own (:func:`contested`),
which faster setting still lacks the rounds against it (:func:`short_of_rounds`), and where the next epoch's
share goes (:func:`next_turns`); what the tuning has cost the job, which the budget bounds, and the settings'
paces are :mod:`.tune_pace`'s. Knows nothing of loaders' iteration (:mod:`.tuner`), of files, plotly or
streamlit.
"""

from __future__ import annotations

import math
from typing import Any

from statistics import median

from ..trace.diagnosis.tuning import FAR_BELOW, MIN_ROUNDS, paired_rounds, rates, tuning_choice
from .candidates import Setting
from .tune_pace import own_guess
from .tune_slices import sent_first

TARGET_SLICES = 3  # slices per candidate the budget is planned for
MIN_SLICES = 3  # a candidate the budget cannot give this many slices (its start-up and two rounds) is not tried
SLICE_S = (0.1, 5.0)  # a slice's planned length, at least and at most
FIRST_SLICE = 8  # batches of the job's own first slice, before its time per batch is known
DROP_BELOW = 0.8  # a candidate whose best slice is under this share of the leader's median is dropped


class SlicePlan:
    """The slices' lengths for one loader's settings (``settings[0]`` is the job's own)."""

    def __init__(self, settings: list[Setting], own: Setting, cores: int) -> None:
        self.settings, self.own, self.cores = settings, own, cores
        self.slice_batches: int | None = None  # a slice's planned batches (None: the first slice runs)
        self.slice_s: float | None = None  # a slice's planned length
        self.most_batches: int | None = None  # a slice's most batches: every setting gets two slices an epoch
        self.epoch_samples: int | None = None  # samples in one of the job's epochs (None: its length is unknown)
        self.per_batch = 0.0  # the job's own first slice's seconds a batch, steps included
        self.busy = False  # the loop's other threads kept cores busy while its own first slice's workers worked
        self.more_first = False  # fewer workers than the job's own measured slower: more first (:meth:`learn`)

    def length(self, who: int, batch_s: float | None, behind: float = 1.0) -> int:
        """Batches for setting ``who``'s next slice (``batch_s``: its measured time per batch, if any): the
        plan's, more for a setting that served its last ones faster than the job's own, so that its steady
        part lasts about the planned time too. A slice starts its workers' tasks at once, so they hand over
        whole waves in step for some tens of batches before they drift apart as in a plain epoch (four workers
        on 1 ms reads: batches 8-16 of a slice read 3,000-3,500 samples/s, batches 80-112 2,550-3,000): a window
        of a few batches reads that start, not the job's pace.

        A setting measured slower than the leader (``behind``: its rate over the leader's, :func:`pace_share`)
        gets that share of those batches, at least ``FIRST_SLICE`` and its :func:`min_batches`: each of its
        batches costs the job what it loses to the leader, and a gap that wide needs no long window to be
        read (a job's own 2 workers 12x slower than `num_workers=0` took slices of 50 batches, 0.09 s each,
        where the job with its best setting takes 0.06 s an epoch)."""
        if self.slice_batches is None:
            return max(FIRST_SLICE, min_batches(self.settings[who]))
        n = self.slice_batches
        setting = self.settings[who]
        if batch_s and self.slice_s:
            # before and after its window: what it is sent at its start, and as many after its last send
            edges = 2 * sent_first(setting.num_workers, setting.prefetch_factor)
            longer = math.ceil(self.slice_s / batch_s) + edges
            n = max(n, min(longer, self.most_batches or longer))
        if behind < 1.0:
            n = max(min(n, max(FIRST_SLICE, min_batches(setting))), math.ceil(n * behind))
        return n

    def too_long(self, who: int, handed: int, elapsed_s: float, warm: bool = False) -> bool:
        """A slow setting's slice ends at twice the planned length once it has a rate (:func:`min_batches`
        handed): the budget holds. The planned length is the slice's batches at the job's own pace where the
        deepest setting's fewest batches made it longer than the planned time: beside a CPU burner (56 ms a
        batch, slices of 20 batches planned at 0.1 s) a cut at 0.2 s took 3 batches, before any rate, and its
        workers, closed with the slice, started again in its next: 1 worker was never measured. A ``warm`` slice
        (it started its workers) is never cut: it gives no rate however long it runs, and its cut closed the
        workers, so each next slice started them again (a job's 2-worker setting: 5 slices, each warm, no rate)."""
        planned = max(self.slice_s or 0.0, (self.slice_batches or 0) * self.per_batch)
        return self.slice_s is not None and not warm and handed >= min_batches(self.settings[who]) and \
            elapsed_s > 2 * planned

    def make(self, per_batch: float, first_samples: float, epoch_batches: int, budget: tuple[str, float],
             budget_s: float | None) -> tuple[float, list[int]]:
        """Plan from the job's own first slice (``per_batch`` seconds a batch, ``first_samples`` samples a batch):
        returns the budget in seconds and the settings to try, in the order given (the job's own first)."""
        if epoch_batches:
            self.epoch_samples = round(epoch_batches * first_samples)
        if budget_s is None:
            budget_s = budget[1] * epoch_batches * per_batch if epoch_batches else 30.0
        per_slice = budget_s / (len(self.settings) * TARGET_SLICES)
        per_slice = self.slice_s = min(max(per_slice, SLICE_S[0]), SLICE_S[1])
        deepest = max(min_batches(s) for s in self.settings)
        self.slice_batches = max(deepest, FIRST_SLICE, math.ceil(per_slice / max(per_batch, 1e-6)))
        if epoch_batches:  # every setting gets two slices within an epoch where the epoch allows it
            self.most_batches = max(deepest, epoch_batches // (2 * len(self.settings)))
            self.slice_batches = min(self.slice_batches, self.most_batches)
        self.per_batch = per_batch
        return budget_s, self.tried(budget_s)

    def tried(self, budget_s: float) -> list[int]:
        """The settings ``budget_s`` can give ``MIN_SLICES`` slices each (all, or the likeliest first)."""
        tried = list(range(len(self.settings)))
        # whole batches, rounded up: the estimate leaves out the settings' worker start-up, so it errs short
        # (a batch less let a 3 s budget try a third setting whose start-up then took the rounds of the others)
        affordable = int(budget_s // ((self.slice_batches or FIRST_SLICE) * self.per_batch * MIN_SLICES))
        if affordable < len(self.settings):  # the budget cannot try them all twice: the likeliest first
            keep = sorted(tried, key=self.priority)[:max(affordable, 2)]
            tried = [i for i in tried if i in keep]
        return tried

    def priority(self, i: int) -> tuple[int, int]:
        """A guess of which settings to try first when the budget is short: the job's own, as many workers as
        cores, none, twice the cores, then the rest; none first where the loop's threads kept cores busy while
        it waited for the job's own workers (:attr:`busy`: they spin where a worker needs the core, and without
        workers nothing shares it with them); more workers than the job's own first where fewer measured slower
        (:meth:`learn`). It only orders the trying; every number is measured."""
        if i == 0:
            return (0, 0)
        s = self.settings[i]
        if self.more_first and s.num_workers > self.own.num_workers:
            return (1, i)  # the direction measured (:meth:`learn`): settings in order, fewer workers first
        guesses = [0, self.cores, 2 * self.cores] if self.busy else [self.cores, 0, 2 * self.cores]
        rank = guesses.index(s.num_workers) if s.num_workers in guesses else len(guesses)
        deeper = s.prefetch_factor not in (None, self.own.prefetch_factor or 2)
        return (2 + rank + int(deeper), i)

    def learn(self, cands: list[dict[str, Any]]) -> None:
        """What the measurements so far say of the direction to try next (``cands``: the candidates' records,
        the job's own first): where every setting with fewer workers than the job's own measured slower than
        it, and none with more measured slower, settings with more workers rank first (:attr:`more_first`).
        The guess alone tried `num_workers=0` second and a deeper prefetch third on a job whose 2 workers waited
        on 4 ms reads: `num_workers=0` read 0.45x the own's, their two rounds spent four epochs' shares, and
        4 workers was never tried."""
        paces = {i: median(r) for i, c in enumerate(cands) if (r := rates(c))}
        if 0 not in paces and (own := own_guess(cands)):
            paces[0] = own
        if 0 not in paces:
            return
        n = self.own.num_workers
        fewer = [p for i, p in paces.items() if i and self.settings[i].num_workers < n]
        more = [p for i, p in paces.items() if i and self.settings[i].num_workers > n]
        self.more_first = bool(fewer) and max(fewer) < paces[0] and all(p >= paces[0] for p in more)

    def record(self) -> dict[str, Any]:
        return {"slice_batches": self.slice_batches, "epoch_samples": self.epoch_samples}


def min_batches(setting: Setting) -> int:
    """The fewest batches a slice of ``setting`` needs for a window of two waves (:meth:`.tune_slices.Slice.
    window`): past what it was sent at the start (``num_workers × prefetch_factor``) and before as many at its
    end, which come after its last task was sent."""
    return max(2 * sent_first(setting.num_workers, setting.prefetch_factor) + 3 * setting.num_workers, 3)


def pause_setting(records: dict[int, dict[str, Any]]) -> int:
    """The setting that serves a pause (the epoch's share spent), from the candidates' records so far (by
    index; 0 is the job's own): the fastest measured if it was measured faster than the job's own, else the
    job's own; the job's own, before it has a rate, by the steady part of its first slice (:func:`own_guess`: at
    10 % the job's own 4 workers' first slice spent the first epoch's share and `num_workers=0`'s the second's,
    and the rest of both epochs went to the 4 workers, though `num_workers=0` had served 499 samples/s against
    the 240 of their first slice's steady part). (The measured leader alone once served a job
    beside a CPU burner with the one setting measured so far, num_workers=0 at 41 samples/s, its own slice cut
    short unmeasured: 154 s against 35 s plain.)"""
    measured = {i: median(r) for i, record in records.items() if (r := rates(record))}
    if 0 in records and 0 not in measured and (guess := own_guess([records[0]])):
        measured[0] = guess
    best = max(measured, key=measured.get) if measured else 0
    return best if 0 in measured and measured[best] > measured[0] else 0


def laggards(records: dict[int, dict[str, Any]], below: float = DROP_BELOW, far: float = FAR_BELOW) -> list[int]:
    """The candidates (never the job's own, 0) whose best slice is under ``below`` × the leader's median,
    among those with ``MIN_ROUNDS`` measured slices, or whose one measured slice is under ``far`` × the
    fastest median so far (the job's own, before it has a rate, by its first slice's steady part): far behind,
    they are tried no more. (A second round of `num_workers=0` at 0.45x a job's own 2 workers on 4 ms reads
    cost a whole epoch's share, and 4 workers, 1.9x as fast, were never tried.)"""
    measured = {i: r for i, record in records.items() if len(r := rates(record)) >= MIN_ROUNDS}
    lead = max((median(r) for r in measured.values()), default=0.0)
    slow = [i for i, r in measured.items() if i != 0 and max(r) < below * lead]
    once = {i: r for i, record in records.items() if len(r := rates(record)) == 1}
    paces = [median(r) for record in records.values() if (r := rates(record))]
    if 0 in records and (own := own_guess([records[0]])):
        paces.append(own)
    fastest = max(paces, default=0.0)
    return slow + [i for i, r in once.items() if i != 0 and r[0] < far * fastest]


def decided(records: dict[int, dict[str, Any]]) -> bool:
    """Every setting left (its record, ``{}`` where it has not run) has the rounds a choice needs
    (``MIN_ROUNDS``): a later epoch's share is not spent on more (its batches would go untraced)."""
    return all(len(rates(record)) >= MIN_ROUNDS for record in records.values())


def contested(record: dict[str, Any]) -> int | None:
    """The candidate a split verdict leaves open, from a whole ``tuning`` record: measured faster than the job's
    own by a speed-up the report would tell (above :func:`~loaderlab.trace.diagnosis.tuning.tuning_choice`'s
    floor), yet kept, since it won at least one of the rounds both ran but not the two thirds a change needs,
    or they shared too few rounds. Two rounds that disagree decide nothing: a further round of the two alone
    (the next epoch's share) does, where two rounds each had ended the tuning with "keep" (a job's 3-epoch
    run measured ``num_workers=0`` 1.39x per epoch once and adopted it, and 1 of 2 paired turns the next time
    and kept its own setting: 1.29x the job with the best). None where the measurements decide either way."""
    choice = tuning_choice(record)
    if not (choice.keep and choice.best and choice.speedup is not None and choice.speedup >= choice.floor):
        return None
    return choice.best if choice.wins or choice.paired < MIN_ROUNDS else None


def short_of_rounds(record: dict[str, Any]) -> int | None:
    """The setting measured faster than the job's own (:func:`pause_setting`: it serves the pauses) where the two
    lack the rounds a choice needs, from a whole ``tuning`` record: fewer than ``MIN_ROUNDS`` measured turns of
    either, or fewer paired; None where they have them or nothing was measured faster. Such a choice can only
    keep the job's own setting, though the leader served the rest of each tuned epoch: a 16-epoch job whose
    own 2 workers took 0.14 s a slice, against `num_workers=0` 15x as fast, had shares of 0.06 s an epoch, so
    its second measured turn came in no share of four epochs, and it kept the 2 workers for the 12 epochs left
    (11.2 s against 0.5 s for the plain job with `num_workers=0`)."""
    cands = record.get("candidates") or []
    leader = pause_setting(dict(enumerate(cands)))
    if not leader:
        return None
    enough = min(len(rates(cands[0])), len(rates(cands[leader])), paired_rounds(record, leader)) >= MIN_ROUNDS
    return None if enough else leader


def next_turns(record: dict[str, Any], order: list[int], skipped: list[int], plan: SlicePlan, budget_s: float,
               share_s: float) -> tuple[list[int], bool] | None:
    """The settings the next epoch's share goes to, from the whole ``tuning`` record so far, and whether that is
    a rematch (None: the tuning is done). ``order``: the settings still tried; ``skipped``: those no share has
    afforded yet; ``budget_s``: the shares so far with the next; ``share_s``: one epoch's share.

    Where those still tried lack rounds, their turns go on, joined by the skipped ones the shares so far
    afford. Where they are decided and some were never tried, the next share goes to the job's own setting
    and the next of those by :meth:`SlicePlan.priority` that one share affords (at least one): a decided
    tuning once ended after one epoch's share had tried two of five settings, in a 6-epoch job whose
    ``num_workers=4`` was 2.6x faster than its own and 1.4x the one adopted. Then, where the rounds split
    (:func:`contested`), the job's own and that setting alone."""
    if not decided({i: record["candidates"][i] for i in order}):
        more = [i for i in plan.tried(budget_s) if i in skipped]
        return sorted(order + more), False
    if skipped:
        affords = int(share_s // ((plan.slice_batches or FIRST_SLICE) * plan.per_batch * MIN_SLICES)) - 1
        return [0] + sorted(skipped, key=plan.priority)[:max(1, affords)], False
    rival = contested(record)
    return ([0, rival], True) if rival is not None else None
