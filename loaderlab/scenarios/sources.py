"""Where a run's labels and lengths come from: synthetic draws, the files in sample_data/, or an upload.

Twin of nothing in torch. Uploaded CSVs are checked here and every problem becomes one ``UploadError``
sentence that names the column and what is allowed. Knows nothing of plotly or streamlit (pandas only
to read CSV).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

import pandas as pd
import torch

from .limits import DEFAULTS, LimitError, limits

SAMPLE_DATA = Path(__file__).resolve().parents[2] / "sample_data"
try:  # LOADERLAB_MAX_SAMPLES (see .limits); a malformed value is reported by the sidebar, not at import
    MAX_UPLOAD_ROWS = limits().max_samples
except LimitError:
    MAX_UPLOAD_ROWS = DEFAULTS.max_samples
MAX_UPLOAD_BYTES = 5 * 1024 * 1024


class UploadError(ValueError):
    """An uploaded file LoaderLab cannot use; the message is one sentence for the user."""


def synthetic(n: int, share_of_zero: float, length: int, spread: int, seed: int) -> tuple[list[int], list[int]]:
    """``n`` labels (0 with probability ``share_of_zero``, else 1) and lengths in ``length ± spread``."""
    g = torch.Generator().manual_seed(seed)
    labels = (torch.rand(n, generator=g) >= share_of_zero).long().tolist()
    low = max(1, length - spread)
    lengths = torch.randint(low, length + spread + 1, (n,), generator=g).tolist()
    return labels, lengths


@lru_cache(maxsize=4)
def sample_file(source: str) -> tuple[list[int], list[int]]:
    """Labels (as class numbers, most frequent first) and lengths of a sample_data file."""
    if source == "stdlib_files":
        table = pd.read_csv(SAMPLE_DATA / "stdlib_files.csv")
        classes = list(table["label"].value_counts().index)
        labels = [classes.index(v) for v in table["label"]]
        # sizes in bytes → a length in kB (at least 1) so padding grids stay readable
        return labels, [max(1, int(v) // 1024) for v in table["length"]]
    if source == "stdlib_docstrings":
        table = pd.read_csv(SAMPLE_DATA / "stdlib_docstrings.csv")
        return [0] * len(table), [int(v) for v in table["length"]]
    raise ValueError(f"no sample file for source {source!r}")


def class_names(source: str) -> list[str]:
    if source == "stdlib_files":
        return list(pd.read_csv(SAMPLE_DATA / "stdlib_files.csv")["label"].value_counts().index)
    return []


def parse_upload(data: bytes, name: str = "the file") -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A CSV with a ``label`` column (whole numbers) and optionally ``length`` (positive whole numbers)."""
    if not data.strip():
        raise UploadError(f"{name} is empty; upload a CSV with a header row and a 'label' column.")
    if len(data) > MAX_UPLOAD_BYTES:
        raise UploadError(f"{name} is {len(data) / 1e6:.1f} MB; the limit is {MAX_UPLOAD_BYTES / 1e6:.0f} MB.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise UploadError(f"{name} is not UTF-8 text; save it as a UTF-8 CSV.") from None
    try:
        table = pd.read_csv(io.StringIO(text))
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        raise UploadError(f"{name} is not a readable CSV ({str(exc).splitlines()[0]}).") from None
    if "label" not in table.columns:
        raise UploadError(f"{name} has no 'label' column; its columns are {', '.join(map(str, table.columns))}.")
    if len(table) > MAX_UPLOAD_ROWS:
        raise UploadError(f"{name} has {len(table)} rows; the limit on this server is {MAX_UPLOAD_ROWS}.")
    labels = _whole_numbers(table["label"], "label", name, minimum=0)
    lengths = _whole_numbers(table["length"], "length", name, minimum=1) if "length" in table.columns \
        else tuple([8] * len(labels))
    return labels, lengths


def _whole_numbers(column: pd.Series, what: str, name: str, minimum: int) -> tuple[int, ...]:
    numbers = pd.to_numeric(column, errors="coerce")
    bad = column[numbers.isna() | (numbers % 1 != 0) | (numbers < minimum)]
    if len(bad):
        row = int(bad.index[0]) + 2  # +1 for the header, +1 for counting from 1
        raise UploadError(f"{name}: '{what}' must be whole numbers ≥ {minimum}; row {row} has '{bad.iloc[0]}'.")
    return tuple(int(v) for v in numbers)
