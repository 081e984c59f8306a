"""``torchrun --nproc-per-node 2 -m loaderlab run -o trace train.py``: one trace per rank, read as one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from loaderlab.jobs.read import load_any, select_loader
from loaderlab.trace.ranks import analysis as dd
from tests.jobs import scripts
from tests.jobs.runner import TIMEOUT_S, cli, env, write

TORCHRUN = Path(sys.executable).with_name("torchrun")

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not TORCHRUN.exists(), reason="torchrun is not in this environment"), pytest.mark.timing]


@pytest.fixture(scope="module")
def ddp_job(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ddp")
    write(folder, "train.py", scripts.DDP)
    job = subprocess.run([str(TORCHRUN), "--standalone", "--nproc-per-node", "2", "-m", "loaderlab", "run",
                          "-o", "trace", "train.py"], cwd=folder, env=env(), capture_output=True, text=True,
                         timeout=TIMEOUT_S)
    return folder, job


def test_each_rank_writes_its_own_file_and_the_folder_reads_as_one_trace(ddp_job):
    folder, job = ddp_job
    assert job.returncode == 0, job.stderr
    assert sorted(p.name for p in (folder / "trace").iterdir()) == ["rank0.lltrace", "rank1.lltrace"]
    for path in (folder / "trace", folder / "trace" / "rank*.lltrace"):  # a folder or a glob
        frame = select_loader(load_any(str(path)), "train_loader")
        assert sorted(frame["rank"].unique()) == [0, 1]
        assert dd.world_size(frame) == 2
        indices = dd.rank_indices(frame)
        assert sorted(i for r in (0, 1) for i in indices[(0, r)]) == list(range(48))  # the ranks split the data
        assert dd.set_epoch_forgotten(frame)


def test_report_of_the_folder_and_merge_into_one_file(ddp_job):
    folder, _ = ddp_job
    report = cli(folder, "report", "trace")
    assert report.returncode == 0, report.stderr
    assert "Rank 0:" in report.stdout and "Rank 1:" in report.stdout
    assert "same_order_every_epoch" in report.stdout.split("Across the 2 ranks:")[1]
    merged = cli(folder, "merge", "all.lltrace", "trace")
    assert merged.returncode == 0 and "from 2 ranks" in merged.stdout, merged.stderr
    one, both = load_any(str(folder / "all.lltrace")), load_any(str(folder / "trace"))
    assert one[["kind", "t_ns", "rank", "loader"]].equals(both[["kind", "t_ns", "rank", "loader"]])
    twice = cli(folder, "merge", "again.lltrace", "trace/rank0.lltrace", "trace/rank0.lltrace")
    assert twice.returncode == 2 and "same rank" in twice.stderr
