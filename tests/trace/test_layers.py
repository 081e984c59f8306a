"""The trace layer's shape: sub-packages whose imports run one way, callers outside it that come in through the
faces, and no private name taken across modules anywhere in loaderlab (issue 27)."""

from __future__ import annotations

import ast
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]
# Each sub-package may import only those before it (core at the bottom); texts is below the whole trace layer.
ORDER = ["core", "files", "recording", "tables", "ranks", "diagnosis", "rerun", "export"]


def _modules(*tops: str) -> dict[str, Path]:
    out = {}
    for top in tops:
        base = REPO / top
        paths = [base] if base.suffix == ".py" else sorted(base.rglob("*.py"))
        for path in paths:
            name = ".".join(path.relative_to(REPO).with_suffix("").parts)
            out[name.removesuffix(".__init__")] = path
    return out


def _imports(name: str, path: Path) -> list[tuple[str, str, int]]:
    """(module imported from, name imported, line) for every ``from … import`` in the file, relative ones resolved."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            out += [(base, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [(alias.name, "", node.lineno) for alias in node.names]
    return out


def _sub_package(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[:2] == ["loaderlab", "trace"] else None


def test_the_sub_packages_import_one_way():
    wrong = []
    for name, path in _modules("loaderlab/trace").items():
        mine = _sub_package(name)
        if mine is None:
            continue
        for base, _, line in _imports(name, path):
            theirs = _sub_package(base)
            if theirs is not None and theirs != mine and ORDER.index(theirs) > ORDER.index(mine):
                wrong.append(f"{path.relative_to(REPO)}:{line}: {mine} imports {theirs}")
    assert wrong == []


def test_the_words_know_nothing_of_the_trace_layer():
    for name, path in _modules("loaderlab/texts").items():
        assert not [base for base, _, _ in _imports(name, path) if base.startswith("loaderlab.trace")], name


def test_code_outside_the_trace_layer_comes_in_through_its_faces():
    # tests may reach a module to test it; the product's code asks the faces
    faces = {"loaderlab.trace", *(f"loaderlab.trace.{name}" for name in ORDER)}
    wrong = []
    for name, path in _modules("loaderlab", "pages", "benchmarks", "app.py").items():
        if name.startswith("loaderlab.trace"):
            continue
        for base, imported, line in _imports(name, path):
            if base.startswith("loaderlab.trace") and base not in faces:
                wrong.append(f"{path.relative_to(REPO)}:{line}: from {base} import {imported}")
            elif base in faces and f"{base}.{imported}" in _modules("loaderlab") and imported != "kinds":
                wrong.append(f"{path.relative_to(REPO)}:{line}: the module {base}.{imported}")
    assert wrong == []


def test_no_module_takes_another_modules_private_name():
    taken = [f"{path.relative_to(REPO)}:{line}: {imported} from {base}"
             for name, path in _modules("loaderlab").items()
             for base, imported, line in _imports(name, path)
             if base.startswith("loaderlab") and imported.startswith("_") and not imported.startswith("__")]
    assert taken == []
