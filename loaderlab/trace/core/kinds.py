"""The finding kinds: what each finding is about, named once, as :mod:`loaderlab.engine.events` names events.

Twin of nothing in torch. A kind is stored in trace reports, shown in tables and looked up in
:mod:`loaderlab.texts.words` (``finding.<kind>`` for a run's findings, ``rank.<kind>`` for those of a multi-rank
trace), so the values never change. A finding's ``key`` picks its wording and defaults to its kind; variants
(``slow_worker_hidden``, ``error_in_sample``…) are keys, not kinds. Knows nothing of how findings are found,
pandas, plotly or streamlit.
"""

from __future__ import annotations

# Where the loop's time went (:mod:`loaderlab.trace.tables.stalls`, :mod:`loaderlab.trace.tables.slow`).
STRAGGLER = "straggler"  # a few samples far slower than their worker's median
SLOW_WORKER = "slow_worker"  # one worker's samples all slower than the others'
HEAD_OF_LINE = "head_of_line"  # a late batch held ready ones in the reorder buffer
STALLED_WORKER = "stalled_worker"  # a worker silent inside dataset[i] until the trace ends
WORKER_VANISHED = "worker_vanished"  # a worker gone without exiting
SLOW_FIRST_BATCH = "slow_first_batch"  # an epoch's first batch paid for worker start-up
LOADER_BOUND = "loader_bound"  # the verdict: the loop mostly waited for batches
MODEL_BOUND = "model_bound"  # the verdict: the loop mostly ran its body
ERROR = "error"  # a failure anywhere (an ``error`` event)
MACHINE_STALL = "machine_stall"  # every process of the run made no progress at once: the machine paused
BUSY_WAIT = "busy_wait"  # the loop's process kept cores busy while its workers made the batches
# Memory (:mod:`loaderlab.trace.tables.memory`).
COPY_ON_ACCESS = "copy_on_access"  # a forked worker's private memory grew as it touched the dataset
SHM_NEARLY_FULL = "shm_nearly_full"  # /dev/shm close to full
# Correctness (:mod:`loaderlab.trace.diagnosis.findings`).
ITERABLE_DUPLICATES = "iterable_duplicates"  # every worker replayed an unsharded IterableDataset
SAME_ORDER = "same_order"  # two epochs drew the same order
IDENTICAL_RNG = "identical_rng"  # workers drew the same random numbers
# Labels and padding (:mod:`loaderlab.trace.diagnosis.findings`).
CLASS_IMBALANCE = "class_imbalance"
SHARE_DRIFT = "share_drift"  # realised label shares far from the intended ones
REPEATED_SAMPLES = "repeated_samples"  # sampling with replacement drew samples twice
PADDING_WASTE = "padding_waste"
# Re-balancing mistakes on a user's own loader (:mod:`loaderlab.trace.diagnosis.sampling_checks`, issue 35).
SAMPLER_SHARE_OFF = "sampler_share_off"  # received shares outside a fair draw of the intended ones
MINORITY_MISSING = "minority_missing"  # a minority label absent from most batches
CLASS_WEIGHTS_PER_SAMPLE = "class_weights_per_sample"  # WeightedRandomSampler(class_weights, n)
DRAWS_WITHOUT_REPLACEMENT = "draws_without_replacement"  # replacement=False, num_samples > the weights
UNSEEN_SAMPLES = "unseen_samples"  # most of the dataset never drawn in an epoch

FINDING_KINDS = (
    STRAGGLER, SLOW_WORKER, HEAD_OF_LINE, STALLED_WORKER, WORKER_VANISHED, SLOW_FIRST_BATCH, LOADER_BOUND,
    MODEL_BOUND, ERROR, COPY_ON_ACCESS, SHM_NEARLY_FULL, ITERABLE_DUPLICATES, SAME_ORDER, IDENTICAL_RNG,
    CLASS_IMBALANCE, SHARE_DRIFT, REPEATED_SAMPLES, PADDING_WASTE, MACHINE_STALL, BUSY_WAIT,
    SAMPLER_SHARE_OFF, MINORITY_MISSING, CLASS_WEIGHTS_PER_SAMPLE, DRAWS_WITHOUT_REPLACEMENT, UNSEEN_SAMPLES,
)

# The ranks of a multi-rank trace (:mod:`loaderlab.trace.ranks.analysis`).
SAME_ORDER_EVERY_EPOCH = "same_order_every_epoch"  # set_epoch was never called
PADDED = "padded"  # DistributedSampler repeated samples to even out the ranks
DROPPED = "dropped"  # drop_last=True: samples that reach no rank
OVERLAP = "overlap"  # two ranks got the same samples beyond padding
SLOW_RANK = "slow_rank"  # one rank's loop waited far longer than the others'

RANK_KINDS = (SAME_ORDER_EVERY_EPOCH, PADDED, DROPPED, OVERLAP, SLOW_RANK)
