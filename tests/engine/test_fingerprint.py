"""A sample's content fingerprint (loaderlab.engine.fingerprint): equal content, equal fingerprint; different
content, a different one; what it cannot read, none (-1), never a guess."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from loaderlab.engine import events as ev, fingerprint as fp
from loaderlab.engine.fingerprint import fingerprint


def test_equal_samples_of_every_shape_get_equal_fingerprints():
    x = torch.arange(12.0).reshape(3, 4)
    for make in (lambda: x.clone(), lambda: (x.clone(), 1), lambda: {"x": x.clone(), "label": "cat"},
                 lambda: [x.clone(), np.arange(3), 2.5, None, b"ab"], lambda: 7, lambda: "a record"):
        a, b = fingerprint(make()), fingerprint(make())
        assert a == b and a >= 0


def test_a_different_value_dtype_shape_label_or_key_changes_it():
    x = torch.arange(12.0).reshape(3, 4)
    samples = [x, x + 1, x.double(), x.reshape(4, 3), x.reshape(12), (x, 1), (x, 2), [x, 1], {"x": x, "label": 1},
               {"y": x, "label": 1}, 1, True, 1.0, "1", np.arange(12.0).reshape(3, 4)]
    prints = [fingerprint(s) for s in samples]
    assert len(set(prints)) == len(samples)


def test_views_hash_their_values():
    x = torch.arange(12.0).reshape(3, 4)
    assert fingerprint(x.t()) == fingerprint(x.t().contiguous())
    assert fingerprint(torch.ones(2, requires_grad=True)) == fingerprint(torch.ones(2))
    z = torch.tensor([1 + 2j, 3 - 1j])
    assert fingerprint(z.conj()) == fingerprint(z.conj().resolve_conj())
    assert fingerprint(torch.ones(3, dtype=torch.bfloat16)) != fingerprint(torch.zeros(3, dtype=torch.bfloat16))


def test_a_big_tensor_is_hashed_in_evenly_spaced_pieces():
    big = torch.zeros(fp.FULL_BYTES)  # 4 bytes each: above FULL_BYTES
    first, last, between = big.clone(), big.clone(), big.clone()
    first[0], last[-1] = 1, 1
    between.view(torch.uint8)[fp.CHUNK_BYTES + 1] = 1  # inside no piece: the first ends at CHUNK_BYTES
    assert fingerprint(first) != fingerprint(big) != fingerprint(last)
    assert fingerprint(between) == fingerprint(big)  # the price of a bounded cost, written in the docstring


@pytest.mark.parametrize("sample", [object(), torch.zeros(3).to_sparse(), np.array([object()]),
                                    (torch.zeros(2), object())])
def test_what_it_cannot_read_gets_no_fingerprint(sample):
    assert fingerprint(sample) == ev.NO_ARG
