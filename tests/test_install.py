"""LoaderLab is an installable package: the command line works from any folder, not only the repository root.

The README's commands install ``requirements.txt``, whose last line is ``-e .``: the package itself with its
declared dependencies. These tests run the installed command from a folder outside the repository with no
PYTHONPATH, and build the wheel a ``pip install <path>`` would install.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

FACTORY = '''
import torch
from torch.utils.data import DataLoader


def make():
    return DataLoader(list(range(12)), batch_size=4, num_workers=1)
'''


def _outside_env() -> dict:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # pytest's own pythonpath must not be what makes the import work
    return env


def test_the_command_line_runs_from_a_folder_outside_the_repository(tmp_path):
    (tmp_path / "job.py").write_text(FACTORY)
    script = Path(sys.executable).with_name("loaderlab")
    assert script.exists(), "the `loaderlab` console script is not installed: run the README's install command"
    done = subprocess.run([str(script), "record", "job.py:make", "-o", "t.json", "--epochs", "1"],
                          cwd=tmp_path, env=_outside_env(), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    report = subprocess.run([sys.executable, "-m", "loaderlab", "report", "t.json"], cwd=tmp_path,
                            env=_outside_env(), capture_output=True, text=True, timeout=120)
    assert report.returncode == 0, report.stderr
    assert "batches" in report.stdout.lower()


@pytest.mark.slow
def test_the_wheel_holds_every_subpackage_and_declares_its_dependencies(tmp_path):
    # setuptools builds in the source folder (./build): build a copy so the checkout stays clean.
    source = tmp_path / "src"
    shutil.copytree(REPO, source, ignore=shutil.ignore_patterns(".venv", ".git", "tests", "build", "*.egg-info",
                                                                "__pycache__"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                            "-w", str(tmp_path), str(source)], capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("loaderlab-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    packages = {str(p.parent.relative_to(REPO)) for p in (REPO / "loaderlab").rglob("__init__.py")}
    assert packages <= {str(Path(n).parent) for n in names}
    metadata = next(n for n in names if n.endswith("METADATA"))
    requires = [line for line in zipfile.ZipFile(wheel).read(metadata).decode().splitlines()
                if line.startswith("Requires-Dist:")]
    assert "Requires-Dist: torch<2.14,>=2.11" in requires  # a training environment keeps its own torch
    assert {re.split(r"[<>=!~;]", r.split()[1])[0] for r in requires} >= {"torch", "streamlit", "plotly", "pandas",
                                                                          "numpy"}
    entry = next(n for n in names if n.endswith("entry_points.txt"))
    assert "loaderlab = loaderlab.cli:main" in zipfile.ZipFile(wheel).read(entry).decode()
