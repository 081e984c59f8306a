"""``run --tune --tune-trace-epochs N``: past the N traced epochs after tuning, the adopted setting serves the job
untraced; the job still sees its very batches, the trace holds those epochs' begin and end and no batch, the
report counts them (English and Korean), and no worker outlives the job (a bad N: test_tune.py's one-line
errors)."""

from __future__ import annotations

import json

import pytest

from loaderlab.engine import events as ev
from loaderlab.jobs.read import load_any
from loaderlab.jobs.tune_shares import SHORT_EPOCHS

from .runner import cli, run, write
from .test_tune import _leftovers, SCRIPT

# tuning ends after SHARE_EPOCHS, or SHORT_EPOCHS where the job's own setting lacks its rounds against one
# measured faster (a machine under load): at least two begin after it
EPOCHS = SHORT_EPOCHS + 3

SETUPS = {
    "main_process": "batch_size=8, shuffle=True, num_workers=0",
    "persistent_workers": "batch_size=6, shuffle=True, num_workers=2, persistent_workers=True, "
                          "generator=torch.Generator().manual_seed(3)",
}


@pytest.mark.slow
@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_epochs_past_the_traced_ones_run_untraced_with_the_same_batches(tmp_path, setup):
    script = write(tmp_path, f"six_{setup}.py", SCRIPT.format(setup=SETUPS[setup], rows=600, epochs=EPOCHS))
    plain = run(tmp_path, "-o", "plain", script.name, "plain.json")
    # one traced epoch is the default under --tune: the setup without workers leaves the option out
    flags = [] if setup == "main_process" else ["--tune-trace-epochs", "1"]
    tuned = run(tmp_path, "--tune", "--tune-budget", "0.2", *flags, "-o", "tuned", script.name, "tuned.json")
    assert plain.returncode == 0, plain.stderr
    assert tuned.returncode == 0, tuned.stderr
    assert json.loads((tmp_path / "tuned.json").read_text()) == json.loads((tmp_path / "plain.json").read_text())
    assert _leftovers(script.name) == []

    trace = load_any(str(tmp_path / "tuned.lltrace"))
    record = trace.attrs["loaders"]["loader"]["tuning"]
    after = record["after"]
    # the epochs that ended while it tuned, then (where it ended inside one) the rest of that epoch, traced,
    # then one traced epoch, then the untraced ones
    tuned_epochs = record["epochs"]
    assert after["trace_epochs"] == 1 and after["traced_epochs"] == 1, record
    assert after["untraced_epochs"] >= 1, record
    assert EPOCHS - tuned_epochs - 2 <= after["untraced_epochs"] <= EPOCHS - tuned_epochs - 1, record
    per_epoch = len(json.loads((tmp_path / "plain.json").read_text())) // EPOCHS
    assert after["untraced_batches"] == after["untraced_epochs"] * per_epoch
    # every epoch begins and ends in the trace; the untraced ones (the last) hand over no batch in it
    assert sorted(trace[trace["kind"] == ev.EPOCH_BEGIN]["epoch"]) == list(range(EPOCHS))
    assert sorted(trace[trace["kind"] == ev.EPOCH_END]["epoch"]) == list(range(EPOCHS))
    yielded = set(trace[trace["kind"] == ev.BATCH_YIELD]["epoch"])
    untraced = set(range(EPOCHS - after["untraced_epochs"], EPOCHS))
    assert yielded and not yielded & untraced and max(yielded) == min(untraced) - 1
    # the traced epochs' loading (their index batches, samples and collates) is recorded under those epochs: the
    # adopted clone is built after its first epoch's iter(), and its sampler and workers read epoch 0 there
    loading = trace[trace["kind"].isin([ev.SAMPLER_YIELD, ev.FETCH_BEGIN, ev.COLLATE_END])]
    assert set(loading["epoch"]) == yielded
    # the first traced epoch is the one tuning ended in, or the next where its last slice took the epoch's last
    # batch: the epochs it counts are the epochs that ended while it tuned (before the first epoch none had
    # ended; counted, a job tuned three epochs and said four)
    assert tuned_epochs <= min(yielded) <= tuned_epochs + 1, record

    english = cli(tmp_path, "report", "tuned.lltrace").stdout
    assert (f"and the next {after['untraced_epochs']} ({after['untraced_batches']} batches) ran untraced"
            in english), english
    korean = cli(tmp_path, "report", "tuned.lltrace", "--lang", "ko").stdout
    assert f"다음 에폭 {after['untraced_epochs']}개(배치 {after['untraced_batches']}개)는 트레이스 없이" in korean
    doc = json.loads(cli(tmp_path, "report", "tuned.lltrace", "--json").stdout)
    assert doc["tuning"]["after"] == after


@pytest.mark.slow
def test_all_traces_every_epoch_after_tuning(tmp_path):
    script = write(tmp_path, "six_all.py", SCRIPT.format(setup=SETUPS["main_process"], rows=600, epochs=EPOCHS))
    plain = run(tmp_path, "-o", "plain", script.name, "plain.json")
    tuned = run(tmp_path, "--tune", "--tune-budget", "0.2", "--tune-trace-epochs", "all", "-o", "tuned",
                script.name, "tuned.json")
    assert plain.returncode == 0, plain.stderr
    assert tuned.returncode == 0, tuned.stderr
    assert json.loads((tmp_path / "tuned.json").read_text()) == json.loads((tmp_path / "plain.json").read_text())
    trace = load_any(str(tmp_path / "tuned.lltrace"))
    record = trace.attrs["loaders"]["loader"]["tuning"]
    assert "after" not in record, record
    # every epoch after tuning hands its batches over in the trace, the last one included
    per_epoch = len(json.loads((tmp_path / "plain.json").read_text())) // EPOCHS
    yielded = trace[trace["kind"] == ev.BATCH_YIELD]
    assert set(range(record["epochs"] + 1, EPOCHS)) <= set(yielded["epoch"]), record
    assert (yielded["epoch"] == EPOCHS - 1).sum() == per_epoch
    assert "ran untraced" not in cli(tmp_path, "report", "tuned.lltrace").stdout
