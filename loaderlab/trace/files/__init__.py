"""Trace files: a trace saved and loaded as JSON or as the columnar ``.lltrace`` file (written while a job
runs, read back whole, as a compact table, or cut to a window), and the meaning of their bytes.

No face: import a name from the module that defines it (a name is written once).

- :mod:`.io` — ``save_trace``, ``load_trace``, ``load_trace_bytes``, ``trace_document``;
- :mod:`.columnar`, :mod:`.columnar_read`, :mod:`.compact` — writing and reading ``.lltrace`` (``TraceWriter``,
  ``read_columnar``, ``TraceFileError``);
- :mod:`.cuts`, :mod:`.cut_read` — which rows a time window keeps, and reading only those;
- :mod:`.old_details` — an old file's text turned into today's typed fields as it is read.

Builds on :mod:`loaderlab.trace.core`; knows nothing of recording, analysis, plotly or streamlit.
"""
