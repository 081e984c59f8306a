"""The public surface: a sorted ``__all__`` whose every name resolves (lazily imported ones too)."""

from __future__ import annotations

import subprocess
import sys

import loaderlab
import loaderlab.engine


def test_all_is_sorted_and_every_name_resolves():
    for module in (loaderlab, loaderlab.engine):
        assert module.__all__ == sorted(module.__all__)
        for name in module.__all__:
            assert getattr(module, name) is not None


def test_importing_the_engine_imports_no_pandas_plotly_or_streamlit():
    code = ("import sys, loaderlab, loaderlab.engine; "
            "print(sorted(m for m in ('pandas', 'plotly', 'streamlit') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
