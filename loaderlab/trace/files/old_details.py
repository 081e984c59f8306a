"""Old trace files → today's table: files recorded before events had typed fields (trace format version 1),
or before the queue's worker and the sampler's epoch were typed. :mod:`.io` applies it as it reads a file.

Twin of nothing in torch. Knows the event vocabulary of :mod:`loaderlab.engine.events` and the texts that
old engines wrote into ``detail``; knows nothing of how traces are stored, of plotly or of streamlit. It lives
with the files (not in :mod:`loaderlab.trace.core`) because only a file can be that old: a recording and a
hand-built table without typed fields get their defaults from :func:`loaderlab.trace.core.lookups.normal`.
"""

from __future__ import annotations

import ast
import re

import numpy as np
import pandas as pd

from ...engine import events as ev
from ..core.frame import EVENT_COLUMNS, TYPED_COLUMNS

_NUMBER = {  # kind → the one number its old ``detail`` carried, as a regex
    ev.WORKER_START: r"^pid=(-?\d+)$", ev.WORKER_READY: r"^seed=(-?\d+)$", ev.REORDER_PARK: r"^waiting for task (-?\d+)$",
    ev.BATCH_YIELD: r"^task (-?\d+)$", ev.FETCH_BEGIN: r"^__getitems__ (\d+)$", ev.FETCH_END: r"^__getitems__ (\d+)$",
}
_KEEP_TEXT = (ev.BATCH_YIELD,)  # still written: "task N" names the task for people reading the table
_MEMORY = r"^pid=(-?\d+) uss=(-?\d+) shm_used=(\d+) shm_total=(\d+)$"
_UNSENT = "unsent result: "  # how version-1 traces marked an error whose batch could not be sent


def _old_indices(detail: str) -> tuple[list | None, int]:
    try:
        value = ast.literal_eval(detail)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None, ev.NO_ARG
    return ev.index_list(value)


_QUEUED = (ev.INDEX_PUT, ev.INDEX_GET)
_SAMPLER_EPOCH = "sampler.epoch="  # how `loaderlab run` wrote a stock sampler's own epoch, before epoch_begin's arg0


def numbered(frame: pd.DataFrame) -> pd.DataFrame:
    """A table whose ``index_put`` / ``index_get`` do not say their queue's worker in ``arg0``, or whose
    ``epoch_begin`` names the sampler's epoch as ``sampler.epoch=N`` text (files written before those were typed)
    → the same numbers in ``arg0``. Returns the frame itself when there is nothing to move (every file written
    since), else a new frame."""
    if not len(frame) or "arg0" not in frame.columns:
        return frame
    kind = frame["kind"]
    queued = np.flatnonzero(kind.isin(_QUEUED).to_numpy() & (frame["arg0"] == ev.NO_ARG).to_numpy())
    begins = np.flatnonzero((kind == ev.EPOCH_BEGIN).to_numpy())
    said = frame["detail"].iloc[begins].astype(str) if "detail" in frame.columns else pd.Series([], dtype=str)
    told = begins[said.str.startswith(_SAMPLER_EPOCH).to_numpy()] if len(said) else begins[:0]
    if not len(queued) and not len(told):
        return frame
    f = frame.copy()
    arg0 = f["arg0"].to_numpy(dtype="int64").copy()
    number = pd.to_numeric(f["queue"].iloc[queued].astype(str).str.extract(r"^index_queue\[(\d+)\]$")[0],
                           errors="coerce")
    found = number.notna().to_numpy()
    arg0[queued[found]] = number[found].astype("int64").to_numpy()
    if len(told):
        own = pd.to_numeric(f["detail"].iloc[told].astype(str).str.slice(len(_SAMPLER_EPOCH)), errors="coerce")
        ok = own.notna().to_numpy()
        arg0[told[ok]] = own[ok].astype("int64").to_numpy()
        if isinstance(f["detail"].dtype, pd.CategoricalDtype) and "" not in f["detail"].cat.categories:
            f["detail"] = f["detail"].cat.add_categories([""])
        f.loc[f.index[told[ok]], "detail"] = ""
    f["arg0"] = pd.Series(arg0, index=f.index).astype(f["arg0"].dtype)
    return f


def from_details(frame: pd.DataFrame) -> pd.DataFrame:
    """A table recorded before events had typed fields → today's table: the numbers that old engines wrote
    into ``detail`` (``repr(indices)``, ``seed=…``, ``pid=…``, ``exitcode=…``, ``__getitems__ N``, the
    memory sample, the ``unsent result:`` prefix…) moved into ``arg0..arg3`` / ``indices``, and ``detail``
    left with free text only. The one place that knows those old strings; a table that already has the
    typed columns is returned as it is. Returns a new frame (``attrs`` kept)."""
    if all(c in frame.columns for c in TYPED_COLUMNS):
        return frame
    f = frame.copy()
    n = len(f)
    kind = f["kind"].to_numpy(dtype=object) if n else np.array([], dtype=object)
    detail = f["detail"].fillna("").astype(str) if "detail" in f.columns else pd.Series([""] * n, index=f.index)
    args = {c: np.full(n, ev.NO_ARG, dtype="int64") for c in ("arg0", "arg1", "arg2", "arg3")}
    clear = np.zeros(n, dtype=bool)
    for k, pattern in _NUMBER.items():
        at = kind == k
        if not at.any():
            continue
        number = pd.to_numeric(detail[at].str.extract(pattern)[0], errors="coerce")
        found = number.notna().to_numpy()
        rows = np.flatnonzero(at)[found]
        args["arg0"][rows] = number[found].astype("int64").to_numpy()
        if k not in _KEEP_TEXT:
            clear[rows] = True
    for k in (ev.FETCH_BEGIN, ev.FETCH_END):  # one sample's fetch: 1 (0 for a sample that raised)
        one = (kind == k) & (args["arg0"] == ev.NO_ARG)
        args["arg0"][one] = 1 if k == ev.FETCH_BEGIN else (detail[one] == "").astype("int64").to_numpy()
    exits = np.flatnonzero(kind == ev.WORKER_EXIT)
    for row in exits:
        code = re.match(r"^exitcode=(-?\d+|None)$", detail.iat[row])
        if code:
            args["arg0"][row] = ev.NO_EXITCODE if code[1] == "None" else int(code[1])
            clear[row] = True
    for row in np.flatnonzero(kind == ev.MEMORY):
        m = re.match(_MEMORY, detail.iat[row])
        if m:
            for c, value in zip(("arg0", "arg1", "arg2", "arg3"), m.groups()):
                args[c][row] = int(value)
            clear[row] = True
    text = detail.to_numpy(dtype=object).copy()
    for row in np.flatnonzero(kind == ev.ERROR):
        d = text[row]
        if d.startswith(_UNSENT):
            args["arg0"][row], text[row] = ev.CAUSE_UNSENT, d[len(_UNSENT):]
        elif d == "timeout":
            args["arg0"][row] = ev.CAUSE_TIMEOUT
        elif d.startswith("DataLoader worker (pid"):
            args["arg0"][row] = ev.CAUSE_WORKER_DIED
        elif re.match(r"^worker \d+: \w+$", d):
            args["arg0"][row] = ev.CAUSE_WORKER_FAILED
        else:
            args["arg0"][row] = ev.CAUSE_EXCEPTION
    indices = np.full(n, None, dtype=object)
    for row in np.flatnonzero(kind == ev.SAMPLER_YIELD):
        indices[row], args["arg0"][row] = _old_indices(text[row])
        clear[row] = True
    text[clear] = ""
    if "detail" in f.columns:
        f["detail"] = text
    for c, values in args.items():
        f[c] = values
    f["indices"] = indices
    order = [c for c in EVENT_COLUMNS if c in f.columns] + [c for c in f.columns if c not in EVENT_COLUMNS]
    return numbered(f[order])
