"""Run torch's own DataLoader tests against LoaderLab: swap the class in every Python process.

Put this directory on ``PYTHONPATH``; Python imports ``sitecustomize`` at start-up, so the swap reaches the
test process, its spawn/forkserver children and the tests' ``python -c`` subprocesses alike.

``LOADERLAB_SUITE_MODE``:
  ``twin``  (default) ``torch.utils.data.DataLoader`` and ``torch.utils.data.dataloader.DataLoader`` become
            ``loaderlab.DataLoader`` as soon as ``torch.utils.data`` has been imported;
  ``stock`` torch's own class stays; only the construction log below is added.
``LOADERLAB_SUITE_LOG``: a file; every DataLoader construction appends one line ``mode<TAB>test id`` (the test
id is pytest's ``PYTEST_CURRENT_TEST``, which child processes inherit). ``compare.py`` uses it to find the
tests that build a DataLoader. Nothing else is changed, in either mode.
"""

from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys

_MODE = os.environ.get("LOADERLAB_SUITE_MODE", "twin")
_LOG = os.environ.get("LOADERLAB_SUITE_LOG")
_TARGET = "torch.utils.data"


def _log_constructions(cls) -> None:
    """Append a line to the log on every ``cls(...)``; the constructor itself runs unchanged."""
    if not _LOG or getattr(cls.__init__, "_suite_logged", False):
        return
    original = cls.__init__

    def __init__(self, *args, **kwargs):
        test = os.environ.get("PYTEST_CURRENT_TEST", "?").rsplit(" (", 1)[0]
        with open(_LOG, "a") as log:
            log.write(f"{_MODE}\t{test}\n")
        original(self, *args, **kwargs)

    __init__._suite_logged = True
    __init__.__wrapped__ = original
    cls.__init__ = __init__


def _install() -> None:
    data = sys.modules[_TARGET]
    if _MODE == "twin":
        from loaderlab.engine.loader import DataLoader  # torch.utils.data is complete by now

        data.DataLoader = DataLoader
        data.dataloader.DataLoader = DataLoader
    _log_constructions(data.DataLoader)


def _after_torch_data() -> None:
    # A spawn child unpickles its target first, so `import loaderlab` may be what imported torch: then
    # loaderlab is half-imported here, and the swap waits until its DataLoader module has run.
    if _MODE == "twin" and "loaderlab" in sys.modules and "loaderlab.engine.loader" not in sys.modules:
        sys.meta_path.insert(0, _AfterImport("loaderlab.engine.loader", _install))
    else:
        _install()


class _AfterImport(importlib.abc.MetaPathFinder):
    """Lets module ``name`` load as usual, then runs ``then()`` before anyone can import from it."""

    def __init__(self, name: str, then) -> None:
        self.name, self.then = name, then

    def find_spec(self, name, path=None, target=None):
        if name != self.name:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        exec_module = spec.loader.exec_module

        def exec_then(module):
            exec_module(module)
            self.then()

        spec.loader.exec_module = exec_then
        return spec


if _MODE in ("twin", "stock"):
    if _TARGET in sys.modules:
        _after_torch_data()
    else:
        sys.meta_path.insert(0, _AfterImport(_TARGET, _after_torch_data))
