"""A loader's settings as plain JSON-able values: what a trace keeps of the loader that made it.

Twin of the arguments of ``torch.utils.data.DataLoader.__init__``. Kept apart from the trace table (:mod:`.frame`,
pandas) because ``python -m loaderlab run`` reads it in the job's own process, which imports nothing of pandas.
Knows nothing of pandas, plotly or streamlit.
"""

from __future__ import annotations

from typing import Any


def loader_settings(loader) -> dict[str, Any]:
    """The loader's arguments that shape a trace, as plain JSON-able values (a run's ``Run.loader``; a trace
    file's ``settings``)."""
    import torch.utils.data  # here: the analysis that reads a saved trace never needs torch (~185 MB)

    ctx = loader.multiprocessing_context
    return {
        "dataset": type(loader.dataset).__name__,
        "dataset_len": len(loader.dataset) if hasattr(loader.dataset, "__len__") else None,
        "iterable": isinstance(loader.dataset, torch.utils.data.IterableDataset),
        "batch_size": loader.batch_size,
        "drop_last": loader.drop_last,
        "sampler": type(loader.sampler).__name__,
        "batch_sampler": type(loader.batch_sampler).__name__ if loader.batch_sampler is not None else None,
        "num_workers": loader.num_workers,
        "prefetch_factor": loader.prefetch_factor,
        "in_order": loader.in_order,
        "persistent_workers": loader.persistent_workers,
        "pin_memory": loader.pin_memory,
        "timeout": loader.timeout,
        "multiprocessing_context": None if ctx is None else ctx.get_start_method(),
    }
