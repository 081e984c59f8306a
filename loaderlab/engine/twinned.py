"""Which torch release the engine is the twin of, and the one warning when another is installed.

The engine follows torch 2.13's ``torch/utils/data`` line by line (signatures, messages, seeding). Tracing a
stock loader (``loaderlab run``, ``record``) and the analysis work on the torch the user has (2.11 to 2.13),
so LoaderLab installs beside a training environment's own torch instead of replacing it; only the engine's
promise of identical behaviour is tied to 2.13, and it says so once per process when the two differ.
Knows nothing of the trace or the dashboard.
"""

from __future__ import annotations

import warnings

TWINNED = "2.13"  # the torch release (major.minor) whose DataLoader the engine mirrors
_warned = False


def release(version: str) -> str:
    """``"2.11.0+cu126"`` → ``"2.11"``."""
    return ".".join(version.split("+")[0].split(".")[:2])


def warn_if_other_torch() -> None:
    """Once per process: a UserWarning when the installed torch is not the release the engine twins."""
    global _warned
    if _warned:
        return
    import torch

    _warned = True
    if release(torch.__version__) != TWINNED:
        warnings.warn(f"loaderlab's DataLoader is a twin of torch {TWINNED}'s, and this is torch {torch.__version__}: "
                      f"where the two releases differ, it behaves as torch {TWINNED} does. `loaderlab run` and "
                      f"`loaderlab.record` of your own torch DataLoader trace it as it is.", UserWarning, stacklevel=3)
