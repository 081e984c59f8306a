"""From events to answers: recording runs, tidy pandas tables, and files.

Depends on :mod:`loaderlab.engine` (for the event vocabulary) and pandas; knows nothing of plotly or
streamlit.
"""
