"""The sidebar: widgets that mirror the DataLoader constructor, turned into a frozen RunConfig."""

from __future__ import annotations

import os
import threading

import streamlit as st

from ..scenarios.run import RunConfig, build_loader, run
from .texts import t

MAX_WORKERS = int(os.environ.get("LOADERLAB_MAX_WORKERS", "4"))


def sidebar_config() -> RunConfig | None:
    """Draw the controls; return the config, or None (with torch's message shown) when torch rejects it."""
    d = RunConfig()
    sb = st.sidebar
    sb.header(t("sidebar.loader"))
    batch_size = sb.slider("batch_size", 1, 64, d.batch_size, key="batch_size")
    shuffle = sb.checkbox("shuffle", d.shuffle, key="shuffle")
    num_workers = sb.slider("num_workers", 0, MAX_WORKERS, d.num_workers, key="num_workers")
    prefetch_factor = sb.slider("prefetch_factor", 1, 8, d.prefetch_factor, key="prefetch_factor",
                                disabled=num_workers == 0)
    in_order = sb.checkbox("in_order", d.in_order, key="in_order")
    persistent = sb.checkbox("persistent_workers", d.persistent_workers, key="persistent_workers")
    seed = sb.number_input(t("control.seed"), 0, 2**31 - 1, d.seed, key="seed")
    sb.header(t("sidebar.workload"))
    n_samples = sb.slider(t("control.n_samples"), 8, 2000, d.n_samples, key="n_samples")
    cost_ms = sb.slider(t("control.cost_ms"), 0.0, 20.0, d.cost_ms, key="cost_ms")
    straggler_index = sb.number_input(t("control.straggler_index"), -1, n_samples - 1, d.straggler_index,
                                      key="straggler_index")
    straggler_ms = sb.slider(t("control.straggler_ms"), 0.0, 1000.0, d.straggler_ms, key="straggler_ms")
    consumer_ms = sb.slider(t("control.consumer_ms"), 0.0, 50.0, d.consumer_ms, key="consumer_ms")
    epochs = sb.slider(t("control.epochs"), 1, 3, d.epochs, key="epochs")
    config = RunConfig(n_samples=n_samples, cost_ms=cost_ms, straggler_index=int(straggler_index),
                       straggler_ms=straggler_ms, consumer_ms=consumer_ms, batch_size=batch_size, shuffle=shuffle,
                       num_workers=num_workers, prefetch_factor=prefetch_factor if num_workers else 2,
                       in_order=in_order, persistent_workers=persistent, seed=int(seed), epochs=epochs)
    try:
        build_loader(config)  # torch's own validation, before any process starts
    except (ValueError, TypeError) as exc:
        sb.error(t("error.invalid", message=exc))
        return None
    return config


@st.cache_resource
def _run_lock() -> threading.Lock:
    """One run at a time per server: two overlapping runs would share 2 cores and distort both."""
    return threading.Lock()


@st.cache_data(max_entries=16, show_spinner=True)
def cached_run(config: RunConfig):
    with _run_lock():
        return run(config)


def torch_code(config: RunConfig) -> str:
    """The plain-torch loader for ``config``, ready to copy."""
    args = [f"batch_size={config.batch_size}"]
    if config.shuffle:
        args += ["shuffle=True", f"generator=torch.Generator().manual_seed({config.seed})"]
    if config.num_workers:
        args += [f"num_workers={config.num_workers}", f"prefetch_factor={config.prefetch_factor}"]
        if not config.in_order:
            args.append("in_order=False")
        if config.persistent_workers:
            args.append("persistent_workers=True")
    joined = ",\n    ".join(["dataset", *args])
    return f"import torch\n\nloader = torch.utils.data.DataLoader(\n    {joined},\n)\nfor batch in loader:\n    ...\n"
