"""``run --tune`` as a user runs it: the job sees the very batches it sees without --tune, the report and
the JSON show what each setting measured, bad budgets are one-line errors, and no worker outlives the job."""

from __future__ import annotations

import json

import psutil
import pytest

from loaderlab.jobs.read import load_any

from .runner import cli, run, write

# A deterministic map-style dataset: each sample costs a little CPU, so the settings measure differently.
# The script prints every batch's sample ids, epoch after epoch; SETUP picks the loader's settings, ROWS and
# EPOCHS the dataset's length and the epochs run.
SCRIPT = '''
import json, sys, time
import torch
from torch.utils.data import DataLoader, Dataset

class Rows(Dataset):
    def __len__(self):
        return {rows}
    def __getitem__(self, i):
        t = time.perf_counter()
        while time.perf_counter() - t < 0.0004:
            pass
        return torch.tensor([i, i * 2]), i % 3

torch.manual_seed(7)
loader = DataLoader(Rows(), {setup})
seen = []
for epoch in range({epochs}):
    for x, y in loader:
        seen.append(x.reshape(-1, 2)[:, 0].tolist())
json.dump(seen, open(sys.argv[1], "w"))
'''

SETUPS = {
    "global_rng": "batch_size=8, shuffle=True, num_workers=0",
    "generator_persistent": "batch_size=6, shuffle=True, num_workers=2, persistent_workers=True, "
                            "generator=torch.Generator().manual_seed(3)",
    "sampler_only": "batch_size=None, sampler=torch.utils.data.RandomSampler(range(1920), num_samples=600)",
}


def _leftovers(marker: str) -> list[int]:
    out = []
    for p in psutil.process_iter(["cmdline"]):
        try:
            if any(marker in part for part in (p.info["cmdline"] or [])):
                out.append(p.pid)
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            pass
    return out


@pytest.mark.slow
@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_tune_leaves_the_jobs_batches_identical(tmp_path, setup):
    script = write(tmp_path, f"tune_{setup}.py", SCRIPT.format(setup=SETUPS[setup], rows=1920, epochs=3))
    plain = run(tmp_path, "-o", "plain", script.name, "plain.json")
    # 4 s, more than these jobs last: with 2 s, once under load (the suite runs two files at a time) only the
    # job's own setting got rounds (sampler_only; it passed alone)
    tuned = run(tmp_path, "--tune", "--tune-budget", "4", "-o", "tuned", script.name, "tuned.json")
    assert plain.returncode == 0, plain.stderr
    assert tuned.returncode == 0, tuned.stderr
    assert json.loads((tmp_path / "tuned.json").read_text()) == json.loads((tmp_path / "plain.json").read_text())
    assert "loaderlab run --tune: loader:" in tuned.stderr  # progress while it tunes
    assert _leftovers(script.name) == []

    doc = json.loads(cli(tmp_path, "report", "tuned.lltrace", "--json").stdout)
    tuning = doc["tuning"]
    measured = [r for r in tuning["rows"] if r["rounds"] > 0]
    assert len(measured) >= 2, tuning["text"]  # the job's own and at least one other got rounds
    assert tuning["rows"][0]["own"] and tuning["tuned_batches"] > 0
    for s in doc["suggestions"]:
        assert set(s) >= {"change", "speedup", "measured"}
    text = cli(tmp_path, "report", "tuned.lltrace").stdout
    assert "Measured inside your job (run --tune)" in text
    assert ("Suggestion (measured in your job)" in text) != ("Keep your settings" in text
                                                             or "Too few rounds" in text)


@pytest.mark.slow
def test_a_share_of_each_epoch_tunes_on_in_the_next_epoch_with_the_same_batches(tmp_path):
    """A share budget too small for one epoch's turns pauses (the job's own setting serves the epoch on) and goes
    on in the next epoch's share: the job still sees its very batches, and more than one epoch's share is used."""
    script = write(tmp_path, "tune_share.py", SCRIPT.format(setup=SETUPS["global_rng"], rows=1920, epochs=3))
    plain = run(tmp_path, "-o", "plain", script.name, "plain.json")
    tuned = run(tmp_path, "--tune", "--tune-budget", "15%", "-o", "tuned", script.name, "tuned.json")
    assert plain.returncode == 0, plain.stderr
    assert tuned.returncode == 0, tuned.stderr
    assert json.loads((tmp_path / "tuned.json").read_text()) == json.loads((tmp_path / "plain.json").read_text())
    record = load_any(str(tmp_path / "tuned.lltrace")).attrs["loaders"]["loader"]["tuning"]
    assert record["epoch_budget_s"] > 0
    assert record["budget_s"] >= 2 * record["epoch_budget_s"] - 1e-9, record  # a later epoch's share was added
    assert record["spent_s"] > record["epoch_budget_s"], record
    assert _leftovers(script.name) == []


@pytest.mark.slow
def test_tune_says_plainly_it_cannot_switch_an_iterable_dataset(tmp_path):
    script = write(tmp_path, "stream.py", '''
import torch
from torch.utils.data import DataLoader, IterableDataset
class Stream(IterableDataset):
    def __iter__(self):
        return iter(range(64))
for x in DataLoader(Stream(), batch_size=8):
    pass
''')
    done = run(tmp_path, "--tune", "-o", "t", script.name)
    assert done.returncode == 0, done.stderr
    text = cli(tmp_path, "report", "t.lltrace").stdout
    assert "run --tune measured nothing for this loader: an IterableDataset's stream" in text
    assert json.loads(cli(tmp_path, "report", "t.lltrace", "--json").stdout)["tuning"]["skipped"] == "iterable"


@pytest.mark.parametrize("args, says", [
    (["--tune", "--tune-budget", "0%"], "--tune-budget must be a share of each epoch like 10%"),
    (["--tune", "--tune-budget", "lots"], "not 'lots'"),
    (["--tune-budget", "30"], "--tune-budget needs --tune"),
    (["--tune", "--tune-trace-epochs", "one"], "--tune-trace-epochs must be a whole number of epochs, 0 or more, "
                                               "or 'all', not 'one'"),
    (["--tune", "--tune-trace-epochs", "-1"], "not '-1'"),
    (["--tune-trace-epochs", "1"], "--tune-trace-epochs needs --tune"),
])
def test_bad_budgets_and_trace_epochs_are_one_line_errors(tmp_path, args, says):
    script = write(tmp_path, "noop.py", "print('ran')\n")
    done = run(tmp_path, *args, script.name)
    assert done.returncode == 2
    assert says in done.stderr and "Traceback" not in done.stderr
    assert "ran" not in done.stdout


FAILS_IN_WORKERS = '''
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

class MainOnly(Dataset):
    def __len__(self):
        return 4000
    def __getitem__(self, i):
        if get_worker_info() is not None:
            raise RuntimeError("this dataset only loads in the main process")
        if i == {bad}:
            raise ValueError("sample {bad} is broken")
        return torch.tensor([i])

total = 0
for x in DataLoader(MainOnly(), batch_size=10):
    total += int(x.sum())
print("total", total)
'''


@pytest.mark.slow
def test_a_setting_that_fails_is_dropped_and_the_job_goes_on(tmp_path):
    script = write(tmp_path, "main_only.py", FAILS_IN_WORKERS.format(bad=-1))
    done = run(tmp_path, "--tune", "--tune-budget", "3", "-o", "t", script.name)
    assert done.returncode == 0, done.stderr
    assert f"total {sum(range(4000))}" in done.stdout  # every batch, once
    text = cli(tmp_path, "report", "t.lltrace").stdout
    assert "it failed, so it was dropped: RuntimeError: Caught RuntimeError in DataLoader worker process 0" in text
    assert _leftovers(script.name) == []


@pytest.mark.slow
def test_a_broken_sample_fails_the_job_as_it_fails_without_tune(tmp_path):
    script = write(tmp_path, "broken.py", FAILS_IN_WORKERS.format(bad=95))
    plain = run(tmp_path, "-o", "p", script.name)
    tuned = run(tmp_path, "--tune", "--tune-budget", "3", "-o", "t", script.name)
    assert plain.returncode == tuned.returncode == 1
    last = [line for line in plain.stderr.splitlines() if line.startswith("ValueError")]
    assert last == ["ValueError: sample 95 is broken"]
    assert last[0] in tuned.stderr.splitlines()
    assert _leftovers(script.name) == []


def test_a_setting_faster_than_the_jobs_own_gets_slices_as_long_in_time():
    # a slice starts its workers in step: a few batches read that start, not the job's pace, so a setting
    # that served its last slice faster gets more batches, up to two slices a setting per epoch
    import torch
    from torch.utils.data import DataLoader

    from loaderlab.jobs.tuner import Tuner

    tuner = Tuner(DataLoader(torch.arange(4000), batch_size=4), "loader", ("seconds", 10.0))
    plan = tuner.plan
    plan.slice_batches, plan.slice_s, plan.most_batches = 28, 0.1, 100
    four = next(i for i, s in enumerate(tuner.settings) if s.num_workers == 4 and s.prefetch_factor == 2)
    assert plan.length(four, None) == 28  # not yet measured: the plan's
    # 40 batches in the planned 0.1 s, and its edges: the 8 batches sent at its start and the 8 after its last send
    assert plan.length(four, 0.0025) == 40 + 2 * 4 * 2
    assert plan.length(four, 0.001) == 100  # at most two slices a setting per epoch
    assert plan.length(four, 0.02) == 28  # slower than the plan: never shorter than the plan's
