"""How a LoaderLab package shows its public names: a sorted ``__all__``, each name imported on first use.

Twin of nothing in torch. A package's ``__init__`` is its face: it says where each public name lives
(``{"record": ".recorder"}``) and :func:`lazy_face` gives it the module ``__getattr__`` and ``__dir__``
(PEP 562) that import a name's module when the name is first asked for, then keep the value. So reading a
saved trace imports no torch (~185 MB), a spawned worker imports only what it unpickles, and callers still
write ``from loaderlab.trace import load_trace``. A home that names the module itself (``{"kinds": ".kinds"}``)
hands out that module: a namespace of constants. Knows nothing of what the names are.
"""

from __future__ import annotations

import sys
from importlib import import_module
from typing import Any, Callable, Mapping

__all__ = ["lazy_face"]


def lazy_face(package: str, homes: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``, whose public names live in ``homes`` (name → module,
    relative to the package)."""

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = import_module(home, package)
        value = module if module.__name__.rsplit(".", 1)[-1] == name else getattr(module, name)
        setattr(sys.modules[package], name, value)  # once: later lookups are plain attribute reads
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *homes})

    return __getattr__, __dir__
