"""Class-level hooks on ``torch.utils.data.DataLoader``: every loader the job iterates goes through the job.

Twin of nothing in torch. ``__init__`` notes where each loader was made (the user's ``file:line``, and the
variable it was assigned to when that line says so; a library's re-creation of the user's loader keeps the
original's, :mod:`.origins`); ``__iter__`` hands the loader to the job, which returns
a traced iterator. Hooking the class (not the module attribute) covers ``from torch.utils.data import
DataLoader`` done before the hook and every subclass. In any other process (a worker, a process the script
forks) and after :func:`uninstall` the hooks call torch's own methods unchanged. Knows nothing of how a
loader is traced (:mod:`.traced`), of pandas, plotly or streamlit.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Callable

import torch.utils.data

from . import origins
from .origins import ORIGIN, SITE  # noqa: F401 - the loader's attributes, read through this module

_saved: dict[str, Any] = {}


def install(iterate: Callable[[Any, Callable], Any], active: Callable[[], bool]) -> None:
    """Hook the class: ``iterate(loader, original_iter)`` replaces ``iter(loader)`` while ``active()``."""
    cls = torch.utils.data.DataLoader
    if _saved:
        raise RuntimeError("loaderlab.jobs.patch is installed already")
    _saved.update(init=cls.__init__, iter=cls.__iter__)
    original_init, original_iter = cls.__init__, cls.__iter__

    def __init__(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        if active() and SITE not in self.__dict__:
            try:
                site, origin = origins.note(self, sys._getframe(1))
            except Exception:  # noqa: BLE001 - naming a loader must never break the user's script
                site, origin = ("?", 0, None), None
            # through __dict__: DataLoader.__setattr__ refuses some names once initialised
            self.__dict__[SITE] = site
            if origin is not None:
                self.__dict__[ORIGIN] = origin

    def __iter__(self):
        if not active():
            return original_iter(self)
        return iterate(self, original_iter)

    __init__.__wrapped__, __iter__.__wrapped__ = original_init, original_iter
    cls.__init__, cls.__iter__ = __init__, __iter__


def torch_iter(loader: Any) -> Any:
    """torch's own ``iter(loader)``, hooks or not (the job's traced clones are iterated so)."""
    return (_saved.get("iter") or torch.utils.data.DataLoader.__iter__)(loader)


def uninstall() -> None:
    if _saved:
        cls = torch.utils.data.DataLoader
        cls.__init__, cls.__iter__ = _saved.pop("init"), _saved.pop("iter")
    origins.forget()


def in_job_process(pid: int) -> bool:
    """True in the job's own process outside DataLoader workers (a worker or a forked child has another pid)."""
    return os.getpid() == pid and torch.utils.data.get_worker_info() is None
