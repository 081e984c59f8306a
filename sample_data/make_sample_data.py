"""Rebuild the files in sample_data/ from the CPython standard library on this machine.

Run: ``python sample_data/make_sample_data.py /path/to/lib/python3.11`` (defaults to this interpreter's).
Deterministic for a given CPython build: rows are sorted by path / module name.
"""

from __future__ import annotations

import ast
import csv
import sys
import sysconfig
from pathlib import Path

HERE = Path(__file__).resolve().parent


def file_rows(lib: Path):
    for path in sorted(lib.rglob("*")):
        rel = path.relative_to(lib)
        if not path.is_file() or rel.parts[0] in ("site-packages", "test") or "__pycache__" in rel.parts:
            continue
        label = "python" if path.suffix == ".py" else "extension" if path.suffix == ".so" else "other"
        yield {"path": rel.as_posix(), "label": label, "length": path.stat().st_size}


def docstring_rows(lib: Path):
    for path in sorted(lib.glob("*.py")):
        try:
            doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        except (SyntaxError, UnicodeDecodeError):
            continue
        if doc:
            text = " ".join(doc.split("\n\n")[0].split())
            yield {"module": path.stem, "text": text, "length": len(text.split())}


def write(name: str, rows) -> None:
    rows = list(rows)
    with open(HERE / name, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"{name}: {len(rows)} rows")


if __name__ == "__main__":
    lib = Path(sys.argv[1] if len(sys.argv) > 1 else sysconfig.get_paths()["stdlib"])
    write("stdlib_files.csv", file_rows(lib))
    write("stdlib_docstrings.csv", docstring_rows(lib))
