"""The sampler a training loop calls ``set_epoch`` on, and a DistributedSampler's arguments as JSON-able values.

Twin of ``torch.utils.data.DistributedSampler``'s attributes. Kept apart from :mod:`.process` (a rank's
recording, pandas) because ``python -m loaderlab run`` reads them in the job's own process, which imports
nothing of pandas. Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

from typing import Any

import torch.utils.data


def epoch_sampler(loader: Any) -> Any:
    """The sampler whose ``set_epoch`` a training loop calls: ``loader.sampler``, else the batch sampler's."""
    for candidate in (getattr(loader, "sampler", None), getattr(getattr(loader, "batch_sampler", None), "sampler", None)):
        if hasattr(candidate, "set_epoch"):
            return candidate
    return None


def sampler_settings(sampler: Any) -> dict[str, Any]:
    """A DistributedSampler's arguments and sizes (JSON-able), or {} for any other sampler."""
    if not isinstance(sampler, torch.utils.data.DistributedSampler):
        return {}
    return {"num_replicas": sampler.num_replicas, "rank": sampler.rank, "shuffle": sampler.shuffle,
            "seed": sampler.seed, "drop_last": sampler.drop_last, "num_samples": sampler.num_samples,
            "total_size": sampler.total_size}
