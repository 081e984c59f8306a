"""The two sides of every differential test: torch's ``torch.utils.data`` and ours.

Set ``LOADERLAB_TEST_SELF=torch`` to put torch on both sides: every differential test must then pass,
which checks the tests themselves.
"""

from __future__ import annotations

import importlib
import os

import torch.utils.data as TORCH

SELF_TEST = os.environ.get("LOADERLAB_TEST_SELF") == "torch"
OURS = TORCH if SELF_TEST else importlib.import_module("loaderlab")
