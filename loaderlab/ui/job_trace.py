"""A trace of ``python -m loaderlab run`` on the dashboard: pick one of the job's DataLoaders.

Twin of nothing in torch. A job's trace holds every DataLoader the script iterated (a ``loader`` column);
the views read one loader's events at a time, or their batch numbers would mix, so a trace with several
gets a choice (:func:`loaderlab.jobs.read.select_loader` does the cut). Knows streamlit and the page's
words; computes nothing itself.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from ..jobs.read import LOADER, loader_names, normalize, select_loader
from .texts import t


@st.cache_resource(max_entries=2, show_spinner=False)
def _selected(token: str, name: str | None, _frame: pd.DataFrame) -> pd.DataFrame:
    """The job's events in time order (chunks are written as they arrive), or one loader's cut; made once
    per trace and loader (a big trace's sort and filter are not free)."""
    cut = normalize(_frame) if name is None else select_loader(normalize(_frame), name)
    out = cut.drop(columns=[LOADER])  # one loader's events: the page's tables and downloads know no such column
    out.attrs = dict(cut.attrs)
    return out


def pick_loader(frame: pd.DataFrame, key: str, token: str) -> tuple[pd.DataFrame, str]:
    """``(the chosen loader's events, a suffix naming it for the caches)``; a trace of one loader (its
    settings are the trace's own) or of ``record`` comes back as it is."""
    if "job" not in frame.attrs:  # a trace of `record`
        return frame, ""
    names = loader_names(frame)
    if len(names) < 2:  # its one loader's own attrs too (its tuning, its threads), as the report reads them
        return _selected(token, names[0] if names else None, frame), ""
    sites = {name: ((frame.attrs.get("loaders") or {}).get(name) or {}).get("site", "?") for name in names}
    name = st.selectbox(t("jobs.loader"), names, key=key, help=t("jobs.loader.help", n=len(names)),
                        format_func=lambda n: t("jobs.loader.option", name=n, site=sites[n]))
    return _selected(token, name, frame), f":{name}"
