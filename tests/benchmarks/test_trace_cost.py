"""benchmarks/trace_cost.py: the rewrite of a benchmark script's epoch loop, and one real run of it (no timing)."""

import importlib.util
import os
import shutil

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(REPO, "benchmarks", "tune_scripts")


def _bench():
    spec = importlib.util.spec_from_file_location("trace_cost", os.path.join(REPO, "benchmarks", "trace_cost.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_benchmark_script_is_rewritten_to_alternate_traced_and_torchs_own_epochs():
    bench = _bench()
    names = sorted(n for n in os.listdir(SCRIPTS) if n.endswith(".py") and not n.startswith("_"))
    assert len(names) >= 20
    for name in names:
        with open(os.path.join(SCRIPTS, name)) as f:
            source = bench.alternating(f.read())
        compile(source, name, "exec")  # still Python
        assert "iter(loader) if _traced else _torch_iter(loader)" in source, name
        assert source.count("print(f'trace_cost traced=") == 1, name
        assert source.index("_times[_traced].append") < source.index("done(start)"), name


def test_a_script_without_the_epoch_loop_is_refused_by_name():
    with pytest.raises(ValueError, match=r"for epoch in range\(epochs\(N\)\)"):
        _bench().alternating("for batch in loader:\n    pass\n")


SCRIPT = '''
import time
import torch
from torch.utils.data import DataLoader, TensorDataset
from _common import done, epochs, settings

NW, PF, PIN = settings(0)

if __name__ == "__main__":
    loader = DataLoader(TensorDataset(torch.arange(64.0)), batch_size=8, num_workers=NW)
    start = time.perf_counter()
    for epoch in range(epochs(1)):
        for (x,) in loader:
            x.sum()
    done(start)
'''


def test_one_run_reads_both_medians_from_the_rewritten_script(tmp_path):
    bench = _bench()
    shutil.copy(os.path.join(SCRIPTS, "_common.py"), tmp_path)
    (tmp_path / "tiny.py").write_text(bench.alternating(SCRIPT))
    traced, plain = bench.one_run(str(tmp_path), "tiny", epochs=4, workers="0", timeout=120)
    assert traced > 0 and plain > 0
    # the traced epochs went through run's clone: its trace holds two epochs of 8 batches, the others none
    from loaderlab.engine import events as ev
    from loaderlab.jobs.read import load_any

    events = load_any(str(tmp_path / "trace.lltrace"))
    yields = events[events["kind"] == ev.BATCH_YIELD]
    assert len(yields) == 16 and yields["epoch"].nunique() == 2
