"""Starting ``python -m loaderlab run`` on a script in a subprocess, as a user would."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

TIMEOUT_S = 180


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def env(**extra: str) -> dict[str, str]:
    out = dict(os.environ, PYTHONUNBUFFERED="1", **extra)
    out.pop("WORLD_SIZE", None)
    out.pop("RANK", None)
    return out


def run(folder: Path, *args: str, **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loaderlab", "run", *args], cwd=folder, env=env(**extra),
                          capture_output=True, text=True, timeout=TIMEOUT_S)


def start(folder: Path, *args: str, **extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "loaderlab", "run", *args], cwd=folder, env=env(**extra),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ctrl_c_as_in_a_terminal)


def ctrl_c_as_in_a_terminal() -> None:
    """The job's SIGINT as a terminal gives it (Ctrl-C raises KeyboardInterrupt): a suite started in the
    background by a shell without job control inherits SIGINT ignored, and Python then never installs its
    KeyboardInterrupt handler, so a test's Ctrl-C would be lost."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def cli(folder: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loaderlab", *args], cwd=folder, env=env(),
                          capture_output=True, text=True, timeout=TIMEOUT_S)


def read_until(stream, prefix: str) -> str:
    """Lines of ``stream`` until one starts with ``prefix`` (that line); '' at end of stream."""
    for line in stream:
        if line.startswith(prefix):
            return line
    return ""
