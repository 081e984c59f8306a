"""A bounded soak: 200 consecutive runs with random valid settings through the app's own run function.

Small, fast settings (a few dozen samples, no per-sample cost) so that the whole soak takes about a
minute on 2 cores. Prints the test process's RSS before and after and the process count at the end;
asserts that no child process survives and that RSS growth is bounded (generously: leaks of a few MB
per run would exceed it; allocator noise would not).
"""

from __future__ import annotations

import gc
import random
import time
from dataclasses import replace

import psutil
import pytest

from loaderlab.scenarios.run import RunConfig, RunFailed, run

pytestmark = pytest.mark.timing  # judges a real run's timing: run alone (see pyproject's markers)

RUNS = 200
RSS_GROWTH_LIMIT = 300 * 2**20


def random_config(rng: random.Random) -> RunConfig:
    workers = rng.choice([0, 0, 1, 2])
    config = RunConfig(
        n_samples=rng.randint(8, 64), batch_size=rng.randint(1, 16), shuffle=rng.random() < 0.5,
        num_workers=workers, prefetch_factor=rng.randint(1, 3), in_order=rng.random() < 0.7,
        persistent_workers=workers > 0 and rng.random() < 0.3, drop_last=rng.random() < 0.2,
        epochs=rng.randint(1, 2), cost_ms=0.0, consumer_ms=0.0, seed=rng.randint(0, 1000),
        collate=rng.choice(["default", "pad"]), kind=rng.choice(["map", "map", "iterable_sharded"]))
    if config.kind != "map":  # torch: an IterableDataset takes no shuffle
        config = replace(config, shuffle=False)
    if rng.random() < 0.1:  # now and then a failing run: failures must not leak either
        config = replace(config, fault="raise", fault_index=rng.randint(0, 7))
    return config


@pytest.mark.slow
def test_200_runs_leave_no_process_and_bounded_memory(no_leftover_workers):
    rng = random.Random(5)
    me = psutil.Process()
    run(RunConfig(n_samples=16, num_workers=1, cost_ms=0, consumer_ms=0))  # warm-up: imports, first fork
    gc.collect()
    rss_before = me.memory_info().rss
    started = time.monotonic()
    failures = stopped = 0
    for _ in range(RUNS):
        try:
            frame = run(random_config(rng))
            stopped += frame.stop is not None
        except RunFailed:
            failures += 1
    gc.collect()
    rss_after = me.memory_info().rss
    no_leftover_workers(f"after {RUNS} runs")
    children = me.children(recursive=True)
    print(f"\nsoak: {RUNS} runs in {time.monotonic() - started:.1f} s ({failures} failed on purpose, {stopped} "
          f"stopped); RSS {rss_before / 2**20:.1f} MB -> {rss_after / 2**20:.1f} MB "
          f"({(rss_after - rss_before) / 2**20:+.1f} MB); threads {me.num_threads()}; "
          f"child processes at the end: {len(children)}")
    assert stopped == 0
    assert rss_after - rss_before < RSS_GROWTH_LIMIT
