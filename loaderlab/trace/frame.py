"""From a recording's events to the tidy table every view reads, and the loader settings that travel with it.

Twin of nothing in torch. Knows the event vocabulary of :mod:`loaderlab.engine.events`, pandas and a
loader's public attributes; knows nothing of how the events were recorded, of plotly or of streamlit.
The table has one row per event, sorted by ``t_ns``; its columns are ``EVENT_COLUMNS`` (see the README).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import torch.utils.data

from ..engine import events as ev

EVENT_COLUMNS = (*ev.FIELDS, "t_s")  # t_s: seconds since the first event of the recording


def events_frame(events: list[ev.Event]) -> pd.DataFrame:
    """Events (any order) → a DataFrame sorted by time, with ``t_s`` relative to the first event."""
    frame = pd.DataFrame.from_records(list(events), columns=list(ev.FIELDS))
    frame = frame.sort_values("t_ns", kind="stable").reset_index(drop=True)
    start = int(frame["t_ns"].iloc[0]) if len(frame) else 0
    frame["t_s"] = (frame["t_ns"] - start) / 1e9
    for column in ("t_ns", "pid", "worker", "epoch", "batch", "index", "nbytes", "length"):
        frame[column] = frame[column].astype("int64")
    return frame


def loader_settings(loader) -> dict[str, Any]:
    """The loader's arguments that shape a trace, as plain JSON-able values (kept in ``frame.attrs``)."""
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
