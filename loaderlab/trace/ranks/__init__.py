"""Several ranks. No face: import a name from the module that defines it (a name is written once).

- :mod:`.launch` — launching a multi-rank recording and merging the ranks' traces on one clock (``record_ranks``);
- :mod:`.process` — what runs inside one rank process;
- :mod:`.analysis` — the tables and findings across ranks (samples two ranks both drew, padding, a forgotten
  ``set_epoch``).

Builds on :mod:`loaderlab.trace.core`, :mod:`loaderlab.trace.files`, :mod:`loaderlab.trace.recording` and
:mod:`loaderlab.trace.tables`; knows nothing of the diagnosis, plotly or streamlit.
"""
