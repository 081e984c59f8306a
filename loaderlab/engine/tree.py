"""Walking the nested containers a batch is made of.

Twin of nothing in torch (torch walks batches inside collate and pin_memory only). Knows nothing of
queues or tracing; the tracer uses it to say how many tensor bytes a batch carries.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import torch


def tree_nbytes(data: Any) -> int:
    """Bytes held by the tensors in ``data`` (a tensor, or mappings/sequences of them)."""
    if isinstance(data, torch.Tensor):
        return data.element_size() * data.nelement()
    if isinstance(data, (str, bytes)):
        return 0
    if isinstance(data, Mapping):
        return sum(tree_nbytes(v) for v in data.values())
    if isinstance(data, (list, tuple)):
        return sum(tree_nbytes(v) for v in data)
    return 0
