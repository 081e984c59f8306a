"""The trace layer's shape: sub-packages whose imports run one way, one face (``loaderlab.trace``) and names
imported from the modules that define them (issue 36), and no private name taken across modules anywhere in
loaderlab (issue 27)."""

from __future__ import annotations

import ast
import importlib
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


def test_a_name_is_imported_from_the_module_that_defines_it_or_from_the_trace_face():
    # the sub-packages have no faces: an import from one names its modules (``from ..core import kinds``), never a
    # name its __init__ would have to repeat
    packages = {f"loaderlab.trace.{name}" for name in ORDER}
    modules = _modules("loaderlab")
    wrong = []
    for name, path in _modules("loaderlab", "pages", "benchmarks", "tests", "app.py").items():
        for base, imported, line in _imports(name, path):
            if base in packages and f"{base}.{imported}" not in modules:
                wrong.append(f"{path.relative_to(REPO)}:{line}: {imported} from {base}")
    assert wrong == []


def test_only_the_trace_layer_itself_has_a_face():
    faced = [name for name in ORDER
             if {"__all__", "__getattr__", "_HOMES"} & set(vars(importlib.import_module(f"loaderlab.trace.{name}")))]
    assert faced == []
    face = importlib.import_module("loaderlab.trace")
    for public in face.__all__:  # each home is the module that defines the name, not a re-export
        value = getattr(face, public)
        home = face._HOMES[public]
        assert getattr(value, "__module__", f"loaderlab.trace{home}") == f"loaderlab.trace{home}", public


def test_no_module_takes_another_modules_private_name():
    taken = [f"{path.relative_to(REPO)}:{line}: {imported} from {base}"
             for name, path in _modules("loaderlab").items()
             for base, imported, line in _imports(name, path)
             if base.startswith("loaderlab") and imported.startswith("_") and not imported.startswith("__")]
    assert taken == []
