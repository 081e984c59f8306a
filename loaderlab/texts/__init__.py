"""The words LoaderLab prints outside the dashboard's pages — the findings', the diagnosis's and the report's —
each key's English and Korean side by side, and the one way every text table is written, checked and looked
up (:mod:`.wording`; the pages' own tables in :mod:`loaderlab.ui.texts` follow it too).

Knows nothing of how findings are found, of streamlit or of plotly.
"""

from ..faces import lazy_face

_HOMES = {
    "LANGUAGES": ".wording",
    "by_language": ".wording",
    "check": ".wording",
    "lookup": ".wording",
    "plural": ".wording",
    "EN": ".words",
    "WORDS": ".words",
    "render": ".words",
    "text": ".words",
}

__all__ = sorted(_HOMES)
__getattr__, __dir__ = lazy_face(__name__, _HOMES)
