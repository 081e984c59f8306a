"""The engine twins torch 2.13 and says so once when another release is installed (issue 25, item 7)."""

from __future__ import annotations

import warnings

import pytest
import torch

import loaderlab
from loaderlab.engine import twinned


@pytest.fixture
def fresh_warning(monkeypatch):
    monkeypatch.setattr(twinned, "_warned", False)


def test_another_torch_release_is_said_once_per_process(monkeypatch, fresh_warning):
    monkeypatch.setattr(torch, "__version__", "2.11.0+cu126")
    with pytest.warns(UserWarning, match=r"twin of torch 2\.13's, and this is torch 2\.11\.0\+cu126") as caught:
        loaderlab.DataLoader(list(range(4)), batch_size=2)
        loaderlab.DataLoader(list(range(4)), batch_size=2)
    assert len([w for w in caught if "twin of torch" in str(w.message)]) == 1


def test_the_twinned_release_says_nothing(monkeypatch, fresh_warning):
    monkeypatch.setattr(torch, "__version__", "2.13.0+cpu")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        loaderlab.DataLoader(list(range(4)), batch_size=2)


def test_release_reads_major_and_minor():
    assert [twinned.release(v) for v in ("2.13.0", "2.11.0+cu126", "2.14.1")] == ["2.13", "2.11", "2.14"]
