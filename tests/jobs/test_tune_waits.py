"""A ``run --tune`` slice keeps the loop's waits for its batches and the CPU its process's other threads spent
in them (loaderlab.jobs.tune_slices.Slice.waited): what tells a tuning whose torch threads spun."""

from __future__ import annotations

import threading
import time

from loaderlab.jobs.tune_slices import clocks, Slice


def _spin_for(cpu_s: float, done: threading.Event) -> None:
    start = time.thread_time()
    while time.thread_time() - start < cpu_s:
        pass
    done.set()


def test_a_wait_past_the_first_batch_counts_the_other_threads_cpu():
    s = Slice(who=1, items=[[0], [1], [2]], started=0.0, round_=1)
    s.handed = 1  # the slice's first batch is handed: the next wait counts
    before, done = clocks(), threading.Event()
    threading.Thread(target=_spin_for, args=(0.03, done)).start()
    done.wait()  # the loop's thread sleeps while another thread of its process burns 30 ms of CPU
    s.waited(before)
    assert s.busy_s >= 0.03 and s.wait_s >= s.busy_s * 0.99  # one other thread: at most a core
    entry = s.entry((20, 0.1), now=1.0)
    assert (entry["wait_s"], entry["busy_s"]) == (round(s.wait_s, 6), round(s.busy_s, 6))


def test_the_slices_first_wait_is_not_counted():
    s = Slice(who=1, items=[[0], [1]], started=0.0, round_=1)
    before, done = clocks(), threading.Event()
    threading.Thread(target=_spin_for, args=(0.01, done)).start()
    done.wait()
    s.waited(before)  # nothing handed yet: the wait holds the setting's start, not the job's pace
    assert (s.wait_s, s.busy_s) == (0.0, 0.0)
