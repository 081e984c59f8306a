"""``python -m loaderlab run`` of an unchanged script whose stock DataLoader reads an IterableDataset of
``(tensor, label)`` pairs with 2 workers (issue 25, items 4 and 5): the report knows its samples, labels, busy
workers and throughput (it said "nan ms", "n/a samples" and asked for ``sample_info``), and a stream every
worker replays is flagged by content, naming the workers and the stream positions."""

from __future__ import annotations

import json
import re

from . import runner

SCRIPT = '''
import sys, time
import torch
from torch.utils.data import DataLoader, IterableDataset, get_worker_info


class Pairs(IterableDataset):  # sample i: 16 floats of value i, label i % 3; "shard": worker k yields k, k+2, ...
    def __init__(self, shard): self.shard = shard
    def __len__(self): return 32
    def __iter__(self):
        info = get_worker_info()
        k, n = (info.id, info.num_workers) if info is not None and self.shard else (0, 1)
        for i in range(k, 32, n):
            time.sleep(0.001)
            yield torch.full((16,), float(i)), i % 3


loader = DataLoader(Pairs(sys.argv[1] == "shard"), batch_size=4, num_workers=2)
for epoch in range(2):
    for batch in loader:
        pass
'''


def _run(tmp_path, shard: str) -> str:
    runner.write(tmp_path, "stream.py", SCRIPT)
    done = runner.run(tmp_path, "-o", "trace", "stream.py", shard)
    assert done.returncode == 0, done.stderr
    return str(tmp_path / "trace.lltrace")


def test_run_of_a_sharded_stream_reports_samples_labels_and_busy_workers(tmp_path):
    _run(tmp_path, "shard")
    report = runner.cli(tmp_path, "report", "trace.lltrace", "--no-replay")
    assert report.returncode == 0, report.stderr
    text = report.stdout
    assert not re.search(r"\bnan\b", text, re.IGNORECASE) and "n/a" not in text and "sample_info" not in text, text
    for epoch in (0, 1):
        assert re.search(rf"epoch {epoch}: 8 batches, 32 samples in [\d.]+ s = [\d.]+ batches/s, [\d.]+ samples/s",
                         text), text
        assert f"epoch {epoch}: 32 samples, 3 labels: 0 (34%), 1 (34%), 2 (31%)" in text, text
    rows = [line for line in text.splitlines() if line.startswith("  worker ")]
    assert len(rows) == 4 and all(re.search(r"start-up \d+\.\d{3} s, busy \d+\.\d{3} s \(\d+%\)", r) for r in rows)
    assert "iterable_duplicates" not in text


def test_run_of_an_unsharded_stream_flags_the_replayed_content(tmp_path):
    _run(tmp_path, "all")
    report = runner.cli(tmp_path, "report", "trace.lltrace", "--json", "--no-replay")
    assert report.returncode == 0, report.stderr
    found = [f for f in json.loads(report.stdout)["findings"] if f["kind"] == "iterable_duplicates"]
    assert [(f["epoch"], f["worker"], f["index"], f["batch"]) for f in found] == [(0, 1, 0, 1), (1, 1, 0, 1)]
    assert all("the same content from workers [0, 1], at stream positions [0, 0]" in f["text"] for f in found)
