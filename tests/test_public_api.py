"""The public surface: each face's sorted ``__all__`` whose every name resolves (lazily imported ones too)."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

FACES = ["loaderlab", "loaderlab.engine", "loaderlab.texts", "loaderlab.trace"]  # the trace sub-packages have none


@pytest.mark.parametrize("face", FACES)
def test_each_face_has_a_sorted_all_whose_every_name_resolves(face):
    module = importlib.import_module(face)
    assert module.__all__ == sorted(module.__all__)
    for name in module.__all__:
        assert hasattr(module, name), f"{face}.{name}"


def test_importing_the_engine_imports_no_pandas_plotly_or_streamlit():
    code = ("import sys, loaderlab, loaderlab.engine; "
            "print(sorted(m for m in ('pandas', 'plotly', 'streamlit') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_reading_a_saved_trace_imports_no_torch(tmp_path):
    # torch is ~185 MB and ~1.7 s to import: report, findings and export of a 10 M-event trace must fit in 1 GB
    from loaderlab import DataLoader, record, save_trace
    from tests.helpers.datasets import MapDataset
    path = tmp_path / "run.lltrace"
    save_trace(record(DataLoader(MapDataset(24), batch_size=4, num_workers=2), epochs=2), path)
    code = ("import contextlib, io, sys\n"
            "from loaderlab.cli import main\n"
            "from loaderlab.trace import all_findings, load_trace, report_text\n"
            f"path = {str(path)!r}\n"
            "frame = load_trace(path, compact=True)\n"
            "text = report_text(frame)\n"
            "all_findings(frame)\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    assert main(['report', path, '--no-suggestions']) == 0\n"
            f"    assert main(['export', path, '--chrome', {str(tmp_path / 'chrome.json')!r}]) == 0\n"
            "print(len(text) > 0, 'torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False"]
