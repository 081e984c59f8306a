"""Export: a trace as Chrome / Perfetto trace-event JSON (one track per process, spans, flows and waits).

No face: import a name from the module that defines it. :mod:`.chrome` — ``to_chrome_trace``,
``save_chrome_trace``; :mod:`.chrome_events` — the events as columns; :mod:`.chrome_text` — their JSON text.

Builds on :mod:`loaderlab.trace.core` and :mod:`loaderlab.trace.files`; knows nothing of plotly or streamlit.
"""
