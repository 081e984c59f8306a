"""A pause of the whole machine is not a slow sample (issue 34, item 3).

Synthetic traces, no timing (:mod:`tests.helpers.simulated`): into a simulated loader-bound run we plant either
a pause of the whole machine (every process, busy or not, makes no progress for PAUSE_S) or one slow sample
(only its worker is late; the others go on with their batches).
"""

from __future__ import annotations

import pytest

from loaderlab.trace.core.lookups import normal
from loaderlab.trace.diagnosis.bottleneck import verdict
from loaderlab.trace.diagnosis.findings import all_findings
from loaderlab.trace.tables import slow
from tests.helpers.simulated import BATCH, PAUSE_AT_S, PAUSE_S, simulate

def test_a_pause_of_the_whole_machine_is_named_and_no_sample_is_blamed():
    run = simulate(pause_at=PAUSE_AT_S)
    windows = slow.machine_stalls(normal(run.events))
    assert len(windows) == 1
    (window,) = windows.itertuples()
    assert window.end_s - window.start_s >= PAUSE_S
    assert window.processes >= 2  # the workers inside a sample, at least
    found = all_findings(run)
    assert "straggler" not in {f.kind for f in found}
    (stall,) = [f for f in found if f.kind == "machine_stall"]
    assert stall.evidence["start_s"] == pytest.approx(window.start_s)
    for lang in ("en", "ko"):
        assert stall.text(lang)
    assert verdict(run).kind != "straggler"


def test_one_slow_sample_while_the_others_progress_is_still_a_straggler():
    slow_index = 5 * BATCH + 3  # worker 2's batch 5, well after the workers' warm-up
    run = simulate(slow_index=slow_index)
    assert not len(slow.machine_stalls(normal(run.events)))
    found = all_findings(run)
    assert "machine_stall" not in {f.kind for f in found}
    (straggler,) = [f for f in found if f.kind == "straggler"]
    assert straggler.index == slow_index
    assert (verdict(run).kind, verdict(run).index) == ("straggler", slow_index)


def test_a_sample_whose_worker_waited_for_a_core_is_not_a_straggler():
    # the same slow sample, but its batch's run-queue clock says the worker spent that time waiting for a core
    found = all_findings(simulate(slow_index=5 * BATCH + 3, slow_waited=True))
    assert "straggler" not in {f.kind for f in found}


def test_a_quiet_run_has_no_machine_stall():
    assert not len(slow.machine_stalls(normal(simulate().events)))
